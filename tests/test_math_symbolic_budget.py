"""``symbolic_budget``: the seconds Math-Verify may spend per call; the pairs left when it is
spent score 0 with rule ``<source>:symbolic-budget`` and one warning gives their count."""

from __future__ import annotations

import warnings

import polars as pl
import pytest

import xpert_frames as xf
from xpert_frames.core.exceptions import InvalidOptionError, OptionTypeError
from xpert_frames.evaluators.math_answer import verify_pool
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator

needs_math_verify = pytest.mark.skipif(
    not verify_pool.available(), reason="needs the symbolic extra (Math-Verify)"
)


def _tower(base: int, top: int) -> str:
    return f"${base}^{{{base}^{{{base}^{{{base}^{{{base}^{{{top}}}}}}}}}}}$"


def test_budget_default_and_validation() -> None:
    assert MathEvaluator().symbolic_budget == 60.0
    assert MathEvaluator(symbolic_budget=float("inf")).symbolic_budget == float("inf")
    with pytest.raises(InvalidOptionError, match="symbolic_budget"):
        MathEvaluator(symbolic_budget=0)
    with pytest.raises(InvalidOptionError, match="symbolic_budget"):
        MathEvaluator(symbolic_budget=-1.0)
    with pytest.raises(OptionTypeError, match="symbolic_budget"):
        MathEvaluator(symbolic_budget="60")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        MathEvaluator(5.0, 60.0)  # type: ignore[misc]  # options are keyword-only


@needs_math_verify
def test_pairs_left_after_the_budget_score_zero_with_one_warning() -> None:
    slow = [(_tower(2, 10 + k), _tower(3, 10 + k)) for k in range(3)]
    df = pl.DataFrame(
        {
            "prediction": [p for p, _ in slow] * 2 + ["The answer is 4"],
            "answer": [a for _, a in slow] * 2 + ["4"],
        }
    )
    ev = MathEvaluator(symbolic_budget=1.0, symbolic_timeout=5.0, symbolic="math_verify")
    with pytest.warns(RuntimeWarning, match=r"symbolic_budget=1 s spent: 6 row\(s\) \(3 distinct"):
        out = xf.score(df, [ev])
    rules = out["math_rule"].to_list()
    assert all(r.endswith(":symbolic-budget") for r in rules[:6]), rules
    assert out["math_score"].to_list() == [0.0] * 6 + [1.0]


@needs_math_verify
def test_no_warning_when_the_budget_suffices() -> None:
    df = pl.DataFrame({"prediction": ["$\\frac{1}{2}x^2$"], "answer": ["$x^2/2$"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = xf.score(df, [MathEvaluator(symbolic="math_verify", symbolic_budget=60.0)])
    assert out["math_rule"].item().endswith(":symbolic")
    assert out["math_score"].item() == 1.0


@needs_math_verify
def test_pool_budget_marks_the_pairs_left() -> None:
    pool = verify_pool.VerifyPool(timeout=5.0, workers=1)
    try:
        pairs = [(_tower(2, 20 + k), _tower(3, 20 + k)) for k in range(2)]
        assert pool.verify(pairs, budget=0.5) == [verify_pool.BUDGET] * 2
        assert pool.verify([("$1$", "$1$")], budget=30.0) == [verify_pool.EQUAL]
    finally:
        pool.close()
