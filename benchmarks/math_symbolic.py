"""MATH-style slice of the math benchmark: symbolic answers (powers, roots, π, intervals,
tuples, matrices, equations, fractions), several sampled answers per problem as in pass@k
evaluations, scored by xpert_frames (Math-Verify once per distinct pair, in its worker) and by
Math-Verify per row on the same rows; rows/s and agreement."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import polars as pl

import xpert_frames as xf
from benchmarks.common import Row, size
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator

BENCH = "math, MATH-style symbolic slice"


def _problem(kind: int, a: int, b: int) -> tuple[str, list[str]]:
    """A gold answer and answers a model writes for it: the gold as written, an equivalent
    form, and wrong ones (a stray-number trap among them)."""
    c, sq, ab = a + b, a * a * b, a + b
    frac_pi = f"\\frac{{{a}\\pi}}{{{b}}}"
    vec = "\\begin{{pmatrix}} {} \\\\ {} \\end{{pmatrix}}"
    problems = [
        (f"{a}^{{{b}}}", [f"{a}^{{{b}}}", f"{a}^{b}", f"{b}^{{{a}}}", f"{a}"]),
        (
            f"{a}\\sqrt{{{b}}}",
            [f"{a}\\sqrt{{{b}}}", f"\\sqrt{{{sq}}}", f"{a}", f"{b}\\sqrt{{{a}}}"],
        ),
        (
            frac_pi,
            [
                frac_pi,
                f"\\frac{{{a}}}{{{b}}}\\pi",
                f"\\frac{{{a}}}{{{b}}}",
                f"\\frac{{{b}\\pi}}{{{a}}}",
            ],
        ),
        (f"({a}, {c}]", [f"({a}, {c}]", f"({a},{c}]", f"[{a}, {c}]", f"{c}"]),
        (f"({a}, -{b})", [f"({a}, -{b})", f"\\left({a},-{b}\\right)", f"({a}, {b})", f"{a}"]),
        (f"y = {a}x + {b}", [f"y = {a}x + {b}", f"y={a}x+{b}", f"y = {a}x - {b}", f"{b}"]),
        (
            f"x^2 + {2 * a}x + {a * a}",
            [f"(x+{a})^2", f"x^2+{2 * a}x+{a * a}", f"(x-{a})^2", f"{a * a}"],
        ),
        (vec.format(a, b), [vec.format(a, b), vec.format(b, a), f"{a}"]),
        (
            f"\\frac{{{a}}}{{{ab}}}",
            [
                f"\\frac{{{a}}}{{{ab}}}",
                f"\\dfrac{{{a}}}{{{ab}}}",
                f"{a}/{ab}",
                f"\\frac{{{b}}}{{{ab}}}",
            ],
        ),
    ]
    return problems[kind]


_ENDINGS = [
    "Therefore, the final answer is $\\boxed{{{}}}$.",
    "So the answer is $\\boxed{{{}}}$.",
    "Thus, we get \\( \\boxed{{{}}} \\).",
    "The final answer is $\\boxed{{{}}}$. I hope it is correct.",
]


def symbolic_rows(problems: int, samples: int = 8, seed: int = 0) -> pl.DataFrame:
    """``problems × samples`` rows: each problem's samples draw from its answers (the gold as
    written most often), so pairs repeat as in pass@k runs."""
    rng = np.random.default_rng(seed)
    preds, answers = [], []
    for _ in range(problems):
        kind = int(rng.integers(0, 9))
        a, b = int(rng.integers(2, 13)), int(rng.integers(2, 13))
        gold, written = _problem(kind, a, b)
        weights = np.array([4.0] + [1.0] * (len(written) - 1))
        for _ in range(samples):
            answer = written[int(rng.choice(len(written), p=weights / weights.sum()))]
            ending = _ENDINGS[int(rng.integers(0, len(_ENDINGS)))]
            preds.append(f"Let me work through it step by step.\n\n{ending.format(answer)}")
            answers.append(gold)
    return pl.DataFrame({"prediction": preds, "answer": answers})


def _math_verify_rows(preds: list[str], answers: list[str]) -> list[float]:
    from math_verify import parse, verify

    return [
        1.0 if verify(parse(f"${a}$"), parse(p)) else 0.0
        for p, a in zip(preds, answers, strict=True)
    ]


def run(quick: bool) -> list[Row]:
    """xpert_frames and Math-Verify per row on the same MATH-style rows."""
    from xpert_frames.evaluators.math_answer import verify_pool

    if not verify_pool.available():
        return []
    df = symbolic_rows(size(quick, 25, 150, smoke=5))
    preds, answers = df["prediction"].to_list(), df["answer"].to_list()
    pairs = df.select("prediction", "answer").unique().height
    ev = MathEvaluator(symbolic="math_verify")
    xf.score(df.head(2), [ev])  # the worker starts once per process: not timed
    start = time.perf_counter()
    out = xf.score(df, [ev])
    ours_t = time.perf_counter() - start
    start = time.perf_counter()
    theirs = _math_verify_rows(preds, answers)
    theirs_t = time.perf_counter() - start
    ours = out["math_score"].to_list()
    agree = sum(o == t for o, t in zip(ours, theirs, strict=True))
    symbolic = out["math_rule"].str.ends_with(":symbolic").sum()
    note: dict[str, Any] = {
        "rows": df.height,
        "distinct pairs": pairs,
        "symbolic rows": int(symbolic),
        "agreement": f"{agree}/{df.height}",
    }
    text = "; ".join(f"{k} {v}" for k, v in note.items())
    return [
        Row(BENCH, "MATH-style slice: Math-Verify per row", df.height, theirs_t, text),
        Row(
            BENCH,
            "MATH-style slice: xpert_frames (Math-Verify once per distinct pair)",
            df.height,
            ours_t,
            f"accuracy {np.mean(ours):.3f} (Math-Verify per row {np.mean(theirs):.3f}); {text}",
        ),
    ]
