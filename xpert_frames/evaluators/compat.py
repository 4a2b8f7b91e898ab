"""The XpertEval evaluator surface, kept for users of that design: ``evaluate(predictions,
references)``, ``aggregate_scores`` and ``_is_valid_sample``.

They run on the same columnar code as everything else: the records become a frame
(:func:`xpert_frames.core.frames.from_records`), the evaluator scores it, and the seed's dict
``{"<metric>": {"score", "min", "max", "count"}}`` is read from the metrics the evaluator
declares (the same numbers as ``to_seed_dict(report(...))``, which a test checks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.metrics import ColumnMetric, CorpusMetric

if TYPE_CHECKING:
    from xpert_frames.evaluators.base import BaseEvaluator

SeedStats = dict[str, float | int]
_ZEROS: SeedStats = {"score": 0.0, "min": 0.0, "max": 0.0, "count": 0}


def aggregate_scores(individual_scores: Sequence[float]) -> SeedStats:
    """The seed's ``aggregate_scores``: empty gives ``{score: 0, min: 0, max: 0, count: 0}``."""
    if not individual_scores:
        return dict(_ZEROS)
    return {
        "score": sum(individual_scores) / len(individual_scores),
        "min": min(individual_scores),
        "max": max(individual_scores),
        "count": len(individual_scores),
    }


class XpertEvalMixin:
    """``evaluate``, ``aggregate_scores`` and ``_is_valid_sample`` of the seed's evaluators."""

    def evaluate(
        self, predictions: Sequence[str | None], references: Sequence[Any]
    ) -> dict[str, Any]:
        """The seed API: ``{"<metric>": {"score", "min", "max", "count"}, ...}``."""
        ev = cast("BaseEvaluator", self)
        records = frames.from_records(predictions, references)
        scored = ev.apply(frames.prepare(records.lazy(), frames.Columns())).collect()
        out: dict[str, Any] = {}
        for metric in ev.report_metrics():
            out |= _seed_stats(scored, metric)
        return out

    def aggregate_scores(self, individual_scores: Sequence[float]) -> SeedStats:
        """The seed's aggregation: mean, min, max and count; empty gives zeros with count 0."""
        return aggregate_scores(individual_scores)

    def _is_valid_sample(self, prediction: str | None, reference: Any) -> bool:
        """The seed's per-sample check, kept for callers of the old API; made stricter in the
        same way as the columnar path (an empty reference value is invalid too)."""
        records = frames.from_records([prediction], [reference])
        checked = frames.prepare(records.lazy(), frames.Columns()).select(frames.VALID)
        return bool(checked.collect().item())


def _seed_stats(scored: pl.DataFrame, metric: ColumnMetric | CorpusMetric) -> dict[str, Any]:
    rows = scored.filter(pl.col(metric.column).is_not_null())
    if isinstance(metric, CorpusMetric):
        if rows.height == 0:
            return {metric.metric: dict(_ZEROS)}
        sums = rows.select(e.sum().alias(f"s{i}") for i, e in enumerate(metric.stats))
        total = sums.to_numpy().reshape(1, -1).astype("float64")
        score = float(metric.finalize(total)[0])
        return {metric.metric: {"score": score, "min": None, "max": None, "count": rows.height}}
    if metric.split is None:
        return {metric.metric: _column_stats(rows[metric.column])}
    out: dict[str, Any] = {}
    for (value,), group in rows.sort(metric.split).group_by(metric.split, maintain_order=True):
        out[metric.metric.format(value)] = _column_stats(group[metric.column])
    return out


def _column_stats(values: pl.Series) -> SeedStats:
    if values.len() == 0:
        return dict(_ZEROS)
    return {
        "score": float(values.mean()),  # type: ignore[arg-type]
        "min": float(values.min()),  # type: ignore[arg-type]
        "max": float(values.max()),  # type: ignore[arg-type]
        "count": values.len(),
    }
