"""Group-by reports over scored tables, with confidence intervals, and the seed's dict shape.

A report is a tidy Polars DataFrame: the ``by`` columns, ``metric``, ``score`` (mean), ``min``,
``max``, ``count`` (scored rows), ``skipped`` (invalid rows, scored null), ``not_applicable``
(rows of answer types the evaluator does not score), ``stderr`` and a
95% interval ``ci_low``/``ci_high`` (Wilson for 0/1 metrics, Poisson bootstrap otherwise).

It is computed in three steps that engines can split (:mod:`xpert_frames.report_steps`):
``report(t) == finalize(merge_partials([partials(a), partials(b)]))`` for any split of ``t``
into ``a`` and ``b``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import polars as pl

from xpert_frames import frames, stats
from xpert_frames._typing import Frame
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.exceptions import ColumnNotFoundError, DuplicateColumnError, NoScoresError
from xpert_frames.report_steps import Metric, finalize, merge_partials, partials

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
    "detect_evaluators",
    "finalize",
    "merge_partials",
    "partials",
    "report",
    "report_plan",
    "to_seed_dict",
]


def detect_evaluators(schema: pl.Schema) -> list[BaseEvaluator]:
    """Evaluators whose numeric ``<name>_score`` column is in ``schema``.

    A registry name gives that evaluator (default options). Another prefix is matched to the
    registered evaluator whose output columns it carries (``acc2_score``, ``acc2_extracted``,
    ``acc2_rule``, ``acc2_type`` → accuracy named ``acc2``), else it is reported as a plain
    score. Pass ``evaluators=`` for non-default options that change reports (BLEU's ``n_gram``).
    """
    from xpert_frames.registry import get_evaluator, records

    recs = records()
    known = {r.name: r for r in recs}
    names = set(schema.names())
    found: list[BaseEvaluator] = []
    for column in schema.names():
        dtype = schema[column]
        if not column.endswith("_score") or not (dtype.is_numeric() or dtype == pl.Boolean):
            continue
        prefix = column.removesuffix("_score")
        if prefix in known:
            found.append(get_evaluator(prefix))
            continue
        best: BaseEvaluator = _Generic(name=prefix)
        for record in recs:
            try:
                candidate = record.cls(name=prefix)
            except Exception:  # an evaluator that cannot be built with defaults: not a match
                continue
            outputs = set(candidate.output_names())
            if len(outputs) > len(best.output_names()) and outputs <= names:
                best = candidate
        found.append(best)
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
    clash = [c for c in by if c in REPORT_COLUMNS]
    if clash:
        raise DuplicateColumnError(
            f"cannot group a report by {clash}: the report has columns of that name "
            f"{list(REPORT_COLUMNS)}; rename them first, e.g. df.rename({{{clash[0]!r}: 'group'}})"
        )
    evs = list(evaluators) if evaluators is not None else detect_evaluators(schema)
    metrics = _metrics(evs, schema)
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
