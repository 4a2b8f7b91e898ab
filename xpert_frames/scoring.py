"""Apply several evaluators to a table in one lazy plan, and the engine batch function."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import polars as pl

from xpert_frames import registry
from xpert_frames.core import frames
from xpert_frames.core.aliases import FrameT
from xpert_frames.core.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    DuplicateColumnError,
    EmptyInputError,
    EvaluatorTypeError,
)
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.plans import Plan

#: What the scoring functions take: evaluator instances, or a plan (evaluators and row filters).
Evaluators = Sequence[BaseEvaluator] | Plan
#: Prefix of the temporary column holding an evaluator's row filter.
_ROWS = "__xf_rows:"

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa


def check_names(evaluators: Sequence[BaseEvaluator]) -> list[BaseEvaluator]:
    """``evaluators`` as a list, after checking they are instances with distinct names."""
    evs = list(evaluators)
    if not evs:
        raise EmptyInputError("no evaluators given; pass names such as ['fuzzy'] or instances")
    for ev in evs:
        if not isinstance(ev, BaseEvaluator):
            raise EvaluatorTypeError(
                f"expected BaseEvaluator instances, got {type(ev).__name__}; "
                "xpert_frames.score() also takes registry names"
            )
    registry.refuse_shared_names([ev.name for ev in evs])
    return evs


def typed(schema: pl.Schema, columns: frames.Columns, all_rows: bool = False) -> bool:
    """Whether the applicability rule is in force: the table has answer types and
    ``all_rows`` is off."""
    return not all_rows and frames.has_answer_types(schema, columns)


def as_plan(evaluators: Evaluators) -> Plan:
    """``evaluators`` as a :class:`~xpert_frames.plans.Plan` (instances: no row filters)."""
    if isinstance(evaluators, Plan):
        return evaluators
    return Plan(check_names(evaluators))


def output_names(
    evaluators: Evaluators, rule: bool, filtered: Iterable[str] | None = None
) -> list[str]:
    """The columns scoring adds: each evaluator's, then (for evaluators that fit some rows
    only: under the answer-type rule, or with a row filter) its ``<name>_applicable``.
    ``filtered`` names the evaluators with a row filter (default: those of the plan)."""
    scoring_plan = as_plan(evaluators)
    narrowed = set(scoring_plan.filters() if filtered is None else filtered)
    out: list[str] = []
    for ev in scoring_plan.evaluators:
        out += ev.output_names()
        if (rule and ev.applicable() is not None) or ev.name in narrowed:
            out.append(ev.column("applicable"))
    return out


def _check_filters(schema: pl.Schema, filters: dict[str, pl.Expr]) -> None:
    """Every filter reads columns of the input and gives one Boolean per row."""
    for name, expr in filters.items():
        role = f"rows of evaluator {name!r}"
        for column in expr.meta.root_names():
            if column not in schema:
                raise ColumnNotFoundError(
                    column, role, schema.names(), hint="Filters read the input's own columns."
                )
        try:  # run on no rows: type errors (a string compared with a number) surface now
            dtype = pl.LazyFrame(schema=schema).select(expr).collect().dtypes[0]
        except pl.exceptions.PolarsError as exc:
            raise ColumnTypeError(
                str(expr), role, "a filter Polars can evaluate on the input's columns", exc
            ) from None
        if dtype not in (pl.Boolean, pl.Null):
            raise ColumnTypeError(
                str(expr),
                role,
                "a Boolean expression (one true/false per row)",
                dtype,
                "Compare a column, e.g. pl.col('task') == 'translation' or "
                "\"task = 'translation'\".",
            )


def plan(
    lf: pl.LazyFrame,
    evaluators: Evaluators,
    columns: frames.Columns,
    *,
    all_rows: bool = False,
) -> pl.LazyFrame:
    """The lazy plan: input columns in order, then every evaluator's output columns.

    When the table has answer types (and ``all_rows`` is off) each evaluator scores only the
    rows it fits, and an evaluator with a row filter (a :class:`~xpert_frames.plans.Plan`)
    only the rows of its filter too; the others get null in its columns and ``false`` in
    ``<name>_applicable``, which reports count as ``not_applicable`` (neither scored nor
    skipped). Filters are evaluated on the input's own columns, row by row.
    """
    scoring_plan = as_plan(evaluators)
    evs = check_names(scoring_plan.evaluators)
    filters = scoring_plan.filters()
    schema = lf.collect_schema()
    original = schema.names()
    _check_filters(schema, filters)
    rule = typed(schema, columns, all_rows)
    outputs = output_names(evs, rule, filters)
    clash = [name for name in outputs if name in schema]
    if clash:
        raise DuplicateColumnError(
            f"scoring would overwrite existing column(s) {clash}; drop them first or pass "
            "name=... to the evaluator to change its column prefix"
        )
    reserved = [f"{_ROWS}{name}" for name in filters if f"{_ROWS}{name}" in schema]
    if reserved:
        raise DuplicateColumnError(f"input uses reserved internal column name(s) {reserved}")
    if filters:  # on the input's own columns, before the canonical ones are added
        lf = lf.with_columns(
            expr.fill_null(False).alias(f"{_ROWS}{name}") for name, expr in filters.items()
        )
    work = frames.prepare(lf, columns)
    answer_dtype = work.collect_schema()[frames.ANSWER]
    if rule or filters:
        work = work.with_columns(pl.col(frames.VALID).alias(frames.VALID_ROW))
    for ev in evs:
        if isinstance(answer_dtype, pl.List) and not ev.accepts_list_answer:
            raise ColumnTypeError(
                columns.answer,
                "answer",
                f"a string column for evaluator {ev.name!r}",
                answer_dtype,
                "Only evaluators that take several references accept list answers.",
            )
        fits = ev.applicable() if rule else None
        if ev.name in filters:
            row_filter = pl.col(f"{_ROWS}{ev.name}")
            fits = row_filter if fits is None else fits.fill_null(False) & row_filter
        if fits is None:
            if rule or filters:
                work = work.with_columns(pl.col(frames.VALID_ROW).alias(frames.VALID))
            work = ev.apply(work)
            continue
        fits = fits.fill_null(False)
        work = ev.apply(work.with_columns((pl.col(frames.VALID_ROW) & fits).alias(frames.VALID)))
        applicable = [fits.alias(ev.column("applicable"))]
        if ev.subtype_column is not None:  # a row it does not fit has no sub-type of it
            kind = ev.column("type")
            applicable.append(pl.when(fits).then(pl.col(kind)).alias(kind))
        work = work.with_columns(applicable)
    return work.select([*original, *outputs])


def score(
    frame: FrameT,
    evaluators: Evaluators,
    *,
    columns: frames.Columns | Mapping[str, str] | None = None,
    all_rows: bool = False,
    **names: str,
) -> FrameT:
    """Score ``frame`` with evaluator instances in one lazy plan (:func:`xpert_frames.score`
    also takes names).

    Returns the same kind of table with every input row and column in order, plus
    ``<name>_score`` and each evaluator's own columns: a Polars DataFrame or LazyFrame, a pyarrow
    Table or RecordBatch, a pandas DataFrame (input columns and index untouched; new columns
    with NaN/None for nulls). Any other object with ``__arrow_c_stream__`` (a RecordBatchReader,
    a DuckDB relation, ...) is read once and gives a pyarrow Table. Column roles are mapped with
    keywords, e.g. ``score(df, evs, prediction="response", answer="gold")``.

    When the table has an ``answer_type`` column, each evaluator scores only the rows it fits
    (accuracy: choice/text/number/judge; math: number; BLEU and fuzzy: text; TCM: rows with a
    ``tcm_eval_type``); ``all_rows=True`` scores every row with every evaluator. A
    :class:`~xpert_frames.plans.Plan` narrows an evaluator to the rows of its filter too.
    """
    evs = as_plan(evaluators)
    cols = frames.Columns.of(columns, **names)
    if isinstance(frame, pl.DataFrame | pl.LazyFrame):
        lazy = plan(frame.lazy(), evs, cols, all_rows=all_rows)
        return lazy if isinstance(frame, pl.LazyFrame) else lazy.collect()
    if frames.is_pandas(frame):
        return _score_pandas(frame, evs, cols, all_rows)
    if frames.is_record_batch(frame):
        out = _score_arrow(frames.to_arrow_table(frame), evs, cols, all_rows)
        return _one_batch(out)
    if frames.is_arrow_table(frame) or hasattr(frame, "__arrow_c_stream__"):
        return _score_arrow(frames.to_arrow_table(frame), evs, cols, all_rows)
    frames.to_lazy(frame)  # raises the TypeError that names what is accepted
    raise AssertionError("unreachable")


def _new_columns(lf: pl.LazyFrame, evs: Plan, cols: frames.Columns, all_rows: bool) -> pl.DataFrame:
    """Only the columns scoring adds, as one Polars DataFrame."""
    scored = plan(lf, evs, cols, all_rows=all_rows)
    width = len(lf.collect_schema())
    return scored.select(scored.collect_schema().names()[width:]).collect()


def _score_arrow(
    table: pa.Table, evs: Plan, cols: frames.Columns, all_rows: bool = False
) -> pa.Table:
    # Compute only the new columns and append them: input columns stay byte-for-byte as given.
    new = _as_arrow(_new_columns(frames.to_lazy(table), evs, cols, all_rows))
    for name in new.column_names:
        table = table.append_column(new.schema.field(name), new.column(name))
    # The configuration travels with the scores (reports rebuild the evaluators from it).
    return table.replace_schema_metadata(evs.merge_metadata(table.schema.metadata))


def _as_arrow(df: pl.DataFrame) -> pa.Table:
    """``df.to_arrow()`` (strings as ``large_string``), its string columns exported as Polars
    holds them (``string_view``, no copy) and cast by pyarrow: 29 vs 40 CPU-ms for the math
    evaluator's six output columns of 1,000,000 rows (POLARS_MAX_THREADS=2, best of 8,
    load average 10.7)."""
    import pyarrow as pa

    plain = [name for name, dtype in df.schema.items() if dtype == pl.String]
    views = df.select(plain).to_arrow(compat_level=pl.CompatLevel.newest())
    others = df.drop(plain).to_arrow()
    columns = [
        views.column(name).cast(pa.large_string())
        if name in views.column_names
        else others.column(name)
        for name in df.columns
    ]
    return pa.table(columns, names=df.columns)


def _one_batch(table: pa.Table) -> pa.RecordBatch:
    import pyarrow as pa

    table = table.combine_chunks()
    batches = table.to_batches()
    return batches[0] if batches else pa.RecordBatch.from_pylist([], schema=table.schema)


def _score_pandas(
    df: pd.DataFrame, evs: Plan, cols: frames.Columns, all_rows: bool
) -> pd.DataFrame:
    # Input columns (and the index) are left as they are; the new ones are assigned beside them.
    new = _new_columns(frames.to_lazy(df), evs, cols, all_rows).to_pandas()
    new.index = df.index
    return df.assign(**{name: new[name] for name in new.columns})


class BatchScorer:
    """A picklable ``pa.Table -> pa.Table`` function for engines (Ray Data ``map_batches``).

    Evaluator instances are plain objects, so the scorer pickles with them; per-process setup
    (tokenizers, dictionaries) is done lazily inside the evaluators, once per worker process.
    """

    def __init__(
        self,
        evaluators: Evaluators,
        *,
        columns: frames.Columns | Mapping[str, str] | None = None,
        all_rows: bool = False,
        **names: str,
    ) -> None:
        self.plan = as_plan(evaluators)
        self.evaluators = self.plan.evaluators
        self.columns = frames.Columns.of(columns, **names)
        self.all_rows = all_rows

    def __call__(self, batch: pa.Table) -> pa.Table:
        return _score_arrow(batch, self.plan, self.columns, self.all_rows)

    def output_names(self, schema: pa.Schema | None = None) -> list[str]:
        """The columns added to a table with ``schema`` (``<name>_applicable`` columns only
        when the schema has answer types; without a schema: the evaluators' own columns)."""
        rule = schema is not None and typed(
            frames.schema_of(schema.empty_table()), self.columns, self.all_rows
        )
        return output_names(self.plan, rule)

    def __repr__(self) -> str:
        return f"BatchScorer({self.plan!r}, columns={self.columns!r}, all_rows={self.all_rows!r})"
