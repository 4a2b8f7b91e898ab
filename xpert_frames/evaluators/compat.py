"""The XpertEval evaluator surface, kept for users of that design: ``evaluate(predictions,
references)``, ``aggregate_scores`` and ``_is_valid_sample``.

They run on the same columnar code as everything else: the records become a frame
(:func:`xpert_frames.core.frames.from_records`), the evaluator scores it, and the seed's dict
``{"<metric>": {"score", "min", "max", "count"}}`` is read from the metrics the evaluator
declares (the same numbers as ``to_seed_dict(report(...))``, which a test checks).

A reference is the XpertEval dict (``{"answer": {"type", "value"}, "choices", "meta"}``) or
plainly the answer value: a string, a number, or a list of strings (several references). A
reference of any other shape, or a call in which no row could be scored, raises an error that
says why: ``evaluate`` never answers a silent ``0.0`` with count 0 for rows it was given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.exceptions import InputError, NoScoresError
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
        """The seed API: ``{"<metric>": {"score", "min", "max", "count"}, ...}``.

        ``references`` are XpertEval dicts (``{"answer": {"type": "number", "value": "14"}}``)
        or the answer values themselves (``"14"``, ``14``, ``["ref one", "ref two"]``). Rows
        with no prediction (``None``) or an empty reference value are skipped, as in a table;
        if no row at all can be scored, or a reference has another shape, an error says why.

        >>> from xpert_frames import get_evaluator
        >>> get_evaluator("math").evaluate(["所以答案是14"], ["14"])["math_accuracy"]
        {'score': 1.0, 'min': 1.0, 'max': 1.0, 'count': 1}
        """
        ev = cast("BaseEvaluator", self)
        if len(predictions) != len(references):
            raise InputError(
                f"predictions and references must have the same length, got "
                f"{len(predictions)} and {len(references)}"
            )
        records = frames.from_records(
            predictions, [_reference(r, i) for i, r in enumerate(references)]
        )
        scored = ev.apply(frames.prepare(records.lazy(), frames.Columns())).collect()
        if records.height and scored[ev.score_column].null_count() == records.height:
            raise NoScoresError(_unscored(ev, scored))
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


_SHAPES = (
    "a string, a number or a list of strings (the answer value), or an XpertEval dict "
    "{'answer': {'type': ..., 'value': ...}}"
)


def _reference(ref: Any, index: int) -> Any:
    """A reference as the XpertEval dict: a plain answer value is wrapped; a dict must hold an
    ``answer`` dict with a ``value``; anything else is an error naming the row."""
    if isinstance(ref, dict):
        answer = ref.get("answer")
        if not isinstance(answer, dict) or "value" not in answer:
            raise InputError(
                f"references[{index}] is a dict without an answer value: expected {_SHAPES}, "
                f"got {ref!r}"
            )
        _value(answer["value"], index)
        return ref
    return {"answer": {"value": _value(ref, index)}}


def _value(value: Any, index: int) -> Any:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return list(value)
    raise InputError(
        f"references[{index}]: expected {_SHAPES}, got {type(value).__name__} {value!r}"
    )


def _unscored(ev: BaseEvaluator, scored: pl.DataFrame) -> str:
    """Why no row of an ``evaluate`` call was scored, naming the rows."""
    no_prediction = scored.with_row_index().filter(pl.col("prediction").is_null())["index"]
    invalid = scored.with_row_index().filter(~pl.col(frames.VALID))["index"]
    no_reference = [i for i in invalid.to_list() if i not in set(no_prediction.to_list())]
    reasons = []
    if no_prediction.len():
        reasons.append(f"no prediction (None) in rows {no_prediction.to_list()[:10]}")
    if no_reference:
        reasons.append(f"an empty or missing reference value in rows {no_reference[:10]}")
    if not reasons:
        reasons.append(f"{type(ev).__name__} could not read the references of any row")
    return (
        f"{ev.name}: none of the {scored.height} rows could be scored: "
        + "; ".join(reasons)
        + ". Give each row a prediction and a reference value, e.g. "
        "evaluate(['the answer is 14'], ['14'])"
    )


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
