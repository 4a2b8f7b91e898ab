"""Fuzzy matching, side by side in one run: the seed's per-row loop, the bare rapidfuzz kernel,
polars-ds' ``str_leven`` (Rust plugin), and xpert_frames end to end on both of its paths (the
C extension handing Arrow buffers to rapidfuzz's C scorer, and its twin,
``rapidfuzz.process.cpdist`` on Python strings; scores checked identical to rapidfuzz on every
pair), on the benchmark data (short zh/en answers, repeated references) and on real-length
sentence pairs (zh/en sentences of real words, about 85 characters, nearly all distinct).

The machine running it may be shared: each row's note gives the process CPU time of its best
run beside the wall time, and the load average; compare CPU where wall time is unfair.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

import xpert_frames as xf
from benchmarks.common import Row, runs, size
from benchmarks.data import answers
from xpert_frames.distance import scorers
from xpert_frames.evaluators.fuzzy import FuzzyMatcher

BENCH = "fuzzy"


def timed_cpu(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, float, Any]:
    """Best wall time of ``repeat`` runs, the process CPU time of that run, the last result."""
    best, cpu, result = float("inf"), float("inf"), None
    for _ in range(runs(repeat)):
        gc.collect()
        wall0, cpu0 = time.perf_counter(), time.process_time()
        result = fn()
        wall, used = time.perf_counter() - wall0, time.process_time() - cpu0
        if wall < best:
            best, cpu = wall, used
    return best, cpu, result


def row(bench: str, contender: str, n: int, wall: float, cpu: float, note: str) -> Row:
    out = Row(bench, contender, n, wall, f"{note}; CPU {cpu:.3f} s; load {os.getloadavg()[0]:.1f}")
    out.extra["cpu"] = cpu
    return out


def on_path(native: bool, fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` on the C extension (``native``) or on the cpdist twin."""

    def run() -> Any:
        saved = scorers._NATIVE
        scorers._NATIVE = saved if native else None
        try:
            return fn()
        finally:
            scorers._NATIVE = saved

    return run


def xpert_rows(bench: str, df: pl.DataFrame, pds_row: Row | None) -> tuple[list[Row], Any]:
    """xpert_frames end to end on both paths from an Arrow table (each with its ratios to
    polars-ds), and on the default path from the Polars frame polars-ds is given (the same
    input: no Arrow import or UTF-8 check)."""
    ev = xf.get_evaluator("fuzzy")
    table, n = df.to_arrow(), len(df)
    rows: list[Row] = []
    outs = []

    def ratios(wall: float, cpu: float) -> str:
        if pds_row is None:
            return ""
        return (
            f"; {pds_row.seconds / wall:.2f}x polars-ds wall, {pds_row.extra['cpu'] / cpu:.2f}x CPU"
        )

    wall, cpu, _ = timed_cpu(lambda: xf.score(df, ev), repeat=3)
    name = f"xpert_frames, {scorers.backend()} path (Polars frame in, as polars-ds)"
    rows.append(row(bench, name, n, wall, cpu, "end to end" + ratios(wall, cpu)))
    paths = [True, False] if scorers.backend() == "native" else [False]
    for native in paths:
        wall, cpu, out = timed_cpu(on_path(native, lambda: xf.score(table, ev)), repeat=3)
        name = "C extension" if native else "cpdist twin"
        note = "end to end" + ratios(wall, cpu)
        rows.append(row(bench, f"xpert_frames, {name} (Arrow in, scores out)", n, wall, cpu, note))
        outs.append(out.column("fuzzy_score").to_numpy())
    if len(outs) == 2:
        differ = int(np.count_nonzero(outs[0] != outs[1]))
        rows[-1].note += f"; scores differing from the C extension: {differ:,}"
    return rows, outs[0]


def polars_ds_row(bench: str, df: pl.DataFrame, note: str) -> tuple[Row | None, Any]:
    try:
        import polars_ds as pds
    except ImportError:
        return None, None
    wall, cpu, out = timed_cpu(
        lambda: df.select(pds.str_leven("answer", "prediction", return_sim=True, parallel=True)),
        repeat=3,
    )
    return row(bench, "polars-ds str_leven (parallel)", len(df), wall, cpu, note), out


def run(quick: bool) -> list[Row]:
    n = size(quick, 20_000, 1_000_000)
    seed_n = size(quick, 2_000, 50_000)
    df = answers(n)
    rows: list[Row] = []

    # 1. The seed's per-row loop (FuzzyMatcher.evaluate), on a subset; the rate scales.
    sub = df.head(seed_n)
    refs, preds = sub["answer"].to_list(), sub["prediction"].to_list()
    matcher = FuzzyMatcher(0.6)
    wall, cpu, seed_scores = timed_cpu(
        lambda: [matcher.evaluate(r, p)["similarity"] for r, p in zip(refs, preds, strict=True)]
    )
    rows.append(row(BENCH, "seed per-row loop", seed_n, wall, cpu, f"subset of {seed_n:,}"))

    # 2. The bare rapidfuzz kernel on prebuilt Python lists (conversion not timed).
    a, b = df["answer"].to_list(), df["prediction"].to_list()
    rapidfuzz_scores = None
    for workers in (1, -1):
        wall, cpu, rapidfuzz_scores = timed_cpu(
            lambda w=workers: process.cpdist(
                a, b, scorer=Levenshtein.normalized_similarity, dtype=np.float64, workers=w
            ),
            repeat=3,
        )
        name = f"rapidfuzz cpdist, prebuilt lists, workers={workers}"
        rows.append(row(BENCH, name, n, wall, cpu, "kernel only"))

    # 3. The polars-ds native plugin (Rust, no conversion), when installed.
    pds_row, _ = polars_ds_row(BENCH, df, "native plugin")
    if pds_row is not None:
        rows.append(pds_row)

    # 4. xpert_frames end to end, both paths: Arrow table in, score column out.
    mine, scores = xpert_rows(BENCH, df, pds_row)
    differ = int(np.count_nonzero(scores != rapidfuzz_scores))
    mine[1].note += f"; scores differing from rapidfuzz: {differ:,} of {n:,}"
    rows += mine
    wall, cpu, _ = timed_cpu(lambda: xf.score(df.lazy(), "fuzzy").collect(engine="streaming"))
    worst = max(
        abs(round(g, 4) - s) for g, s in zip(scores[:seed_n].tolist(), seed_scores, strict=True)
    )
    note = f"end to end, {scorers.backend()}; max |diff| vs seed (4 dp) = {worst:.1e}"
    rows.append(row(BENCH, "xpert_frames streaming engine", n, wall, cpu, note))
    return rows + sentences(quick)


def sentences(quick: bool) -> list[Row]:
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
    pds_row, expected = polars_ds_row(bench, df, shape)
    if pds_row is not None:
        rows.append(pds_row)
    a, b = df["answer"], df["prediction"]
    wall, cpu, _ = timed_cpu(
        lambda: process.cpdist(
            a.to_list(), b.to_list(), scorer=Levenshtein.normalized_similarity, workers=-1
        ),
        repeat=3,
    )
    rows.append(row(bench, "rapidfuzz cpdist, list conversion timed", len(df), wall, cpu, "w=-1"))
    mine, scores = xpert_rows(bench, df, pds_row)
    if expected is not None:
        differ = int(np.count_nonzero(scores != expected.to_series().to_numpy()))
        mine[1].note += f"; scores differing from polars-ds: {differ:,}"
    return rows + mine
