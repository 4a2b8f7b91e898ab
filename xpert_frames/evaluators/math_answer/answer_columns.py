"""What the math evaluator reads of each row, as temporary columns: both numbers (and their
exact keys and canonical units), both answer spans, and which rows are symbolic
(:func:`read_columns`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from xpert_frames.core import frames
from xpert_frames.evaluators.math_answer import set_forms, several_boxes
from xpert_frames.evaluators.math_answer import symbolic as sym
from xpert_frames.evaluators.math_answer.answer_spans import prediction_span, reference_span
from xpert_frames.reading.boxes import box_tail
from xpert_frames.reading.numeric import exact
from xpert_frames.reading.numeric.grammar import grammar
from xpert_frames.reading.numeric.parse import extract_number_pair
from xpert_frames.reading.numeric.units import unit_info
from xpert_frames.reading.vocabulary import CLAUSE_CONCLUSION

if TYPE_CHECKING:
    from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator


def concluded(prediction: pl.Expr, rule: pl.Expr) -> pl.Expr:
    """Whether the statement rule read a conclusion after the last box that has no answer
    statement after it (:func:`xpert_frames.reading.numeric.rules.candidates`)."""
    statement = pl.when(rule == "statement").then(prediction)  # the others are not read
    boxed = statement.str.contains_any(["\\boxed", "\\fbox"])
    after = box_tail(pl.when(boxed).then(prediction))
    late = after.str.contains(CLAUSE_CONCLUSION) & ~after.str.contains(grammar(True).marker)
    return (boxed & late).fill_null(False)


#: What a reasoning model writes after its thinking, when it writes anything.
_THOUGHT = r"(?s)^.*</think>"


def after_thinking(prediction: pl.Expr) -> pl.Expr:
    """The text after the last ``</think>`` where it holds more than whitespace: a reasoning
    model's answer follows its thinking, and an answer tried while thinking (``<think>\\boxed{42}
    </think>I'm not sure.``) is not the one it gives; a text without the tag (a cheap literal
    screen) or with nothing after it is read whole."""
    thought = pl.when(prediction.str.contains("</think>", literal=True)).then(prediction)
    after = thought.str.replace(_THOUGHT, "")
    return pl.when(after.str.contains(r"\S")).then(after).otherwise(prediction)


#: A LaTeX command written with its backslash doubled (``\\\\boxed``, ``\\\\le``).
_DOUBLED = r"\\\\[a-zA-Z]"
#: A command with one backslash (a literal ``\\n`` aside, unless a letter follows it: ``\\neq``).
_SINGLE = r"(?:^|[^\\])\\(?:[a-mo-zA-Z]|n[a-zA-Z])"


def latex_forms(text: pl.Expr) -> pl.Expr:
    """A text escaped twice (every command's backslash doubled, line breaks written ``\\n``:
    ``$-2 \\\\le x \\\\le 7$``) as written once, then several boxes that end it as one
    (:func:`~xpert_frames.evaluators.math_answer.several_boxes.joined_boxes`); the others as
    they are. Both change only texts with a backslash: one literal screen for it first (most
    texts have none: the column is then returned as it is, uncopied), both steps only on the
    texts that have one."""
    return text.map_batches(_latex_batch, return_dtype=pl.String, is_elementwise=True)


def _latex_batch(texts: pl.Series) -> pl.Series:
    backslash = texts.str.contains("\\", literal=True).fill_null(False)
    if not backslash.any():
        return texts
    at, subset = backslash.arg_true(), texts.filter(backslash)
    done = several_boxes.join_batch(_single_batch(subset))
    return texts.clone().scatter(at, done)


def _single_batch(texts: pl.Series) -> pl.Series:
    """The texts escaped twice as written once (:func:`latex_forms`): a literal screen for a
    doubled backslash, the regexes only on the texts that have one."""
    doubled = texts.str.contains("\\\\", literal=True).fill_null(False)
    if not doubled.any():
        return texts
    at, subset = doubled.arg_true(), texts.filter(doubled)
    escaped = subset.str.contains(_DOUBLED) & ~subset.str.contains(_SINGLE)
    if not escaped.any():
        return texts
    once = (
        subset.filter(escaped)
        .str.replace_all("\\\\", "\x00", literal=True)
        .str.replace_all("\\n", "\n", literal=True)
        .str.replace_all("\x00", "\\", literal=True)
    )
    return texts.clone().scatter(at.filter(escaped), once)


def read_columns(ev: MathEvaluator, lf: pl.LazyFrame) -> pl.LazyFrame:
    """Both numbers, the answer spans, which rows are symbolic and (``normalize``) the
    canonical units, as temporary columns."""
    t = ev.temp
    pred, ref = t("pred"), t("ref")
    lf = lf.with_columns(after_thinking(pl.col(frames.PRED)).alias(frames.PRED))
    texts = [c for c in (frames.PRED, frames.ANSWER) if lf.collect_schema()[c] == pl.String]
    # Escaped twice, then several boxes that end a text stating one answer together (module
    # several_boxes): one batch function for both.
    lf = lf.with_columns(latex_forms(pl.col(c)) for c in texts)
    if ev.strict_format:
        lf = lf.with_columns(ev.prediction_number().alias(pred), ev.reference_number().alias(ref))
    else:  # both read in one batch call
        both = extract_number_pair(
            frames.PRED,
            frames.ANSWER,
            mode=ev.extract,  # type: ignore[arg-type]
            normalize=ev.normalize,
            decimal_comma=ev.decimal_comma,  # type: ignore[arg-type]
        )
        lf = lf.with_columns(both.alias(t("both"))).with_columns(
            pl.col(t("both")).struct.field("first").alias(pred),
            pl.col(t("both")).struct.field("second").alias(ref),
        )
    pv, rv = pl.col(pred).struct.field("value"), pl.col(ref).struct.field("value")
    p_number, r_number = pl.col(pred).struct.field("text"), pl.col(ref).struct.field("text")
    lf = lf.with_columns(
        exact.exact_keys(pv, rv, p_number, r_number).alias(t("prediction_exact_key")),
        exact.exact_keys(rv, pv, r_number, p_number).alias(t("reference_exact_key")),
    )
    p_text, r_text = pl.col(frames.PRED), pl.col(frames.ANSWER).cast(pl.String)
    rule = pl.col(pred).struct.field("rule")
    classify = ev.normalize and not ev.strict_format
    lf = lf.with_columns(reference_span(r_text, pl.col(ref)).alias(t("rspan")))
    read = pl.col(t("rspan")).struct
    lf = lf.with_columns(
        read.field("span").alias(t("rspan")), read.field("plain").alias(t("plain"))
    )
    pspan = prediction_span(p_text, rule, pl.col(t("plain")), pl.col(t("rspan")))
    lf = lf.with_columns(pspan.alias(t("pspan")))
    # A conclusion after the last box (``\\boxed{12} … So she baked 60 cookies``) is a
    # statement without a marker: against a plain-number reference it has no span (its
    # number is the answer); against a symbolic one the span is the conclusion's maths.
    # Read only where there is a span (elsewhere the outcome is no span either way).
    has_span = pl.col(t("pspan")).is_not_null()
    spanned = pl.when(has_span).then(p_text)
    pspan = pl.when(~(concluded(spanned, rule) & pl.col(t("plain")))).then(pl.col(t("pspan")))
    # A last number that is part of the expression ending the prediction (``2x``) is
    # not the answer: that expression is, decided symbolically.
    if classify:
        glued = sym.glued_span(p_text, rule, pl.col(pred).struct.field("text"))
        lf = lf.with_columns(glued.alias(t("glued")))
        pspan = pl.coalesce(pspan, pl.col(t("glued")))
    lf = lf.with_columns(pspan.alias(t("pspan"))).drop(t("plain"))
    ref_known = pl.col(ref).struct.field("text") == pl.col(t("rspan"))
    ref_known = ref_known & pl.col(ref).struct.field("value").is_not_null()
    lf = set_forms.fit_sets(lf, p_text, t("pspan"), t("rspan"), ref_known)
    if classify:
        known = [
            (c.struct.field("text") == pl.col(span)) & c.struct.field("value").is_not_null()
            for c, span in ((pl.col(pred), t("pspan")), (pl.col(ref), t("rspan")))
        ]
        symbolic = sym.symbolic_rows(pl.col(t("pspan")), pl.col(t("rspan")), rule, *known)
        symbolic = symbolic | pl.col(t("glued")).is_not_null()
    else:
        symbolic = pl.lit(False)
    lf = lf.with_columns((symbolic & pl.col(frames.VALID)).alias(t("symbolic")))
    if ev.normalize:  # canonical units, looked up here: inside the parts read side by side
        lf = lf.with_columns(
            unit_info(pl.col(pred).struct.field("unit")).alias(t("prediction_unit_info")),
            unit_info(pl.col(ref).struct.field("unit")).alias(t("reference_unit_info")),
        )
    return lf
