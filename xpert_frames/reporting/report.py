"""Group-by reports over scored tables, with confidence intervals, and the seed's dict shape.

A report is a tidy Polars DataFrame: the ``by`` columns, ``metric``, ``score`` (mean), ``min``,
``max``, ``count`` (scored rows), ``skipped`` (invalid rows, scored null), ``not_applicable``
(rows of answer types the evaluator does not score), ``stderr`` and a
95% interval ``ci_low``/``ci_high`` (Wilson for 0/1 metrics, Poisson bootstrap otherwise).

It is computed in three steps that engines can split (:mod:`xpert_frames.reporting.steps`):
``report(t) == finalize(merge_partials([partials(a), partials(b)]))`` for any split of ``t``
into ``a`` and ``b``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import polars as pl

from xpert_frames.core import frames, interrupt
from xpert_frames.core.aliases import Frame
from xpert_frames.core.exceptions import ColumnNotFoundError, DuplicateColumnError, NoScoresError
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.reporting import intervals
from xpert_frames.reporting.steps import (
    Metric,
    concat_reports,
    finalize,
    merge_partials,
    partials,
)

REPORT_COLUMNS = (
    "metric",
    "score",
    "min",
    "max",
    "count",
    "skipped",
    "not_applicable",
    "stderr",
    "ci_low",
    "ci_high",
)

__all__ = [
    "Metric",
    "finalize",
    "merge_partials",
    "partials",
    "report",
    "report_plan",
    "to_seed_dict",
]


def _metrics(evaluators: Sequence[BaseEvaluator], schema: pl.Schema) -> list[Metric]:
    out: list[Metric] = []
    for ev in evaluators:
        if ev.score_column not in schema:
            raise ColumnNotFoundError(ev.score_column, f"{ev.name} score", schema.names())
        applicable = ev.column("applicable")
        for metric in ev.report_metrics():
            split = getattr(metric, "split", None)
            if metric.column in schema and (split is None or split in schema):
                if applicable in schema:
                    metric = replace(metric, applicable=applicable)
                out.append(metric)
    return out


# --------------------------------------------------------------------------- public
def report(
    scored: Frame,
    by: str | Sequence[str] | None = None,
    *,
    evaluators: Sequence[BaseEvaluator],
    n_boot: int = intervals.N_BOOT,
) -> pl.DataFrame:
    """Scores grouped by ``by`` columns, one row per group and metric, with 95% intervals,
    for the metrics ``evaluators`` declare (:func:`xpert_frames.report` also finds them from
    the ``<name>_score`` columns)."""
    lf = frames.to_lazy(scored)
    by = [by] if isinstance(by, str) else list(by or [])
    metrics = report_plan(lf.collect_schema(), by, evaluators)
    return finalize(partials(lf, by, metrics), metrics, n_boot=n_boot)


def report_plan(
    schema: pl.Schema, by: Sequence[str], evaluators: Sequence[BaseEvaluator]
) -> list[Metric]:
    """The metrics ``report`` computes on a table with ``schema`` for ``evaluators``, after
    checking the ``by`` columns."""
    for column in by:
        if column not in schema:
            raise ColumnNotFoundError(
                column, "report group", schema.names(), hint="Group by columns of the table."
            )
    clash = [c for c in by if c in REPORT_COLUMNS]
    if clash:
        raise DuplicateColumnError(
            f"cannot group a report by {clash}: the report has columns of that name "
            f"{list(REPORT_COLUMNS)}; rename them first, e.g. df.rename({{{clash[0]!r}: 'group'}})"
        )
    metrics = _metrics(evaluators, schema)
    if not metrics:
        raise NoScoresError(
            f"no score columns to report on; expected numeric '<name>_score' columns, "
            f"got {schema.names()}"
        )
    return metrics


def to_seed_dict(report_frame: pl.DataFrame) -> dict[Any, Any]:
    """A report as the seed's dict: ``{metric: {score, min, max, count}}``.

    With ``by`` columns the result is nested: ``{group value (tuple if several): {metric: ...}}``.
    A metric with no scored rows gives the seed's zeros. Sub-type metrics appear only for the
    sub-types present among scored rows, as in the seed.
    """
    by = report_frame.columns[: report_frame.columns.index("metric")]
    if by:
        out: dict[Any, Any] = {}
        for key, group in report_frame.group_by(by, maintain_order=True):
            out[key if len(by) > 1 else key[0]] = to_seed_dict(group.drop(by))
        return out
    result: dict[str, dict[str, float | int]] = {}
    for row in report_frame.iter_rows(named=True):
        if row["count"] == 0:
            result[row["metric"]] = {"score": 0.0, "min": 0.0, "max": 0.0, "count": 0}
        else:
            result[row["metric"]] = {
                "score": row["score"],
                "min": row["min"],
                "max": row["max"],
                "count": row["count"],
            }
    return result


def report_parquet(
    source: Path | pl.LazyFrame,
    by: list[str],
    evaluators: Sequence[BaseEvaluator],
    chunk_rows: int,
) -> pl.DataFrame:
    """The report of a scored Parquet file (or a scan of several), ``chunk_rows`` rows at a
    time: each slice is reduced to the report's mergeable state and merged into the state so
    far (a state holds each distinct row once per group, so it grows with the distinct rows,
    not with the chunks). Metrics are made one at a time, so only one metric's state is held.
    A stop request (:mod:`xpert_frames.core.interrupt`: Ctrl-C, SIGTERM in the CLI) is seen
    between slices."""
    lf = source if isinstance(source, pl.LazyFrame) else pl.scan_parquet(source)
    metrics = report_plan(lf.collect_schema(), by, evaluators)
    total = lf.select(pl.len()).collect().item()
    reports = []
    _release_memory()  # what the scoring freed, before the states are built
    for metric in metrics:  # one metric at a time: only its state is held
        state: pl.DataFrame | None = None
        for offset in range(0, max(total, 1), chunk_rows):
            interrupt.raise_pending()  # stop between slices, never inside Polars
            part = partials(lf.slice(offset, chunk_rows), by, [metric])
            state = part if state is None else merge_partials([state, part])
        assert state is not None  # at least one slice
        reports.append(finalize(state, [metric]))
        del state
        _release_memory()  # the next metric's state reuses the pages, not new ones
    return concat_reports(reports, by)


def _release_memory() -> None:
    """Return freed heap pages to the system (glibc keeps them otherwise: numpy's temporary
    arrays of one metric would add to the peak of the next)."""
    import contextlib
    import ctypes
    import gc

    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to do
        ctypes.CDLL("libc.so.6").malloc_trim(0)
