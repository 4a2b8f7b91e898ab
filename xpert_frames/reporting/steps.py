"""The report's three mergeable steps, for engines that split a table.

:func:`partials` reduces any part of a scored table to a mergeable state per group and metric:
the number of skipped (and not applicable) rows, and every *distinct* value (the score, or a
corpus metric's tuple of statistics, keyed by a 64-bit hash of it) with its number of
occurrences. :func:`merge_partials` adds states up (occurrence counts of the same value are
summed), :func:`finalize` turns a state into report rows: counts, sums, min, max and the
bootstrap (:mod:`xpert_frames.reporting.bootstrap`) are all computed there, from the state sorted
by group and content hash.

Guarantee: for ANY split of a table into parts (any rows, any order, duplicate rows anywhere),
``finalize(merge_partials([partials(p) for p in parts]))`` is *exactly* (bit for bit)
``finalize(partials(table))``: the merged state equals the state of the whole, row order never
enters it, and finalize is a function of the state alone. The only exception is two different
values with the same 64-bit hash in one group (about 1 in 10^7 for a group of a million
distinct values): both are kept, but the order of a sum may then differ. The state has one row
per distinct value and group (plus one per group with null scores): it grows with the distinct
values, at most with the table, never with groups × buckets; one group-by of the table makes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.aliases import Frame
from xpert_frames.core.exceptions import NoScoresError
from xpert_frames.core.metrics import ColumnMetric, CorpusMetric
from xpert_frames.reporting import bootstrap, intervals

if TYPE_CHECKING:
    import numpy as np

Metric = ColumnMetric | CorpusMetric
ORDER = "__xf_order"
HASH = "hash"
N = "n"
VALUE = "v{}"  #: value columns v0, v1, ...: the score, or a corpus metric's statistics
_ALL = "__xf_all"
_VALID = "__xf_valid"
_OUTSIDE = "__xf_outside"
_REPORT_SCHEMA = {
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


# --------------------------------------------------------------------------- step 1: partials
def partials(
    scored: Frame,
    by: Sequence[str],
    metrics: Sequence[Metric],
) -> pl.DataFrame:
    """The mergeable state of ``scored`` per group and metric: columns ``by``, ``metric``,
    ``__xf_order`` (index into ``metrics``), ``hash`` (null on a row counting skipped rows),
    ``n`` (occurrences), ``skipped`` and the values ``v0``, ``v1``, ... of each distinct row."""
    lf = frames.to_lazy(scored)
    if not metrics:
        raise NoScoresError("no metrics to report on")
    width = max(_width(m) for m in metrics)
    plans = [_partial(lf, by, m, i, width) for i, m in enumerate(metrics)]
    return pl.concat(pl.collect_all(plans), how="vertical_relaxed")


def _width(m: Metric) -> int:
    return 1 if isinstance(m, ColumnMetric) else len(m.stats)


def _keys(by: Sequence[str], split: str | None) -> list[str]:
    keys = [*by, split] if split and split not in by else list(by)
    return keys or [_ALL]


def _partial(
    lf: pl.LazyFrame, by: Sequence[str], m: Metric, order: int, width: int
) -> pl.LazyFrame:
    """One group-by of the table per metric, on the group keys and the values: a row per
    (group, distinct value) with its occurrences, and a row (``hash`` null) per group with null
    scores counting them as skipped or not applicable (rows the evaluator does not fit; their
    score is null too)."""
    split = m.split if isinstance(m, ColumnMetric) else None
    keys = _keys(by, split)
    work = lf if (by or split) else lf.with_columns(pl.lit(0).alias(_ALL))
    if split:  # rows without a sub-type are in the overall metric only
        work = work.filter(pl.col(split).is_not_null())
    s = pl.col(m.column)
    names = [VALUE.format(j) for j in range(width)]
    if isinstance(m, ColumnMetric):  # a value is null exactly when the score is
        values = [s.cast(pl.Float64).alias(names[0])]
        content = pl.col(names[0]).is_not_null()
        key = pl.col(names[0]).hash(intervals.SEED)
    else:  # a corpus metric's statistics, counted on rows with a score
        values = [
            pl.when(s.is_not_null()).then(v.cast(pl.Float64)).alias(names[j])
            for j, v in enumerate(m.stats)
        ]
        values.append(s.is_not_null().alias(_VALID))
        content = pl.col(_VALID)
        key = pl.struct(names[: len(m.stats)]).hash(intervals.SEED)
    head, _, tail = m.metric.partition("{}")
    metric = pl.concat_str(pl.lit(head), pl.col(split), pl.lit(tail)) if split else pl.lit(m.metric)
    outside = (
        [pl.col(m.applicable).not_().sum().cast(pl.Int64).alias(_OUTSIDE)] if m.applicable else []
    )
    na = pl.col(_OUTSIDE) if m.applicable else pl.lit(0, pl.Int64)
    k = len(values) if isinstance(m, ColumnMetric) else len(m.stats)
    return (
        work.group_by(*keys, *values)
        .agg(pl.len().cast(pl.Int64).alias(N), *outside)
        .select(
            *by,
            metric.cast(pl.String).alias("metric"),
            pl.lit(order, pl.Int64).alias(ORDER),
            pl.when(content).then(key).alias(HASH),
            pl.when(content).then(pl.col(N)).otherwise(0).alias(N),
            pl.when(content).then(0).otherwise(pl.col(N) - na).alias("skipped"),
            pl.when(content).then(0).otherwise(na).alias("not_applicable"),
            *names[:k],
            *(pl.lit(None, pl.Float64).alias(name) for name in names[k:]),
        )
    )


# --------------------------------------------------------------------------- step 2: merge
def merge_partials(parts: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Add up the states of several parts of one table (any split)."""
    df = pl.concat(list(parts), how="vertical_relaxed")
    values = df.columns[df.columns.index("not_applicable") + 1 :]
    keys = [*df.columns[: df.columns.index(ORDER) + 1], HASH, *values]
    counts = (pl.col(c).sum() for c in (N, "skipped", "not_applicable"))
    return df.group_by(keys).agg(*counts).select(df.columns)


# --------------------------------------------------------------------------- step 3: finalize
def finalize(
    partial: pl.DataFrame, metrics: Sequence[Metric], *, n_boot: int = intervals.N_BOOT
) -> pl.DataFrame:
    """The report from a state made by :func:`partials` or :func:`merge_partials`.

    Everything is computed here from the state sorted by group and content hash, with numpy
    over whole arrays (no Python step per row or per group, except one per block of groups).
    """
    by = partial.columns[: partial.columns.index("metric")]
    frames_out = []
    # One metric at a time (a state of one metric is used as it is: no copy).
    if len(metrics) == 1:
        per_metric = {0: partial}
    else:
        per_metric = {k[0]: v for k, v in partial.partition_by(ORDER, as_dict=True).items()}
    for i, m in enumerate(metrics):
        part = per_metric.get(i, partial.clear())
        if part.height:
            frames_out.append(
                _finalize_metric(part, by, m, n_boot).with_columns(pl.lit(i, pl.Int64).alias(ORDER))
            )
        elif not by and not (isinstance(m, ColumnMetric) and m.split):
            empty = {"metric": [m.metric], "count": [0], "skipped": [0], "not_applicable": [0]}
            frames_out.append(
                pl.DataFrame(
                    empty,
                    schema_overrides={c: pl.Int64 for c in ("count", "skipped", "not_applicable")},
                ).with_columns(pl.lit(i, pl.Int64).alias(ORDER))
            )
    schema = {c: partial.schema[c] for c in by} | _REPORT_SCHEMA
    if not frames_out:
        return pl.DataFrame(schema=schema)
    return concat_reports(frames_out, by)


def concat_reports(reports: list[pl.DataFrame], by: Sequence[str]) -> pl.DataFrame:
    """Reports of single metrics, in metric order, as one report sorted by group, then metric
    order. The list is emptied: the result is built a column at a time (concatenated, then
    gathered in the order of a stable sort of the group keys), each dropped from the parts
    once copied, so a report of a million groups is held about once, not three times."""
    schema = {c: reports[0].schema[c] for c in by} | _REPORT_SCHEMA
    parts = [
        r.with_columns(
            pl.lit(None, t).alias(c) for c, t in schema.items() if c not in r.columns
        ).select(pl.col(c).cast(t) for c, t in schema.items())
        for r in reports
    ]
    reports.clear()
    if not by:
        return pl.concat(parts)
    keys = pl.concat([p.select(by) for p in parts])
    order = keys.select(pl.arg_sort_by(list(by), nulls_last=True, maintain_order=True))
    del keys
    columns = []
    for name in schema:
        columns.append(pl.concat([p[name] for p in parts]).gather(order.to_series()))
        parts = [p.drop(name) for p in parts]
    return pl.DataFrame(columns)


def _finalize_metric(part: pl.DataFrame, by: Sequence[str], m: Metric, n_boot: int) -> pl.DataFrame:
    import numpy as np

    gid, heads = _group_ids(part, [*by, "metric"])
    n_groups = len(heads)
    n = part[N].to_numpy().astype(np.int64)
    count = np.bincount(gid, weights=n, minlength=n_groups).astype(np.int64)
    skipped = np.bincount(gid, weights=part["skipped"].to_numpy(), minlength=n_groups)
    skipped = skipped.astype(np.int64)
    outside = np.bincount(gid, weights=part["not_applicable"].to_numpy(), minlength=n_groups)
    # Content rows in (group, hash) order: the sums below are then made in one order,
    # whatever the order of the state's rows (how the table was split).
    content = part.select(pl.arg_sort_by(HASH, nulls_last=True)).to_series().to_numpy()
    content = content[: part.height - part[HASH].null_count()]
    small = np.uint16 if n_groups < 1 << 16 else np.int64  # radix sort for few groups
    content = content[np.argsort(gid[content].astype(small), kind="stable")]
    gc, nc = gid[content], n[content]
    k = 1 if isinstance(m, ColumnMetric) else len(m.stats)
    values = (
        part.select(pl.col(VALUE.format(j)).fill_null(0.0) for j in range(k))[content]
        .to_numpy()
        .reshape(-1, k)
    )
    totals = np.zeros((n_groups, k))
    cstarts = np.flatnonzero(np.r_[True, gc[1:] != gc[:-1]]) if len(gc) else np.zeros(0, int)
    if len(gc):
        totals[gc[cstarts]] = np.add.reduceat(nc[:, None] * values, cstarts, axis=0)
    cols: dict[str, Any] = {
        "count": count,
        "skipped": skipped,
        "not_applicable": outside.astype(np.int64),
    }
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
        cols["stderr"] = intervals.stderr_arrays(totals[:, 0], sumsq, count)
        if m.binary:
            cols["ci_low"], cols["ci_high"] = intervals.wilson_arrays(totals[:, 0], count)
        else:
            ci_low, ci_high, _ = resample(gc, nc, values, n_groups, _ratio, n_boot)
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
        cols["ci_low"], cols["ci_high"], cols["stderr"] = resample(
            gc, nc, values, n_groups, corpus, n_boot
        )
    head = part.select(*by, "metric")[heads]
    return head.with_columns(  # groups are numbered in the order of their keys
        pl.Series(name, np.asarray(col), pl.Float64, nan_to_null=True)
        if name not in ("count", "skipped", "not_applicable")
        else pl.Series(name, col, pl.Int64)
        for name, col in cols.items()
    )


def _group_ids(part: pl.DataFrame, keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """A group number per row, 0, 1, ... in the order of the sorted keys (nulls last), and each
    group's first row: a function of the state's content, not of the order of its rows."""
    import numpy as np

    first = (
        part.with_row_index("__i")
        .select(pl.col("__i").min().over(keys))
        .to_series()
        .to_numpy()
        .astype(np.int64)
    )
    is_head = np.zeros(len(first), dtype=bool)
    is_head[first] = True
    heads = np.flatnonzero(is_head)
    order = (
        part[heads]
        .select(pl.arg_sort_by(keys, nulls_last=True, maintain_order=True))
        .to_series()
        .to_numpy()
    )
    rank = np.empty(len(heads), dtype=np.int64)
    rank[order] = np.arange(len(heads))
    return rank[np.cumsum(is_head)[first] - 1], heads[order]


def resample(
    group: np.ndarray,
    counts: np.ndarray,
    values: np.ndarray,
    n_groups: int,
    statistic: bootstrap.Replicate,
    n_boot: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`bootstrap.bootstrap` of contents (sorted by group) keyed by their values."""
    keys = bootstrap.content_keys(values)
    return bootstrap.bootstrap(group, keys, counts, values, n_groups, statistic, n_boot)


def _ratio(sums: np.ndarray, rows: np.ndarray) -> np.ndarray:
    import numpy as np

    with np.errstate(invalid="ignore", divide="ignore"):
        return sums[:, 0] / rows
