"""The stated answer of text, true/false (``judge``) and label answers, as Polars expressions.

A prediction is prepared once (:func:`prepare`: NFC, full-width to half-width), negated spans
are erased for text and labels (:func:`erase_negations`), then the span rules of
:mod:`xpert_frames.evaluators.answer_patterns` run in evidence order: ``\\boxed{}``, answer
statements, bold, a concluding sentence, the first sentence with a copula, the last short line.
Every function returns expressions only (no Python per row).
"""

from __future__ import annotations

import polars as pl

from xpert_frames import text
from xpert_frames._typing import IntoExpr
from xpert_frames.evaluators import answer_patterns as ap

#: Canonical values of a judgement.
TRUE, FALSE, HEDGE = "true", "false", "hedge"


def prepare(value: IntoExpr) -> pl.Expr:
    """Unicode NFC and full-width to half-width (``Ｐａｒｉｓ`` -> ``Paris``)."""
    return text.full_to_half(text.to_expr(value).str.normalize("NFC"))


def erase_negations(value: IntoExpr) -> pl.Expr:
    """Negated spans to :data:`~answer_patterns.GONE` (``不是杜甫，而是李白`` -> ``✗，而是李白``,
    ``Canberra, not Sydney`` -> ``Canberra, ✗``); rows without a trigger word skip a rule."""
    expr = text.to_expr(value)
    for pattern, replacement, trigger in ap.TEXT_NEGATIONS:
        hit = pl.when(expr.str.contains(trigger)).then(expr)
        expr = pl.coalesce(hit.str.replace_all(pattern, replacement), expr)
    return expr


def span(source: IntoExpr, pattern: str) -> pl.Expr:
    """Group ``s`` of ``pattern`` in ``source``; null where it does not match."""
    src = text.to_expr(source)
    if pattern == ap.LINE:
        line = src.str.extract(pattern, 1)
        return pl.when(line.str.len_chars() <= ap.SHORT_LINE).then(line)
    return src.str.extract(pattern, 1)


def strip_marks(value: IntoExpr) -> pl.Expr:
    """``\\text{X}`` -> ``X``; markdown/TeX marks and parenthetical remarks dropped."""
    out = text.to_expr(value).str.replace_all(ap.TEX_TEXT, "$1").str.replace_all(ap.MARKS, "")
    return out.str.replace_all(ap.PARENTHESES, "")


def tidy(value: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """Punctuation, whitespace and erased spans at the ends and an English leading article
    dropped; lower-cased unless ``case_sensitive``; null when nothing is left."""
    out = text.to_expr(value).str.replace_all(ap.ENDS, "").str.replace(ap.ARTICLE, "")
    out = out.str.replace_all(ap.ENDS, "")
    out = out if case_sensitive else out.str.to_lowercase()
    return pl.when(out.str.len_bytes() > 0).then(out)


def cut(value: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """The answer a span states: marks dropped, up to the first clause boundary, tidied
    (``Sydney (but Canberra …)`` -> ``sydney``, ``the Pacific Ocean.`` -> ``pacific ocean``)."""
    clause = strip_marks(value).str.extract(ap.CLAUSE, 1)
    return tidy(clause, case_sensitive=case_sensitive)


def spans(source: IntoExpr, rules: tuple[tuple[str, str], ...] = ap.SPAN_RULES) -> list[pl.Expr]:
    """The raw span each rule finds in ``source`` (null where the rule does not fire)."""
    src = text.to_expr(source)
    plain = src.str.replace_all(r"\*\*|__", "")
    return [span(src if name == "bold" else plain, pattern) for name, pattern in rules]


def first_stated(
    candidates: list[pl.Expr], names: list[str], fallback: pl.Expr, fallback_name: str
) -> tuple[pl.Expr, pl.Expr]:
    """(value, rule) of the first non-null candidate; ``fallback`` otherwise."""
    value = pl.coalesce([*candidates, fallback])
    rule = pl.coalesce(
        [pl.when(c.is_not_null()).then(pl.lit(n)) for c, n in zip(candidates, names, strict=True)]
        + [pl.when(fallback.is_not_null()).then(pl.lit(fallback_name))]
    )
    return value, rule


# --------------------------------------------------------------------------- judge
def judge_value(value: IntoExpr) -> pl.Expr:
    """``"true"``, ``"false"``, ``"hedge"`` (both, or doubt) or null (neither) of a short
    span: negated words flip (``不正确``, ``not true``), double negations hold (``没有错``)."""
    raw = text.to_expr(value)
    low = raw.str.to_lowercase()
    marked = low
    for pattern, mark in ap.JUDGE_WORDS:
        marked = marked.str.replace_all(pattern, mark)
    alone = tidy(low)
    has_true = marked.str.contains(ap.TRUE_MARK, literal=True) | alone.str.contains(
        ap.JUDGE_ALONE_TRUE
    )
    has_false = marked.str.contains(ap.FALSE_MARK, literal=True) | alone.str.contains(
        ap.JUDGE_ALONE_FALSE
    )
    return (
        pl.when(raw.is_null())
        .then(pl.lit(None, pl.String))
        .when(has_true & has_false)
        .then(pl.lit(HEDGE))
        .when(has_true)
        .then(pl.lit(TRUE))
        .when(has_false)
        .then(pl.lit(FALSE))
    )


def judge_reference(reference: IntoExpr) -> pl.Expr:
    """The canonical value of a judge reference (``正确``, ``×``, ``T``, ``No``); null when the
    reference is none of the true/false words."""
    ref = judge_value(strip_marks(prepare(reference)))
    return pl.when(ref.is_in([TRUE, FALSE])).then(ref)


def judge_stated(source: IntoExpr) -> tuple[pl.Expr, pl.Expr]:
    """(value, rule) of a prepared prediction: the first judge span rule whose span holds a
    judgement decides; a span stating doubt (``可能``, ``whether``) or both values is
    ``"hedge"``."""
    src = text.to_expr(source)
    values: list[pl.Expr] = []
    for raw in spans(src, ap.JUDGE_RULES):
        plain = strip_marks(raw)
        doubt = plain.str.contains(ap.HEDGE)
        val = judge_value(cut(plain))
        values.append(pl.when(doubt & val.is_not_null()).then(pl.lit(HEDGE)).otherwise(val))
    whole = judge_value(strip_marks(src))
    whole = pl.when(strip_marks(src).str.contains(ap.HEDGE)).then(pl.lit(HEDGE)).otherwise(whole)
    names = [name for name, _ in ap.JUDGE_RULES]
    return first_stated(values, names, whole, "whole")


# --------------------------------------------------------------------------- labels
def label_list(choices: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """Each row's candidate labels (``content``, else ``id``, of ``choices``), prepared and
    tidied; an empty list when there are none."""
    el = pl.element().struct
    raw = pl.coalesce(el.field("content"), el.field("id"))
    label = tidy(prepare(raw), case_sensitive=case_sensitive)
    return text.to_expr(choices).list.eval(label).list.drop_nulls().fill_null([])


def _label_pattern(label: pl.Expr) -> pl.Expr:
    """A label as a regex that does not match inside a Latin word (``positive`` is not in
    ``nonpositive``)."""
    return pl.concat_str(
        [pl.lit("(?:^|[^a-z0-9])"), label.str.escape_regex(), pl.lit("(?:[^a-z0-9]|$)")]
    )


def labels_in(source: pl.Expr, labels: pl.Expr, width: int) -> tuple[pl.Expr, pl.Expr]:
    """(the one label ``source`` states, how many labels it states) over the first ``width``
    labels; a label inside a longer stated label (``Guilty`` in ``Guilty of Romance``) does not
    count. ``source`` is lower-cased like the labels."""
    items = [labels.list.get(i, null_on_oob=True) for i in range(width)]
    hits = [source.str.contains(_label_pattern(item)).fill_null(False) for item in items]
    kept: list[pl.Expr] = []
    for i, (item, hit) in enumerate(zip(items, hits, strict=True)):
        inside = [
            hits[j]
            & (items[j].str.len_chars() > item.str.len_chars())
            & items[j].str.contains(item, literal=True)
            for j in range(width)
            if j != i
        ]
        covered = pl.any_horizontal(inside) if inside else pl.lit(False)
        kept.append(hit & ~covered.fill_null(False))
    if not kept:
        return pl.lit(None, pl.String), pl.lit(0, pl.UInt32)
    stated = pl.coalesce([pl.when(k).then(item) for k, item in zip(kept, items, strict=True)])
    distinct = pl.concat_list([pl.when(k).then(item) for k, item in zip(kept, items, strict=True)])
    count = distinct.list.drop_nulls().list.n_unique().cast(pl.UInt32)
    return stated, count


def label_stated(
    source: pl.Expr, labels: pl.Expr, width: int, *, case_sensitive: bool = False
) -> tuple[pl.Expr, pl.Expr]:
    """(label, rule) of a prepared, negation-erased prediction: the first span rule whose span
    states a label decides; a span stating two labels is a hedge (label null, rule ``hedge``)."""
    raws = [*spans(source), source]
    names = [*(name for name, _ in ap.SPAN_RULES), "whole"]
    label = pl.lit(None, pl.String)
    rule = pl.lit(None, pl.String)
    for raw, name in reversed(list(zip(raws, names, strict=True))):
        plain = strip_marks(raw)
        plain = plain if case_sensitive else plain.str.to_lowercase()
        stated, count = labels_in(plain, labels, width)
        label = pl.when(count == 1).then(stated).when(count > 1).then(None).otherwise(label)
        rule = (
            pl.when(count == 1)
            .then(pl.lit(name))
            .when(count > 1)
            .then(pl.lit("hedge"))
            .otherwise(rule)
        )
    return label, rule
