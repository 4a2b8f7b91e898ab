"""Reports: ``xf.report`` with intervals on an already-scored table grouped by model (10 models,
fuzzy + accuracy: a bootstrap metric and three 0/1 metrics), side by side with group-by means
without intervals (Polars; plain Python on prebuilt lists) and with the report's two steps alone
(the group-by that builds the mergeable state; finalize, the numpy counts and bootstrap).

The scored table is ``n`` rows drawn from a scored pool of distinct answers (scoring is timed in
the evaluators' benchmarks, not here). The report's score/min/max/count are checked against
the plain-Python group-by on every run.
"""

from __future__ import annotations

import gc
import math
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl

import xpert_frames as xf
from benchmarks.common import Row, size
from benchmarks.data import answers
from xpert_frames.reporting import intervals
from xpert_frames.reporting.report import report_plan
from xpert_frames.reporting.steps import finalize, partials

BENCH = "report"
MODELS = 10
METRICS = {"fuzzy": "fuzzy_score", "fuzzy_match_rate": "fuzzy_match", "accuracy": "accuracy_score"}


def scored_table(n: int, pool: int) -> pl.DataFrame:
    """``n`` scored rows, ``MODELS`` models, drawn from ``pool`` scored answers."""
    scored = xf.score(answers(pool), ["fuzzy", "accuracy"])
    pick = np.random.default_rng(0).integers(0, pool, n)
    return scored[pick].with_columns(
        pl.format("model_{}", pl.int_range(pl.len()) % MODELS).alias("model")
    )


def plain_python(models: list[str], columns: dict[str, list[Any]]) -> dict[tuple[str, str], list]:
    """Per (model, metric): [sum, min, max, count] of the non-null scores, one row at a time."""
    out: dict[tuple[str, str], list] = {}
    for metric, values in columns.items():
        for model, v in zip(models, values, strict=True):
            if v is None:
                continue
            v = float(v)
            acc = out.get((model, metric))
            if acc is None:
                out[(model, metric)] = [v, v, v, 1]
            else:
                acc[0] += v
                acc[1] = min(acc[1], v)
                acc[2] = max(acc[2], v)
                acc[3] += 1
    return out


def polars_means(df: pl.DataFrame) -> pl.DataFrame:
    cols = [pl.col(c).cast(pl.Float64) for c in METRICS.values()]
    return df.group_by("model").agg(
        *(c.mean().name.suffix("_mean") for c in cols),
        *(c.min().name.suffix("_min") for c in cols),
        *(c.max().name.suffix("_max") for c in cols),
        *(c.count().name.suffix("_count") for c in cols),
    )


def cpu_and_wall(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """Best wall and best CPU seconds (all threads) of ``repeat`` runs, and the last result."""
    wall, cpu, result = math.inf, math.inf, None
    for _ in range(repeat):
        gc.collect()
        c, w = time.process_time(), time.perf_counter()
        result = fn()
        wall = min(wall, time.perf_counter() - w)
        cpu = min(cpu, time.process_time() - c)
    return wall, cpu, result


def run(quick: bool) -> list[Row]:
    n = size(quick, 100_000, 1_000_000)
    df = scored_table(n, min(n, 20_000))
    evaluators = [xf.get_evaluator("fuzzy"), xf.get_evaluator("accuracy")]
    metrics = report_plan(df.collect_schema(), ["model"], evaluators)
    repeat = 3 if quick else 5
    rows: list[Row] = []

    def add(contender: str, fn: Callable[[], Any], note: str, times: int = repeat) -> Any:
        wall, cpu, result = cpu_and_wall(fn, times)
        load = os.getloadavg()[0]
        rows.append(Row(BENCH, contender, n, wall, f"{note}; CPU {cpu:.3f} s; load {load:.1f}"))
        return result

    add("Polars group-by mean/min/max/count", lambda: polars_means(df), "no intervals")
    models = df["model"].to_list()
    columns = {m: df[c].to_list() for m, c in METRICS.items()}
    expected = add(
        "plain Python group-by, prebuilt lists",
        lambda: plain_python(models, columns),
        "no intervals; conversion not timed",
        times=1,
    )
    intervals.bucket_weights.cache_clear()
    add(
        "xf.report, first in process",
        lambda: xf.report(df, "model", evaluators=evaluators),
        "builds the weight matrix",
        times=1,
    )
    report = add(
        "xf.report (intervals)",
        lambda: xf.report(df, "model", evaluators=evaluators),
        "end to end, warm",
    )
    state = add("kernel: partials (state)", lambda: partials(df, ["model"], metrics), "group-by")
    add(
        "kernel: finalize (bootstrap)", lambda: finalize(state, metrics), f"{state.height:,} states"
    )

    exact: dict[tuple[str, str], list[float]] = {}  # correctly rounded sums (math.fsum)
    for metric, values in columns.items():
        for model, v in zip(models, values, strict=True):
            if v is not None:
                exact.setdefault((model, metric), []).append(float(v))
    worst = 0.0
    for row in report.filter(pl.col("metric").is_in(list(METRICS))).iter_rows(named=True):
        _, low, high, count = expected[(row["model"], row["metric"])]
        assert (row["min"], row["max"], row["count"]) == (low, high, count), row
        mean = math.fsum(exact[(row["model"], row["metric"])]) / count
        worst = max(worst, abs(row["score"] - mean) / abs(mean))
    check = "vs plain Python: min/max/count equal, max relative score difference to math.fsum"
    rows[3].note += f"; {check} {worst:.1e}"
    return rows
