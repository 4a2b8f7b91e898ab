"""The thin top-level API: the functions of :mod:`xpert_frames` that accept evaluator *names*.

Names are resolved by the registry (:func:`~xpert_frames.registry.resolve_evaluators`); the
engines underneath (:mod:`xpert_frames.scoring`, :mod:`xpert_frames.reporting`) work on evaluator
instances only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import polars as pl

from xpert_frames import scoring
from xpert_frames.core import frames
from xpert_frames.core.aliases import Frame, FrameT
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.registry import detect_evaluators, resolve_evaluators
from xpert_frames.reporting import intervals
from xpert_frames.reporting import report as reports

#: An evaluator given by registry name (default options) or as an instance.
EvaluatorLike = str | BaseEvaluator
#: The bundled sample table (see :func:`load_sample`).
SAMPLE = Path(__file__).parent / "data" / "sample.parquet"

__all__ = ["SAMPLE", "BatchScorer", "EvaluatorLike", "load_sample", "report", "score"]


def score(
    frame: FrameT,
    evaluators: EvaluatorLike | Sequence[EvaluatorLike],
    *,
    columns: frames.Columns | Mapping[str, str] | None = None,
    **names: str,
) -> FrameT:
    """Score ``frame`` with ``evaluators`` (names or instances) in one lazy plan.

    Returns the same kind of table (DataFrame, LazyFrame or pyarrow Table) with every input row
    and column in order, plus ``<name>_score`` and each evaluator's own columns. Column roles
    are mapped with keywords, e.g. ``score(df, "fuzzy", prediction="response", answer="gold")``.

    Examples
    --------
    >>> import polars as pl, xpert_frames as xf
    >>> df = pl.DataFrame({"prediction": ["Paris", "Lyon"], "answer": ["Paris", "Paris"]})
    >>> xf.score(df, "fuzzy")["fuzzy_score"].to_list()
    [1.0, 0.0]
    """
    return scoring.score(frame, resolve_evaluators(evaluators), columns=columns, **names)


def report(
    scored: Frame,
    by: str | Sequence[str] | None = None,
    *,
    evaluators: EvaluatorLike | Sequence[EvaluatorLike] | None = None,
    n_boot: int = intervals.N_BOOT,
) -> pl.DataFrame:
    """Scores grouped by ``by`` columns, one row per group and metric, with 95% intervals.

    Evaluators (names or instances) are found from the ``<name>_score`` columns unless given.
    Columns: the ``by`` columns, ``metric``, ``score``, ``min``, ``max``, ``count``,
    ``skipped``, ``stderr``, ``ci_low``, ``ci_high``.

    Examples
    --------
    >>> import polars as pl, xpert_frames as xf
    >>> df = pl.DataFrame({"prediction": ["Paris", "Lyon"], "answer": ["Paris", "Paris"]})
    >>> xf.report(xf.score(df, "fuzzy"))["metric", "score", "count"].row(0)
    ('fuzzy', 0.5, 2)
    """
    if evaluators is None:
        evs = detect_evaluators(frames.schema_of(scored))
    else:
        evs = resolve_evaluators(evaluators)
    return reports.report(scored, by, evaluators=evs, n_boot=n_boot)


class BatchScorer(scoring.BatchScorer):
    """A picklable ``pa.Table -> pa.Table`` function for engines (Ray Data ``map_batches``),
    built from evaluator names or instances."""

    def __init__(
        self,
        evaluators: EvaluatorLike | Sequence[EvaluatorLike],
        *,
        columns: frames.Columns | Mapping[str, str] | None = None,
        **names: str,
    ) -> None:
        super().__init__(resolve_evaluators(evaluators), columns=columns, **names)


def load_sample() -> pl.DataFrame:
    """The bundled sample: several models answering the same questions (every answer type).

    Examples
    --------
    >>> import xpert_frames as xf
    >>> xf.load_sample().height > 0
    True
    """
    return pl.read_parquet(SAMPLE)
