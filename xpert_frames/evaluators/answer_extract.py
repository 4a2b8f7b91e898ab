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


def erase_frame(df: pl.DataFrame, column: str) -> pl.DataFrame:
    """Negated spans of ``column`` rewritten in place to :data:`~answer_patterns.GONE`
    (``不是杜甫，而是李白`` -> ``✗，而是李白``, ``Canberra, not Sydney`` -> ``Canberra, ✗``),
    one rewrite per stage; rows without a rule's trigger word skip it."""
    col = pl.col(column)
    for pattern, replacement, trigger in ap.TEXT_NEGATIONS:
        hit = pl.when(col.str.contains(trigger)).then(col)
        df = df.with_columns(
            pl.coalesce(hit.str.replace_all(pattern, replacement), col).alias(column)
        )
    return df


def nonempty(value: IntoExpr) -> pl.Expr:
    """Null where the string is empty."""
    return text.to_expr(value).str.extract(r"(?s)^(.+)$", 1)


def span(source: IntoExpr, pattern: str) -> pl.Expr:
    """Group ``s`` of ``pattern`` in ``source``; null where it does not match (a ``LINE``
    longer than :data:`~answer_patterns.SHORT_LINE` characters does not count)."""
    found = text.to_expr(source).str.extract(pattern, 1)
    if pattern == ap.LINE:
        short = found.str.extract(rf"^(.{{0,{ap.SHORT_LINE}}})$", 1)
        return short.str.extract(ap.LAST_SENTENCE, 1)
    return found


def strip_marks(value: IntoExpr) -> pl.Expr:
    """``\\text{X}`` -> ``X``; markdown/TeX marks and parenthetical remarks dropped."""
    out = text.to_expr(value).str.replace_all(ap.TEX_TEXT, "$1").str.replace_all(ap.MARKS, "")
    return out.str.replace_all(ap.PARENTHESES, "")


def tidy(value: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """Punctuation, whitespace and erased spans at the ends and an English leading article
    dropped; lower-cased unless ``case_sensitive``; null when nothing is left."""
    out = text.to_expr(value).str.replace_all(ap.ENDS, "").str.replace(ap.ARTICLE, "")
    out = out.str.replace_all(ap.ENDS, "")
    return nonempty(out if case_sensitive else out.str.to_lowercase())


def cut(value: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """The answer a span states: marks dropped, erased leading clauses skipped, up to the first
    clause boundary, tidied (``Sydney (but Canberra …)`` -> ``sydney``, ``the Pacific Ocean.``
    -> ``pacific ocean``, ``✗; it is Mars`` -> ``mars``)."""
    lead = strip_marks(value).str.replace(ap.ERASED_LEAD, "")
    return tidy(lead.str.extract(ap.CLAUSE, 1), case_sensitive=case_sensitive)


def spans_frame(
    df: pl.DataFrame, source: str, rules: tuple[tuple[str, str], ...], prefix: str
) -> pl.DataFrame:
    """Columns ``<prefix><i>``: the raw span of rule ``i`` in ``source`` (bold marks dropped
    for every rule but ``bold``)."""
    plain = f"{prefix}plain"
    df = df.with_columns(pl.col(source).str.replace_all(r"\*\*|__", "").alias(plain))
    return df.with_columns(
        span(source if name == "bold" else plain, pattern).alias(f"{prefix}{i}")
        for i, (name, pattern) in enumerate(rules)
    )


def first_stated(columns: list[str], names: list[str]) -> tuple[pl.Expr, pl.Expr]:
    """(value, rule) of the first non-null of ``columns``."""
    value = pl.coalesce(columns)
    rule = pl.coalesce(
        pl.when(pl.col(c).is_not_null()).then(pl.lit(n))
        for c, n in zip(columns, names, strict=True)
    )
    return value, rule


STATED_DTYPE = pl.Struct({"value": pl.String, "rule": pl.String})
SPAN_NAMES: list[str] = [name for name, _ in ap.SPAN_RULES]


def stated_text_frame(df: pl.DataFrame, source: str, *, case_sensitive: bool) -> pl.DataFrame:
    """``df`` with columns ``span`` and ``span_rule``: the answer a prepared, negation-erased
    ``source`` states and the span rule that found it (nulls if none)."""
    t = "__xf_text_"
    df = spans_frame(df, source, ap.SPAN_RULES, t)
    cols = [f"{t}{i}" for i in range(len(ap.SPAN_RULES))]
    df = df.with_columns(cut(c, case_sensitive=case_sensitive).alias(c) for c in cols)
    value, rule = first_stated(cols, SPAN_NAMES)
    df = df.with_columns(value.alias("span"), rule.alias("span_rule"))
    # A copula states its subject as much as its complement (``Paris is the capital``).
    subject = span(pl.when(pl.col("span_rule") == "copula").then(f"{t}plain"), ap.COPULA_SUBJECT)
    df = df.with_columns(cut(subject, case_sensitive=case_sensitive).alias("subject"))
    return df.drop(*cols, f"{t}plain")


# --------------------------------------------------------------------------- judge
def judge_frame(df: pl.DataFrame, column: str, out: str) -> pl.DataFrame:
    """Column ``out``: ``"true"``, ``"false"``, ``"hedge"`` (both) or null (neither) of a short
    span: negated words flip (``不正确``, ``not true``), double negations hold (``没有错``)."""
    marked, alone = f"{out}__m", f"{out}__a"
    low = pl.col(column).str.to_lowercase()
    mark = low
    for pattern, sign in ap.JUDGE_WORDS:
        mark = mark.str.replace_all(pattern, sign)
    df = df.with_columns(mark.alias(marked), tidy(low).alias(alone))
    has_true = pl.col(marked).str.contains(ap.TRUE_MARK, literal=True) | pl.col(alone).str.contains(
        ap.JUDGE_ALONE_TRUE
    )
    has_false = pl.col(marked).str.contains(ap.FALSE_MARK, literal=True) | pl.col(
        alone
    ).str.contains(ap.JUDGE_ALONE_FALSE)
    value = (
        pl.when(has_true & has_false)
        .then(pl.lit(HEDGE))
        .when(has_true)
        .then(pl.lit(TRUE))
        .when(has_false)
        .then(pl.lit(FALSE))
    )
    return df.with_columns(value.alias(out)).drop(marked, alone)


def judge_reference_frame(df: pl.DataFrame, column: str, out: str) -> pl.DataFrame:
    """Column ``out``: the canonical value of a judge reference (``正确``, ``×``, ``T``,
    ``No``); null when the reference is none of the true/false words."""
    df = df.with_columns(strip_marks(prepare(column)).alias(out))
    df = judge_frame(df, out, out)
    return df.with_columns(pl.when(pl.col(out).is_in([TRUE, FALSE])).then(out).alias(out))


JUDGE_NAMES: list[str] = [*(name for name, _ in ap.JUDGE_RULES), "whole"]


def judge_stated_frame(df: pl.DataFrame, source: str) -> pl.DataFrame:
    """``df`` with columns ``judge`` and ``judge_rule`` for a prepared ``source``: the first
    judge span rule whose span holds a judgement decides (then the whole text); a span stating
    doubt (``可能``, ``whether``) or both values is ``"hedge"``."""
    t = "__xf_judge_"
    df = spans_frame(df, source, ap.JUDGE_RULES, t)
    n = len(ap.JUDGE_RULES)
    df = df.with_columns(pl.col(source).alias(f"{t}{n}"))
    cols = [f"{t}{i}" for i in range(n + 1)]
    df = df.with_columns(strip_marks(c).alias(c) for c in cols)
    df = df.with_columns(pl.col(c).str.contains(ap.HEDGE).alias(f"{c}h") for c in cols)
    # Spans are cut at their first clause, the whole text is not.
    df = df.with_columns(cut(c).alias(f"{c}c") for c in cols[:-1])
    df = df.with_columns(pl.col(cols[-1]).alias(f"{cols[-1]}c"))
    for c in cols:
        df = judge_frame(df, f"{c}c", f"{c}v")
    df = df.with_columns(
        pl.when(pl.col(f"{c}h") & pl.col(f"{c}v").is_not_null())
        .then(pl.lit(HEDGE))
        .otherwise(pl.col(f"{c}v"))
        .alias(c)
        for c in cols
    )
    value, rule = first_stated(cols, JUDGE_NAMES)
    df = df.with_columns(value.alias("judge"), rule.alias("judge_rule"))
    return df.select(pl.exclude(f"^{t}.*$"))


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


def labels_frame(df: pl.DataFrame, source: str, labels: str, width: int, out: str) -> pl.DataFrame:
    """Columns ``<out>`` (the one label ``source`` states, else null) and ``<out>n`` (how many
    distinct labels it states) over the first ``width`` labels; a label inside a longer
    stated label (``Guilty`` in ``Guilty of Romance``) does not count. ``source`` is
    lower-cased like the labels."""
    items = [pl.col(labels).list.get(i, null_on_oob=True) for i in range(width)]
    hit = [f"{out}h{i}" for i in range(width)]
    src = pl.col(source)
    df = df.with_columns(
        src.str.contains(_label_pattern(item)).fill_null(False).alias(h)
        for item, h in zip(items, hit, strict=True)
    )
    kept: list[pl.Expr] = []
    for i, item in enumerate(items):
        inside = [
            pl.col(hit[j])
            & (items[j].str.len_chars() > item.str.len_chars())
            & items[j].str.contains(item, literal=True)
            for j in range(width)
            if j != i
        ]
        covered = pl.any_horizontal(inside).fill_null(False) if inside else pl.lit(False)
        kept.append(pl.when(pl.col(hit[i]) & ~covered).then(item))
    if not kept:
        return df.with_columns(pl.lit(None, pl.String).alias(out), pl.lit(0).alias(f"{out}n"))
    df = df.with_columns(pl.concat_list(kept).list.drop_nulls().alias(out))
    count = pl.col(out).list.n_unique()
    return df.with_columns(
        pl.when(count == 1).then(pl.col(out).list.first()).alias(out), count.alias(f"{out}n")
    ).drop(hit)


def label_stated_frame(
    df: pl.DataFrame, source: str, labels: str, width: int, *, case_sensitive: bool = False
) -> pl.DataFrame:
    """``df`` with columns ``label`` and ``rule`` for a prepared, negation-erased ``source``:
    the first span rule whose span states a label decides (then the whole text); a span
    stating two labels is a hedge (label null, rule ``hedge``); no label: rule null."""
    t = "__xf_label_"
    df = spans_frame(df, source, ap.SPAN_RULES, t)
    n = len(ap.SPAN_RULES)
    cols = [f"{t}{i}" for i in range(n)] + [source]
    names = [*SPAN_NAMES, "whole"]
    low = (lambda e: e) if case_sensitive else (lambda e: e.str.to_lowercase())
    df = df.with_columns(low(strip_marks(c)).alias(f"{t}s{i}") for i, c in enumerate(cols))
    for i in range(len(cols)):
        df = labels_frame(df, f"{t}s{i}", labels, width, f"{t}l{i}")
    label = pl.lit(None, pl.String)
    rule = pl.lit(None, pl.String)
    for i in reversed(range(len(cols))):
        count = pl.col(f"{t}l{i}n")
        label = (
            pl.when(count == 1).then(pl.col(f"{t}l{i}")).when(count > 1).then(None).otherwise(label)
        )
        rule = (
            pl.when(count == 1)
            .then(pl.lit(names[i]))
            .when(count > 1)
            .then(pl.lit("hedge"))
            .otherwise(rule)
        )
    df = df.with_columns(label.alias("label"), rule.alias("rule"))
    return df.select(pl.exclude(f"^{t}.*$"))
