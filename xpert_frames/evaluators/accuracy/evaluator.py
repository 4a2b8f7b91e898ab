"""Accuracy of choice, text and number answers (the seed's ``AccuracyEvaluator``).

Each row is scored by its ``answer_type`` (seed default ``text``; types other than ``choice``
and ``number`` are scored as text):

* ``choice``: the option(s) are extracted by the cascade of
  :func:`~xpert_frames.evaluators.choice_extract.extract_choice` and compared with the reference
  letters as sets (``"A,B,D"`` equals ``"DBA"``).
* ``text``: the seed's exact / partial / case semantics after normalization (strip, full-width to
  half-width, punctuation at the ends removed, so ``北京。`` equals ``北京``).
* ``number``: the answer's number (:func:`xpert_frames.numeric.parse.extract_number`, the
  parser shared with the math evaluator) against the reference
  (:func:`xpert_frames.numeric.parse.parse_number`) within ``numeric_tolerance`` (absolute, as
  the seed).

Output columns: ``<name>_score`` (1.0 / 0.0), ``<name>_extracted`` (the option letters, the
normalized text or the number taken), ``<name>_rule`` (which rule decided) and ``<name>_type``.
"""

from __future__ import annotations

from typing import ClassVar

import polars as pl

from xpert_frames.core import frames, text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.exceptions import InvalidOptionError
from xpert_frames.core.options import check_bool, check_float
from xpert_frames.evaluators.accuracy.choice_extract import (
    extract_choice,
    option_letters,
    reference_letters,
)
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.numeric import parse as numbers

#: Whitespace and Unicode punctuation (ASCII and Chinese alike) at either end.
_ENDS = r"^[\s\p{P}]+|[\s\p{P}]+$"

_RESULT = {"score": pl.Float64, "extracted": pl.String, "rule": pl.String}


def _result(score: pl.Expr, extracted: pl.Expr, rule: pl.Expr) -> pl.Expr:
    return pl.struct(
        score.cast(pl.Float64).alias("score"),
        extracted.cast(pl.String).alias("extracted"),
        rule.cast(pl.String).alias("rule"),
    )


# --------------------------------------------------------------------------- text
def normalize_text(value: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """Full-width to half-width, whitespace and punctuation stripped at both ends, lower-cased
    unless ``case_sensitive``: ``" 北京。"`` -> ``"北京"``, ``"Ｐａｒｉｓ!"`` -> ``"paris"``."""
    case_sensitive = check_bool("case_sensitive", case_sensitive)
    out = text.full_to_half(text.to_expr(value)).str.replace_all(_ENDS, "")
    return out if case_sensitive else out.str.to_lowercase()


def text_match(
    prediction: IntoExpr,
    reference: IntoExpr,
    *,
    exact_match: bool = True,
    case_sensitive: bool = False,
    allow_partial: bool = False,
) -> pl.Expr:
    """Seed text accuracy: ``Struct{score, extracted, rule}``.

    ``exact_match``: equal normalized texts score 1 (rule ``exact``). ``allow_partial``: either
    containing the other scores 1 (rule ``partial``). An empty prediction scores 0 (``empty``).
    """
    exact_match, allow_partial = _check_text_options(exact_match, allow_partial)
    pred = normalize_text(prediction, case_sensitive=case_sensitive)
    ref = normalize_text(reference, case_sensitive=case_sensitive)
    return _text_outcome(pred, ref, exact_match=exact_match, allow_partial=allow_partial)


def _text_outcome(
    pred: pl.Expr, ref: pl.Expr, *, exact_match: bool, allow_partial: bool
) -> pl.Expr:
    """Score, extracted and rule of already normalized texts."""
    empty = (pred.str.len_bytes() == 0) | (ref.str.len_bytes() == 0)
    exact = pl.lit(exact_match) & (pred == ref)
    partial = pl.lit(allow_partial) & (
        pred.str.contains(ref, literal=True) | ref.str.contains(pred, literal=True)
    )
    rule = (
        pl.when(empty)
        .then(pl.lit("empty"))
        .when(exact)
        .then(pl.lit("exact"))
        .when(partial)
        .then(pl.lit("partial"))
        .otherwise(pl.lit("none"))
    )
    score = pl.when(rule.is_in(["exact", "partial"])).then(1.0).otherwise(0.0)
    return _result(score, pred, rule)


def _check_text_options(exact_match: object, allow_partial: object) -> tuple[bool, bool]:
    exact = check_bool("exact_match", exact_match)
    partial = check_bool("allow_partial", allow_partial)
    if not exact and not partial:
        raise InvalidOptionError(
            "exact_match=False with allow_partial=False leaves no way for a text answer to "
            "match (every text row would score 0); set exact_match=True, allow_partial=True, "
            "or both"
        )
    return exact, partial


# --------------------------------------------------------------------------- number
def number_match(
    prediction: IntoExpr, reference: IntoExpr, *, numeric_tolerance: float = 1e-4
) -> pl.Expr:
    """The answer's number (:func:`xpert_frames.numeric.parse.extract_number`, ``mode="last"``:
    boxed, then answer statement, then ``= x`` at the end, then the last number) against the
    reference number: ``|pred - ref| <= numeric_tolerance`` scores 1.
    ``Struct{score, extracted, rule}``; a prediction without a number scores 0 (rule ``none``)."""
    tol = check_float("numeric_tolerance", numeric_tolerance, low=0.0)
    found = numbers.extract_number(prediction, mode="last")
    return _number_outcome(found, numbers.parse_number(reference), tol)


def _number_outcome(found: pl.Expr, ref: pl.Expr, tol: float) -> pl.Expr:
    """Score, extracted and rule of a found-number struct against a reference value."""
    value = found.struct.field("value")
    hit = (value - ref).abs() <= tol
    score = pl.when(hit.fill_null(False)).then(1.0).otherwise(0.0)
    rule = pl.when(value.is_null()).then(pl.lit("none")).otherwise(found.struct.field("rule"))
    return _result(score, value.cast(pl.String), rule)


_NUMBERS_DTYPE = pl.Struct({"found": numbers.NUMBER_DTYPE, "ref": pl.Float64})


def _numbers_batch(batch: pl.Series) -> pl.Series:
    """Number parsing of a batch's number rows; a batch without any skips the parser."""
    df = batch.struct.unnest()
    if df["p"].null_count() == df.height:
        return pl.Series(batch.name, [None] * df.height, dtype=_NUMBERS_DTYPE)
    found = numbers.extract_number("p", mode="last").alias("found")
    out = df.select(pl.struct(found, numbers.parse_number("r").alias("ref")).alias(batch.name))
    return out.to_series()


# --------------------------------------------------------------------------- choice
def choice_match(
    prediction: IntoExpr, reference: IntoExpr, *, choices: IntoExpr | None = None
) -> pl.Expr:
    """Extract the option(s) and compare with the reference letters as sets.
    ``Struct{score, extracted, rule}``; a reference that is not option letters scores 0."""
    ref = reference_letters(reference)
    options = option_letters(choices, answer=ref)
    found = extract_choice(prediction, options=options, choices=choices)
    return _choice_outcome(found, ref)


def _choice_outcome(found: pl.Expr, ref: pl.Expr) -> pl.Expr:
    """Score, extracted and rule of an extraction struct against reference letters."""
    letters = found.struct.field("letters")
    score = pl.when((letters == ref).fill_null(False)).then(1.0).otherwise(0.0)
    return _result(score, letters, found.struct.field("rule"))


# --------------------------------------------------------------------------- evaluator
class AccuracyEvaluator(BaseEvaluator):
    """Accuracy of choice, text and number answers, with auditable answer extraction."""

    key: ClassVar[str] = "accuracy"
    metric: ClassVar[str] = "accuracy"
    answer_types: ClassVar[tuple[str, ...]] = ("choice", "text", "number", "judge")
    subtype_column: ClassVar[str | None] = frames.ANSWER_TYPE
    subtype_default: ClassVar[str | None] = "text"
    subtype_metric: ClassVar[str] = "{}_accuracy"
    binary_score: ClassVar[bool] = True

    def __init__(
        self,
        *,
        exact_match: bool = True,
        case_sensitive: bool = False,
        allow_partial: bool = False,
        numeric_tolerance: float = 0.0001,
        name: str | None = None,
    ) -> None:
        super().__init__(name=name)
        self.exact_match, self.allow_partial = _check_text_options(exact_match, allow_partial)
        self.case_sensitive = check_bool("case_sensitive", case_sensitive)
        self.numeric_tolerance = check_float("numeric_tolerance", numeric_tolerance, low=0.0)

    def _kind(self) -> pl.Expr:
        return pl.col(frames.ANSWER_TYPE).str.strip_chars().str.to_lowercase().fill_null("text")

    def prepare(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Stage the shared work over temporary columns so that the extraction cascade is
        planned and run once, not once per output column (every stage is Polars expressions)."""
        kind = pl.col(self.temp("kind"))
        is_choice, is_number = kind == "choice", kind == "number"
        lf = lf.with_columns(self._kind().alias(self.temp("kind")))
        lf = lf.with_columns(self._stage_inputs(is_choice, is_number))
        found = extract_choice(
            pl.when(is_choice).then(pl.col(frames.PRED)),
            options=pl.col(self.temp("options")),
            choices=pl.when(is_choice).then(pl.col(frames.CHOICES)),
        )
        lf = lf.with_columns(found.alias(self.temp("choice")))
        return lf.with_columns(self._outcome(is_choice, is_number).alias(self.temp("result")))

    def _stage_inputs(self, is_choice: pl.Expr, is_number: pl.Expr) -> list[pl.Expr]:
        """Reference letters and options (choice rows), parsed numbers (number rows) and
        normalized texts (text rows)."""
        is_text = ~is_choice & ~is_number
        pred, ref = pl.col(frames.PRED), pl.col(frames.ANSWER)
        letters = reference_letters(pl.when(is_choice).then(ref))
        numbers_struct = pl.struct(
            pl.when(is_number).then(pred).alias("p"), pl.when(is_number).then(ref).alias("r")
        )
        case = self.case_sensitive
        return [
            letters.alias(self.temp("ref")),
            option_letters(frames.CHOICES, answer=letters).alias(self.temp("options")),
            numbers_struct.map_batches(
                _numbers_batch, return_dtype=_NUMBERS_DTYPE, is_elementwise=True
            ).alias(self.temp("number")),
            normalize_text(pl.when(is_text).then(pred), case_sensitive=case).alias(
                self.temp("text_pred")
            ),
            normalize_text(pl.when(is_text).then(ref), case_sensitive=case).alias(
                self.temp("text_ref")
            ),
        ]

    def _outcome(self, is_choice: pl.Expr, is_number: pl.Expr) -> pl.Expr:
        number = pl.col(self.temp("number"))
        return (
            pl.when(is_choice)
            .then(_choice_outcome(pl.col(self.temp("choice")), pl.col(self.temp("ref"))))
            .when(is_number)
            .then(
                _number_outcome(
                    number.struct.field("found"),
                    number.struct.field("ref"),
                    self.numeric_tolerance,
                )
            )
            .otherwise(
                _text_outcome(
                    pl.col(self.temp("text_pred")),
                    pl.col(self.temp("text_ref")),
                    exact_match=self.exact_match,
                    allow_partial=self.allow_partial,
                )
            )
        )

    def outputs(self) -> dict[str, pl.Expr]:
        result = pl.col(self.temp("result"))
        return {suffix: result.struct.field(suffix) for suffix in _RESULT}
