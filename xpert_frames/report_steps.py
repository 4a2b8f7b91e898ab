"""The report's three mergeable steps, for engines that split a table.

:func:`partials` reduces any part of a scored table to a mergeable state per group and metric:
the number of skipped rows, and every *distinct* valid row (a 64-bit hash of all its columns)
with its number of occurrences and its values (the score, or a corpus metric's statistics).
:func:`merge_partials` adds states up (occurrence counts of the same content are summed),
:func:`finalize` turns a state into report rows: counts, sums, min, max and the bootstrap are all
computed there, from the state sorted by group and content hash.

Guarantee: for ANY split of a table into parts (any rows, any order, duplicate rows anywhere),
``finalize(merge_partials([partials(p) for p in parts]))`` is *exactly* (bit for bit)
``finalize(partials(table))``: the merged state equals the state of the whole, row order never
enters it, and finalize is a function of the state alone. The only exception is two different
rows with the same 64-bit content hash in one group (about 1 in 10^7 for a million-row group),
where the values of either may be kept. The state has one row per distinct valid row and per
group (plus one per group for skipped rows): it grows with the table, not with groups × buckets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from xpert_frames import frames, stats
from xpert_frames._typing import Frame
from xpert_frames.metrics import ColumnMetric, CorpusMetric

if TYPE_CHECKING:
    import numpy as np

Metric = ColumnMetric | CorpusMetric
ORDER = "__xf_order"
HASH = "hash"
N = "n"
VALUES = "values"
_ALL = "__xf_all"
_REPORT_SCHEMA = {
    "metric": pl.String,
    "score": pl.Float64,
    "min": pl.Float64,
    "max": pl.Float64,
    "count": pl.Int64,
    "skipped": pl.Int64,
    "stderr": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
}


# --------------------------------------------------------------------------- step 1: partials
def partials(
    scored: Frame,
    by: Sequence[str],
    metrics: Sequence[Metric],
) -> pl.DataFrame:
    """The mergeable state of ``scored`` per group and metric: columns ``by``, ``metric``,
    ``__xf_order`` (index into ``metrics``), ``hash`` (null on the row counting skipped rows),
    ``n`` (occurrences), ``skipped`` and ``values``."""
    lf = frames.to_lazy(scored)
    if not metrics:
        raise ValueError("no metrics to report on")
    return pl.concat(
        [_partial(lf, by, m, i) for i, m in enumerate(metrics)], how="vertical_relaxed"
    )


def _keys(by: Sequence[str], split: str | None) -> list[str]:
    keys = [*by, split] if split and split not in by else list(by)
    return keys or [_ALL]


def _partial(lf: pl.LazyFrame, by: Sequence[str], m: Metric, order: int) -> pl.DataFrame:
    split = m.split if isinstance(m, ColumnMetric) else None
    keys = _keys(by, split)
    work = lf if (by or split) else lf.with_columns(pl.lit(0).alias(_ALL))
    if split:  # rows without a sub-type are in the overall metric only
        work = work.filter(pl.col(split).is_not_null())
    s = pl.col(m.column)
    values = [s] if isinstance(m, ColumnMetric) else list(m.stats)
    tally = work.group_by(keys).agg(s.null_count().cast(pl.Int64).alias("skipped"))
    content = (
        work.filter(s.is_not_null())
        .with_columns(stats.row_key().alias(HASH))
        .group_by(*keys, HASH)
        .agg(
            pl.len().cast(pl.Int64).alias(N),
            pl.concat_list(v.cast(pl.Float64) for v in values).first().alias(VALUES),
        )
    )
    head, _, tail = m.metric.partition("{}")
    metric = pl.concat_str(pl.lit(head), pl.col(split), pl.lit(tail)) if split else pl.lit(m.metric)
    columns = [*by, metric.cast(pl.String).alias("metric"), pl.lit(order, pl.Int64).alias(ORDER)]
    tally = tally.select(
        *columns,
        pl.lit(None, pl.UInt64).alias(HASH),
        pl.lit(0, pl.Int64).alias(N),
        pl.col("skipped"),
        pl.lit(None, pl.List(pl.Float64)).alias(VALUES),
    )
    content = content.select(*columns, HASH, N, pl.lit(0, pl.Int64).alias("skipped"), VALUES)
    return pl.concat(pl.collect_all([tally, content]), how="vertical_relaxed")


# --------------------------------------------------------------------------- step 2: merge
def merge_partials(parts: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Add up the states of several parts of one table (any split)."""
    df = pl.concat(list(parts), how="vertical_relaxed")
    keys = [*df.columns[: df.columns.index(ORDER) + 1], HASH]
    return (
        df.group_by(keys)
        .agg(pl.col(N).sum(), pl.col("skipped").sum(), pl.col(VALUES).first())
        .select(df.columns)
    )


# --------------------------------------------------------------------------- step 3: finalize
def finalize(
    partial: pl.DataFrame, metrics: Sequence[Metric], *, n_boot: int = stats.N_BOOT
) -> pl.DataFrame:
    """The report from a state made by :func:`partials` or :func:`merge_partials`.

    Everything is computed here from the state sorted by group and content hash, with numpy
    over whole arrays (no Python step per row or per group, except one per block of groups).
    """
    by = partial.columns[: partial.columns.index("metric")]
    state = partial.sort([ORDER, *by, "metric", HASH], nulls_last=True)
    bounds = state[ORDER].to_numpy()
    frames_out = []
    for i, m in enumerate(metrics):
        lo, hi = (int(x) for x in bounds.searchsorted([i, i + 1]))
        part = state.slice(lo, hi - lo)
        if part.height:
            frames_out.append(
                _finalize_metric(part, by, m, n_boot).with_columns(pl.lit(i, pl.Int64).alias(ORDER))
            )
        elif not by and not (isinstance(m, ColumnMetric) and m.split):
            empty = {"metric": [m.metric], "count": [0], "skipped": [0]}
            frames_out.append(
                pl.DataFrame(
                    empty, schema_overrides={"count": pl.Int64, "skipped": pl.Int64}
                ).with_columns(pl.lit(i, pl.Int64).alias(ORDER))
            )
    schema = {c: partial.schema[c] for c in by} | _REPORT_SCHEMA
    if not frames_out:
        return pl.DataFrame(schema=schema)
    out = pl.concat(frames_out, how="diagonal_relaxed")
    out = out.sort([*by, ORDER, "metric"], nulls_last=True, maintain_order=True)
    missing = [pl.lit(None, t).alias(c) for c, t in schema.items() if c not in out.columns]
    return out.with_columns(missing).select(pl.col(c).cast(t) for c, t in schema.items())


def _finalize_metric(part: pl.DataFrame, by: Sequence[str], m: Metric, n_boot: int) -> pl.DataFrame:
    import numpy as np

    gid = part.select(pl.struct(*by, "metric").rle_id()).to_series().to_numpy().astype(np.int64)
    starts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
    n_groups = len(starts)
    n = part[N].to_numpy().astype(np.int64)
    count = np.add.reduceat(n, starts)
    skipped = np.add.reduceat(part["skipped"].to_numpy().astype(np.int64), starts)
    content = part[HASH].is_not_null().to_numpy()
    gc, nc = gid[content], n[content]
    hc = part[HASH].filter(content).to_numpy()
    k = 1 if isinstance(m, ColumnMetric) else len(m.stats)
    values = (
        part[VALUES].filter(content).explode().fill_null(0.0).to_numpy().reshape(-1, k)
        if len(gc)
        else np.zeros((0, k))
    )
    totals = np.zeros((n_groups, k))
    cstarts = np.flatnonzero(np.r_[True, gc[1:] != gc[:-1]]) if len(gc) else np.zeros(0, int)
    if len(gc):
        totals[gc[cstarts]] = np.add.reduceat(nc[:, None] * values, cstarts, axis=0)
    cols: dict[str, Any] = {"count": count, "skipped": skipped}
    if isinstance(m, ColumnMetric):
        v = values[:, 0]
        low = np.full(n_groups, np.nan)
        high = np.full(n_groups, np.nan)
        sumsq = np.zeros(n_groups)
        if len(gc):
            sumsq[gc[cstarts]] = np.add.reduceat(nc * v * v, cstarts)
            low[gc[cstarts]] = np.minimum.reduceat(v, cstarts)
            high[gc[cstarts]] = np.maximum.reduceat(v, cstarts)
        with np.errstate(invalid="ignore", divide="ignore"):
            cols |= {"score": totals[:, 0] / count, "min": low, "max": high}
        cols["stderr"] = stats.stderr_arrays(totals[:, 0], sumsq, count)
        if m.binary:
            cols["ci_low"], cols["ci_high"] = stats.wilson_arrays(totals[:, 0], count)
        else:
            ci_low, ci_high, _ = _bootstrap(gc, hc, nc, values, n_groups, _ratio, n_boot)
            # A weighted mean lies in [min, max]; clipping removes rounding (a constant group's
            # interval is exactly its value).
            cols["ci_low"], cols["ci_high"] = (
                np.clip(ci_low, low, high),
                np.clip(ci_high, low, high),
            )
    else:
        finalize_fn = m.finalize

        def corpus(sums: np.ndarray, rows: np.ndarray) -> np.ndarray:
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(rows > 0, finalize_fn(sums), np.nan)  # no row drawn: dropped

        cols["score"] = np.where(count > 0, finalize_fn(totals), np.nan)
        cols["ci_low"], cols["ci_high"], cols["stderr"] = _bootstrap(
            gc, hc, nc, values, n_groups, corpus, n_boot
        )
    head = part[starts.tolist()].select(*by, "metric")
    return head.with_columns(
        pl.Series(name, np.asarray(col)).fill_nan(None)
        if name not in ("count", "skipped")
        else pl.Series(name, col, pl.Int64)
        for name, col in cols.items()
    )


def _ratio(sums: np.ndarray, rows: np.ndarray) -> np.ndarray:
    import numpy as np

    with np.errstate(invalid="ignore", divide="ignore"):
        return sums[:, 0] / rows


def _bootstrap(
    group: np.ndarray,
    hashes: np.ndarray,
    counts: np.ndarray,
    values: np.ndarray,
    n_groups: int,
    statistic: stats.Replicate,
    n_boot: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Occurrences to buckets, (group, bucket) cells summed, then :func:`stats.bootstrap`."""
    import numpy as np

    owner, bucket = stats.occurrence_buckets(hashes, counts)
    cell = group[owner] * stats.BUCKETS + bucket
    cells, inverse = np.unique(cell, return_inverse=True)
    sums = (
        np.stack(
            [
                np.bincount(inverse, weights=values[owner, j], minlength=len(cells))
                for j in range(values.shape[1])
            ],
            axis=-1,
        )
        if len(cells)
        else np.zeros((0, values.shape[1]))
    )
    rows = np.bincount(inverse, minlength=len(cells)).astype(np.float64)
    return stats.bootstrap(
        cells // stats.BUCKETS, cells % stats.BUCKETS, sums, rows, n_groups, statistic, n_boot
    )
