"""Math answers as olympiad models write them, against references in other forms: exact values
compared exactly (two different exact rationals are never equal by a rounding, clock times as
times, ratios), the same answer in another form (a LaTeX mixed number, ``\\log`` as ``\\ln``,
``\\pm`` inside tuples, solutions in another order, a function up to renaming its variable, a
reference with trailing words) and references stated in words (``\\text{No}``, ``Yes``, "no
such n exists", a name). The labelled set ``math_labelled_real.jsonl`` holds each class with
its negatives."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tests.helpers import score_all_paths
from tests.math_checks import assert_matches_oracle
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator
from xpert_frames.evaluators.math_answer.pair_forms import fit_pair_of
from xpert_frames.evaluators.math_answer.times import colon_equal_of, same_numbers_of
from xpert_frames.evaluators.math_answer.verify_worker import exact_differ
from xpert_frames.evaluators.math_answer.worded import worded_kind_of

REAL = Path(__file__).parent / "data" / "math_labelled_real.jsonl"


def real() -> pl.DataFrame:
    rows = [json.loads(line) for line in REAL.read_text(encoding="utf-8").splitlines()]
    return pl.DataFrame(rows).with_columns(pl.col("answer").cast(pl.String))


def test_real_set_covers_each_class_with_negatives() -> None:
    df = real()
    assert df.height >= 35
    for cls in ("exact", "clock", "mixed", "log", "pm_tuple", "order", "rename", "text_ref"):
        rows = df.filter(pl.col("class") == cls)
        assert rows.height >= 2 and not rows["correct"].all(), cls


def test_real_set_scores_its_labels() -> None:
    df = real()
    out = score_all_paths(df.select("prediction", "answer"), [MathEvaluator()])
    got = (out["math_score"] == 1.0).to_list()
    wrong = [r for r, g in zip(df.iter_rows(named=True), got, strict=True) if g != r["correct"]]
    assert not wrong, wrong


def test_real_set_matches_oracle() -> None:
    assert_matches_oracle(real().select("prediction", "answer"), {}, all_paths=False)


@pytest.mark.parametrize(
    ("reference", "kind"),
    [
        ("\\text{No}", "no"),
        ("Yes", "yes"),
        ("\\text{YES}", "yes"),
        ("There exist no such field.", "no"),
        ("It is impossible to select 16 such numbers.", "no"),
        ("\\text{No such } n \\text{ exists}", "no"),
        ("Converges", "word:converges"),
        ("\\text{Bob}", "word:bob"),
        ("\\text{no real solutions}", None),
        ("\\emptyset", None),
        ("x", None),
        ("\\sin x", None),
        ("f(x)=2x \\text{ for all } x>0", None),
        ("42", None),
    ],
)
def test_worded_references(reference: str, kind: str | None) -> None:
    assert worded_kind_of(reference) == kind


@pytest.mark.parametrize(
    ("prediction", "reference", "same"),
    [
        ("f(y) = 2y", "f(x) = 2x", True),
        ("f(y) = 2y + x", "f(x) = 2x", False),
        ("f(x)=2x", "f(x)=2x \\text{ for all } x>0", True),
        ("(0,\\pm 2),\\ (4,\\pm 23)", "(0, 2), (0, -2), (4, 23), (4, -23)", True),
        ("88 \\frac{2}{3}", "\\frac{266}{3}", True),
        ("88 \\frac{2}{3}", "\\frac{268}{3}", False),
        (
            "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}",
            "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}",
            True,
        ),
        ("\\text{The solutions are } (2, 3)", "(2, 3)", True),
    ],
)
def test_pair_forms(prediction: str, reference: str, same: bool) -> None:
    assert fit_pair_of(prediction, reference)[2] is same


@pytest.mark.parametrize(
    ("prediction", "reference", "equal"),
    [
        ("\\boxed{1:00}", "12:00", False),
        ("\\boxed{12:00}", "12:00", True),
        ("They meet at 3:45 pm.", "3:45", True),
        ("\\boxed{12}", "12:1", True),
        ("\\boxed{24:2}", "12:1", True),
        ("\\boxed{11}", "12:1", False),
        ("\\boxed{12}", "12", None),
    ],
)
def test_clock_times_and_ratios(prediction: str, reference: str, equal: bool | None) -> None:
    assert colon_equal_of(prediction, reference) is equal


@pytest.mark.parametrize(
    ("prediction", "reference", "equal"),
    [
        ("\\boxed{3, 1, 2}", "1, 2, 3", True),
        ("\\boxed{\\{3,\\ 1,\\ 2\\}}", "1,2,3", True),
        ("\\boxed{3, 1, 1}", "1, 2, 3", False),
        ("\\boxed{1,000,000}", "1,000,000", None),
        ("The answer is 3, 1, 2.", "1, 2, 3", None),
    ],
)
def test_number_lists_in_another_order(prediction: str, reference: str, equal: bool | None) -> None:
    assert same_numbers_of(prediction, reference) is equal


def test_exact_rationals_differ_where_math_verify_rounds() -> None:
    from math_verify import parse, verify

    a = parse("$2^{1009}/(2^{1009}+2018)$")
    b = parse("$2^{1009}/(2^{1009}+1009)$")
    assert verify(a, b)  # Math-Verify rounds: equal
    assert exact_differ(a, b)
    assert not exact_differ(b, parse("$\\frac{2^{1009}}{2^{1009}+1009}$"))
    assert not exact_differ(parse("$3^{2018^2}$"), parse("$3^{2018^2}+1$"))  # not expanded
