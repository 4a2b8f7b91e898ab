"""The evaluator contract.

An evaluator turns the canonical columns of :mod:`xpert_frames.frames` into its own output
columns, all named ``<name>_<suffix>``; ``<name>_score`` (Float64) is always one of them.
Invalid rows (null prediction, missing or empty reference value) get null in every output
column, so reports count them as skipped. A valid prediction that yields nothing is *wrong*
(score 0), never skipped.

Subclasses implement :meth:`BaseEvaluator.outputs` (pure Polars expressions), or override
:meth:`BaseEvaluator.apply` when a library forces Python work (then once per unique value, in
batches). :meth:`BaseEvaluator.report_metrics` says what reports compute. The seed's
``evaluate(predictions, references)`` and ``aggregate_scores`` are kept
and run on the same columnar code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import polars as pl

from xpert_frames import frames
from xpert_frames._options import check_name
from xpert_frames._typing import FrameT
from xpert_frames.metrics import ColumnMetric, CorpusMetric


class BaseEvaluator:
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
    #: Scores are 0/1 (reports use a Wilson interval) rather than continuous (bootstrap).
    binary_score: ClassVar[bool] = False

    def __init__(self, *, name: str | None = None) -> None:
        self.name = check_name(name if name is not None else (self.key or type(self).__name__))

    # ------------------------------------------------------------------ to implement
    def outputs(self) -> dict[str, pl.Expr]:
        """Output expressions over the canonical columns, keyed by suffix (``"score"`` first).

        Values for invalid rows do not matter: :meth:`apply` masks them to null.
        """
        raise NotImplementedError(
            f"{type(self).__name__} does not define columnar outputs(); it can only run through "
            "evaluate(predictions, references). "
            "Implement outputs() (Polars expressions) or apply()."
        )

    def output_suffixes(self) -> list[str]:
        """Suffixes of the output columns, in order. Override together with :meth:`apply`."""
        suffixes = list(self.outputs())
        if self.subtype_column is not None:
            suffixes.append("type")
        return suffixes

    def apply(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """``lf`` (with canonical columns) plus this evaluator's output columns.

        Must keep rows and order and add exactly :meth:`output_names`.
        """
        valid = pl.col(frames.VALID)
        exprs = [
            pl.when(valid).then(expr).otherwise(None).alias(self.column(suffix))
            for suffix, expr in self.outputs().items()
        ]
        if self.subtype_column is not None:
            exprs.append(
                pl.when(valid)
                .then(pl.col(self.subtype_column).fill_null(pl.lit(self.subtype_default)))
                .otherwise(None)
                .alias(self.column("type"))
            )
        return lf.with_columns(exprs)

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
        statistics via :class:`~xpert_frames.metrics.CorpusMetric`)."""
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

    # ------------------------------------------------------------------ frames
    def score(
        self,
        frame: FrameT,
        *,
        columns: frames.Columns | Mapping[str, str] | None = None,
        all_rows: bool = False,
        **names: str,
    ) -> FrameT:
        """Score a table (see :func:`xpert_frames.score`); returns the same kind of table with
        every input row and column in order, plus this evaluator's columns."""
        from xpert_frames.scoring import score

        return score(frame, [self], columns=columns, all_rows=all_rows, **names)

    # ------------------------------------------------------------------ seed API
    def evaluate(
        self, predictions: Sequence[str | None], references: Sequence[Any]
    ) -> dict[str, Any]:
        """The seed API: ``{"<metric>": {"score", "min", "max", "count"}, ...}``."""
        from xpert_frames.report import report, to_seed_dict

        # The seed scored every valid row with every evaluator: so does its API.
        scored = self.score(frames.from_records(predictions, references), all_rows=True)
        return to_seed_dict(report(scored, evaluators=[self]))

    def aggregate_scores(self, individual_scores: Sequence[float]) -> dict[str, float | int]:
        """The seed's aggregation: mean, min, max and count; empty gives zeros with count 0."""
        return aggregate_scores(individual_scores)

    def _is_valid_sample(self, prediction: str | None, reference: Any) -> bool:
        """The seed's per-sample check, kept for callers of the old API; made stricter in the
        same way as the columnar path (an empty reference value is invalid too)."""
        if prediction is None or not isinstance(reference, dict):
            return False
        answer = reference.get("answer")
        if not isinstance(answer, dict) or "value" not in answer:
            return False
        value = answer["value"]
        if isinstance(value, list | tuple):
            return any(str(v).strip() for v in value)
        return value is not None and str(value).strip() != ""


def aggregate_scores(individual_scores: Sequence[float]) -> dict[str, float | int]:
    """The seed's ``aggregate_scores``: empty gives ``{score: 0, min: 0, max: 0, count: 0}``."""
    if not individual_scores:
        return {"score": 0.0, "min": 0.0, "max": 0.0, "count": 0}
    return {
        "score": sum(individual_scores) / len(individual_scores),
        "min": min(individual_scores),
        "max": max(individual_scores),
        "count": len(individual_scores),
    }
