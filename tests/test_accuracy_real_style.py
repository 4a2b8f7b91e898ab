"""Answers written the way real models answer (GPT-4, Qwen, Llama, ChatGLM, web-search chat
models; Chinese and English), one labelled set per answer kind in ``tests/data/accuracy_real_*``,
each case marked with the class of reading mistake it checks (``category``: ``c1`` core of a
stated sentence, ``c2`` several accepted answers, ``c3`` citation markers, ``c4`` hedge words in
titles, ``c5`` dictation and prompt markup, ``c6`` invented continuations, ``c7`` echoed format
examples, ``c8`` two answers or an undecided conclusion, ``c9`` the committed answer after
"but" and "no evidence that X", ``cC`` a choice answered by its option's content, ``cW`` the
option declared wrong in a "which is wrong" question, ``cL`` a label written with a variant),
negatives included (``expected`` 0: no credit).

The cases today's reader gets wrong are listed in ``tests/data/accuracy_real_misses.txt`` and run
as ``xfail(strict=True)``: a rule that fixes one turns its test into a failure until its line is
deleted there, so the list only shrinks with real fixes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import xpert_frames as xf
from tests.helpers import labelled_params
from xpert_frames.core.frames import CHOICE_DTYPE

DATA = Path(__file__).parent / "data"
KINDS = ("text", "judge", "label", "number", "choice")
CATEGORIES = {"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "cC", "cW", "cL"}


def _cases() -> list[dict[str, Any]]:
    rows = []
    for kind in KINDS:
        path = DATA / f"accuracy_real_{kind}.jsonl"
        rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return rows


def _misses() -> set[str]:
    lines = (DATA / "accuracy_real_misses.txt").read_text(encoding="utf-8").splitlines()
    return {line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()}


CASES = _cases()
MISSES = _misses()


def _choices(raw: list[Any] | None) -> list[dict[str, str | None]] | None:
    if raw is None:
        return None
    return [c if isinstance(c, dict) else {"id": c, "content": None} for c in raw]


@pytest.fixture(scope="module")
def scored() -> dict[str, tuple[float | None, str | None, str | None]]:
    """Every case scored once: id -> (score, extracted, rule)."""
    frame = pl.DataFrame(
        {
            "prediction": [c["prediction"] for c in CASES],
            "answer": pl.Series(
                [a if isinstance(a, list) else [a] for a in (c["answer"] for c in CASES)],
                dtype=pl.List(pl.String),
            ),
            "answer_type": [c["answer_type"] for c in CASES],
            "choices": pl.Series([_choices(c["choices"]) for c in CASES], dtype=CHOICE_DTYPE),
        }
    )
    out = xf.score(frame, ["accuracy"])
    return {
        c["id"]: row
        for c, row in zip(
            CASES,
            out.select("accuracy_score", "accuracy_extracted", "accuracy_rule").iter_rows(),
            strict=True,
        )
    }


def test_the_sets_are_well_formed() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 120
    assert {c["category"] for c in CASES} == CATEGORIES
    assert all(c["expected"] in (0, 1) for c in CASES)
    assert sum(c["expected"] == 0 for c in CASES) >= 40  # negatives: no credit
    assert set(ids) >= MISSES, sorted(MISSES - set(ids))  # no stale line in the misses list
    for category in CATEGORIES:  # Chinese and English where the class has both
        chinese = [any("\u4e00" <= ch <= "\u9fff" for ch in c["prediction"]) for c in CASES]
        kinds = {z for c, z in zip(CASES, chinese, strict=True) if c["category"] == category}
        assert kinds == {True, False} or category in {"cL", "cW"}, category


@pytest.mark.parametrize("case", labelled_params(CASES, MISSES))
def test_case(case: dict[str, Any], scored: dict[str, tuple[Any, Any, Any]]) -> None:
    score, extracted, rule = scored[case["id"]]
    got = 1 if score == 1.0 else 0
    assert got == case["expected"], (case["prediction"], case["answer"], extracted, rule)


def test_rule_names_the_reader_on_wrong_answers_too() -> None:
    frame = pl.DataFrame(
        {"prediction": ["答案是上海", "The answer is Rome."], "answer": ["北京", "Paris"]}
    )
    out = xf.score(frame, ["accuracy"])
    assert out["accuracy_score"].to_list() == [0.0, 0.0]
    assert "none" not in out["accuracy_rule"].to_list()


def _summary() -> None:
    """Agreement per answer kind and class, and false credits (``python -m
    tests.test_accuracy_real_style`` from the repository root)."""
    got = scored.__wrapped__()  # type: ignore[attr-defined]
    table: dict[tuple[str, str], list[int]] = {}
    for c in CASES:
        ok = (1 if got[c["id"]][0] == 1.0 else 0) == c["expected"]
        false = got[c["id"]][0] == 1.0 and c["expected"] == 0
        row = table.setdefault((c["id"].split("-")[0], c["category"]), [0, 0, 0])
        row[0], row[1], row[2] = row[0] + ok, row[1] + 1, row[2] + false
    for (kind, category), (agree, n, false) in table.items():
        print(f"{kind:7s} {category:3s} {agree:3d}/{n:<3d} false credit {false}")
    agree, n, false = (sum(v[i] for v in table.values()) for i in range(3))
    print(f"total {agree}/{n} = {agree / n:.4f}, false credit {false}")


if __name__ == "__main__":
    _summary()
