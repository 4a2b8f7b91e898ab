"""The reports' bootstrap against a plain-Python oracle of its definition (reporting/bootstrap.py):
occurrence k of a distinct value goes to bucket splitmix64(key + k·c) mod 1024, the key folded
from the value's bits; replicate b weighs bucket j by a Poisson(1) draw from a hash of (j, b).
Groups of one row, a few rows and many rows (the three ways the bootstrap is computed)."""

from __future__ import annotations

import bisect
import math
import random
import struct

import numpy as np
import polars as pl
import pytest

import xpert_frames as xf
from xpert_frames.core.metrics import ColumnMetric, CorpusMetric
from xpert_frames.reporting import bootstrap, intervals
from xpert_frames.reporting.steps import finalize, merge_partials, partials

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
OCCURRENCE = 0xD1B54A32D192ED03
N_BOOT = 120
CDF = [sum(math.exp(-1) / math.factorial(i) for i in range(k + 1)) for k in range(12)]


def splitmix(x: int) -> int:
    z = (x + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def weight(bucket: int, replicate: int) -> int:
    mixed = splitmix(bucket ^ (((replicate + 1) * GOLDEN) & MASK))
    return bisect.bisect_right(CDF, (mixed >> 11) / float(1 << 53))


def key(values: tuple[float, ...]) -> int:
    h = intervals.SEED
    for v in values:
        v = 0.0 if v == 0 else v
        h = splitmix(h ^ struct.unpack("<Q", struct.pack("<d", v))[0])
    return h


def buckets(values: list[tuple[float, ...]]) -> list[tuple[int, tuple[float, ...]]]:
    """(bucket, values) of every occurrence of every distinct value of one group."""
    seen: dict[tuple[float, ...], int] = {}
    out = []
    for v in sorted(values):
        k = seen.get(v, 0)
        seen[v] = k + 1
        out.append((splitmix((key(v) + k * OCCURRENCE) & MASK) % 1024, v))
    return out


def percentile(ordered: list[float], q: float) -> float:
    virtual = q * (len(ordered) - 1)
    lo = math.floor(virtual)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (virtual - lo)


def oracle(values: list[tuple[float, ...]], statistic) -> tuple[float, float, float]:
    """Interval (2.5, 97.5 percentiles) and standard deviation of the replicates."""
    occurrences = buckets(values)
    reps = []
    for b in range(N_BOOT):
        sums = [0.0] * len(values[0])
        rows = 0.0
        for bucket, v in occurrences:
            w = weight(bucket, b)
            sums = [s + w * x for s, x in zip(sums, v, strict=True)]
            rows += w
        if rows > 0:
            reps.append(statistic(sums, rows))
    reps.sort()
    mean = math.fsum(reps) / len(reps)
    std = math.sqrt(math.fsum((r - mean) ** 2 for r in reps) / (len(reps) - 1))
    return percentile(reps, 0.025), percentile(reps, 0.975), std


def groups() -> pl.DataFrame:
    rng = random.Random(11)
    sizes = {"one": 1, "few": 7, "dup": 40, "many": 90, "big": 400}
    rows = []
    for g, n in sizes.items():
        pool = [rng.choice([0.0, 0.25, 0.5, 1 / 3, 0.9, 1.0]) for _ in range(5)]
        for _ in range(n):
            score = rng.choice(pool) if g == "dup" else round(rng.random(), 2)
            a, b = rng.randint(0, 5), rng.randint(1, 6)
            rows.append({"g": g, "x_score": score, "a": float(a), "b": float(b)})
        rows.append({"g": g, "x_score": None, "a": None, "b": None})
    return pl.DataFrame(rows)


RATIO = CorpusMetric(
    "ratio",
    "x_score",
    stats=(pl.col("a"), pl.col("b")),
    finalize=lambda s: s[:, 0] / s[:, 1],
)


def test_dense_and_sparse_groups_are_both_computed() -> None:
    sizes = groups().group_by("g").len()
    dense = sizes.filter(pl.col("len") > bootstrap.DENSE_MIN).height
    assert 0 < dense < sizes.height  # the test covers both ways (and one-row groups)


def test_column_metric_matches_the_oracle() -> None:
    df = groups()
    m = ColumnMetric("x", "x_score")
    rep = finalize(partials(df, ["g"], [m]), [m], n_boot=N_BOOT)
    for row in rep.iter_rows(named=True):
        vals = [v for v in df.filter(pl.col("g") == row["g"])["x_score"] if v is not None]
        assert row["count"] == len(vals) and row["skipped"] == 1
        assert row["score"] == pytest.approx(math.fsum(vals) / len(vals), rel=1e-12)
        assert (row["min"], row["max"]) == (min(vals), max(vals))
        low, high, _ = oracle([(v,) for v in vals], lambda s, n: s[0] / n)
        # the report clips the interval to [min, max] (rounding of a constant group)
        assert row["ci_low"] == pytest.approx(max(low, min(vals)), rel=1e-12, abs=1e-15)
        assert row["ci_high"] == pytest.approx(min(high, max(vals)), rel=1e-12, abs=1e-15)


def test_corpus_metric_matches_the_oracle() -> None:
    df = groups()
    rep = finalize(partials(df, ["g"], [RATIO]), [RATIO], n_boot=N_BOOT)
    for row in rep.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"], pl.col("x_score").is_not_null())
        vals: list[tuple[float, ...]] = list(zip(part["a"], part["b"], strict=True))
        assert row["score"] == pytest.approx(sum(part["a"]) / sum(part["b"]), rel=1e-12)
        low, high, std = oracle(vals, lambda s, n: s[0] / s[1] if s[1] else float("nan"))
        assert row["ci_low"] == pytest.approx(low, rel=1e-12)
        assert row["ci_high"] == pytest.approx(high, rel=1e-12)
        if row["count"] > 1:
            assert row["stderr"] == pytest.approx(std, rel=1e-9)


def test_keys_and_buckets_match_the_oracle() -> None:
    values = np.array([[0.0], [-0.0], [0.5], [1 / 3], [1.0]])
    keys = bootstrap.content_keys(values)
    assert [int(k) for k in keys] == [key((float(v),)) for v in values[:, 0]]
    counts = np.array([3, 1, 2, 1, 4])
    got = bootstrap.occurrence_buckets(keys, counts).tolist()
    want = [
        splitmix((key((float(v),)) + k * OCCURRENCE) & MASK) % 1024
        for v, n in zip(values[:, 0], counts, strict=True)
        for k in range(n)
    ]
    assert got == want


def test_split_states_of_dense_groups_merge_to_exactly_the_whole() -> None:
    df = groups().sample(fraction=1.0, shuffle=True, seed=3)
    m = ColumnMetric("x", "x_score")
    parts = [partials(df.slice(i, 450), ["g"], [m, RATIO]) for i in range(0, df.height, 450)]
    whole = finalize(partials(df, ["g"], [m, RATIO]), [m, RATIO], n_boot=N_BOOT)
    merged = finalize(merge_partials(parts[::-1]), [m, RATIO], n_boot=N_BOOT)
    assert merged.equals(whole)


def test_report_of_a_scored_frame_is_unchanged_by_row_order() -> None:
    df = xf.score(
        pl.DataFrame(
            {
                "model": ["a", "b"] * 200,
                "prediction": [f"answer {i % 37}" for i in range(400)],
                "answer": [f"answer {i % 41}" for i in range(400)],
            }
        ),
        "fuzzy",
    )
    one = xf.report(df, by="model")
    assert one.equals(xf.report(df.reverse(), by="model"))
