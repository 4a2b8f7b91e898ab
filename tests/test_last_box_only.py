"""Only the last box of an output counts: where it is not well formed (it never closes, or nests
deeper than the readers read) the output has no box content, and an earlier box, an answer the
model went on to replace, is never read instead (by the box reader, the number reader, the
symbolic span reader or Math-Verify)."""

from __future__ import annotations

import polars as pl
import pytest

from tests.helpers import score_all_paths
from tests.math_checks import assert_matches_oracle, needs_mv
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator
from xpert_frames.evaluators.math_answer.verify_worker import from_unclosed_box
from xpert_frames.reading.boxes import after_box, last_box

TEXTS = [
    "First \\boxed{3}. Wait, that is wrong: \\boxed{\\frac{1}{2}",  # never closes
    "First \\boxed{3}. Then \\boxed{7}.",
    "\\boxed{x^2}. Hmm, redo: \\boxed{x^{3",
    "\\boxed{1}. Deep: \\boxed{a{b{c{d{e}}}}}",  # deeper than four levels
    "no box at all",
    "\\fbox{2} and \\boxed{ {8} } so it is 8.",
]


def test_last_box_content_is_the_last_box_or_none() -> None:
    df = last_box(pl.DataFrame({"text": TEXTS}), "text", "content")
    assert df["text"].to_list() == TEXTS  # the text column is left as it is
    assert df["content"].to_list() == [None, "7", None, None, None, " {8} "]


def test_text_after_the_box_is_after_the_last_box_or_none() -> None:
    df = after_box(pl.DataFrame({"text": TEXTS}), "text")
    assert df["text"].to_list() == [None, "", None, None, None, " so it is 8"]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("a \\boxed{3} b \\boxed{x^{3", "\\boxed{x^{3"),
        ("a \\boxed{3} b \\boxed{4}.", "a \\boxed{3} b \\boxed{4}."),
        ("a \\boxed{3} then \\boxed 5", "\\boxed 5"),
        ("\\boxed{\\frac{1}{2}}", "\\boxed{\\frac{1}{2}}"),
        ("no box", "no box"),
    ],
)
def test_math_verify_reads_from_an_unclosed_last_box(text: str, read: str) -> None:
    assert from_unclosed_box(text) == read


ROWS = [
    ("First attempt: \\boxed{3}. Wait, that is wrong. Redo: \\boxed{\\frac{1}{2}", "3", 0.0),
    ("First attempt: \\boxed{x^2}. Hmm, redo: \\boxed{x^{3", "x^2", 0.0),
    ("First attempt: \\boxed{(1, 2)}. Hmm, redo: \\boxed{(2, 1", "(1, 2)", 0.0),
    ("First \\boxed{\\sqrt{2}}. Then \\boxed{\\sqrt{3", "\\sqrt{2}", 0.0),
    ("Earlier I wrote \\boxed{3}, but recounting gives \\boxed{7", "7", 1.0),
    ("Earlier I wrote \\boxed{3}, but recounting gives \\boxed{7}", "7", 1.0),
    ("Earlier I wrote \\boxed{3}, but recounting gives \\boxed{7}", "3", 0.0),
]


@pytest.mark.parametrize("mode", ["latex", pytest.param("math_verify", marks=needs_mv)])
def test_an_earlier_box_never_scores(mode: str) -> None:
    df = pl.DataFrame({"prediction": [r[0] for r in ROWS], "answer": [r[1] for r in ROWS]})
    out = score_all_paths(df, [MathEvaluator(symbolic=mode)])
    assert out["math_score"].to_list() == [r[2] for r in ROWS]


def test_last_box_rows_match_the_oracle() -> None:
    df = pl.DataFrame({"prediction": [r[0] for r in ROWS], "answer": [r[1] for r in ROWS]})
    assert_matches_oracle(df, {})
