"""Group-by reports over scored tables, with confidence intervals, and the seed's dict shape.

A report is a tidy Polars DataFrame: the ``by`` columns, ``metric``, ``score`` (mean), ``min``,
``max``, ``count`` (scored rows), ``skipped`` (invalid rows, scored null), ``stderr`` and a 95%
interval ``ci_low``/``ci_high`` (Wilson for 0/1 metrics, Poisson bootstrap otherwise).

It is computed in three steps that engines can split (:mod:`xpert_frames.report_steps`):
``report(t) == finalize(merge_partials([partials(a), partials(b)]))`` for any split of ``t``
into ``a`` and ``b``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from xpert_frames import frames, stats
from xpert_frames._typing import Frame
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.exceptions import ColumnNotFoundError
from xpert_frames.report_steps import Metric, finalize, merge_partials, partials

__all__ = [
    "Metric",
    "detect_evaluators",
    "finalize",
    "merge_partials",
    "partials",
    "report",
    "report_plan",
    "to_seed_dict",
]


def detect_evaluators(schema: pl.Schema) -> list[BaseEvaluator]:
    """Evaluators whose ``<name>_score`` column is in ``schema`` (registry names, else generic)."""
    from xpert_frames.registry import get_evaluator, list_evaluators

    known = set(list_evaluators())
    found: list[BaseEvaluator] = []
    for column in schema.names():
        if column.endswith("_score"):
            prefix = column.removesuffix("_score")
            found.append(get_evaluator(prefix) if prefix in known else _Generic(name=prefix))
    return found


class _Generic(BaseEvaluator):
    """A score column of an evaluator the registry does not know: overall metric only."""

    def output_suffixes(self) -> list[str]:
        return ["score"]


def _metrics(evaluators: Sequence[BaseEvaluator], schema: pl.Schema) -> list[Metric]:
    out: list[Metric] = []
    for ev in evaluators:
        if ev.score_column not in schema:
            raise ColumnNotFoundError(ev.score_column, f"{ev.name} score", schema.names())
        for metric in ev.report_metrics():
            split = getattr(metric, "split", None)
            if metric.column in schema and (split is None or split in schema):
                out.append(metric)
    return out


# --------------------------------------------------------------------------- public
def report(
    scored: Frame,
    by: str | Sequence[str] | None = None,
    *,
    evaluators: Sequence[BaseEvaluator] | None = None,
    n_boot: int = stats.N_BOOT,
) -> pl.DataFrame:
    """Scores grouped by ``by`` columns, one row per group and metric, with 95% intervals.

    Evaluators are found from ``<name>_score`` columns unless given.
    """
    lf = frames.to_lazy(scored)
    by = [by] if isinstance(by, str) else list(by or [])
    metrics = report_plan(lf.collect_schema(), by, evaluators)
    return finalize(partials(lf, by, metrics), metrics, n_boot=n_boot)


def report_plan(
    schema: pl.Schema, by: Sequence[str], evaluators: Sequence[BaseEvaluator] | None = None
) -> list[Metric]:
    """The metrics ``report`` computes on a table with ``schema``, after checking the ``by``
    columns; evaluators are found from ``<name>_score`` columns unless given."""
    for column in by:
        if column not in schema:
            raise ColumnNotFoundError(column, "report group", schema.names())
    evs = list(evaluators) if evaluators is not None else detect_evaluators(schema)
    metrics = _metrics(evs, schema)
    if not metrics:
        raise ValueError(
            f"no score columns to report on; expected '<name>_score' columns, got {schema.names()}"
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
