"""The thin top-level API: the functions of :mod:`xpert_frames` that accept evaluator *names*.

Names are resolved by the registry (:func:`~xpert_frames.registry.resolve_evaluators`); the
engines underneath (:mod:`xpert_frames.scoring`, :mod:`xpert_frames.reporting`) work on evaluator
instances only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from xpert_frames import scoring
from xpert_frames.core import frames
from xpert_frames.core.aliases import Frame, FrameT
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.registry import detect_evaluators, resolve_evaluators
from xpert_frames.reporting import html, intervals
from xpert_frames.reporting import report as reports

#: An evaluator given by registry name (default options) or as an instance.
EvaluatorLike = str | BaseEvaluator
#: The bundled sample table (see :func:`load_sample`).
SAMPLE = Path(__file__).parent / "data" / "sample.parquet"

__all__ = [
    "SAMPLE",
    "BatchScorer",
    "EvaluatorLike",
    "html_report",
    "load_sample",
    "report",
    "score",
]


def score(
    frame: FrameT,
    evaluators: EvaluatorLike | Sequence[EvaluatorLike],
    *,
    columns: frames.Columns | Mapping[str, str] | None = None,
    all_rows: bool = False,
    **names: str,
) -> FrameT:
    """Score ``frame`` with ``evaluators`` (names or instances) in one lazy plan.

    Returns the same kind of table with every input row and column in order, plus
    ``<name>_score`` and each evaluator's own columns: a Polars DataFrame or LazyFrame, a
    pyarrow Table or RecordBatch, or a pandas DataFrame (input columns and index untouched)
    come back as they came; any other table with ``__arrow_c_stream__`` (a RecordBatchReader,
    a DuckDB relation, ...) is read once and comes back as a pyarrow Table. Column roles are
    mapped with keywords, e.g. ``score(df, "fuzzy", prediction="response", answer="gold")``.

    When the table has answer types (an ``answer_type`` column), each evaluator scores only
    the rows it fits (accuracy: choice/text/number/judge; math: number; BLEU and fuzzy: text;
    TCM: rows with a ``tcm_eval_type``); the others are null in its columns and ``false`` in
    ``<name>_applicable``, and reports count them as ``not_applicable``. ``all_rows=True``
    scores every row with every evaluator.

    Examples
    --------
    >>> import polars as pl, xpert_frames as xf
    >>> df = pl.DataFrame({"prediction": ["Paris", "Lyon"], "answer": ["Paris", "Paris"]})
    >>> xf.score(df, "fuzzy")["fuzzy_score"].to_list()
    [1.0, 0.0]
    """
    evs = resolve_evaluators(evaluators)
    return scoring.score(frame, evs, columns=columns, all_rows=all_rows, **names)


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
    ``skipped``, ``not_applicable``, ``stderr``, ``ci_low``, ``ci_high``.

    Examples
    --------
    >>> import polars as pl, xpert_frames as xf
    >>> df = pl.DataFrame({"prediction": ["Paris", "Lyon"], "answer": ["Paris", "Paris"]})
    >>> xf.report(xf.score(df, "fuzzy"))["metric", "score", "count"].row(0)
    ('fuzzy', 0.5, 2)
    """
    lf = frames.to_lazy(scored)  # once: a reader or a DuckDB relation can be read only once
    if evaluators is None:
        evs = detect_evaluators(lf.collect_schema())
    else:
        evs = resolve_evaluators(evaluators)
    return reports.report(lf, by, evaluators=evs, n_boot=n_boot)


class BatchScorer(scoring.BatchScorer):
    """A picklable ``pa.Table -> pa.Table`` function for engines (Ray Data ``map_batches``),
    built from evaluator names or instances."""

    def __init__(
        self,
        evaluators: EvaluatorLike | Sequence[EvaluatorLike],
        *,
        columns: frames.Columns | Mapping[str, str] | None = None,
        all_rows: bool = False,
        **names: str,
    ) -> None:
        evs = resolve_evaluators(evaluators)
        super().__init__(evs, columns=columns, all_rows=all_rows, **names)


def html_report(
    scored: Frame,
    by: str | Sequence[str] | None = None,
    *,
    evaluators: EvaluatorLike | Sequence[EvaluatorLike] | None = None,
    baseline: str | None = None,
    **options: Any,
) -> str:
    """A self-contained HTML page (no scripts, nothing fetched) of a scored table: the report
    with 95% intervals, charts by group, sub-type and score, a paired comparison against
    ``baseline``, the wrong answers per model and the evaluators' configuration. Other
    keywords go to :func:`xpert_frames.reporting.html.html_report` (``model``, ``on``,
    ``columns``, ``title``, ``wrong_rows``, ``report_frame``).

    Examples
    --------
    >>> import polars as pl, xpert_frames as xf
    >>> df = pl.DataFrame({"prediction": ["Paris", "Lyon"], "answer": ["Paris", "Paris"]})
    >>> xf.html_report(xf.score(df, "fuzzy")).startswith("<!DOCTYPE html>")
    True
    """
    lf = frames.to_lazy(scored)  # once: a reader or a DuckDB relation can be read only once
    if evaluators is None:
        evs = detect_evaluators(lf.collect_schema())
    else:
        evs = resolve_evaluators(evaluators)
    return html.html_report(lf, by, evaluators=evs, baseline=baseline, **options)


def load_sample() -> pl.DataFrame:
    """The bundled sample: several models answering the same questions (every answer type).

    Examples
    --------
    >>> import xpert_frames as xf
    >>> xf.load_sample().height > 0
    True
    """
    return pl.read_parquet(SAMPLE)
