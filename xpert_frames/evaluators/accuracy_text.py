"""Scoring of text, label and true/false (``judge``) rows of the accuracy evaluator.

* text: the stated answer (:mod:`xpert_frames.evaluators.answer_extract`) under the seed's rules
  (``exact_match``, ``case_sensitive``, ``allow_partial``); a prediction that equals the
  reference as a whole still scores 1 (rule ``exact``). ``extract_text=False`` keeps the seed's
  whole-string comparison.
* labels: a text row whose ``choices`` hold candidate labels and whose reference is one of them
  scores the label the prediction states (rule ``label:<span rule>``; two labels: ``hedge``).
* judge: prediction and reference mapped to ``true`` / ``false``.

Every result is ``Struct{score, extracted, rule}``.
"""

from __future__ import annotations

import polars as pl

from xpert_frames import text
from xpert_frames._options import check_bool
from xpert_frames._typing import IntoExpr
from xpert_frames.evaluators import answer_extract as ae
from xpert_frames.evaluators import answer_patterns as ap
from xpert_frames.exceptions import InvalidOptionError

#: Whitespace and Unicode punctuation (ASCII and Chinese alike) at either end.
_ENDS = r"^[\s\p{P}]+|[\s\p{P}]+$"
SPAN_NAMES: tuple[str, ...] = tuple(name for name, _ in ap.SPAN_RULES)


def result(score: pl.Expr, extracted: pl.Expr, rule: pl.Expr) -> pl.Expr:
    return pl.struct(
        score.cast(pl.Float64).alias("score"),
        extracted.cast(pl.String).alias("extracted"),
        rule.cast(pl.String).alias("rule"),
    )


def normalize_text(value: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """Full-width to half-width, whitespace and punctuation stripped at both ends, lower-cased
    unless ``case_sensitive``: ``" 北京。"`` -> ``"北京"``, ``"Ｐａｒｉｓ!"`` -> ``"paris"``."""
    case_sensitive = check_bool("case_sensitive", case_sensitive)
    out = text.full_to_half(text.to_expr(value)).str.replace_all(_ENDS, "")
    return out if case_sensitive else out.str.to_lowercase()


def check_text_options(exact_match: object, allow_partial: object) -> tuple[bool, bool]:
    exact = check_bool("exact_match", exact_match)
    partial = check_bool("allow_partial", allow_partial)
    if not exact and not partial:
        raise InvalidOptionError(
            "exact_match=False with allow_partial=False leaves no way for a text answer to "
            "match (every text row would score 0); set exact_match=True, allow_partial=True, "
            "or both"
        )
    return exact, partial


def whole_outcome(
    pred: pl.Expr, ref: pl.Expr, *, exact_match: bool, allow_partial: bool
) -> pl.Expr:
    """The seed's comparison of already normalized whole texts."""
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
    return result(score, pred, rule)


def stated_text(erased: IntoExpr, *, case_sensitive: bool = False) -> tuple[pl.Expr, pl.Expr]:
    """(answer, span rule) a prepared, negation-erased prediction states; nulls if none."""
    cands = [ae.cut(s, case_sensitive=case_sensitive) for s in ae.spans(text.to_expr(erased))]
    value = pl.coalesce(cands)
    rule = pl.coalesce(
        [pl.when(c.is_not_null()).then(pl.lit(n)) for c, n in zip(cands, SPAN_NAMES, strict=True)]
    )
    return value, rule


def text_outcome(
    whole: pl.Expr,
    erased: pl.Expr,
    ref: pl.Expr,
    stated: tuple[pl.Expr, pl.Expr],
    *,
    exact_match: bool,
    allow_partial: bool,
) -> pl.Expr:
    """Text result from the normalized whole prediction, the normalized negation-erased one,
    the normalized reference and the stated span (``(value, rule)``)."""
    value, rule = stated
    empty = (whole.str.len_bytes() == 0) | (ref.str.len_bytes() == 0)
    span_partial = value.str.contains(ref, literal=True) | ref.str.contains(value, literal=True)
    whole_partial = erased.str.contains(ref, literal=True) | ref.str.contains(erased, literal=True)
    exact, partial = pl.lit(exact_match), pl.lit(allow_partial)
    decided = (
        pl.when(empty)
        .then(pl.lit("empty"))
        .when(exact & (whole == ref))
        .then(pl.lit("exact"))
        .when(exact & (value == ref).fill_null(False))
        .then(rule)
        .when(partial & span_partial.fill_null(False))
        .then(pl.concat_str([rule, pl.lit(":partial")]))
        .when(partial & (erased.str.len_bytes() > 0) & whole_partial)
        .then(pl.lit("partial"))
        .otherwise(pl.lit("none"))
    )
    score = pl.when(decided.is_in(["empty", "none"])).then(0.0).otherwise(1.0)
    shown = pl.when(decided == "exact").then(whole).otherwise(pl.coalesce(value, whole))
    return result(score, shown, decided)


def text_match(
    prediction: IntoExpr,
    reference: IntoExpr,
    *,
    exact_match: bool = True,
    case_sensitive: bool = False,
    allow_partial: bool = False,
    extract_text: bool = True,
) -> pl.Expr:
    """Text accuracy: ``Struct{score, extracted, rule}``.

    With ``extract_text`` (default) the stated answer is compared (``答案是巴黎`` equals
    ``巴黎``, rule ``statement``); a whole prediction equal to the reference scores 1 (rule
    ``exact``). ``allow_partial``: either containing the other scores 1 (rule ``partial`` or
    ``<span rule>:partial``). An empty prediction scores 0 (``empty``).
    """
    exact_match, allow_partial = check_text_options(exact_match, allow_partial)
    extract_text = check_bool("extract_text", extract_text)
    pred = ae.prepare(prediction)
    ref = normalize_text(ae.prepare(reference), case_sensitive=case_sensitive)
    whole = normalize_text(pred, case_sensitive=case_sensitive)
    if not extract_text:
        return whole_outcome(whole, ref, exact_match=exact_match, allow_partial=allow_partial)
    erased = ae.erase_negations(pred)
    erased_whole = ae.tidy(erased, case_sensitive=case_sensitive).fill_null("")
    stated = stated_text(erased, case_sensitive=case_sensitive)
    return text_outcome(
        whole, erased_whole, ref, stated, exact_match=exact_match, allow_partial=allow_partial
    )


# --------------------------------------------------------------------------- labels
def label_outcome(stated: tuple[pl.Expr, pl.Expr], ref: pl.Expr) -> pl.Expr:
    """Label result from the stated label (``(label, rule)``) and the normalized reference."""
    label, rule = stated
    score = pl.when((label == ref).fill_null(False)).then(1.0).otherwise(0.0)
    shown = (
        pl.when(rule == "hedge")
        .then(pl.lit("hedge"))
        .otherwise(pl.concat_str([pl.lit("label:"), rule]))
    )
    return result(score, label, shown.fill_null(pl.lit("none")))


def is_label_row(labels: pl.Expr, ref: pl.Expr) -> pl.Expr:
    """A row is scored by label when its reference is one of its labels."""
    return labels.list.contains(ref).fill_null(False)


# --------------------------------------------------------------------------- judge
def judge_outcome(stated: tuple[pl.Expr, pl.Expr], ref: pl.Expr) -> pl.Expr:
    """Judge result from the stated value (``(value, rule)``) and the canonical reference."""
    value, rule = stated
    hedge = value == ae.HEDGE
    score = pl.when((value == ref).fill_null(False)).then(1.0).otherwise(0.0)
    shown = (
        pl.when(ref.is_null())
        .then(pl.lit("reference"))
        .when(hedge.fill_null(False))
        .then(pl.lit("hedge"))
        .otherwise(rule.fill_null(pl.lit("none")))
    )
    return result(score, pl.when(~hedge).then(value), shown)


def judge_match(prediction: IntoExpr, reference: IntoExpr) -> pl.Expr:
    """True/false accuracy: both sides mapped to ``true`` / ``false`` (``正确``, ``×``, ``T``,
    ``not true``, ``没有错``); a hedge or a reference that is no true/false word scores 0
    (rules ``hedge``, ``reference``)."""
    stated = ae.judge_stated(ae.prepare(prediction))
    return judge_outcome(stated, ae.judge_reference(reference))
