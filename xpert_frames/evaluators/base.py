"""The evaluator contract.

An evaluator turns the canonical columns of :mod:`xpert_frames.core.frames` into its own output
columns, all named ``<name>_<suffix>``; ``<name>_score`` (Float64) is always the first. Every
evaluator works the same way, in one method the base class owns (:meth:`BaseEvaluator.apply`):

1. :meth:`~BaseEvaluator.prepare` (optional) adds *temporary* columns: shared intermediate
   results planned once, or a batch of Python work done once per unique value. Temporary
   columns are named with :meth:`~BaseEvaluator.temp` (a reserved prefix no user column and no
   other evaluator can have) and the base drops them afterwards.
2. :meth:`~BaseEvaluator.outputs` (required) gives one Polars expression per output suffix,
   over the canonical and temporary columns.
3. The base masks every output of an invalid row (null prediction, missing or empty reference)
   to null, so reports count it as skipped, and adds the ``<name>_type`` column when the
   evaluator splits its metric by a sub-type (filled on invalid rows too, so that reports count
   them as skipped rows of their sub-type).

:meth:`~BaseEvaluator.report_metrics` says what reports compute. The XpertEval surface
(``evaluate``, ``aggregate_scores``, ``_is_valid_sample``) lives in
:mod:`xpert_frames.evaluators.compat`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.exceptions import EvaluatorTypeError
from xpert_frames.core.metrics import ColumnMetric, CorpusMetric
from xpert_frames.core.options import check_name
from xpert_frames.evaluators.compat import XpertEvalMixin

#: Prefix of every temporary column (``__xf_tmp:<evaluator name>:<part>``). ``:`` cannot appear
#: in the canonical column names, so a temporary column never collides with one of them.
TEMP_PREFIX = "__xf_tmp:"


def _evaluate_only(self: BaseEvaluator) -> dict[str, pl.Expr]:
    raise NotImplementedError(
        f"{type(self).__name__} defines only evaluate(predictions, references) (the XpertEval "
        "way), so it cannot score a frame; implement outputs() (Polars expressions) too"
    )


class BaseEvaluator(XpertEvalMixin, ABC):
    """Base class of every evaluator (the XpertEval ``BaseEvaluator`` API, made columnar)."""

    #: Default name: registry key and prefix of the output columns.
    key: ClassVar[str] = ""
    #: Report metric of the overall score (the seed's dict key, e.g. ``"math_accuracy"``).
    metric: ClassVar[str] = ""
    #: Answer types this evaluator scores (registry fact). When the table has answer types, rows
    #: of other types are not applicable to it (:meth:`applicable`); ``()`` fits every row.
    answer_types: ClassVar[tuple[str, ...]] = ()
    #: Range of ``<name>_score``.
    score_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    #: Canonical column whose value splits reports into sub-metrics (``frames.ANSWER_TYPE``).
    subtype_column: ClassVar[str | None] = None
    #: Sub-type of rows where that column is null (the seed's default, e.g. ``"text"``).
    subtype_default: ClassVar[str | None] = None
    #: Report metric name of a sub-type; ``{}`` is replaced by the sub-type.
    subtype_metric: ClassVar[str] = "{}"
    #: Whether ``answer`` may be a list of several references.
    accepts_list_answer: ClassVar[bool] = False
    #: A list ``answer`` means any one of its references counts (TriviaQA-style aliases): the
    #: row is scored against each non-empty reference and the best score is kept, with the
    #: other outputs (extracted answer, rule) of the reference that gave it
    #: (:meth:`apply`). ``False``: the evaluator reads a list itself (BLEU's references).
    best_of_answers: ClassVar[bool] = False
    #: Scores are 0/1 (reports use a Wilson interval) rather than continuous (bootstrap).
    binary_score: ClassVar[bool] = False
    #: Options that change report metrics beyond the score columns (BLEU's corpus score). A
    #: report on a table that does not record them refuses to guess them.
    report_options: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *, name: str | None = None) -> None:
        self.name = check_name(name if name is not None else (self.key or type(self).__name__))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A seed-style evaluator (XpertEval): it defines evaluate() and no outputs(). It stays
        # usable through evaluate(); scoring a frame with it says what is missing.
        super().__init_subclass__(**kwargs)
        if "evaluate" in vars(cls) and getattr(cls.outputs, "__isabstractmethod__", False):
            cls.outputs = _evaluate_only  # type: ignore[method-assign]

    # ------------------------------------------------------------------ to implement
    @abstractmethod
    def outputs(self) -> dict[str, pl.Expr]:
        """Output expressions keyed by suffix, ``"score"`` first, over the canonical columns
        and the temporary columns :meth:`prepare` adds. Values of invalid rows do not matter:
        :meth:`apply` masks them to null."""

    def prepare(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Add temporary columns (named with :meth:`temp`) that :meth:`outputs` reads.

        Override to stage shared work once (a struct of intermediate results, a batch of
        Python work over unique values); the default adds nothing.
        """
        return lf

    # ------------------------------------------------------------------ the contract's one path
    def temp(self, part: str) -> str:
        """Name of this evaluator's temporary column ``part`` (dropped by :meth:`apply`)."""
        return f"{TEMP_PREFIX}{self.name}:{part}"

    def output_suffixes(self) -> list[str]:
        """Suffixes of the output columns, in order."""
        suffixes = list(self.outputs())
        if self.subtype_column is not None:
            suffixes.append("type")
        return suffixes

    def apply(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """``lf`` (with canonical columns) plus exactly :meth:`output_names`, rows in order.

        Subclasses implement :meth:`prepare` and :meth:`outputs`, not this method. With
        :attr:`best_of_answers` and a list ``answer``, each row is scored once per reference
        and the best is kept (:meth:`_apply_best_of`).
        """
        if self.best_of_answers and isinstance(lf.collect_schema()[frames.ANSWER], pl.List):
            return self._apply_best_of(lf)
        return self._apply_one(lf)

    def _apply_best_of(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Several accepted references: one work row per reference (``explode``; a row with an
        empty list keeps one null reference), each scored as a string reference; a blank
        reference is invalid there, so it never wins. Per input row the work row with the
        highest score is kept (the first such reference on ties; all outputs from it), then
        the list and the row's validity are put back. Every input row stays, in order."""
        row, refs, valid = self.temp("answers:row"), self.temp("answers:list"), self.temp("valid")
        lf = (
            lf.with_row_index(row)
            .with_columns(pl.col(frames.ANSWER).alias(refs), pl.col(frames.VALID).alias(valid))
            .explode(frames.ANSWER, empty_as_null=True, keep_nulls=True)
        )
        blank = pl.col(frames.ANSWER).str.strip_chars().str.len_chars().fill_null(0) == 0
        lf = self._apply_one(lf.with_columns((pl.col(frames.VALID) & ~blank).alias(frames.VALID)))
        score = pl.col(self.score_column).fill_null(float("-inf"))
        best = pl.int_range(pl.len()).over(row) == score.arg_max().over(row)
        lf = lf.filter(best).with_columns(
            pl.col(refs).alias(frames.ANSWER), pl.col(valid).alias(frames.VALID)
        )
        return lf.drop(row, refs, valid)

    def _apply_one(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        before = set(lf.collect_schema().names())
        lf = self.prepare(lf)
        added = [n for n in lf.collect_schema().names() if n not in before]
        stray = [n for n in added if not n.startswith(self.temp(""))]
        if stray:
            raise EvaluatorTypeError(
                f"{type(self).__name__}.prepare() added column(s) {stray}; temporary columns "
                f"must be named with self.temp(part), e.g. {self.temp('part')!r}"
            )
        valid = pl.col(frames.VALID)
        exprs = [
            pl.when(valid).then(expr).otherwise(None).alias(self.column(suffix))
            for suffix, expr in self.outputs().items()
        ]
        if self.subtype_column is not None:  # known on invalid rows too: their type's skipped
            exprs.append(
                pl.col(self.subtype_column)
                .fill_null(pl.lit(self.subtype_default))
                .alias(self.column("type"))
            )
        lf = lf.with_columns(exprs)
        return lf.drop(added) if added else lf

    def applicable(self) -> pl.Expr | None:
        """The rows this evaluator fits, as a Boolean expression over the canonical columns,
        used when the table has answer types: by default the rows whose ``answer_type``
        (trimmed, lower-case; null counts as ``text``) is one of :attr:`answer_types`.
        ``None`` fits every row."""
        if not self.answer_types:
            return None
        kind = pl.col(frames.ANSWER_TYPE).str.strip_chars().str.to_lowercase().fill_null("text")
        return kind.is_in(list(self.answer_types))

    @classmethod
    def fits(cls) -> str:
        """The rows :meth:`applicable` selects, in words (for listings and reports)."""
        if not cls.answer_types:
            return "every row"
        return "rows whose answer_type is " + " / ".join(cls.answer_types)

    # ------------------------------------------------------------------ names
    def column(self, suffix: str) -> str:
        return f"{self.name}_{suffix}"

    @property
    def score_column(self) -> str:
        return self.column("score")

    def output_names(self) -> list[str]:
        return [self.column(s) for s in self.output_suffixes()]

    @property
    def signature(self) -> str | None:
        """A reproducibility signature of what produced the numbers (tokenizers and their
        versions, options), as sacrebleu prints; ``None`` when the options say it all."""
        return None

    def options(self) -> dict[str, Any]:
        """The evaluator's options and their current values (for repr, CLI, signatures)."""
        return {k: v for k, v in vars(self).items() if not k.startswith("_") and k != "name"}

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        prefix = f"name={self.name!r}" + (", " if opts else "")
        return f"{type(self).__name__}({prefix}{opts})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((type(self), self.name))

    # ------------------------------------------------------------------ reports
    def report_metrics(self) -> list[ColumnMetric | CorpusMetric]:
        """What reports compute for this evaluator: the overall score and, with a sub-type, one
        row per sub-type. Override to add metrics (a match rate, corpus BLEU from summed
        statistics via :class:`~xpert_frames.core.metrics.CorpusMetric`)."""
        if self.name == self.key and self.metric:
            overall, template = self.metric, self.subtype_metric
        else:  # a renamed instance: metrics follow its name
            overall, template = self.name, self.name + "_{}"
        out: list[ColumnMetric | CorpusMetric] = [
            ColumnMetric(overall, self.score_column, binary=self.binary_score)
        ]
        if self.subtype_column is not None:
            out.append(
                ColumnMetric(
                    template, self.score_column, split=self.column("type"), binary=self.binary_score
                )
            )
        return out
