"""Symbolic answers never get credit from a stray number: Math-Verify (the ``symbolic`` extra)
or exact normalized LaTeX decides them; Unicode roots written out; the worker's per-pair
deadline."""

from __future__ import annotations

import threading
from typing import Any

import polars as pl
import pytest

import xpert_frames as xf
from tests.helpers import score_all_paths
from tests.math_checks import MODES, needs_mv
from tests.oracles import math_forms as oracle_forms
from xpert_frames.evaluators.math_answer import symbolic, verify_pool
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator

#: (prediction, reference): a number can be read from each side, and they agree or nearly.
STRAY = [
    ("Thus the answer is $\\boxed{2^{2025}}$.", "3^{2025}"),
    ("The solution set is $\\boxed{(0, 1]}$.", "1"),
    ("So the ratio is $\\boxed{2}$.", "(1+\\sqrt5)/2"),
    ("The area is $\\boxed{16\\pi}$.", "16"),
    ("Therefore, $\\boxed{3}$.", "\\sqrt{3}"),
    ("Hence $\\boxed{2^{10}}$.", "2"),
    ("The vector is $\\boxed{\\begin{pmatrix} 4 \\\\ 2 \\end{pmatrix}}$.", "4"),
    ("The answer is $\\boxed{2}$.", "2x"),
    ("So $x = \\boxed{\\frac{1-\\sqrt{5}}{2}}$.", "\\frac{1+\\sqrt{5}}{2}"),
    ("The final answer is $\\frac{\\pi}{3}$.", "\\frac{\\pi}{4}"),
    ("所以答案是$\\boxed{2}$。", "2\\sqrt{2}"),
    ("The roots are $\\boxed{1, 3}$.", "1,2"),
]


def score(preds: list[str], answers: list[str], **options: Any) -> pl.DataFrame:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(**options)])


@pytest.mark.parametrize("mode", MODES)
def test_no_credit_from_a_stray_number(mode: str) -> None:
    out = score([p for p, _ in STRAY], [a for _, a in STRAY], symbolic=mode)
    assert out["math_score"].to_list() == [0.0] * len(STRAY)
    method = "symbolic" if mode == "math_verify" else "latex-exact"
    assert all(r.endswith(":" + method) for r in out["math_rule"]), out["math_rule"]
    assert out["math_value"].null_count() == len(STRAY)  # no number was compared


#: (prediction, reference): a statement whose answer is a variable term, and the number in it.
VARIABLE_TERMS = [
    ("The answer is 2x", "2"),
    ("The answer is 2x.", "2"),
    ("The answer is x+1", "1"),
    ("So the answer is 1 + x.", "1"),
    ("The answer is 3n", "3"),
    ("The answer is $2\\pi$", "2"),
    ("The answer is n/2", "2"),
    ("答案是2x", "2"),
    ("所以答案为 x+1。", "1"),
    ("答案是3n", "3"),
    ("因此 k - 1", "1"),
]


@pytest.mark.parametrize("mode", MODES)
def test_no_credit_from_a_number_beside_a_variable(mode: str) -> None:
    out = score([p for p, _ in VARIABLE_TERMS], [a for _, a in VARIABLE_TERMS], symbolic=mode)
    assert out["math_score"].to_list() == [0.0] * len(VARIABLE_TERMS), out["math_rule"]
    assert out["math_value"].null_count() == len(VARIABLE_TERMS)
    assert all(r.startswith("statement:") for r in out["math_rule"]), out["math_rule"]


def test_assignment_and_units_still_state_the_number() -> None:
    preds = ["The answer is k=5", "The answer is x = 5.", "所以x=5", "因此 n = 3", "答案是5m"]
    preds += ["The answer is 5e-3", "The answer is 12 m/s", "So the answer is 7 - 2 = 5"]
    out = score(preds, ["5", "5", "5", "3", "5", "0.005", "12 m/s", "5"], symbolic="latex")
    assert out["math_score"].to_list() == [1.0] * len(preds)
    assert out["math_rule"].to_list() == ["statement"] * len(preds)


def test_latex_fallback_compares_normalized_latex() -> None:
    preds = ["$\\boxed{\\dfrac{\\sqrt{2}}{2}}$", "$\\boxed{x^{2}+1}$", "$\\boxed{2\\sqrt{3}}$"]
    out = score(preds, ["\\frac{\\sqrt2}{2}", "x^2 + 1", "\\sqrt{12}"], symbolic="latex")
    assert out["math_score"].to_list() == [1.0, 1.0, 0.0]  # equal values written differently
    assert out["math_rule"].to_list() == ["boxed:latex-exact"] * 3
    assert out["math_extracted"].to_list() == ["\\dfrac{\\sqrt{2}}{2}", "x^{2}+1", "2\\sqrt{3}"]
    assert out["math_expected"].to_list() == ["\\frac{\\sqrt2}{2}", "x^2 + 1", "\\sqrt{12}"]


def test_unicode_root_is_written_out() -> None:
    got = pl.DataFrame({"s": ["2√2", "√(x+1)", "√{3}", "√x"]}).select(
        symbolic.sqrt_latex(pl.col("s"))
    )
    want = ["2\\sqrt{2}", "\\sqrt{x+1}", "\\sqrt{3}", "\\sqrt{x}"]
    assert got.to_series().to_list() == want == [oracle_forms.sqrt_latex(s) for s in got["s"]]


@needs_mv
def test_math_verify_decides_equivalence() -> None:
    preds = [
        "$\\boxed{2\\sqrt{3}}$",
        "Hence $\\boxed{3^{10}}$.",
        "$\\boxed{x^2 + 2x + 1}$",
        "Solving gives $\\boxed{x = 5}$.",
        "The domain is $\\boxed{(-\\infty, 3) \\cup (3, \\infty)}$.",
        "The answer is 14.",
    ]
    answers = ["\\sqrt{12}", "59049", "(x+1)^2", "5", "(-\\infty,3)\\cup(3,\\infty)", "14"]
    out = score(preds, answers, symbolic="math_verify")
    assert out["math_score"].to_list() == [1.0] * 6
    # x = 5 against 5: its right-hand side is the plain number, compared as a number.
    assert out["math_rule"].to_list() == ["boxed:symbolic"] * 3 + [
        "boxed", "boxed:symbolic", "statement",
    ]  # fmt: skip


def test_numeric_rows_stay_numeric() -> None:
    preds = ["$\\boxed{\\frac{3}{8}}$", "The answer is 1,000 apples.", "答案是5平方厘米"]
    out = score(preds, ["0.375", "1000", "5平方厘米"])
    assert out["math_rule"].to_list() == ["boxed", "statement", "statement"]
    assert out["math_score"].to_list() == [1.0, 1.0, 1.0]


def test_each_distinct_pair_verified_once(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, str]] = []

    class Counting:
        def verify(self, pairs: list[tuple[str, str]], *, budget: float | None = None) -> list[str]:
            seen.extend(pairs)
            return ["equal"] * len(pairs)

    monkeypatch.setattr(symbolic, "resolve_mode", lambda mode: "math_verify")
    monkeypatch.setattr(verify_pool, "pool", lambda timeout: Counting())
    df = pl.DataFrame({"prediction": ["$\\boxed{x}$"] * 50 + ["$\\boxed{y}$"] * 50, "answer": "x"})
    out = xf.score(df, [MathEvaluator()])
    assert out["math_score"].to_list() == [1.0] * 100
    # The pair written identically (x, x) is equal without verification.
    assert sorted(seen) == [("$y$", "$x$")]


@needs_mv
def test_worker_deadline_kills_a_slow_pair_and_goes_on() -> None:
    pool = verify_pool.VerifyPool(timeout=1.5)
    try:
        assert pool.verify([("$x$", "$x$")]) == ["equal"]  # started and warm
        slow = ("$2^{2^{2^{2^{2^{2^{10}}}}}}$", "$3^{3^{3^{3^{3^{10}}}}}$")
        result: list[str] = []
        # From a thread, where Math-Verify's own signal-based limits cannot work.
        worker = threading.Thread(target=lambda: result.extend(pool.verify([slow, ("$1$", "$1$")])))
        worker.start()
        worker.join(timeout=60)
        assert not worker.is_alive()
        assert result[1] == "equal"
        assert result[0] == "timeout"  # never hangs, never credits, never a silent "different"
    finally:
        pool.close()


@needs_mv
def test_a_slow_pair_is_a_timeout_not_a_silent_difference() -> None:
    # Math-Verify's own limits turn a timed-out comparison into "not equal"; the worker's alarm
    # reports it, and the worker (which answered) goes on without a restart.
    pool = verify_pool.VerifyPool(timeout=0.3)
    try:
        assert pool.verify([("$x$", "$x$")]) == ["equal"]  # started and warm
        before = pool._workers[0]
        slow = ("$\\sum_{k=1}^{300} k^{k}x^{k}$", "$\\prod_{k=1}^{60} (x+k)$")
        assert pool.verify([slow, ("$1$", "$1$")]) == ["timeout", "equal"]
        assert pool._workers[0] is before
    finally:
        pool.close()


@needs_mv
def test_pool_shares_a_batch_between_workers() -> None:
    pool = verify_pool.VerifyPool(timeout=10.0, workers=2)
    try:
        pairs = [(f"${i}$", f"${i if i % 3 else i + 1}$") for i in range(80)]
        assert pool.verify(pairs) == ["equal" if i % 3 else "different" for i in range(80)]
        assert all(w is not None for w in pool._workers)  # both workers took a share
        assert pool.verify([]) == []
    finally:
        pool.close()


def test_pool_size_follows_the_cores_polars_may_use() -> None:
    import os

    cores = verify_pool.available_cores()
    assert 1 <= cores <= min(len(os.sched_getaffinity(0)), pl.thread_pool_size())
    assert verify_pool.VerifyPool(workers=3).size == 3


def test_empty_batch_scores_to_an_empty_frame() -> None:
    empty = pl.DataFrame(
        {"prediction": [], "answer": []}, schema={"prediction": pl.String, "answer": pl.String}
    )
    for frame in (empty, empty.to_arrow()):
        out = xf.score(frame, "math")
        assert out.num_rows == 0 if hasattr(out, "num_rows") else out.height == 0
