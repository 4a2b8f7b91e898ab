"""Confidence intervals, mergeable partial reports, and paired model comparison."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import xpert_frames as xf
from xpert_frames.registry import detect_evaluators
from xpert_frames.reporting import intervals as stats
from xpert_frames.reporting.report import (
    finalize,
    merge_partials,
    partials,
    report_plan,
)


def wilson_plain(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (5, 10), (81, 100), (0, 50), (999, 1000)])
def test_wilson_matches_textbook_formula(k: int, n: int) -> None:
    low, high = stats.wilson(k, n)
    exp_low, exp_high = wilson_plain(k, n)
    assert low == pytest.approx(max(0.0, exp_low), abs=1e-12)
    assert high == pytest.approx(min(1.0, exp_high), abs=1e-12)
    assert low <= k / n <= high


def test_poisson_weights_have_poisson_moments() -> None:
    keys = np.arange(200_000, dtype=np.uint64) * np.uint64(7919)
    w = stats.poisson_weights(keys, 3)
    assert abs(w.mean() - 1) < 0.01 and abs(w.var() - 1) < 0.02
    assert np.array_equal(w, stats.poisson_weights(keys, 3))  # deterministic
    assert not np.array_equal(w, stats.poisson_weights(keys, 4))


def scored(n: int = 400, seed: int = 1) -> pl.DataFrame:
    rng = random.Random(seed)
    refs = ["人工智能的发展", "the answer is B", "北京", "机器学习模型需要大量的数据"]
    rows = {
        "id": list(range(n)),
        "model": [rng.choice(["a", "b"]) for _ in range(n)],
        "answer": [rng.choice(refs) for _ in range(n)],
        "prediction": [
            None if rng.random() < 0.05 else rng.choice(refs)[: rng.randint(0, 12)]
            for _ in range(n)
        ],
    }
    return xf.score(pl.DataFrame(rows), "fuzzy")


def test_report_has_intervals_around_the_mean() -> None:
    rep = xf.report(scored(), by="model")
    for row in rep.iter_rows(named=True):
        assert row["ci_low"] <= row["score"] <= row["ci_high"]
        assert row["stderr"] > 0
    # 0/1 metric: Wilson; continuous: bootstrap.
    rate = rep.filter(pl.col("metric") == "fuzzy_match_rate").row(0, named=True)
    k = round(rate["score"] * rate["count"])
    assert (rate["ci_low"], rate["ci_high"]) == pytest.approx(stats.wilson(k, rate["count"]))


def test_bootstrap_interval_is_reproducible_and_close_to_normal_theory() -> None:
    df = scored(3000, seed=7)
    one = xf.report(df)
    two = xf.report(df.sample(fraction=1.0, shuffle=True, seed=2))  # row order does not matter
    assert_frame_equal(one, two, check_exact=False, rel_tol=1e-12)
    row = one.filter(pl.col("metric") == "fuzzy").row(0, named=True)
    normal = (row["score"] - 1.96 * row["stderr"], row["score"] + 1.96 * row["stderr"])
    assert row["ci_low"] == pytest.approx(normal[0], abs=0.01)
    assert row["ci_high"] == pytest.approx(normal[1], abs=0.01)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 399), max_size=6, unique=True))
def test_partials_of_any_split_merge_to_the_whole(cuts: list[int]) -> None:
    df = scored()
    metrics = report_plan(df.collect_schema(), ["model"], detect_evaluators(df.collect_schema()))
    bounds = [0, *sorted(cuts), df.height]
    parts = [
        partials(df.slice(a, b - a), ["model"], metrics) for a, b in itertools.pairwise(bounds)
    ]
    merged = finalize(merge_partials(parts), metrics)
    whole = xf.report(df, by="model")
    assert_frame_equal(merged, whole, check_exact=False, rel_tol=1e-12)


def test_compare_paired_differences() -> None:
    items = [f"q{i}" for i in range(60)]
    rng = random.Random(3)
    truth = {q: rng.random() < 0.5 for q in items}
    rows = []
    for q in items:
        rows.append({"question_id": q, "model": "base", "x_score": float(truth[q])})
        rows.append({"question_id": q, "model": "better", "x_score": 1.0})
        rows.append({"question_id": q, "model": "same", "x_score": float(truth[q])})
    df = pl.DataFrame(rows)
    out = xf.compare(df, "model", "x", baseline="base", n_boot=500)
    better = out.filter(pl.col("model") == "better").row(0, named=True)
    same = out.filter(pl.col("model") == "same").row(0, named=True)
    base_mean = sum(truth.values()) / 60
    assert better["items"] == 60 and better["diff"] == pytest.approx(1 - base_mean)
    assert better["ci_low"] > 0 and better["p_value"] < 0.01
    assert same["diff"] == 0 and same["p_value"] == 1.0
    again = xf.compare(df.reverse(), "model", "x", baseline="base", n_boot=500)
    assert_frame_equal(out, again)


def test_compare_errors() -> None:
    df = pl.DataFrame({"question_id": ["q"], "model": ["m"], "x_score": [1.0]})
    with pytest.raises(KeyError, match="y_score"):
        xf.compare(df, "model", "y")
    with pytest.raises(ValueError, match="baseline 'z'"):
        xf.compare(df, "model", "x", baseline="z")


def test_duplicate_rows_do_not_widen_the_bootstrap_interval() -> None:
    random.seed(1)
    df = pl.DataFrame(
        {
            "prediction": [random.choice(["abc", "abd", "xyz", "ab"]) for _ in range(400)],
            "answer": [random.choice(["abc", "abx", "xyz"]) for _ in range(400)],
        }
    )
    row = xf.report(xf.score(df, "fuzzy")).row(0, named=True)
    normal = 1.96 * row["stderr"]
    assert row["ci_high"] - row["ci_low"] == pytest.approx(2 * normal, rel=0.2)


def test_single_row_corpus_bleu_interval_is_degenerate() -> None:
    df = pl.DataFrame(
        {"prediction": ["the cat sat on the mat"], "answer": ["the cat sat on a mat"]}
    )
    row = (
        xf.report(xf.score(df, "bleu"), evaluators=[xf.get_evaluator("bleu")])
        .filter(pl.col("metric") == "corpus_bleu")
        .row(0, named=True)
    )
    assert row["ci_low"] == row["ci_high"] == pytest.approx(row["score"])


def test_compare_is_independent_of_other_models() -> None:
    rows = []
    rng = random.Random(5)
    for q in range(40):
        for model in ("base", "m1", "m2"):
            rows.append({"question_id": q, "model": model, "x_score": float(rng.random() < 0.6)})
    df = pl.DataFrame(rows)
    both = xf.compare(df, "model", "x", baseline="base").filter(pl.col("model") == "m1")
    alone = xf.compare(df.filter(pl.col("model") != "m2"), "model", "x", baseline="base")
    assert both.equals(alone)
