"""Apply several evaluators to a table in one lazy plan, and the engine batch function."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.aliases import FrameT
from xpert_frames.core.exceptions import ColumnTypeError, DuplicateColumnError
from xpert_frames.evaluators.base import BaseEvaluator

if TYPE_CHECKING:
    import pyarrow as pa


def check_names(evaluators: Sequence[BaseEvaluator]) -> list[BaseEvaluator]:
    """``evaluators`` as a list, after checking they are instances with distinct names."""
    evs = list(evaluators)
    if not evs:
        raise ValueError("no evaluators given; pass names such as ['fuzzy'] or instances")
    for ev in evs:
        if not isinstance(ev, BaseEvaluator):
            raise TypeError(
                f"expected BaseEvaluator instances, got {type(ev).__name__}; "
                "xpert_frames.score() also takes registry names"
            )
    names = [ev.name for ev in evs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise DuplicateColumnError(
            f"two evaluators share the name(s) {dupes}; give one a different name, "
            "e.g. get_evaluator('fuzzy', threshold=0.8, name='fuzzy_strict')"
        )
    return evs


def plan(
    lf: pl.LazyFrame,
    evaluators: Sequence[BaseEvaluator],
    columns: frames.Columns,
) -> pl.LazyFrame:
    """The lazy plan: input columns in order, then every evaluator's output columns."""
    evaluators = check_names(evaluators)
    schema = lf.collect_schema()
    original = schema.names()
    outputs = [name for ev in evaluators for name in ev.output_names()]
    clash = [name for name in outputs if name in schema]
    if clash:
        raise DuplicateColumnError(
            f"scoring would overwrite existing column(s) {clash}; drop them first or pass "
            "name=... to the evaluator to change its column prefix"
        )
    work = frames.prepare(lf, columns)
    answer_dtype = work.collect_schema()[frames.ANSWER]
    for ev in evaluators:
        if isinstance(answer_dtype, pl.List) and not ev.accepts_list_answer:
            raise ColumnTypeError(
                columns.answer,
                "answer",
                f"a string column for evaluator {ev.name!r}",
                answer_dtype,
                "Only evaluators that take several references accept list answers.",
            )
        work = ev.apply(work)
    return work.select([*original, *outputs])


def score(
    frame: FrameT,
    evaluators: Sequence[BaseEvaluator],
    *,
    columns: frames.Columns | Mapping[str, str] | None = None,
    **names: str,
) -> FrameT:
    """Score ``frame`` with evaluator instances in one lazy plan (:func:`xpert_frames.score`
    also takes names).

    Returns the same kind of table (DataFrame, LazyFrame or pyarrow Table) with every input row
    and column in order, plus ``<name>_score`` and each evaluator's own columns. Column roles
    are mapped with keywords, e.g. ``score(df, "fuzzy", prediction="response", answer="gold")``.
    """
    evs = check_names(evaluators)
    cols = frames.Columns.of(columns, **names)
    if frames.is_arrow_table(frame):
        return _score_arrow(frame, evs, cols)
    lazy = plan(frames.to_lazy(frame), evs, cols)
    if isinstance(frame, pl.LazyFrame):
        return lazy
    return lazy.collect()


def _score_arrow(table: pa.Table, evs: list[BaseEvaluator], cols: frames.Columns) -> pa.Table:
    # Compute only the new columns and append them: input columns stay byte-for-byte as given.
    lf = frames.to_lazy(table)
    outputs = [name for ev in evs for name in ev.output_names()]
    new = plan(lf, evs, cols).select(outputs).collect().to_arrow()
    for name in outputs:
        table = table.append_column(new.schema.field(name), new.column(name))
    return table


class BatchScorer:
    """A picklable ``pa.Table -> pa.Table`` function for engines (Ray Data ``map_batches``).

    Evaluator instances are plain objects, so the scorer pickles with them; per-process setup
    (tokenizers, dictionaries) is done lazily inside the evaluators, once per worker process.
    """

    def __init__(
        self,
        evaluators: Sequence[BaseEvaluator],
        *,
        columns: frames.Columns | Mapping[str, str] | None = None,
        **names: str,
    ) -> None:
        self.evaluators = check_names(evaluators)
        self.columns = frames.Columns.of(columns, **names)

    def __call__(self, batch: pa.Table) -> pa.Table:
        return _score_arrow(batch, self.evaluators, self.columns)

    def output_names(self) -> list[str]:
        return [name for ev in self.evaluators for name in ev.output_names()]

    def __repr__(self) -> str:
        return f"BatchScorer({self.evaluators!r}, columns={self.columns!r})"
