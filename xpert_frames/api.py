"""The thin top-level API: the functions of :mod:`xpert_frames` that accept evaluator *names*.

Names are resolved by the registry (:func:`~xpert_frames.registry.resolve_evaluators`); the
engines underneath (:mod:`xpert_frames.scoring`, :mod:`xpert_frames.reporting`) work on evaluator
instances only.
"""

from __future__ import annotations

import glob
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from xpert_frames import provenance, scoring
from xpert_frames.core import frames
from xpert_frames.core.aliases import Frame, FrameT
from xpert_frames.core.exceptions import ConfigurationError
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.plans import Plan, PlanEntry, PlanLike
from xpert_frames.registry import detect_evaluators, resolve_evaluators
from xpert_frames.reporting import intervals

#: An evaluator given by registry name (default options) or as an instance.
EvaluatorLike = str | BaseEvaluator
#: The bundled sample table (see :func:`load_sample`).
SAMPLE = Path(__file__).parent / "data" / "sample.parquet"
#: The bundled sample's scoring plan (see :func:`load_sample_plan`).
SAMPLE_PLAN = Path(__file__).parent / "data" / "sample_plan.toml"

__all__ = [
    "SAMPLE",
    "SAMPLE_PLAN",
    "BatchScorer",
    "EvaluatorLike",
    "Plan",
    "PlanEntry",
    "html_report",
    "load_sample",
    "load_sample_plan",
    "report",
    "score",
]


def score(
    frame: FrameT,
    evaluators: PlanLike,
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

    ``evaluators`` may also say which rows each evaluator scores (a scoring plan,
    :mod:`xpert_frames.plans`): a mapping of registry names to row filters (a Boolean
    ``pl.Expr`` over the table's own columns, SQL text such as ``"task = 'translation'"``, or
    ``None``), :class:`~xpert_frames.plans.PlanEntry` objects, or a
    :class:`~xpert_frames.plans.Plan` (``xf.Plan.read("plan.toml")``). Rows outside a filter
    are not applicable to that evaluator, as rows of answer types it does not fit.

    Examples
    --------
    >>> import polars as pl, xpert_frames as xf
    >>> df = pl.DataFrame({"prediction": ["Paris", "Lyon"], "answer": ["Paris", "Paris"]})
    >>> xf.score(df, "fuzzy")["fuzzy_score"].to_list()
    [1.0, 0.0]
    >>> df = df.with_columns(task=pl.Series(["capital", "translation"]))
    >>> xf.score(df, {"fuzzy": pl.col("task") == "capital"})["fuzzy_score"].to_list()
    [1.0, None]
    """
    return scoring.score(frame, Plan(evaluators), columns=columns, all_rows=all_rows, **names)


def report(
    scored: Frame | str | Path,
    by: str | Sequence[str] | None = None,
    *,
    evaluators: EvaluatorLike | Sequence[EvaluatorLike] | None = None,
    n_boot: int = intervals.N_BOOT,
) -> pl.DataFrame:
    """Scores grouped by ``by`` columns, one row per group and metric, with 95% intervals.

    ``scored`` is a table, or the path of scored Parquet files (file, directory or glob).
    Unless given, evaluators (names or instances) are rebuilt from the scoring configuration a
    scored Parquet file or Arrow table records (:mod:`xpert_frames.provenance`), else found from
    the ``<name>_score`` columns; a metric that depends on options a bare table does not record
    (BLEU's corpus score) is then refused (``ConfigurationError``) rather than computed with
    guessed options.
    Columns: the ``by`` columns, ``metric``, ``score``, ``min``, ``max``, ``count``,
    ``skipped``, ``not_applicable``, ``stderr``, ``ci_low``, ``ci_high``.

    Examples
    --------
    >>> import polars as pl, xpert_frames as xf
    >>> df = pl.DataFrame({"prediction": ["Paris", "Lyon"], "answer": ["Paris", "Paris"]})
    >>> xf.report(xf.score(df, "fuzzy"))["metric", "score", "count"].row(0)
    ('fuzzy', 0.5, 2)
    """
    lf, recorded = scored_input(scored)
    if evaluators is not None:
        evs = resolve_evaluators(evaluators)
    elif recorded is not None:
        evs = recorded
    else:
        evs = detect_evaluators(lf.collect_schema())
        refuse_unknown_options(evs)
    from xpert_frames.reporting import report as reports  # with its numpy work, when asked

    return reports.report(lf, by, evaluators=evs, n_boot=n_boot)


def scored_input(scored: Frame | str | Path) -> tuple[pl.LazyFrame, list[BaseEvaluator] | None]:
    """A scored table (or scored Parquet path) as a LazyFrame, with the evaluators its
    metadata records (``None`` when it records none)."""
    if isinstance(scored, str | Path):
        paths = _parquet_files(scored)
        return pl.scan_parquet(paths), provenance.read_evaluators(paths)
    if frames.is_arrow_table(scored):
        meta = scored.schema.metadata  # type: ignore[union-attr]
        # Checked before Polars reads the table (it panics on metadata that is not UTF-8).
        recorded = provenance.from_metadata(meta, "the Arrow table")
        return frames.to_lazy(scored), recorded
    return frames.to_lazy(scored), None


def _parquet_files(path: str | Path) -> list[Path]:
    """The Parquet files a path names: a file, a directory (recursively) or a glob."""
    text = str(path)
    if Path(text).is_dir():
        found = sorted(p for p in Path(text).rglob("*") if p.suffix.lower() in (".parquet", ".pq"))
    elif glob.has_magic(text):
        found = sorted(Path(p) for p in glob.glob(text, recursive=True) if Path(p).is_file())
    else:
        found = [Path(text)] if Path(text).is_file() else []
    if not found:
        raise FileNotFoundError(f"no scored Parquet file at {text!r}")
    return found


def refuse_unknown_options(evaluators: Sequence[BaseEvaluator]) -> None:
    """Raise for found evaluators whose report metrics depend on options nothing records."""
    for ev in evaluators:
        if ev.report_options:
            options = ", ".join(f"{o}=..." for o in ev.report_options)
            raise ConfigurationError(
                f"the report of {ev.name!r} ({type(ev).__name__}) depends on its options "
                f"{list(ev.report_options)}, which this table does not record, and a report "
                "never guesses them. Pass the evaluators you scored with, e.g. "
                f"xf.report(scored, evaluators=[xf.get_evaluator({ev.key or ev.name!r}, "
                f"{options})]), or report on a scored Parquet file written by the CLI or "
                "xf.write_scored (it records them)."
            )


class BatchScorer(scoring.BatchScorer):
    """A picklable ``pa.Table -> pa.Table`` function for engines (Ray Data ``map_batches``),
    built from evaluator names or instances, or a scoring plan (as :func:`score` takes)."""

    def __init__(
        self,
        evaluators: PlanLike,
        *,
        columns: frames.Columns | Mapping[str, str] | None = None,
        all_rows: bool = False,
        **names: str,
    ) -> None:
        super().__init__(Plan(evaluators), columns=columns, all_rows=all_rows, **names)


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
    keywords go to :func:`xpert_frames.reporting.html_page.html_report` (``model``, ``on``,
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
    from xpert_frames.reporting import html_page  # the page's templates, when asked

    return html_page.html_report(lf, by, evaluators=evs, baseline=baseline, **options)


def load_sample() -> pl.DataFrame:
    """The bundled sample: several models answering the same questions (every answer type).

    Examples
    --------
    >>> import xpert_frames as xf
    >>> xf.load_sample().height > 0
    True
    """
    return pl.read_parquet(SAMPLE)


def load_sample_plan() -> Plan:
    """The bundled sample's scoring plan (``xpert_frames/data/sample_plan.toml``): accuracy on
    the question-answer rows, math on number questions, BLEU and fuzzy on translations, TCM on
    TCM diagnoses. The CLI reads the same file with ``--plan``.

    Examples
    --------
    >>> import xpert_frames as xf
    >>> xf.load_sample_plan().sql()["bleu"]
    "task = 'translation'"
    """
    return Plan.read(SAMPLE_PLAN)
