"""Accuracy of choice, text and number answers (the seed's ``AccuracyEvaluator``).

Each row is scored by its ``answer_type`` (seed default ``text``; types other than ``choice``
and ``number`` are scored as text):

* ``choice``: the option(s) are extracted by the cascade of
  :func:`~xpert_frames.evaluators.choice_extract.extract_choice` and compared with the reference
  letters as sets (``"A,B,D"`` equals ``"DBA"``).
* ``text``: the seed's exact / partial / case semantics after normalization (strip, full-width to
  half-width, punctuation at the ends removed, so ``北京。`` equals ``北京``).
* ``number``: the answer's number (:func:`xpert_frames.numbers.extract_number`, the parser
  shared with the math evaluator) against the reference (:func:`xpert_frames.numbers.parse_number`)
  within ``numeric_tolerance`` (absolute, as the seed).

Output columns: ``<name>_score`` (1.0 / 0.0), ``<name>_extracted`` (the option letters, the
normalized text or the number taken), ``<name>_rule`` (which rule decided) and ``<name>_type``.
"""

from __future__ import annotations

from typing import ClassVar

import polars as pl

from xpert_frames import frames, numbers
from xpert_frames._options import check_bool, check_float
from xpert_frames._typing import IntoExpr
from xpert_frames.evaluators import answer_extract as ae
from xpert_frames.evaluators.accuracy_text import (
    check_text_options,
    is_label_row,
    judge_match,
    judge_outcome,
    label_outcome,
    normalize_text,
    result,
    stated_text,
    text_match,
    text_outcome,
    whole_outcome,
)
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.evaluators.choice_extract import (
    MAX_OPTIONS,
    extract_choice,
    option_letters,
    reference_letters,
)

_RESULT = {"score": pl.Float64, "extracted": pl.String, "rule": pl.String}


# --------------------------------------------------------------------------- number
def number_match(
    prediction: IntoExpr, reference: IntoExpr, *, numeric_tolerance: float = 1e-4
) -> pl.Expr:
    """The answer's number (:func:`xpert_frames.numbers.extract_number`, ``mode="last"``:
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
    return result(score, value.cast(pl.String), rule)


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
    return result(score, letters, found.struct.field("rule"))


# --------------------------------------------------------------------------- labels
_LABEL_DTYPE = pl.Struct({"label": pl.String, "rule": pl.String})


def _labels_batch(batch: pl.Series) -> pl.Series:
    """The stated label of a batch's label rows (``s``: prepared, negation-erased prediction;
    ``l``: labels; ``r``: normalized reference): only rows whose reference is a label pay."""
    df = batch.struct.unnest()
    todo = df.select(pl.arg_where(is_label_row(pl.col("l"), pl.col("r")))).to_series()
    empty = pl.Series([None] * df.height, dtype=pl.String)
    if not todo.len():
        return pl.DataFrame({"label": empty, "rule": empty}).to_struct(batch.name)
    sub = df[todo]
    width = min(int(sub["l"].list.len().max() or 0), MAX_OPTIONS)
    label, rule = ae.label_stated(pl.col("s").str.to_lowercase(), pl.col("l"), width)
    found = sub.select(label.alias("label"), rule.alias("rule"))
    out = pl.DataFrame(
        {name: empty.clone().scatter(todo, found[name]) for name in ("label", "rule")}
    )
    return out.to_struct(batch.name)


def label_match(
    prediction: IntoExpr, reference: IntoExpr, choices: IntoExpr, *, case_sensitive: bool = False
) -> pl.Expr:
    """Label accuracy: the label (``content``, else ``id``, of ``choices``) the prediction
    states against the reference; null where the reference is not one of the row's labels.
    ``Struct{score, extracted, rule}``."""
    ref = normalize_text(ae.prepare(reference), case_sensitive=case_sensitive)
    labels = ae.label_list(choices, case_sensitive=case_sensitive)
    found = _stated_label(ae.erase_negations(ae.prepare(prediction)), labels, ref)
    return pl.when(is_label_row(labels, ref)).then(_label_result(found, ref))


def _stated_label(erased: pl.Expr, labels: pl.Expr, ref: pl.Expr) -> pl.Expr:
    fields = pl.struct(erased.alias("s"), labels.alias("l"), ref.alias("r"))
    return fields.map_batches(_labels_batch, return_dtype=_LABEL_DTYPE, is_elementwise=True)


def _label_result(found: pl.Expr, ref: pl.Expr) -> pl.Expr:
    return label_outcome((found.struct.field("label"), found.struct.field("rule")), ref)


# --------------------------------------------------------------------------- evaluator
class AccuracyEvaluator(BaseEvaluator):
    """Accuracy of choice, text, label, true/false and number answers, with auditable answer
    extraction."""

    key: ClassVar[str] = "accuracy"
    metric: ClassVar[str] = "accuracy"
    answer_types: ClassVar[tuple[str, ...]] = ("choice", "text", "judge", "number")
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

    def _text_opts(self) -> dict[str, bool]:
        return {"exact_match": self.exact_match, "allow_partial": self.allow_partial}

    def outputs(self) -> dict[str, pl.Expr]:
        """Standalone expressions (each repeats the shared work; :meth:`apply` stages it)."""
        kind = self._kind()
        is_choice, is_number, is_judge = kind == "choice", kind == "number", kind == "judge"
        is_text = ~is_choice & ~is_number & ~is_judge
        pred, ref, choices = pl.col(frames.PRED), pl.col(frames.ANSWER), pl.col(frames.CHOICES)
        choice = choice_match(pl.when(is_choice).then(pred), ref, choices=choices)
        number = number_match(
            pl.when(is_number).then(pred), ref, numeric_tolerance=self.numeric_tolerance
        )
        judge = judge_match(pl.when(is_judge).then(pred), ref)
        text_pred = pl.when(is_text).then(pred)
        plain = text_match(
            text_pred,
            ref,
            case_sensitive=self.case_sensitive,
            extract_text=self.extract_text,
            **self._text_opts(),
        )
        if self.extract_text:
            label = label_match(text_pred, ref, choices, case_sensitive=self.case_sensitive)
            plain = pl.coalesce(label, plain)
        result = (
            pl.when(is_choice)
            .then(choice)
            .when(is_number)
            .then(number)
            .when(is_judge)
            .then(judge)
            .otherwise(plain)
        )
        return {suffix: result.struct.field(suffix) for suffix in _RESULT}

    def output_suffixes(self) -> list[str]:
        return [*_RESULT, "type"]

    # ------------------------------------------------------------------ staged apply
    def _tmp(self, part: str) -> str:
        return f"__xf_{self.name}_{part}"

    def _col(self, part: str) -> pl.Expr:
        return pl.col(self._tmp(part))

    def apply(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """The same result as :meth:`outputs`, in stages over temporary columns so that each
        extraction is planned and run once, not once per output column (no Python work per
        row: every stage is Polars expressions)."""
        lf = self._stage_kind(lf)
        lf = self._stage_choice(lf)
        lf = self._stage_number_and_text(lf)
        lf = self._stage_spans(lf)
        lf = lf.with_columns(self._combined().alias(self._tmp("result")))
        return self._finish(lf)

    def _stage_kind(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        kind = self._kind()
        ref = pl.col(frames.ANSWER)
        lf = lf.with_columns(kind.alias(self._tmp("kind")))
        is_choice = self._col("kind") == "choice"
        return lf.with_columns(
            reference_letters(pl.when(is_choice).then(ref)).alias(self._tmp("ref"))
        )

    def _stage_choice(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Option letters, then the choice cascade."""
        is_choice = self._col("kind") == "choice"
        lf = lf.with_columns(
            option_letters(frames.CHOICES, answer=self._col("ref")).alias(self._tmp("opt"))
        )
        found = extract_choice(
            pl.when(is_choice).then(pl.col(frames.PRED)),
            options=self._col("opt"),
            choices=pl.when(is_choice).then(pl.col(frames.CHOICES)),
        )
        return lf.with_columns(found.alias(self._tmp("choice")))

    def _stage_number_and_text(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Numbers parsed; text and judge predictions prepared (NFC, half-width), negations
        erased, references normalized."""
        kind = self._col("kind")
        is_number, is_judge = kind == "number", kind == "judge"
        is_text = ~kind.is_in(["choice", "number", "judge"])
        pred, ref = pl.col(frames.PRED), pl.col(frames.ANSWER)
        numbers_in = pl.struct(
            pl.when(is_number).then(pred).alias("p"), pl.when(is_number).then(ref).alias("r")
        )
        cs = self.case_sensitive
        lf = lf.with_columns(
            numbers_in.map_batches(
                _numbers_batch, return_dtype=_NUMBERS_DTYPE, is_elementwise=True
            ).alias(self._tmp("num")),
            ae.prepare(pl.when(is_text | is_judge).then(pred)).alias(self._tmp("src")),
            normalize_text(ae.prepare(pl.when(is_text).then(ref)), case_sensitive=cs).alias(
                self._tmp("tref")
            ),
            ae.judge_reference(pl.when(is_judge).then(ref)).alias(self._tmp("jref")),
        )
        text_src = pl.when(is_text).then(self._col("src"))
        lf = lf.with_columns(
            normalize_text(text_src, case_sensitive=cs).alias(self._tmp("whole")),
            ae.erase_negations(text_src).alias(self._tmp("erased")),
            ae.label_list(frames.CHOICES, case_sensitive=cs).alias(self._tmp("labels")),
        )
        return lf.with_columns(
            ae.tidy(self._col("erased"), case_sensitive=cs).fill_null("").alias(self._tmp("ew"))
        )

    def _stage_spans(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """The stated text span, the stated label and the stated judgement."""
        if not self.extract_text:
            return lf
        value, rule = stated_text(self._col("erased"), case_sensitive=self.case_sensitive)
        found = _stated_label(self._col("erased"), self._col("labels"), self._col("tref"))
        jvalue, jrule = ae.judge_stated(
            pl.when(self._col("kind") == "judge").then(self._col("src"))
        )
        return lf.with_columns(
            value.alias(self._tmp("span")),
            rule.alias(self._tmp("span_rule")),
            found.alias(self._tmp("label")),
            pl.struct(jvalue.alias("v"), jrule.alias("r")).alias(self._tmp("judge")),
        )

    def _combined(self) -> pl.Expr:
        kind, ref = self._col("kind"), self._col("tref")
        whole = self._col("whole")
        if self.extract_text:
            stated = (self._col("span"), self._col("span_rule"))
            plain = text_outcome(whole, self._col("ew"), ref, stated, **self._text_opts())
            labelled = is_label_row(self._col("labels"), ref)
            plain = pl.when(labelled).then(_label_result(self._col("label"), ref)).otherwise(plain)
        else:
            plain = whole_outcome(whole, ref, **self._text_opts())
        judge = self._col("judge")
        num = self._col("num")
        return (
            pl.when(kind == "choice")
            .then(_choice_outcome(self._col("choice"), self._col("ref")))
            .when(kind == "number")
            .then(
                _number_outcome(
                    num.struct.field("found"), num.struct.field("ref"), self.numeric_tolerance
                )
            )
            .when(kind == "judge")
            .then(
                judge_outcome((judge.struct.field("v"), judge.struct.field("r")), self._col("jref"))
            )
            .otherwise(plain)
        )

    def _finish(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """The output columns (null on invalid rows); temporary columns dropped."""
        valid = pl.col(frames.VALID)
        outputs = [
            pl.when(valid).then(self._col("result").struct.field(s)).alias(self.column(s))
            for s in _RESULT
        ]
        outputs.append(
            pl.when(valid)
            .then(pl.col(frames.ANSWER_TYPE).fill_null(pl.lit(self.subtype_default)))
            .alias(self.column("type"))
        )
        prefix = self._tmp("")
        return lf.with_columns(outputs).select(pl.exclude(f"^{prefix}.*$"))
