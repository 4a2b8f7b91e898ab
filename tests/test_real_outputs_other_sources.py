"""Real model outputs from public sources the other real-output sets do not use, each with a
verdict decided by reading it before any scorer ran (``tests/data/accuracy_real_sources.jsonl``):
code-davinci-002 chain-of-thought answers to BIG-Bench-Hard (true/false, options, labels, counts,
sorted words, bracket completions), Chinese legal answers of 15 models (LawBench dispute-focus
labels, charge names, argument pairs, sentences in months), GPT-4 answers to Chinese college
entrance exam questions (GAOKAO-Bench options and poem dictation) and answers of Chinese chat
models to HalluQA's multiple-choice questions. Each row keeps its ``source`` (repository, path,
row, commit); ``ambiguous`` marks rows a careful reader could decide either way.

Choice, text, label and true/false rows are scored by ``accuracy``, number rows by ``math``;
the score must agree with the verdict. Rows misread today are listed in
``tests/data/accuracy_real_sources_misses.txt`` and run as ``xfail(strict=True)``: a rule that
reads one right fails its test until its line is deleted. No listed row is a false credit."""

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


def _rows() -> list[dict[str, Any]]:
    text = (DATA / "accuracy_real_sources.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _misses() -> set[str]:
    lines = (DATA / "accuracy_real_sources_misses.txt").read_text(encoding="utf-8").splitlines()
    return {line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()}


ROWS = _rows()
MISSES = _misses()


def _choices(row: dict[str, Any]) -> list[dict[str, str]] | None:
    if row.get("labels") is not None:
        return [{"id": chr(65 + i), "content": c} for i, c in enumerate(row["labels"])]
    return row.get("choices")


@pytest.fixture(scope="module")
def credited() -> dict[str, int]:
    """Every row scored once: id -> 1 (credited) or 0."""
    acc = [r for r in ROWS if r["kind"] != "number"]
    frame = pl.DataFrame(
        {
            "prediction": [r["prediction"] for r in acc],
            "answer": [r["answer"] for r in acc],
            "answer_type": [r["answer_type"] for r in acc],
            "choices": pl.Series([_choices(r) for r in acc], dtype=CHOICE_DTYPE),
        }
    )
    scores = xf.score(frame, ["accuracy"])["accuracy_score"].to_list()
    out = {r["id"]: int(s == 1.0) for r, s in zip(acc, scores, strict=True)}
    num = [r for r in ROWS if r["kind"] == "number"]
    math = pl.DataFrame(
        {
            "prediction": [r["prediction"] for r in num],
            "answer": [r["answer"] for r in num],
            "answer_type": ["number"] * len(num),
        }
    )
    math_scores = xf.score(math, ["math"])["math_score"].to_list()
    out.update({r["id"]: int(s == 1.0) for r, s in zip(num, math_scores, strict=True)})
    return out


def test_the_rows_are_well_formed() -> None:
    ids = [r["id"] for r in ROWS]
    assert len(ids) == len(set(ids)) and len(ids) >= 200
    assert all(r["expected"] in (0, 1) and r["source"] for r in ROWS)
    assert {r["kind"] for r in ROWS} == {"choice", "text", "label", "judge", "number"}
    assert sum(r["expected"] == 0 for r in ROWS) >= 60  # wrong answers: no credit
    assert set(ids) >= MISSES, sorted(MISSES - set(ids))  # no stale line in the misses list


def test_no_listed_miss_is_a_false_credit() -> None:
    wrong = {r["id"] for r in ROWS if r["expected"] == 0}
    assert not MISSES & wrong, sorted(MISSES & wrong)


@pytest.mark.parametrize("row", labelled_params(ROWS, MISSES))
def test_score_agrees_with_the_read_verdict(row: dict[str, Any], credited: dict[str, int]) -> None:
    assert credited[row["id"]] == row["expected"], (row["prediction"][-300:], row["answer"])


_LOOP_EN = "Let's evaluate A: A = not not False" + " = not not False" * 40
_LOOP_ZH = "推理：若甲说的是对的，则乙说的也是对的，" + "则丙说的是对的，则丁说的是对的，" * 30
_OPTIONS = [{"id": k, "content": v} for k, v in zip("ABCD", ["√5", "2", "√3", "√2"], strict=True)]

#: The classes these rows showed, one written case each way, Chinese and English as models write
#: them: (prediction, answer, answer_type, choices, expected).
CLASSES: list[tuple[str, str, str, list[dict[str, str]] | None, int]] = [
    # A bracket tag with its own colon is the answer statement (a curve named C is no option).
    ("所以，C 的离心率为 √2。 <eoe>\n【答案】: D <eoa>", "D", "choice", _OPTIONS, 1),
    ("所以，C 的离心率为 √2。 <eoe>\n【答案】: D <eoa>", "C", "choice", _OPTIONS, 0),
    ("So the eccentricity of curve C is √2.\n[Answer]: B", "B", "choice", _OPTIONS, 1),
    ("So the eccentricity of curve C is √2.\n[Answer]: B", "C", "choice", _OPTIONS, 0),
    # A reference made only of symbols is compared by its symbols in the answer statement.
    ('We will need to pop out "<", "[". So, we need "]", ">". So the answer is ] >.', "] >",
     "text", None, 1),
    ('So, we need "}", ")". So the answer is } ).', "] >", "text", None, 0),
    ("0: empty stack\n1: [ ; stack: [\n2: < ; stack: [ <\n32: { ; stack: [ <", "] >", "text",
     None, 0),
    ("栈中剩下 [ <，依次弹出。所以答案是：] >", "] >", "text", None, 1),
    ("栈中剩下 [ (，依次弹出。所以答案是：] )", "] >", "text", None, 0),
    # A Chinese term is stated with or without its head 罪; inside a longer term it is not.
    ("罪名：妨害公务罪", "妨害公务", "text", None, 1),
    ("[罪名]盗窃<eoa>", "盗窃罪", "text", None, 1),
    ("[罪名]聚众妨害公务秩序罪<eoa>", "妨害公务", "text", None, 0),
    ("被告人的行为构成聚众妨害公务秩序罪。", "妨害公务", "text", None, 0),
    ("The charge is 妨害公务罪 (obstructing official duties).", "妨害公务", "text", None, 1),
    # An output cut off inside a runaway sentence (a loop) states no verdict; a verdict stated
    # after the loop still counts.
    (_LOOP_EN, "True", "judge", None, 0),
    (_LOOP_EN + ". So the answer is False.", "False", "judge", None, 1),
    (_LOOP_ZH, "是", "judge", None, 0),
    (_LOOP_ZH + "。因此，答案是否。", "否", "judge", None, 1),
]  # fmt: skip


@pytest.mark.parametrize("case", CLASSES, ids=[c[0][:40] for c in CLASSES])
def test_each_class_these_rows_showed_is_read_right(
    case: tuple[str, str, str, list[dict[str, str]] | None, int],
) -> None:
    prediction, answer, kind, choices, expected = case
    frame = pl.DataFrame(
        {
            "prediction": [prediction],
            "answer": [answer],
            "answer_type": [kind],
            "choices": pl.Series([choices], dtype=CHOICE_DTYPE),
        }
    )
    out = xf.score(frame, ["accuracy"])
    assert int(out["accuracy_score"][0] == 1.0) == expected, out.row(0)
