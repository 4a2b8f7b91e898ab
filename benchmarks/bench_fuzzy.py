"""Fuzzy matching: seed per-row loop vs bare rapidfuzz kernel vs polars-ds vs xpert_frames
(its C kernel on Arrow buffers; scores checked identical to rapidfuzz on every pair)."""

from __future__ import annotations

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

import xpert_frames as xf
from benchmarks.common import Row, size, timed
from benchmarks.data import answers
from xpert_frames.evaluators.fuzzy import FuzzyMatcher

BENCH = "fuzzy"


def run(quick: bool) -> list[Row]:
    n = size(quick, 20_000, 1_000_000)
    seed_n = size(quick, 2_000, 50_000)
    df = answers(n)
    table = df.to_arrow()
    rows: list[Row] = []

    # 1. The seed's per-row loop (FuzzyMatcher.evaluate), on a subset; the rate scales.
    sub = df.head(seed_n)
    refs, preds = sub["answer"].to_list(), sub["prediction"].to_list()
    matcher = FuzzyMatcher(0.6)
    t, seed_scores = timed(
        lambda: [matcher.evaluate(r, p)["similarity"] for r, p in zip(refs, preds, strict=True)]
    )
    rows.append(Row(BENCH, "seed per-row loop", seed_n, t, f"subset of {seed_n:,}"))

    # 2. The bare rapidfuzz kernel on prebuilt Python lists (conversion not timed).
    a, b = df["answer"].to_list(), df["prediction"].to_list()
    rapidfuzz_scores = None
    for workers in (1, -1):
        t, rapidfuzz_scores = timed(
            lambda w=workers: process.cpdist(
                a, b, scorer=Levenshtein.normalized_similarity, dtype=np.float64, workers=w
            ),
            repeat=2,
        )
        rows.append(
            Row(BENCH, f"rapidfuzz cpdist, prebuilt lists, workers={workers}", n, t, "kernel only")
        )

    # 3. The polars-ds native plugin (Rust, no conversion), when installed.
    try:
        import polars_ds as pds
    except ImportError:
        pds = None
    if pds is not None:
        t, _ = timed(
            lambda: df.select(
                pds.str_leven("answer", "prediction", return_sim=True, parallel=True)
            ),
            repeat=2,
        )
        rows.append(Row(BENCH, "polars-ds str_leven (parallel)", n, t, "native plugin"))

    # 4. xpert_frames end to end: Arrow table in, score column out.
    ev = xf.get_evaluator("fuzzy")
    t, out = timed(lambda: xf.score(table, ev), repeat=2)
    rows.append(Row(BENCH, "xpert_frames (Arrow in, scores out)", n, t, "end to end"))
    differ = int(np.count_nonzero(out.column("fuzzy_score").to_numpy() != rapidfuzz_scores))
    rows[-1].note += f"; scores differing from rapidfuzz: {differ:,} of {n:,}"
    t, _ = timed(lambda: xf.score(df.lazy(), ev).collect(engine="streaming"), repeat=1)
    rows.append(Row(BENCH, "xpert_frames streaming engine", n, t, "end to end"))

    got = out.column("fuzzy_score").to_pylist()[:seed_n]
    worst = max(abs(round(g, 4) - s) for g, s in zip(got, seed_scores, strict=True))
    rows[-1].note += f"; max |diff| vs seed (4 dp) = {worst:.1e}"
    return rows
