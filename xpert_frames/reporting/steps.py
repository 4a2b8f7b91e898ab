"""The report's three mergeable steps, for engines that split a table.

:func:`partials` reduces any part of a scored table to additive statistics per group and metric
(counts, sums, sums of squares, min, max, per-bucket sums for the bootstrap, corpus statistics),
:func:`merge_partials` adds parts up, :func:`finalize` turns statistics into report rows.
``finalize(merge_partials([partials(a), partials(b)]))`` equals the report of ``a`` and ``b``
together, for any split.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.aliases import Frame
from xpert_frames.core.metrics import ColumnMetric, CorpusMetric
from xpert_frames.reporting import intervals

if TYPE_CHECKING:
    import numpy as np

Metric = ColumnMetric | CorpusMetric
ORDER = "__xf_order"
_ALL = "__xf_all"
_KEY = "__xf_key"
_SCALARS = ("count", "skipped", "not_applicable", "sum", "sumsq")


# --------------------------------------------------------------------------- step 1: partials
def partials(
    scored: Frame,
    by: Sequence[str],
    metrics: Sequence[Metric],
) -> pl.DataFrame:
    """Additive statistics of ``scored`` per group and metric (mergeable across batches)."""
    lf = frames.to_lazy(scored)
    parts = [
        _column_partial(lf, by, m, i)
        if isinstance(m, ColumnMetric)
        else _corpus_partial(lf, by, m, i)
        for i, m in enumerate(metrics)
    ]
    if not parts:
        raise ValueError("no metrics to report on")
    return pl.concat(parts, how="vertical_relaxed")


def _keys(by: Sequence[str], split: str | None) -> list[str]:
    keys = [*by, split] if split and split not in by else list(by)
    return keys or [_ALL]


def _with_all(lf: pl.LazyFrame, by: Sequence[str], split: str | None) -> pl.LazyFrame:
    return lf if (by or split) else lf.with_columns(pl.lit(0).alias(_ALL))


def _group_index(df: pl.DataFrame, keys: list[str]) -> tuple[pl.DataFrame, np.ndarray]:
    uniq = df.select(keys).unique(maintain_order=True).with_row_index("__g")
    idx = df.select(keys).join(uniq, on=keys, how="left", nulls_equal=True, maintain_order="left")
    return uniq.drop("__g"), idx["__g"].to_numpy()


def _buckets(
    lf: pl.LazyFrame, keys: list[str], values: list[pl.Expr], valid: pl.Expr
) -> pl.DataFrame:
    """Per group: the values' sums and the row counts in each hash bucket of the rows
    (``keys`` plus ``bucket_sums`` and ``bucket_counts`` list columns). One Polars group-by;
    the bootstrap itself runs on these sums in :func:`finalize`."""
    import numpy as np

    bucket = (intervals.bucket_key(_KEY) % intervals.BUCKETS).cast(pl.Int64).alias(_KEY)
    agg = (
        lf.filter(valid)
        .with_columns(intervals.row_key().alias(_KEY))
        .group_by(*keys, bucket)
        .agg(
            *(v.cast(pl.Float64).sum().alias(f"__v{i}") for i, v in enumerate(values)),
            pl.len().alias("__n"),
        )
        .collect()
    )
    uniq, groups = _group_index(agg, keys)
    slots = agg[_KEY].to_numpy()
    sums = np.zeros((uniq.height, intervals.BUCKETS, len(values)))
    counts = np.zeros((uniq.height, intervals.BUCKETS))
    sums[groups, slots, :] = agg.select(f"__v{i}" for i in range(len(values))).to_numpy()
    counts[groups, slots] = agg["__n"].to_numpy()
    return uniq.with_columns(
        pl.Series("bucket_sums", [row.ravel() for row in sums], pl.List(pl.Float64)),
        pl.Series("bucket_counts", list(counts), pl.List(pl.Float64)),
    )


def _finish_partial(
    agg: pl.DataFrame,
    boot: pl.DataFrame | None,
    keys: list[str],
    by: Sequence[str],
    metric: pl.Expr,
    order: int,
) -> pl.DataFrame:
    if keys == [_ALL] and agg.height == 0:  # an empty table still has its overall row
        agg = pl.DataFrame(
            {
                _ALL: [0],
                "count": [0],
                "skipped": [0],
                "not_applicable": [0],
                "sum": [0.0],
                "sumsq": [0.0],
            }
        ).with_columns(
            *(pl.lit(None, pl.Float64).alias(c) for c in ("min", "max")),
            *(
                (pl.lit(None, pl.List(pl.Float64)).alias("stats"),)
                if "stats" in agg.columns
                else ()
            ),
        )
    if boot is not None:
        agg = agg.join(boot, on=keys, how="left", nulls_equal=True, maintain_order="left")
    else:
        agg = agg.with_columns(
            pl.lit(None, pl.List(pl.Float64)).alias("bucket_sums"),
            pl.lit(None, pl.List(pl.Float64)).alias("bucket_counts"),
        )
    if "stats" not in agg.columns:
        agg = agg.with_columns(pl.lit(None, pl.List(pl.Float64)).alias("stats"))
    return agg.select(
        *by,
        metric.cast(pl.String).alias("metric"),
        pl.lit(order, pl.Int64).alias(ORDER),
        pl.col("count").cast(pl.Int64),
        pl.col("skipped").cast(pl.Int64),
        pl.col("not_applicable").cast(pl.Int64),
        pl.col("sum", "sumsq", "min", "max").cast(pl.Float64),
        pl.col("stats", "bucket_sums", "bucket_counts"),
    )


def _nulls(score: pl.Expr, applicable: str | None) -> tuple[pl.Expr, pl.Expr]:
    """Null scores split in two: ``skipped`` (invalid rows) and ``not_applicable`` (rows the
    evaluator does not fit; their score is null too)."""
    if applicable is None:
        return score.null_count().alias("skipped"), pl.lit(0).alias("not_applicable")
    outside = pl.col(applicable).not_().sum()
    return (score.null_count() - outside).alias("skipped"), outside.alias("not_applicable")


def _column_partial(
    lf: pl.LazyFrame, by: Sequence[str], m: ColumnMetric, order: int
) -> pl.DataFrame:
    keys = _keys(by, m.split)
    work = _with_all(lf, by, m.split)
    if m.split:  # rows with a null sub-type are invalid rows: in the overall metric only
        work = work.filter(pl.col(m.split).is_not_null())
    s = pl.col(m.column).cast(pl.Float64)
    agg = (
        work.group_by(keys)
        .agg(
            s.count().alias("count"),
            *_nulls(s, m.applicable),
            s.sum().alias("sum"),
            (s * s).sum().alias("sumsq"),
            s.min().alias("min"),
            s.max().alias("max"),
        )
        .collect()
    )
    boot = None if m.binary else _buckets(work, keys, [s], s.is_not_null())
    head, _, tail = m.metric.partition("{}")
    metric = (
        pl.concat_str(pl.lit(head), pl.col(m.split), pl.lit(tail)) if m.split else pl.lit(m.metric)
    )
    return _finish_partial(agg, boot, keys, by, metric, order)


def _corpus_partial(
    lf: pl.LazyFrame, by: Sequence[str], m: CorpusMetric, order: int
) -> pl.DataFrame:
    keys = _keys(by, None)
    work = _with_all(lf, by, None)
    s = pl.col(m.column)
    valid = s.is_not_null()
    sums = [pl.when(valid).then(e).otherwise(None).cast(pl.Float64).sum() for e in m.stats]
    agg = (
        work.group_by(keys)
        .agg(
            s.count().alias("count"),
            *_nulls(s, m.applicable),
            pl.concat_list(sums).alias("stats"),
        )
        .with_columns(*(pl.lit(None, pl.Float64).alias(c) for c in ("sum", "sumsq", "min", "max")))
        .collect()
    )
    boot = _buckets(work, keys, list(m.stats), valid)
    return _finish_partial(agg, boot, keys, by, pl.lit(m.metric), order)


# --------------------------------------------------------------------------- step 2: merge
def merge_partials(parts: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Add up partial statistics of several parts of one table."""
    df = pl.concat(list(parts), how="vertical_relaxed")
    keys = df.columns[: df.columns.index(ORDER) + 1]
    merged = df.group_by(keys, maintain_order=True).agg(
        *(pl.col(c).sum() for c in _SCALARS),
        pl.col("min").min(),
        pl.col("max").max(),
        pl.col("stats"),
        pl.col("bucket_sums"),
        pl.col("bucket_counts"),
    )
    lists = {
        c: [_sum_lists(v) for v in merged[c].to_list()]
        for c in ("stats", "bucket_sums", "bucket_counts")
    }
    return merged.with_columns(
        pl.Series(c, values, pl.List(pl.Float64)) for c, values in lists.items()
    ).select(df.columns)


def _sum_lists(values: list[list[float] | None]) -> list[float] | None:
    import numpy as np

    present = [v for v in values if v is not None]
    return np.sum(np.asarray(present, dtype=np.float64), axis=0).tolist() if present else None


# --------------------------------------------------------------------------- step 3: finalize
def finalize(
    partial: pl.DataFrame, metrics: Sequence[Metric], *, n_boot: int = intervals.N_BOOT
) -> pl.DataFrame:
    """The report from merged statistics (one Python step per report row, not per data row).

    Bootstrap replicates weight each hash bucket of rows by Poisson(1) draws keyed by the
    bucket and the replicate, so the same statistics always give the same interval.
    """
    by = partial.columns[: partial.columns.index("metric")]
    weights = intervals.bucket_weights(n_boot)
    rows: list[dict[str, Any]] = []
    for row in partial.sort([*by, ORDER, "metric"], nulls_last=True).iter_rows(named=True):
        m = metrics[row[ORDER]]
        n = row["count"]
        out = {c: row[c] for c in by} | {
            "metric": row["metric"],
            "count": n,
            "skipped": row["skipped"],
            "not_applicable": row["not_applicable"],
        }
        if isinstance(m, CorpusMetric):
            out |= _corpus_row(m, row, weights)
        else:
            out |= _column_row(m, row, weights)
        rows.append(out)
    schema = {c: partial.schema[c] for c in by} | {
        "metric": pl.String,
        "score": pl.Float64,
        "min": pl.Float64,
        "max": pl.Float64,
        "count": pl.Int64,
        "skipped": pl.Int64,
        "not_applicable": pl.Int64,
        "stderr": pl.Float64,
        "ci_low": pl.Float64,
        "ci_high": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema, orient="row")


def _column_row(m: ColumnMetric, row: dict[str, Any], weights: np.ndarray) -> dict[str, Any]:
    import numpy as np

    n = row["count"]
    mean = row["sum"] / n if n else None
    if m.binary:
        low, high = intervals.wilson(row["sum"], n)
    elif n and row["bucket_counts"] is not None:
        counts = weights @ np.asarray(row["bucket_counts"])
        sums = weights @ np.asarray(row["bucket_sums"])
        with np.errstate(invalid="ignore", divide="ignore"):
            low, high = intervals.percentile_interval(sums / counts)
    else:
        low = high = None
    return {
        "score": mean,
        "min": row["min"] if n else None,
        "max": row["max"] if n else None,
        "stderr": intervals.stderr(row["sum"], row["sumsq"], n),
        "ci_low": low,
        "ci_high": high,
    }


def _corpus_row(m: CorpusMetric, row: dict[str, Any], weights: np.ndarray) -> dict[str, Any]:
    import numpy as np

    n = row["count"]
    if not n:
        return {
            "score": None,
            "min": None,
            "max": None,
            "stderr": None,
            "ci_low": None,
            "ci_high": None,
        }
    total = np.asarray(row["stats"], dtype=np.float64)
    score = float(m.finalize(total[None, :])[0])
    buckets = np.asarray(row["bucket_sums"], dtype=np.float64).reshape(-1, len(total))
    drawn = weights @ np.asarray(row["bucket_counts"], dtype=np.float64) > 0
    replicates = m.finalize(weights[drawn] @ buckets)  # a replicate that drew no row is dropped
    low, high = intervals.percentile_interval(replicates)
    spread = float(np.std(replicates, ddof=1)) if len(replicates) > 1 else None
    return {
        "score": score,
        "min": None,
        "max": None,
        "stderr": spread,
        "ci_low": low,
        "ci_high": high,
    }
