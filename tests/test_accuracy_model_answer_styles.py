"""Answers in the styles real models answer in that the other labelled sets do not cover
(``tests/data/accuracy_blind_models.jsonl``, Chinese and English, written before the rules that
read them): the answer stated after an opening remark, refusals and hedges, Chinese conclusions
(故选, 综上, 答案为), Markdown bold, tables and lists, full-width letters, several options and
"none of the above", which-is-NOT questions, "no evidence against X", invented further questions
without a ``Q:`` head, a year after a month name, powers written in TeX, labels. About half the
cases are negatives (``expected`` 0: no credit). ``accuracy_model_answers_more.jsonl`` holds
cases of the same kind written after those rules (bracketed option lists, bold negations,
"not sure, but I think", refusals, tables).

The cases the reader gets wrong are listed in ``tests/data/accuracy_blind_misses.txt`` and run as
``xfail(strict=True)``: a rule that fixes one turns its test into a failure until its line is
deleted there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import xpert_frames as xf
from tests.helpers import labelled_params
from tests.oracles import accuracy as oracle
from xpert_frames.core.frames import CHOICE_DTYPE

DATA = Path(__file__).parent / "data"
#: Written before the rules that read them (the blind set), then cases written after (more).
SETS = ("accuracy_blind_models.jsonl", "accuracy_model_answers_more.jsonl")
CASES = [
    json.loads(line)
    for name in SETS
    for line in (DATA / name).read_text(encoding="utf-8").splitlines()
]
MISSES = {
    line.split("#")[0].strip()
    for line in (DATA / "accuracy_blind_misses.txt").read_text(encoding="utf-8").splitlines()
    if line.split("#")[0].strip()
}


def _choices(raw: list[Any] | None) -> list[dict[str, str | None]] | None:
    if raw is None:
        return None
    return [c if isinstance(c, dict) else {"id": c, "content": None} for c in raw]


@pytest.fixture(scope="module")
def scored() -> dict[str, tuple[Any, Any, Any]]:
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
    rows = out.select("accuracy_score", "accuracy_extracted", "accuracy_rule").iter_rows()
    return {c["id"]: row for c, row in zip(CASES, rows, strict=True)}


def test_the_set_is_well_formed() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 60
    assert all(c["expected"] in (0, 1) for c in CASES)
    assert sum(c["expected"] == 0 for c in CASES) * 3 >= len(CASES)  # a third negatives at least
    assert set(ids) >= MISSES, sorted(MISSES - set(ids))  # no stale line in the misses list
    chinese = [any("\u4e00" <= ch <= "\u9fff" for ch in c["prediction"]) for c in CASES]
    assert any(chinese) and not all(chinese)


@pytest.mark.parametrize("case", labelled_params(CASES, MISSES))
def test_case(case: dict[str, Any], scored: dict[str, tuple[Any, Any, Any]]) -> None:
    score, extracted, rule = scored[case["id"]]
    got = 1 if score == 1.0 else 0
    assert got == case["expected"], (case["prediction"], case["answer"], extracted, rule)


def test_the_per_row_oracle_scores_every_case_alike(
    scored: dict[str, tuple[Any, Any, Any]],
) -> None:
    """The plain-Python oracle (tests/oracles/accuracy) gives the same score as the evaluator
    on every case but number rows (its number parser is a minimal one); several references:
    the best."""
    for c in CASES:
        if c["answer_type"] == "number":
            continue
        refs = c["answer"] if isinstance(c["answer"], list) else [c["answer"]]
        want = max(
            oracle.score_row(c["prediction"], r, c["answer_type"], _choices(c["choices"]))[0]
            for r in refs
        )
        assert scored[c["id"]][0] == want, (c["id"], c["prediction"], want)


def test_a_full_date_that_the_accepted_dates_contradict_earns_no_credit_by_its_year() -> None:
    """Several accepted answers holding a year and a full date: a full date of that year
    that none of them states is another answer (rule ``date``); the same date accepted, or a
    year alone among the answers, still credits."""
    said = "Japan formally surrendered on September 2, 1945."
    frame = pl.DataFrame(
        {
            "prediction": [said, said, said, "日本于1945年9月2日签字投降。"],
            "answer": [
                ["1945", "17 August 1945"],
                ["1945", "2 September 1945"],
                ["1945"],
                ["1945年8月17日", "1945"],
            ],
        }
    )
    out = xf.score(frame, ["accuracy"])
    assert out["accuracy_score"].to_list() == [0.0, 1.0, 1.0, 0.0]
    assert out["accuracy_rule"].to_list()[0] == "date"
