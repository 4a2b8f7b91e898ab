"""Math answers written the way peers' test suites and models write them score as labelled
(``math_labelled_peer_forms.jsonl``: repeating decimals, plain-text maths, braced references,
exact powers against their digits, an unclosed last box, intervals, ``\\dfrac``/``\\left``,
degrees, percent, units, thousands, matrices, equations, several answers, scientific notation,
infinity, complex numbers, close exact values), with its negatives never credited; and the
forms behind them (a repeating decimal read exactly, plain-text maths in LaTeX, a choice label
before the value, braces that group the whole span)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tests.helpers import score_all_paths
from tests.math_checks import MODES, assert_matches_oracle
from xpert_frames.evaluators.math_answer.as_written import identical, plain_math
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator
from xpert_frames.evaluators.math_answer.pair_forms import fit_pair_of

PEER_FORMS = Path(__file__).parent / "data" / "math_labelled_peer_forms.jsonl"


def peer_forms() -> pl.DataFrame:
    rows = [json.loads(line) for line in PEER_FORMS.read_text(encoding="utf-8").splitlines()]
    return pl.DataFrame(rows).with_columns(pl.col("answer").cast(pl.String))


def test_peer_forms_set_shape() -> None:
    df = peer_forms()
    assert df.height >= 100
    assert (~df["correct"]).sum() >= df.height / 3
    classes = ("repeating", "plain", "power", "lastbox", "interval", "close", "complex")
    for cls in (*classes, "several", "identical", "rejected", "emptyset"):
        rows = df.filter(pl.col("class") == cls)
        assert rows["correct"].any() and not rows["correct"].all(), cls


@pytest.mark.parametrize("mode", MODES)
def test_peer_forms_set(mode: str) -> None:
    df = peer_forms()
    out = score_all_paths(df, [MathEvaluator(symbolic=mode)])
    out = out.with_columns(got=pl.col("math_score") == 1.0)
    clear = out.filter(~pl.col("ambiguous"))
    right = int((out["got"] == out["correct"]).sum())
    false_credit = clear.filter(pl.col("got") & ~pl.col("correct"))
    count = f"math peer forms set ({mode}): {right}/{df.height} agree"
    shown = ["prediction", "answer", "math_rule"]
    assert false_credit.height == 0, (count, false_credit.select(shown))
    if mode == "math_verify":
        missed = clear.filter(pl.col("got") != pl.col("correct"))
        assert missed.height == 0, (count, missed.select(shown))


def test_peer_forms_set_matches_oracle() -> None:
    assert_matches_oracle(peer_forms().select("prediction", "answer"), {}, all_paths=False)


@pytest.mark.parametrize(
    ("prediction", "reference", "same"),
    [
        ("0.1\\overline{6}", "\\frac{1}{6}", True),
        ("0.\\overline{16}", "\\frac{16}{99}", True),
        ("0.\\overline{16}", "\\frac{1}{6}", False),
        ("0.\\dot{1}\\dot{8}", "\\frac{2}{11}", True),
        ("0.1(6)", "\\frac{1}{6}", True),
        ("(0.1666\\repeating, 0.3\\repeating)", "(\\frac{1}{6}, \\frac{1}{3})", True),
        ("0.142857142857\\repeating", "\\frac{1}{7}", True),
        ("0.1666...", "\\frac{1}{6}", True),
        ("3.14159...", "\\frac{1}{6}", False),  # no repeated block: a truncation
        ("0.1666", "\\frac{1}{6}", False),
        ("\\text{(C)}\\ \\frac{5}{2}", "\\frac{5}{2}", True),
        ("(B) 12", "12", True),
        ("(B) 12", "(B) 13", False),
        ("f(n) = n \\text{ for all natural numbers } n", "{f(n)=n}", True),
        ("{1, 2}", "1, 2", False),  # braces around a list may be a set: kept
    ],
)
def test_pair_forms_read_exact_values(prediction: str, reference: str, same: bool) -> None:
    assert fit_pair_of(prediction, reference)[2] is same


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("-1 + sqrt(3).", "-1 + \\sqrt{3}."),
        ("sqrt 2 over 2", "\\sqrt{2} over 2"),
        ("the angle is pi/2", "the angle is \\pi /2"),
        ("(0.1666 repeating, 0.3 (recurring))", "(0.1666\\repeating, 0.3\\repeating)"),
        ("a typical spin of pipes", "a typical spin of pipes"),
        ("\\sqrt{2} and \\pi", "\\sqrt{2} and \\pi"),
    ],
)
def test_plain_text_maths_in_latex(text: str, latex: str) -> None:
    df = plain_math(pl.DataFrame({"span": [text, "no maths"]}), "span")
    assert df["span"].to_list() == [latex, "no maths"]


@pytest.mark.parametrize(
    ("prediction", "pspan", "rspan", "same"),
    [
        ("\\mathbb{Z}", None, "\\mathbb{Z}", True),
        ("$y = \\frac{1}{x}$.", None, "y=\\frac{1}{x}", True),
        ("The answer is \\boxed{\\text{none}}.", "\\text{none}", "\\text{none}", True),
        ("The answer is \\boxed{\\text{all}}.", "\\text{all}", "\\text{none}", False),
        ("\\mathbb{N}", None, "\\mathbb{Z}", False),
        ("We find x. " * 20 + "x", None, "x", False),  # a long text is not compared whole
        ("", None, "", False),
    ],
)
def test_answers_written_as_the_reference(
    prediction: str, pspan: str | None, rspan: str, same: bool
) -> None:
    df = pl.DataFrame(
        {"p": [prediction], "s": [pspan], "r": [rspan]},
        schema={"p": pl.String, "s": pl.String, "r": pl.String},
    )
    got = df.select(identical(pl.col("p"), pl.col("s"), pl.col("r"))).item()
    assert got is same
