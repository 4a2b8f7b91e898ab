"""The stated answer of text, true/false (``judge``) and label answers, as Polars expressions.

A prediction is prepared once (:func:`prepare`: NFC, full-width to half-width), negated spans
are erased for text and labels (:func:`erase_frame`), then the span rules of
:mod:`xpert_frames.reading.text_rules` run in evidence order: ``\\boxed{}``, answer
statements, bold, a concluding sentence, the first sentence with a copula, the last short line.
Expressions, and frame functions that run them stage by stage over a batch (no Python per row).
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.reading import text_rules as ap
from xpert_frames.reading.rules import Rule

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
    screen, screened = f"{column}__screen", None
    for pattern, replacement, trigger in ap.TEXT_NEGATIONS:
        # Consecutive stages with the same trigger share one screen.
        if trigger != screened:
            df = df.with_columns(col.str.contains(trigger).alias(screen))
            screened = trigger
        hit = pl.when(pl.col(screen)).then(col)
        df = df.with_columns(
            pl.coalesce(hit.str.replace_all(pattern, replacement), col).alias(column)
        )
    return df.drop(screen)


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
        # An output cut off inside a runaway sentence concludes nothing by its sentences.
        found = pl.when(~src.str.contains(ap.RUNAWAY)).then(found)
        return found.str.replace(r"^[.。!?！？\n]", "")
    if pattern == ap.FINAL_LINE:
        body = src.str.strip_chars_end()
        line = body.str.replace(r"(?s)^.*\n", "")
        last = line.str.replace(ap.SENTENCE_ENDS, "").str.replace(ap.BEFORE_LAST_SENTENCE, "")
        multi = body.str.contains("\n") & (line.str.len_chars() <= ap.FINAL_SHORT)
        restated = src.str.contains(f"^\\s*{ap.GONE}") & (last.str.len_chars() <= ap.FINAL_SHORT)
        # A short last line is checked whole; after a restatement, its last sentence.
        checked = pl.when(multi).then(line).otherwise(last)
        ok = (multi | restated) & ~checked.str.contains(ap.FINAL_EXCLUDE)
        return nonempty(pl.when(ok).then(last))
    if pattern == ap.LINE:
        line = src.str.strip_chars_end().str.replace(r"(?s)^.*\n", "")
        short = line.str.extract(rf"^(.{{0,{ap.SHORT_LINE}}})$", 1)
        last = short.str.replace(ap.SENTENCE_ENDS, "").str.replace(ap.BEFORE_LAST_SENTENCE, "")
        return nonempty(last)
    return src.str.extract(pattern, 1)


def mask_titles(value: IntoExpr) -> pl.Expr:
    """Quoted titles and names replaced by :data:`~text_rules.TITLE_MASK` (hedge checks
    read the masked text; answers are compared on the unmasked one)."""
    return text.to_expr(value).str.replace_all(ap.QUOTED_TITLE, ap.TITLE_MASK)


def strip_marks(value: IntoExpr) -> pl.Expr:
    """``\\text{X}`` -> ``X``; markdown/TeX marks and parenthetical remarks dropped."""
    out = text.to_expr(value).str.replace_all(ap.TEX_TEXT, "$1").str.replace_all(ap.MARKS, "")
    # Only rows with a parenthesis pay for the (capturing) removal.
    has = out.str.contains("[(（]", literal=False)
    return pl.coalesce(pl.when(has).then(out).str.replace_all(ap.PARENTHESES, "${pre}"), out)


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


def cascade(
    df: pl.DataFrame,
    source: str,
    plain: str,
    rules: tuple[Rule, ...],
    evaluate: Callable[[pl.Series], pl.Series],
) -> pl.DataFrame:
    """Columns ``value``, ``rule`` and ``raw`` (one row per row of ``df``): the span rules in
    order, each on the rows no earlier rule decided and ``evaluate`` (raw spans -> values,
    null: not decided) only on the spans a rule found. The rows still open are gathered
    before each rule and the decided ones scattered back (batch-level bookkeeping, no Python
    per row)."""
    height = df.height
    value = pl.Series("value", [None] * height, dtype=pl.String)
    rule = pl.Series("rule", [None] * height, dtype=pl.String)
    raw_out = pl.Series("raw", [None] * height, dtype=pl.String)
    open_rows = pl.Series("row", range(height), dtype=pl.UInt32)
    for step in rules:
        if not open_rows.len():
            break
        sub = df[open_rows]
        raw = sub.select(span(source if step.reads_marks else plain, step.pattern)).to_series()
        hit = raw.is_not_null()
        found = pl.Series([None] * raw.len(), dtype=pl.String)
        if hit.any():
            found = found.scatter(hit.arg_true(), evaluate(raw.filter(hit)))
        done = found.is_not_null()
        if done.any():
            at = open_rows.filter(done)
            value = value.scatter(at, found.filter(done))
            rule = rule.scatter(at, pl.Series([step.name] * at.len(), dtype=pl.String))
            raw_out = raw_out.scatter(at, raw.filter(done))
            open_rows = open_rows.filter(~done)
    return pl.DataFrame([value, rule, raw_out])


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
    found = cascade(
        df.select(source, plain),
        source,
        plain,
        ap.TEXT_RULES,
        lambda raw: raw.to_frame("raw_span").select(cut("raw_span", case_sensitive=cs)).to_series(),
    )
    df = df.with_columns(
        found["value"].alias("span"),
        found["rule"].alias("span_rule"),
        found["raw"].alias("raw_span"),
    )
    full = strip_marks("raw_span").str.replace(ap.ERASED_LEAD, "")
    df = df.with_columns(tidy(full, case_sensitive=cs).alias("full"))
    # A copula states its subject as much as its complement (``Paris is the capital``), and
    # an answer may come first (``Paris. It is the capital of France.``).
    is_copula = pl.col("span_rule") == "copula"
    subject_raw = f"{t}subject_raw"
    first = span(
        pl.when(pl.col("span_rule").is_in(["copula", "quoted", "line"])).then(plain),
        ap.FIRST_SENTENCE,
    )
    df = df.with_columns(
        span(pl.when(is_copula).then(plain), ap.COPULA_SUBJECT).alias(subject_raw),
        cut(first, case_sensitive=cs).alias("lead"),
    )
    df = df.with_columns(cut(subject_raw, case_sensitive=cs).alias("subject"))
    df = _masked_titles(df, subject_raw, f"{t}full_masked", f"{t}subject_masked", cs)
    said = pl.col(f"{t}full_masked")
    # The clause right before the copula hedges too (``我不太确定，大概是X``).
    before_copula = mask_titles(pl.col(subject_raw)).str.replace(ap.BEFORE_LAST_CLAUSE, "")
    guess = (
        (is_copula & pl.col(f"{t}subject_masked").str.contains(ap.TEXT_HEDGE))
        | (is_copula & before_copula.str.contains(ap.TEXT_HEDGE))
        | said.str.contains(f"^(?:{ap.TEXT_HEDGE})")
        | said.str.contains(ap.TEXT_ALTERNATIVE)
    )
    df = df.with_columns(guess.fill_null(False).alias("hedge"))
    return df.select(pl.exclude(f"^{t}.*$"))


def _masked_titles(
    df: pl.DataFrame, subject_raw: str, full_out: str, subject_out: str, cs: bool
) -> pl.DataFrame:
    """Columns ``full_out`` and ``subject_out``: ``full`` and ``subject`` read again with their
    quoted titles masked (:func:`mask_titles`; hedge words inside a title are the title's:
    ``"Call Me Maybe"``, ``《可能否》``), computed only on the rows that hold a title opener."""
    df = df.with_columns(pl.col("full").alias(full_out), pl.col("subject").alias(subject_out))
    opens = pl.col("raw_span").str.contains(ap.TITLE_OPENERS) | pl.col(subject_raw).str.contains(
        ap.TITLE_OPENERS
    )
    index = df.select(pl.arg_where(opens.fill_null(False))).to_series()
    if not index.len():
        return df
    masked = strip_marks(mask_titles("raw_span")).str.replace(ap.ERASED_LEAD, "")
    sub = df[index].select(
        tidy(masked, case_sensitive=cs).alias(full_out),
        cut(mask_titles(subject_raw), case_sensitive=cs).alias(subject_out),
    )
    return df.with_columns(
        df[full_out].scatter(index, sub[full_out]), df[subject_out].scatter(index, sub[subject_out])
    )


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


def _judge_spans(raw: pl.Series, *, whole: bool = False) -> pl.Series:
    """Judgements of raw spans: cut at the first clause (not ``whole`` texts), then
    :func:`judge_frame`; a span stating doubt is ``"hedge"``."""
    df = raw.to_frame("raw_span").with_columns(strip_marks("raw_span").alias("raw_span"))
    # A final verdict after so/therefore/所以/总体来说 is what the span states.
    tail = pl.col("raw_span").str.replace(ap.VERDICT_HEAD, "")
    verdict = pl.col("raw_span").str.contains(ap.VERDICT_HEAD) & tail.str.contains(ap.JUDGE_WORD)
    df = df.with_columns(
        pl.when(verdict).then(tail).otherwise(pl.col("raw_span")).alias("raw_span")
    )
    df = df.with_columns(pl.col("raw_span").str.contains(ap.HEDGE).alias("hedged"))
    df = df.with_columns((pl.col("raw_span") if whole else cut("raw_span")).alias("clause"))
    df = judge_frame(df, "clause", "verdict")
    doubt = pl.col("hedged") & pl.col("verdict").is_not_null()
    return df.select(pl.when(doubt).then(pl.lit(HEDGE)).otherwise(pl.col("verdict"))).to_series()


def judge_stated_frame(df: pl.DataFrame, source: str) -> pl.DataFrame:
    """``df`` with columns ``judge`` and ``judge_rule`` for a prepared ``source``: the first
    judge span rule whose span holds a judgement decides (then the whole text, unless it ends
    in a runaway sentence: :data:`~text_rules.RUNAWAY`); a span stating
    doubt (``可能``, ``whether``) or both values is ``"hedge"``. Rules run in order, each only
    on the rows no earlier rule decided (:func:`cascade`)."""
    plain = "__xf_judge_plain"
    df = plain_frame(df, source, plain)
    found = cascade(df.select(source, plain), source, plain, ap.JUDGE_RULES, _judge_spans)
    runaway = df[source].str.contains(ap.RUNAWAY).fill_null(False)
    open_rows = found["value"].is_null() & df[source].is_not_null() & ~runaway
    at = open_rows.arg_true()
    value, rule = found["value"], found["rule"]
    if at.len():
        whole = _judge_spans(df[source].gather(at), whole=True)
        got = whole.is_not_null()
        value = value.scatter(at.filter(got), whole.filter(got))
        names = pl.Series([None] * at.len(), dtype=pl.String)
        names = names.scatter(got.arg_true(), pl.Series(["whole"] * int(got.sum())))
        rule = rule.scatter(at.filter(got), names.filter(got))
    return df.with_columns(value.alias("judge"), rule.alias("judge_rule")).drop(plain)
