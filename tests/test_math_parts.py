"""The math reading in parts (``math_answer.parts.in_parts``): same rows, same order, any cut."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import xpert_frames as xf
from xpert_frames.evaluators.math_answer import parts
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator


def test_parts_keep_every_row_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def read(frame: pl.DataFrame) -> pl.DataFrame:
        seen.append(frame.height)
        return frame.select((pl.col("x") * 2).alias("y"))

    monkeypatch.setattr(parts, "PART_ROWS", 10)
    frame = pl.DataFrame({"x": range(95)})
    out = parts.in_parts(read, frame, threads=4)
    assert out["y"].to_list() == [2 * i for i in range(95)]
    assert seen and sorted(seen) == [23, 24, 24, 24]  # four parts, read side by side
    seen.clear()
    parts.in_parts(read, frame.head(15), threads=4)  # one part below 2 x PART_ROWS
    assert seen == [15]


def test_scores_equal_whatever_the_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [
        ("所以答案是12。", "12"),
        ("The answer is $\\boxed{\\frac{1}{2}}$.", "0.5"),
        ("解得 $x = 5$。", "5"),
        (None, "4"),
        ("一共有三百五十个。", "350"),
        ("$(1, 2)$", "(1,2)"),
    ] * 7
    frame = pl.DataFrame(rows, schema=["prediction", "answer"], orient="row")
    ev = MathEvaluator(symbolic="latex")
    whole = xf.score(frame, [ev])
    monkeypatch.setattr(parts, "PART_ROWS", 5)
    cut = xf.score(frame, [ev])
    assert_frame_equal(whole, cut)
    assert cut["math_score"].null_count() == 7 and cut["math_score"].sum() == 35
