"""Fuzzy matching: seed per-row loop vs bare rapidfuzz kernel vs polars-ds vs xpert_frames
(rapidfuzz's Levenshtein through ``process.cpdist``, distinct pairs once, in pieces; scores
checked identical to rapidfuzz on every pair), on the benchmark data (short zh/en answers,
repeated references) and on real-length sentence pairs (zh/en sentences of real words, about
85 characters, nearly all pairs distinct)."""

from __future__ import annotations

import os

import numpy as np
import polars as pl
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
    if pds is not None:
        rows[-1].note += f"; {rows[-2].seconds / t:.2f}x polars-ds; load {os.getloadavg()[0]:.1f}"
    t, _ = timed(lambda: xf.score(df.lazy(), ev).collect(engine="streaming"), repeat=1)
    rows.append(Row(BENCH, "xpert_frames streaming engine", n, t, "end to end"))

    got = out.column("fuzzy_score").to_pylist()[:seed_n]
    worst = max(abs(round(g, 4) - s) for g, s in zip(got, seed_scores, strict=True))
    rows[-1].note += f"; max |diff| vs seed (4 dp) = {worst:.1e}"
    return rows + sentences(quick, pds)


def sentences(quick: bool, pds: object) -> list[Row]:
    """polars-ds vs xpert_frames end to end on real-length sentence pairs (the first row is the
    baseline of this table's ratios)."""
    from benchmarks.bench_bleu import make_data

    bench = "fuzzy, real-length sentence pairs"
    n = size(quick, 20_000, 500_000)
    df = make_data(max(1, n // 10))
    lengths = df.select(pl.col("answer", "prediction").str.len_chars().mean())
    shape = (
        f"mean lengths {lengths['answer'][0]:.0f}/{lengths['prediction'][0]:.0f} chars, "
        f"{df.select(pl.struct('answer', 'prediction').n_unique()).item():,} distinct pairs"
    )
    rows: list[Row] = []
    expected = None
    if pds is not None:
        t, ref = timed(
            lambda: df.select(
                pds.str_leven("answer", "prediction", return_sim=True, parallel=True)  # type: ignore[attr-defined]
            ),
            repeat=2,
        )
        expected = ref.to_series().to_numpy()
        rows.append(Row(bench, "polars-ds str_leven (parallel)", len(df), t, shape))
    a, b = df["answer"], df["prediction"]
    t, _ = timed(
        lambda: process.cpdist(
            a.to_list(), b.to_list(), scorer=Levenshtein.normalized_similarity, workers=-1
        ),
        repeat=2,
    )
    rows.append(Row(bench, "rapidfuzz cpdist, list conversion timed", len(df), t, "workers=-1"))
    ev = xf.get_evaluator("fuzzy")
    table = df.to_arrow()
    t, out = timed(lambda: xf.score(table, ev), repeat=2)
    note = f"end to end; load {os.getloadavg()[0]:.1f}"
    if expected is not None:
        differ = int(np.count_nonzero(out.column("fuzzy_score").to_numpy() != expected))
        note += f"; scores differing from polars-ds: {differ:,}"
    rows.append(Row(bench, "xpert_frames (Arrow in, scores out)", len(df), t, note))
    return rows
