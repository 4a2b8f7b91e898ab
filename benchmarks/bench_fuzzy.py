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


def xpert_rows(bench: str, df: pl.DataFrame, pds: dict[str, Row]) -> tuple[list[Row], Any]:
    """xpert_frames end to end on the default path from the Polars frame polars-ds is given,
    then on both paths from an Arrow table (Arrow import and UTF-8 check included), each with
    its ratios to polars-ds given the same input (``pds``: its rows by input, when installed)."""
    ev = xf.get_evaluator("fuzzy")
    table, n = df.to_arrow(), len(df)
    rows: list[Row] = []
    outs = []

    def ratios(wall: float, cpu: float, given: str) -> str:
        if given not in pds:
            return ""
        base = pds[given]
        return (
            f"; {base.seconds / wall:.2f}x polars-ds ({given} in) wall, "
            f"{base.extra['cpu'] / cpu:.2f}x CPU"
        )

    wall, cpu, _ = timed_cpu(lambda: xf.score(df, ev), repeat=3)
    name = f"xpert_frames, {scorers.backend()} path (Polars frame in, scores out)"
    rows.append(row(bench, name, n, wall, cpu, "end to end" + ratios(wall, cpu, "frame")))
    paths = [True, False] if scorers.backend() == "native" else [False]
    for native in paths:
        wall, cpu, out = timed_cpu(on_path(native, lambda: xf.score(table, ev)), repeat=3)
        name = "C extension" if native else "cpdist twin"
        note = "end to end" + ratios(wall, cpu, "Arrow") + ratios(wall, cpu, "frame")
        rows.append(row(bench, f"xpert_frames, {name} (Arrow in, scores out)", n, wall, cpu, note))
        outs.append(out.column("fuzzy_score").to_numpy())
    if len(outs) == 2:
        differ = int(np.count_nonzero(outs[0] != outs[1]))
        rows[-1].note += f"; scores differing from the C extension: {differ:,}"
    return rows, outs[0]


def polars_ds_rows(bench: str, df: pl.DataFrame, note: str) -> tuple[dict[str, Row], Any]:
    """polars-ds' ``str_leven`` given the Polars frame, and given the same frame as an Arrow
    table (``pl.from_arrow`` timed: the input xpert_frames' Arrow rows get); none when
    polars-ds is not installed."""
    try:
        import polars_ds as pds
    except ImportError:
        return {}, None
    table = df.to_arrow()
    leven = pds.str_leven("answer", "prediction", return_sim=True, parallel=True)
    wall, cpu, out = timed_cpu(lambda: df.select(leven), repeat=3)
    rows = {"frame": row(bench, "polars-ds str_leven (parallel)", len(df), wall, cpu, note)}
    frame = lambda: pl.from_arrow(table).select(leven)  # noqa: E731
    wall, cpu, _ = timed_cpu(frame, repeat=3)
    name = "polars-ds str_leven (parallel), Arrow in"
    rows["Arrow"] = row(bench, name, len(df), wall, cpu, "pl.from_arrow timed")
    return rows, out


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
    pds, _ = polars_ds_rows(BENCH, df, "native plugin")
    rows += pds.values()

    # 4. xpert_frames end to end, both paths: Arrow table in, score column out.
    mine, scores = xpert_rows(BENCH, df, pds)
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
    pds, expected = polars_ds_rows(bench, df, shape)
    rows += pds.values()
    a, b = df["answer"], df["prediction"]
    wall, cpu, _ = timed_cpu(
        lambda: process.cpdist(
            a.to_list(), b.to_list(), scorer=Levenshtein.normalized_similarity, workers=-1
        ),
        repeat=3,
    )
    rows.append(row(bench, "rapidfuzz cpdist, list conversion timed", len(df), wall, cpu, "w=-1"))
    mine, scores = xpert_rows(bench, df, pds)
    if expected is not None:
        differ = int(np.count_nonzero(scores != expected.to_series().to_numpy()))
        mine[1].note += f"; scores differing from polars-ds: {differ:,}"
    return rows + mine
