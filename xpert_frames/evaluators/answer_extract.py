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
    """Group ``s`` of ``pattern`` in ``source``; null where it does not match. The copula and
    line rules run as cheaper equivalents (a capture-free scan; a split), and a last line
    longer than :data:`~answer_patterns.SHORT_LINE` characters does not count."""
    src = text.to_expr(source)
    if pattern == ap.COPULA:
        found = src.str.extract_all(ap.COPULA_FIND).list.first()
        return found.str.replace(ap.COPULA_HEAD, "")
    if pattern == ap.ANSWER_IS:
        return pl.when(src.str.contains(ap.ANSWER_IS_TRIGGER)).then(src).str.extract(pattern, 1)
    if pattern == ap.JUDGE_SENTENCE:
        found = src.str.extract_all(ap.JUDGE_SENTENCE_FIND).list.last()
        return found.str.replace(r"^[.。!?！？\n]", "")
    if pattern == ap.LINE:
        line = src.str.strip_chars_end().str.replace(r"(?s)^.*\n", "")
        short = line.str.extract(rf"^(.{{0,{ap.SHORT_LINE}}})$", 1)
        return short.str.extract(ap.LAST_SENTENCE, 1)
    return src.str.extract(pattern, 1)


def strip_marks(value: IntoExpr) -> pl.Expr:
    """``\\text{X}`` -> ``X``; markdown/TeX marks and parenthetical remarks dropped."""
    out = text.to_expr(value).str.replace_all(ap.TEX_TEXT, "$1").str.replace_all(ap.MARKS, "")
    return out.str.replace_all(ap.PARENTHESES, "${pre}")


def tidy(value: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """Punctuation, whitespace and erased spans at the ends and an English leading article
    dropped; lower-cased unless ``case_sensitive``; null when nothing is left."""
    out = text.to_expr(value).str.replace_all(ap.ENDS, "").str.replace(ap.ARTICLE, "")
    out = out.str.replace(ap.PARTICLES, "").str.replace_all(ap.ENDS, "")
    return nonempty(out if case_sensitive else out.str.to_lowercase())


def cut(value: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """The answer a span states: marks dropped, erased leading clauses skipped, up to the first
    clause boundary, tidied (``Sydney (but Canberra …)`` -> ``sydney``, ``the Pacific Ocean.``
    -> ``pacific ocean``, ``✗; it is Mars`` -> ``mars``)."""
    lead = strip_marks(value).str.replace(ap.ERASED_LEAD, "").str.replace(ap.OPENERS, "")
    # CLAUSE_TAIL removed equals CLAUSE's group once tidied (a capture-free scan is faster).
    return tidy(lead.str.replace(ap.CLAUSE_TAIL, ""), case_sensitive=case_sensitive)


def plain_frame(df: pl.DataFrame, source: str, plain: str) -> pl.DataFrame:
    """Column ``plain``: ``source`` without bold marks (what every rule but ``bold`` reads)."""
    return df.with_columns(pl.col(source).str.replace_all(r"\*\*|__", "").alias(plain))


def rule_source(name: str, source: str, plain: str, todo: pl.Expr) -> pl.Expr:
    """The text a rule reads, on the rows still undecided only."""
    return pl.when(todo).then(pl.col(source if name == "bold" else plain))


def decide(
    df: pl.DataFrame,
    value: str,
    rule: str,
    found: pl.Expr,
    name: str,
    extra: dict[str, pl.Expr] | None = None,
) -> pl.DataFrame:
    """Rows still undecided take ``found`` (and rule ``name``, and the ``extra`` columns)
    where it is not null."""
    taken = pl.col(rule).is_null() & found.is_not_null()
    more = [pl.coalesce(k, pl.when(taken).then(e)).alias(k) for k, e in (extra or {}).items()]
    return df.with_columns(
        pl.coalesce(value, found).alias(value),
        pl.coalesce(rule, pl.when(found.is_not_null()).then(pl.lit(name))).alias(rule),
        *more,
    )


STATED_DTYPE = pl.Struct({"value": pl.String, "rule": pl.String})
SPAN_NAMES: list[str] = [name for name, _ in ap.SPAN_RULES]


def stated_text_frame(df: pl.DataFrame, source: str, *, case_sensitive: bool) -> pl.DataFrame:
    """``df`` with the columns of the answer a prepared, negation-erased ``source`` states:
    ``span`` (cut at its first clause), ``span_rule`` (the span rule that found it; nulls if
    none), ``full`` (the same span not cut), ``subject`` (the copula's subject when the copula
    rule decided), ``lead`` (the first sentence) and ``hedge`` (the answer is offered as a
    guess: ``可能是北京``, ``maybe Paris``). Rules run in order, each only on the rows no
    earlier rule decided."""
    cs = case_sensitive
    t = "__xf_text_"
    plain = f"{t}plain"
    df = plain_frame(df, source, plain)
    df = df.with_columns(pl.lit(None, pl.String).alias(c) for c in ("span", "span_rule", "full"))
    for name, pattern in ap.SPAN_RULES:
        todo = pl.col("span").is_null()
        raw = span(rule_source(name, source, plain, todo), pattern)
        df = df.with_columns(raw.alias(f"{t}raw"))
        df = df.with_columns(cut(f"{t}raw", case_sensitive=cs).alias(f"{t}cut"))
        full = tidy(strip_marks(f"{t}raw").str.replace(ap.ERASED_LEAD, ""), case_sensitive=cs)
        df = decide(df, "span", "span_rule", pl.col(f"{t}cut"), name, {"full": full})
    # A copula states its subject as much as its complement (``Paris is the capital``), and
    # an answer may come first (``Paris. It is the capital of France.``).
    is_copula = pl.col("span_rule") == "copula"
    subject = span(pl.when(is_copula).then(plain), ap.COPULA_SUBJECT)
    first = span(
        pl.when(pl.col("span_rule").is_in(["copula", "line"])).then(plain), ap.FIRST_SENTENCE
    )
    df = df.with_columns(
        cut(subject, case_sensitive=cs).alias("subject"),
        cut(first, case_sensitive=cs).alias("lead"),
    )
    guess = (is_copula & pl.col("subject").str.contains(ap.TEXT_HEDGE)) | pl.col(
        "full"
    ).str.contains(f"^(?:{ap.TEXT_HEDGE})")
    df = df.with_columns(guess.fill_null(False).alias("hedge"))
    return df.select(pl.exclude(f"^{t}.*$"))


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
    doubt (``可能``, ``whether``) or both values is ``"hedge"``. Rules run in order, each only
    on the rows no earlier rule decided."""
    t = "__xf_judge_"
    plain = f"{t}plain"
    df = plain_frame(df, source, plain)
    df = df.with_columns(pl.lit(None, pl.String).alias(c) for c in ("judge", "judge_rule"))
    for name, pattern in [*ap.JUDGE_RULES, ("whole", "")]:
        todo = pl.col("judge").is_null()
        if name == "whole":
            # The whole text is not cut at its first clause.
            raw = strip_marks(pl.when(todo).then(pl.col(source)))
            df = df.with_columns(raw.alias(f"{t}raw"), raw.alias(f"{t}cut"))
        else:
            raw = strip_marks(span(rule_source(name, source, plain, todo), pattern))
            df = df.with_columns(raw.alias(f"{t}raw"))
            df = df.with_columns(cut(f"{t}raw").alias(f"{t}cut"))
        df = judge_frame(df, f"{t}cut", f"{t}v")
        doubt = pl.col(f"{t}raw").str.contains(ap.HEDGE) & pl.col(f"{t}v").is_not_null()
        found = pl.when(doubt).then(pl.lit(HEDGE)).otherwise(pl.col(f"{t}v"))
        df = decide(df, "judge", "judge_rule", found, name)
    return df.select(pl.exclude(f"^{t}.*$"))


# --------------------------------------------------------------------------- labels
def label_list(choices: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """Each row's distinct candidate labels (``content``, else ``id``, of ``choices``),
    prepared and tidied, in order; an empty list when there are none."""
    el = pl.element().struct
    raw = pl.coalesce(el.field("content"), el.field("id"))
    label = tidy(prepare(raw), case_sensitive=case_sensitive)
    found = text.to_expr(choices).list.eval(label).list.drop_nulls()
    return found.list.unique(maintain_order=True).fill_null([])


#: What wraps every run of ``a-z0-9`` when labels are looked up (so that a literal search
#: finds a label only where its Latin letters and digits are whole words).
_MARK = "\x00"


def wrap_marks(value: IntoExpr) -> pl.Expr:
    """``_MARK`` around every run of ``a-z0-9``: ``"is positive."`` -> ``"␀is␀ ␀positive␀."``.
    A wrapped label occurs in a wrapped text exactly where the label occurs and no ``a-z0-9``
    character touches a Latin letter or digit at its ends (``positive`` is not in
    ``nonpositive``; ``正面`` is in ``是正面的``)."""
    return text.to_expr(value).str.replace_all(r"[a-z0-9]+", f"{_MARK}$0{_MARK}")


def containment_frame(df: pl.DataFrame, labels: str, width: int, prefix: str) -> pl.DataFrame:
    """Columns ``<prefix><i>_<j>``: label ``i`` lies inside the longer label ``j``."""
    items = [pl.col(labels).list.get(i, null_on_oob=True) for i in range(width)]
    return df.with_columns(
        (
            (items[j].str.len_chars() > items[i].str.len_chars())
            & items[j].str.contains(items[i], literal=True)
        )
        .fill_null(False)
        .alias(f"{prefix}{i}_{j}")
        for i in range(width)
        for j in range(width)
        if i != j
    )


def labels_frame(
    df: pl.DataFrame, source: str, labels: str, wrapped: str, width: int, out: str
) -> pl.DataFrame:
    """Columns ``<out>`` (the one label ``source`` states, else null) and ``<out>n`` (how many
    distinct labels it states) over the first ``width`` labels; a label inside a longer
    stated label (``Guilty`` in ``Guilty of Romance``) does not count. ``source`` is
    lower-cased like the labels; ``wrapped`` holds the labels through :func:`wrap_marks` and
    :func:`containment_frame` columns ``<wrapped><i>_<j>`` exist."""
    items = [pl.col(labels).list.get(i, null_on_oob=True) for i in range(width)]
    marks = [pl.col(wrapped).list.get(i, null_on_oob=True) for i in range(width)]
    hit = [f"{out}h{i}" for i in range(width)]
    df = df.with_columns(wrap_marks(source).alias(f"{out}w"))
    src = pl.col(f"{out}w")
    df = df.with_columns(
        src.str.contains(mark, literal=True).fill_null(False).alias(h)
        for mark, h in zip(marks, hit, strict=True)
    )
    kept: list[pl.Expr] = []
    for i in range(width):
        inside = [pl.col(hit[j]) & pl.col(f"{wrapped}{i}_{j}") for j in range(width) if j != i]
        covered = pl.any_horizontal(inside) if inside else pl.lit(False)
        kept.append((pl.col(hit[i]) & ~covered).alias(hit[i]))
    if not kept:
        return df.with_columns(pl.lit(None, pl.String).alias(out), pl.lit(0).alias(f"{out}n"))
    # Labels are distinct (label_list), so counting kept hits counts distinct labels.
    df = df.with_columns(kept)
    stated = pl.coalesce(pl.when(h).then(item) for h, item in zip(hit, items, strict=True))
    count = pl.sum_horizontal(pl.col(h).cast(pl.UInt32) for h in hit)
    df = df.with_columns(count.alias(f"{out}n"), stated.alias(out))
    return df.drop(*hit, f"{out}w")


def label_stated_frame(
    df: pl.DataFrame, source: str, labels: str, width: int, *, case_sensitive: bool = False
) -> pl.DataFrame:
    """``df`` with columns ``label`` and ``rule`` for a prepared, negation-erased ``source``:
    the first span rule whose span states a label decides (then the whole text); a span
    stating two labels is a hedge (label null, rule ``hedge``); no label: rule null. Rules run
    in order, each only on the rows no earlier rule decided."""
    t = "__xf_label_"
    plain = f"{t}plain"
    df = plain_frame(df, source, plain)
    df = df.with_columns(pl.lit(None, pl.String).alias(c) for c in ("label", "rule"))
    wrapped = f"{t}wrapped"
    df = df.with_columns(pl.col(labels).list.eval(wrap_marks(pl.element())).alias(wrapped))
    df = containment_frame(df, labels, width, wrapped)
    for name, pattern in [*ap.SPAN_RULES, ("whole", "")]:
        todo = pl.col("rule").is_null()
        raw = (
            pl.when(todo).then(source)
            if name == "whole"
            else span(rule_source(name, source, plain, todo), pattern)
        )
        low = strip_marks(raw) if case_sensitive else strip_marks(raw).str.to_lowercase()
        # The span cut at its first clause first (``positive, though … negative remarks``),
        # then whole (labels may hold commas: ``Paris, France``).
        df = df.with_columns(
            low.alias(f"{t}s"), cut(raw, case_sensitive=case_sensitive).alias(f"{t}c")
        )
        df = labels_frame(df, f"{t}c", labels, wrapped, width, f"{t}k")
        df = labels_frame(df, f"{t}s", labels, wrapped, width, f"{t}l")
        use_cut = pl.col(f"{t}kn") > 0
        label = pl.when(use_cut).then(pl.col(f"{t}k")).otherwise(pl.col(f"{t}l"))
        count = pl.when(use_cut).then(pl.col(f"{t}kn")).otherwise(pl.col(f"{t}ln"))
        df = df.with_columns(
            pl.when(todo & (count == 1)).then(label).otherwise("label").alias("label"),
            pl.when(todo & (count == 1))
            .then(pl.lit(name))
            .when(todo & (count > 1))
            .then(pl.lit("hedge"))
            .otherwise("rule")
            .alias("rule"),
        )
    return df.select(pl.exclude(f"^{t}.*$"))
