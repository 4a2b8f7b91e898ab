"""Accuracy of choice, text and number answers (the seed's ``AccuracyEvaluator``).

Each row is scored by its ``answer_type`` (seed default ``text``; types other than ``choice``,
``judge`` and ``number`` are scored as text):

* ``choice``: the option(s) are extracted by the cascade of
  :func:`~xpert_frames.reading.choice.extract_choice` and compared with the
  reference letters as sets (``"A,B,D"`` equals ``"DBA"``).
* ``text``: the stated answer (``\\boxed{}``, ``答案是…``, ``The answer is …``, bold, a
  concluding sentence, a short last line; negations erased) under the seed's exact / partial /
  case semantics after normalization (NFC, full-width to half-width, punctuation at the ends
  removed, so ``北京。`` equals ``北京``); ``extract_text=False`` compares the whole prediction.
  A text row whose ``choices`` hold labels and whose reference is one of them scores the label
  the prediction states (:mod:`xpert_frames.evaluators.accuracy.text_answers`).
* ``judge``: true/false answers mapped to one canonical value (``正确``/``错误``, ``√``/``×``,
  ``yes``/``no``, ``T``/``F``, negations flip); metric ``judge_accuracy``.
* ``number``: the answer's number (:func:`xpert_frames.reading.numeric.parse.extract_number`, the
  parser shared with the math evaluator) against the reference
  (:func:`xpert_frames.reading.numeric.parse.parse_number`) within ``numeric_tolerance`` (absolute,
  as
  the seed); two integers at or above 2**53 (or beyond Float64's range) compare exactly by
  their digits (:mod:`xpert_frames.reading.numeric.exact`), at any size.

Output columns: ``<name>_score`` (1.0 / 0.0), ``<name>_extracted`` (the option letters, the
normalized text or the number taken), ``<name>_rule`` (which rule decided) and ``<name>_type``.
"""

from __future__ import annotations

from typing import ClassVar

import polars as pl

from xpert_frames.core import frames, text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.options import check_bool, check_float
from xpert_frames.evaluators.accuracy.text_answers import (
    check_text_options,
    judge_match,
    normalize_text,
    result,
    text_match,
)
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.reading.choice import (
    extract_choice,
    option_letters,
    reference_letters,
)
from xpert_frames.reading.commitment import committed
from xpert_frames.reading.dates import conflicting_years, stated_dates
from xpert_frames.reading.markup import clean_predictions
from xpert_frames.reading.numeric import exact
from xpert_frames.reading.numeric import parse as numbers
from xpert_frames.reading.numeric.grammar import small_powers

__all__ = [
    "AccuracyEvaluator",
    "choice_match",
    "judge_match",
    "normalize_text",
    "number_match",
    "text_match",
]

_RESULT = {"score": pl.Float64, "extracted": pl.String, "rule": pl.String}


# --------------------------------------------------------------------------- number
def number_match(
    prediction: IntoExpr, reference: IntoExpr, *, numeric_tolerance: float = 1e-4
) -> pl.Expr:
    """The answer's number (:func:`xpert_frames.expr.extract_number`, ``mode="last"``:
    boxed, then answer statement, then ``= x`` at the end, then the last number; a power of a
    one-digit base read as its value: ``2^{53}``) against the reference number:
    ``|pred - ref| <= numeric_tolerance`` scores 1, computed exactly when both are integers
    at or above 2**53 (or beyond Float64's range).
    ``Struct{score, extracted, rule}``; a prediction without a number scores 0 (rule ``none``)."""
    tol = check_float("numeric_tolerance", numeric_tolerance, low=0.0)
    found = numbers.extract_number_detail(small_powers(text.to_expr(prediction)), mode="last")
    ref = numbers.parse_number_detail(reference)
    return _number_outcome(found, ref, _keys(found, ref), tol)


def _keys(found: pl.Expr, ref: pl.Expr) -> pl.Expr:
    """``{p, r}``: the exact integer keys of both numbers where they are needed
    (:func:`~xpert_frames.reading.numeric.exact.exact_keys`)."""
    pv, rv = found.struct.field("value"), ref.struct.field("value")
    pt, rt = found.struct.field("text"), ref.struct.field("text")
    return pl.struct(
        exact.exact_keys(pv, rv, pt, rt).alias("prediction"),
        exact.exact_keys(rv, pv, rt, pt).alias("reference"),
    )


def _number_outcome(found: pl.Expr, ref: pl.Expr, keys: pl.Expr, tol: float) -> pl.Expr:
    """Score, extracted and rule of a found-number struct against a reference number, with
    their exact integer keys ``{p, r}``: two keys compare exactly; a number beyond Float64
    with a key equals nothing without one."""
    value, ref_value = found.struct.field("value"), ref.struct.field("value")
    pk, rk = keys.struct.field("prediction"), keys.struct.field("reference")
    hit = (value == ref_value) | ((value - ref_value).abs() <= tol)  # equal infinities too
    beyond = pl.when(pk.is_not_null()).then(exact.beyond_float(value)).otherwise(False)
    beyond = beyond | pl.when(rk.is_not_null()).then(exact.beyond_float(ref_value)).otherwise(False)
    hit = (
        pl.when(pk.is_not_null() & rk.is_not_null())
        .then(exact.keys_close(pk, rk, tol))
        .when(beyond)
        .then(False)
        .otherwise(hit)
    )
    score = pl.when(hit.fill_null(False)).then(1.0).otherwise(0.0)
    found_none = value.is_null() & pk.is_null()
    rule = pl.when(found_none).then(pl.lit("none")).otherwise(found.struct.field("rule"))
    shown = pl.when(pk.is_not_null() & exact.beyond_float(value)).then(found.struct.field("text"))
    return result(score, pl.coalesce(shown, value.cast(pl.String)), rule)


_NUMBERS_DTYPE = pl.Struct(
    {
        "found": numbers.DETAIL_DTYPE,
        "ref": pl.Struct({"value": pl.Float64, "unit": pl.String, "text": pl.String}),
        "keys": pl.Struct({"prediction": pl.String, "reference": pl.String}),
    }
)


def _numbers_batch(batch: pl.Series) -> pl.Series:
    """Number parsing of a batch's number rows (and their exact integer keys where needed);
    a batch without any skips the parser."""
    df = batch.struct.unnest()
    if df["prediction"].null_count() == df.height:
        return pl.Series(batch.name, [None] * df.height, dtype=_NUMBERS_DTYPE)
    # A power of a one-digit base is read as its value (``2^{53}``), not its exponent.
    stated = small_powers(pl.col("prediction"))
    df = df.select(
        numbers.extract_number_detail(stated, mode="last").alias("found"),
        numbers.parse_number_detail("reference").alias("ref"),
    )
    df = df.with_columns(_keys(pl.col("found"), pl.col("ref")).alias("keys"))
    return df.select(pl.struct("found", "ref", "keys").alias(batch.name)).to_series()


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
    return result(score, letters, found.struct.field("rule"))


# --------------------------------------------------------------------------- evaluator
class AccuracyEvaluator(BaseEvaluator):
    """Accuracy of choice, text, label, true/false and number answers, with auditable answer
    extraction.

    The answer type comes from the ``answer_type`` column per row (``choice``, ``text``,
    ``judge`` or ``number``; ``text`` when absent); option letters and label contents from the
    row's ``choices``. Columns ``<name>_score`` (1.0, 0.0 or null for a row that cannot be
    scored), ``<name>_extracted`` (the answer read out of the prediction), ``<name>_rule`` (the
    rule that found it) and ``<name>_type``; report metrics ``<name>`` plus
    ``choice_accuracy``, ``text_accuracy``, ``judge_accuracy`` and ``number_accuracy`` for the
    types present.

    Parameters
    ----------
    exact_match : bool, default True
        Text answers must equal the reference (after normalization); ``False`` with
        ``allow_partial=True`` accepts the reference inside the answer or the answer inside
        the reference. ``exact_match=False`` with ``allow_partial=False`` is rejected (every
        text row would score 0).
    case_sensitive : bool, default False
        Compare text answers with their case.
    allow_partial : bool, default False
        Accept partial text matches (the rule then reads ``<rule>:partial``).
    numeric_tolerance : float, default 0.0001
        Absolute tolerance for ``number`` rows.
    extract_text : bool, default True
        Compare the stated answer of a text row; ``False`` compares the whole prediction (the
        seed's behaviour).
    name : str, optional
        The prefix of the output columns (default ``accuracy``), so that one table can hold
        two configurations.

    Examples
    --------
    >>> import polars as pl
    >>> import xpert_frames as xf
    >>> df = pl.DataFrame(
    ...     {
    ...         "prediction": ["The answer is B.", "答案是 3.14", "Paris"],
    ...         "answer": ["B", "3.14", "paris"],
    ...         "answer_type": ["choice", "number", "text"],
    ...     }
    ... )
    >>> xf.score(df, xf.AccuracyEvaluator())["accuracy_score"].to_list()
    [1.0, 1.0, 1.0]
    >>> xf.AccuracyEvaluator(case_sensitive=True).evaluate(["Paris"], ["paris"])["accuracy"]
    {'score': 0.0, 'min': 0.0, 'max': 0.0, 'count': 1}
    """

    key: ClassVar[str] = "accuracy"
    metric: ClassVar[str] = "accuracy"
    answer_types: ClassVar[tuple[str, ...]] = ("choice", "text", "judge", "number")
    subtype_column: ClassVar[str | None] = frames.ANSWER_TYPE
    subtype_default: ClassVar[str | None] = "text"
    subtype_metric: ClassVar[str] = "{}_accuracy"
    binary_score: ClassVar[bool] = True
    accepts_list_answer: ClassVar[bool] = True
    best_of_answers: ClassVar[bool] = True

    def __init__(
        self,
        *,
        exact_match: bool = True,
        case_sensitive: bool = False,
        allow_partial: bool = False,
        numeric_tolerance: float = 0.0001,
        extract_text: bool = True,
        name: str | None = None,
    ) -> None:
        super().__init__(name=name)
        self.exact_match, self.allow_partial = check_text_options(exact_match, allow_partial)
        self.case_sensitive = check_bool("case_sensitive", case_sensitive)
        self.numeric_tolerance = check_float("numeric_tolerance", numeric_tolerance, low=0.0)
        self.extract_text = check_bool("extract_text", extract_text)

    def _kind(self) -> pl.Expr:
        return pl.col(frames.ANSWER_TYPE).str.strip_chars().str.to_lowercase().fill_null("text")

    def _text(self, prediction: pl.Expr, is_text: pl.Expr) -> pl.Expr:
        return text_match(
            prediction,
            pl.col(frames.ANSWER),
            choices=pl.when(is_text).then(pl.col(frames.CHOICES)),
            exact_match=self.exact_match,
            allow_partial=self.allow_partial,
            case_sensitive=self.case_sensitive,
            extract_text=self.extract_text,
        )

    def prepare(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Stage the shared work over temporary columns so that each extraction is planned and
        run once, not once per output column (no Python work per row: every stage is Polars
        expressions, the text and judge stages in batches)."""
        lf = lf.with_columns(
            self._kind().alias(self.temp("kind")),
            # Cleaned in batches, only the texts that can change (gated by ``CLEAN_TRIGGER``).
            pl.col(frames.PRED)
            .map_batches(clean_predictions, return_dtype=pl.String, is_elementwise=True)
            .alias(self.temp("cleaned_prediction")),
        )
        lf = self._stage_choice(lf)
        lf = self._stage_answers(lf)
        lf = self._stage_dates(lf)
        return lf.with_columns(self._combined().alias(self.temp("result")))

    def outputs(self) -> dict[str, pl.Expr]:
        result = pl.col(self.temp("result"))
        return {suffix: result.struct.field(suffix) for suffix in _RESULT}

    def _col(self, part: str) -> pl.Expr:
        return pl.col(self.temp(part))

    def _stage_choice(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Reference letters, option letters, then the choice cascade."""
        is_choice = self._col("kind") == "choice"
        ref = pl.when(is_choice).then(pl.col(frames.ANSWER))
        lf = lf.with_columns(reference_letters(ref).alias(self.temp("ref")))
        lf = lf.with_columns(
            option_letters(frames.CHOICES, answer=self._col("ref")).alias(self.temp("opt"))
        )
        found = extract_choice(
            pl.when(is_choice).then(self._col("cleaned_prediction")),
            options=self._col("opt"),
            choices=pl.when(is_choice).then(pl.col(frames.CHOICES)),
        )
        return lf.with_columns(found.alias(self.temp("choice")))

    def _stage_answers(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Number, text (with labels) and true/false rows, each kind only on its rows."""
        kind = self._col("kind")
        is_number, is_judge = kind == "number", kind == "judge"
        is_text = ~kind.is_in(["choice", "number", "judge"])
        pred, ref = self._col("cleaned_prediction"), pl.col(frames.ANSWER)
        numbers_in = pl.struct(
            pl.when(is_number).then(pred).alias("prediction"),
            pl.when(is_number).then(ref).alias("reference"),
        )
        return lf.with_columns(
            numbers_in.map_batches(
                _numbers_batch, return_dtype=_NUMBERS_DTYPE, is_elementwise=True
            ).alias(self.temp("num")),
            self._text(committed(pl.when(is_text).then(pred)), is_text).alias(self.temp("text")),
            judge_match(pl.when(is_judge).then(pred), pl.when(is_judge).then(ref)).alias(
                self.temp("judge")
            ),
        )

    def _stage_dates(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Years in which a text row states a full date that no accepted full date equals
        (:func:`~xpert_frames.reading.dates.conflicting_years`), for rows scored against
        several accepted answers (the list :meth:`BaseEvaluator._apply_best_of` keeps)."""
        listed = self.temp("answers:list")
        if listed not in lf.collect_schema().names():
            return lf.with_columns(pl.lit([], pl.List(pl.String)).alias(self.temp("date_years")))
        is_text = ~self._col("kind").is_in(["choice", "number", "judge"])
        pred = pl.when(is_text).then(self._col("cleaned_prediction"))
        years = conflicting_years(pred, pl.col(listed))
        return lf.with_columns(years.alias(self.temp("date_years")))

    def _text_result(self) -> pl.Expr:
        """The text result, except that an accepted answer holding only a year does not credit
        a full date of that year that the accepted full dates contradict (rule ``date``:
        ``on 2 September 1945`` against ``1945`` / ``17 August 1945``)."""
        found, years = self._col("text"), self._col("date_years")
        alias = pl.col(frames.ANSWER).cast(pl.String)
        year = pl.when(years.list.len() > 0).then(alias.str.extract(r"\b(\d{4})\b", 1))
        contradicted = (
            years.list.contains(year) & (stated_dates(alias).list.len() == 0)
        ).fill_null(False) & (found.struct.field("score") > 0)
        return (
            pl.when(contradicted)
            .then(result(pl.lit(0.0), found.struct.field("extracted"), pl.lit("date")))
            .otherwise(found)
        )

    def _combined(self) -> pl.Expr:
        kind, num = self._col("kind"), self._col("num")
        number = _number_outcome(
            num.struct.field("found"),
            num.struct.field("ref"),
            num.struct.field("keys"),
            self.numeric_tolerance,
        )
        return (
            pl.when(kind == "choice")
            .then(_choice_outcome(self._col("choice"), self._col("ref")))
            .when(kind == "number")
            .then(number)
            .when(kind == "judge")
            .then(self._col("judge"))
            .otherwise(self._text_result())
        )
