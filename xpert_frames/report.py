"""Group-by reports over scored tables, and the seed's dict shape.

A report is a tidy Polars DataFrame: the ``by`` columns, ``metric``, ``score`` (mean), ``min``,
``max``, ``count`` (scored rows) and ``skipped`` (invalid rows, scored null). Evaluators with a
sub-type (answer type, TCM eval type) add one row per sub-type under the seed's metric names
(``choice_accuracy``, ``syndrome``, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from xpert_frames import frames
from xpert_frames._typing import Frame
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.exceptions import ColumnNotFoundError

STAT_COLUMNS = ("metric", "score", "min", "max", "count", "skipped")
_ORDER = "__xf_order"


def _detect(schema: pl.Schema) -> list[BaseEvaluator]:
    """Evaluators whose ``<name>_score`` column is in ``schema``."""
    from xpert_frames.registry import get_evaluator, list_evaluators

    known = set(list_evaluators())
    found: list[BaseEvaluator] = []
    for column in schema.names():
        if not column.endswith("_score"):
            continue
        prefix = column.removesuffix("_score")
        found.append(get_evaluator(prefix) if prefix in known else _Generic(name=prefix))
    return found


class _Generic(BaseEvaluator):
    """A score column of an evaluator the registry does not know: overall metric only."""

    def output_suffixes(self) -> list[str]:
        return ["score"]


def _metric_names(ev: BaseEvaluator) -> tuple[str, str]:
    """(overall metric, sub-type template) under the evaluator's name."""
    if ev.name == ev.key and ev.metric:
        return ev.metric, ev.subtype_metric
    return ev.name, ev.name + "_{}"


def summarize(
    lf: pl.LazyFrame,
    by: Sequence[str],
    score_column: str,
    metric: pl.Expr,
    order: int,
    group: str | None = None,
) -> pl.LazyFrame:
    """score/min/max/count/skipped of ``score_column`` per ``by`` (and ``group``)."""
    s = pl.col(score_column).cast(pl.Float64)
    aggs = [
        s.mean().alias("score"),
        s.min().alias("min"),
        s.max().alias("max"),
        s.count().cast(pl.Int64).alias("count"),
        s.null_count().cast(pl.Int64).alias("skipped"),
    ]
    keys = [*by, group] if group else list(by)
    out = lf.group_by(keys).agg(aggs) if keys else lf.select(aggs)
    out = out.with_columns(metric.cast(pl.String).alias("metric"), pl.lit(order).alias(_ORDER))
    if group:
        # Rows whose sub-type is null are invalid rows: counted in the overall row only.
        out = out.filter(pl.col(group).is_not_null()).drop(group)
    return out.select([*by, "metric", "score", "min", "max", "count", "skipped", _ORDER])


def report(
    scored: Frame,
    by: str | Sequence[str] | None = None,
    *,
    evaluators: Sequence[BaseEvaluator] | None = None,
) -> pl.DataFrame:
    """Scores grouped by ``by`` columns, one row per group and metric.

    Evaluators are found from ``<name>_score`` columns unless given.
    """
    lf = frames.to_lazy(scored)
    schema = lf.collect_schema()
    by = [by] if isinstance(by, str) else list(by or [])
    for column in by:
        if column not in schema:
            raise ColumnNotFoundError(column, "report group", schema.names())
    evs = list(evaluators) if evaluators is not None else _detect(schema)
    parts: list[pl.LazyFrame] = []
    for ev in evs:
        if ev.score_column not in schema:
            raise ColumnNotFoundError(ev.score_column, f"{ev.name} score", schema.names())
        overall, template = _metric_names(ev)
        order = len(parts)
        parts.append(summarize(lf, by, ev.score_column, pl.lit(overall), order))
        type_column = ev.column("type")
        if ev.subtype_column is not None and type_column in schema:
            head, _, tail = template.partition("{}")
            metric = pl.concat_str(pl.lit(head), pl.col(type_column), pl.lit(tail))
            parts.append(summarize(lf, by, ev.score_column, metric, order + 1, type_column))
        for extra in ev.report_rows(lf, by):
            parts.append(extra.with_columns(pl.lit(order + 2).alias(_ORDER)))
    if not parts:
        raise ValueError(
            f"no score columns to report on; expected '<name>_score' columns, got {schema.names()}"
        )
    out = pl.concat(parts, how="vertical_relaxed").collect()
    return out.sort([*by, _ORDER, "metric"], nulls_last=True).drop(_ORDER)


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
