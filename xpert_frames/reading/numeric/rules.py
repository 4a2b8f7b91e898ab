"""Where the answer's number is in a normalized text: the rules behind
:func:`xpert_frames.reading.numeric.parse.extract_number`, as Polars frame operations.

Each rule runs only on the rows that can match it and that no earlier rule answered
(:func:`on_subset`). A final answer statement *after* the last ``\\boxed{}`` wins over that box
(``\\boxed{255} … The final answer is 10,455``: the box held an intermediate result). Where
only the last number would answer, a conclusion (So/Therefore/Thus/Hence …) followed only by
sentences that carry nothing on (rule ``conclusion``: ``So John was 34. This was in 1998.``)
gives the number instead. English
number words are read only where a span has no number in digits.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import polars as pl

from xpert_frames.reading.boxes import anchored_box, box_tail
from xpert_frames.reading.numeric import screens
from xpert_frames.reading.numeric.forms import ENGLISH_WORD, english_numbers
from xpert_frames.reading.numeric.grammar import (
    CHECK,
    Grammar,
)
from xpert_frames.reading.numeric.values import BARE
from xpert_frames.reading.rules import Rule, rule_table
from xpert_frames.reading.subsets import on_subset
from xpert_frames.reading.vocabulary import BOX_CONTENT, CLAUSE_CONCLUSION


def rewrite_stages(
    stages: list[tuple[str, list[tuple[str, str]]]], df: pl.DataFrame
) -> pl.DataFrame:
    """Column ``normalized_text`` through the rewrite stages ``(trigger, [(pattern, replacement),
    ...])`` in order (:func:`xpert_frames.reading.numeric.forms.form_stages`), each stage's
    rewrites only on the rows that match its trigger and one of its patterns (a text that no
    pattern of a stage matches is left as it is by every rewrite of the stage: most texts
    that a trigger admits, such as ``\\frac{3}{4}`` or ``4,518,000``), written back in place
    (row order kept: the caller then screens again only the rows whose text changed)."""
    n = pl.col("normalized_text")
    for trigger, rules in stages:
        mask = df.select(n.str.contains(trigger).fill_null(False)).to_series()
        at = mask.arg_true()
        if len(at) == 0:
            continue
        # A search without captures (the lazy DFA alone) is cheaper than the rewrites,
        # whose captures run wherever a pattern matches and whose output is a copy.
        changes = "|".join(f"(?:{pattern})" for pattern, _ in rules)
        texts = df["normalized_text"].gather(at)
        hit = texts.str.contains(changes)
        if not hit.any():
            continue
        rewrite = functools.reduce(lambda e, r: e.str.replace_all(*r), rules, n)
        at = at.filter(hit)
        done = texts.filter(hit).to_frame().select(rewrite).to_series()
        df = df.with_columns(df["normalized_text"].scatter(at, done))
    return df


def last_candidate(g: Grammar, text: pl.Expr) -> pl.Expr:
    return text.str.extract_all(g.candidate).list.last()


@functools.cache
def _words_last(g: Grammar, target: str) -> pl.Expr:
    """The last number of column ``__words`` read with English number words, as ``target``
    (built once: the word rules are some fifty expressions)."""
    return last_candidate(g, english_numbers(pl.col("__words"))).alias(target)


def _words_fallback(g: Grammar, df: pl.DataFrame, target: str, source: pl.Expr) -> pl.DataFrame:
    """Fill null ``target`` from English number words in ``source`` (rows with such words)."""
    if not g.chinese:  # the words are part of the normalize=True grammar
        return df

    def words(e: pl.DataFrame) -> pl.DataFrame:
        return e.with_columns(source.alias("__words")).with_columns(_words_last(g, target))

    def fill(d: pl.DataFrame) -> pl.DataFrame:
        out = on_subset(d, source.str.contains(ENGLISH_WORD), words, {"__words": pl.String()})
        return out.drop("__words")

    return on_subset(df, pl.col(target).is_null() & source.is_not_null(), fill)


#: What :func:`_statement` strips from the start of the text after the statement.
_LEAD = " \t:,，："
#: In the clause after a statement, a run that ends with ``=`` and holds no clause or sentence
#: end, nor a comma or full stop (which may start one): dropped with the statement.
_BEFORE_EQ = "(?:[^=，,。；;！!？?\n.]*=)*"


def _patched(values: pl.Series, mask: pl.Series, fn: Callable[[pl.Series], pl.Series]) -> pl.Series:
    """``values`` with ``fn`` of its values where ``mask`` holds (row order kept)."""
    at = mask.fill_null(False).arg_true()
    if len(at) == 0:
        return values
    if len(at) == len(values):
        return fn(values)
    return values.scatter(at, fn(values.filter(mask)))


def _statement(
    g: Grammar,
    df: pl.DataFrame,
    through: str | None = None,
    target: str = "statement",
    screened: bool = False,
) -> pl.DataFrame:
    """Add ``statement`` (or ``target``): the last number of the clause after the last answer
    statement (after the clause's last ``=``), else the last number of its sentence.
    ``through``: the text up to the statement (default: the last answer statement), which
    every row holds; ``screened``: rows may hold none (a screen let them through), and keep
    their ``target`` (a column of ``df`` then).

    The clause is two anchored cuts (one scan of the text each: no search for where a match
    starts): the text through the statement, the separators after it and the clause's runs up
    to an ``=`` (:data:`_BEFORE_EQ`, most clauses' ``=``), then the clause's first end and all
    after it. An ``=`` left (after a comma or a full stop) is cut on its rows only, and the
    sentence only on the rows whose clause has no number. Row order is kept."""
    through = through or g.through_marker
    text = df["normalized_text"]
    after = text.str.replace(f"{through}[{_LEAD}]*{_BEFORE_EQ}", "")
    if not screened:
        found = _clause_number(g, text, after, through)
    else:  # the cut is never empty: a row whose text it left whole holds no statement
        stated = after.str.len_bytes() < text.str.len_bytes()
        at = stated.arg_true()
        found = df[target]
        if len(at):
            number = _clause_number(g, text.filter(stated), after.filter(stated), through)
            found = number if len(at) == len(found) else found.scatter(at, number)
    return df.with_columns(found.alias(target))


def _clause_number(g: Grammar, text: pl.Series, after: pl.Series, through: str) -> pl.Series:
    """The number of :func:`_statement` of each ``text``, ``after`` its first cut."""
    # The first clause or sentence end and all after it: the clause ends at the first end of
    # either kind (no clause end holds a sentence end's first character, nor the reverse).
    clause = after.str.replace(f"(?:{g.clause_end})|(?:{g.sentence_end})", "")
    eq_left = clause.str.contains("=", literal=True)
    after_eq = _patched(clause, eq_left, lambda s: s.str.replace(r"(?s)^.*=", ""))
    # A clause that is one bare number (``The answer is 42.``, ``#### 42``) is its own last
    # candidate (every other form needs a character it lacks): no search on those rows.
    bare = after_eq.str.contains(BARE).fill_null(False)
    found = _patched(after_eq, ~bare, lambda s: s.str.extract_all(g.candidate).list.last())
    missing = found.is_null()
    if not missing.any():
        return found
    f = pl.col
    sentence = (
        text.filter(missing)
        .str.replace(through, "")
        .str.strip_chars_start(_LEAD)
        .str.replace(g.sentence_end, "")
    )
    sub = sentence.rename("sentence").to_frame().with_row_index("__at")
    sub = sub.with_columns(last_candidate(g, f("sentence")).alias("__found"))
    sub = _words_fallback(g, sub, "__found", f("sentence")).sort("__at")  # its order back
    return found.scatter(missing.arg_true(), sub["__found"])


def _boxed(g: Grammar, df: pl.DataFrame) -> pl.DataFrame:
    """Add ``boxed`` (the last box's last number) and ``late`` (an answer statement follows
    the last box)."""
    f = pl.col
    # The text after the last \\boxed, its braces matched anchored (see numeric.boxed); each
    # step is a column (eager frames do not share sub-expressions).
    anchored = anchored_box(BOX_CONTENT)
    out = df.with_columns(box_tail(f("normalized_text")).alias("after"))
    # A last box that is not well formed has no content: an earlier box was superseded by it
    # and is never read instead (the other rules read the text).
    out = out.with_columns(
        f("after").str.extract(anchored, 1).alias("content"),
        f("after").str.replace(anchored, "").alias("after"),
    )
    out = out.with_columns(
        last_candidate(g, f("content")).alias("boxed"),
        (f("content").is_not_null() & f("after").str.contains(g.late)).alias("late"),
    ).drop("after")
    return _words_fallback(g, out, "boxed", f("content")).drop("content")


def _no_check(g: Grammar, df: pl.DataFrame) -> pl.DataFrame:
    """Cut ``normalized_text`` at its first check/verification (``Check:``, ``Let's verify``,
    ``验证：`` ...)
    where a number comes before it and no box or answer statement with a number after it:
    the check restates the answer's arithmetic, its last number is not the answer."""
    f = pl.col
    head = f("normalized_text").str.replace(f"(?s)(?:{CHECK}).*$", "")
    tail = f("normalized_text").str.slice(head.str.len_chars())
    keep = tail.str.contains(g.answer_after) | ~head.str.contains(g.candidate)
    return df.with_columns(
        pl.when(keep).then(f("normalized_text")).otherwise(head).alias("normalized_text")
    )


#: After a conclusion's sentence, a text that carries the reasoning on (an equation or
#: arithmetic, a step or conclusion word, an answer): the conclusion was a step.
_ONWARD = (
    r"[=≈]|[0-9)]\s*[-+×*/÷−]\s*[0-9(]|(?i:\b(?:so|therefore|thus|hence|then|next|now|finally"
    r"|total|totals|altogether|in all|overall|answer|result|gives|makes|means)\b)"
)
#: A capitalized conclusion word inside a run-on text whose line breaks were lost (``… P(A) =
#: 2/3 Therefore, the probability is 2/3.``): a conclusion too.
RUN_ON_CONCLUSION = r"\s(?:Therefore|Thus|Hence)\b"
#: A letter or power beside a digit: the conclusion's number may be part of an expression.
_EXPRESSION = r"[0-9][a-zA-Z(\\^]|[a-zA-Z)}]\s*[\^_]|[a-zA-Z]\s*[-+*/×−]\s*[0-9]"


def _conclusion(g: Grammar, df: pl.DataFrame) -> pl.DataFrame:
    """Add ``conclusion``: the number of the last conclusion sentence (So/Therefore/Thus/Hence
    ..., or :data:`RUN_ON_CONCLUSION`) when only sentences that carry nothing on follow it
    (context: ``So John was 34. This happened in 1998.``), else null."""
    f = pl.col
    through = f"(?s)^.*(?:{CLAUSE_CONCLUSION}|{RUN_ON_CONCLUSION})"
    out = _statement(g, df, through=through, target="conclusion")
    tail = f("normalized_text").str.replace(through, "")
    sentence = tail.str.replace(g.sentence_end, "")
    rest = tail.str.slice(sentence.str.len_chars())
    stands = ~rest.str.contains(_ONWARD) & ~sentence.str.contains(_EXPRESSION)
    return out.with_columns(pl.when(stands).then(f("conclusion")).alias("conclusion"))


#: The number rules (the ``*_rule`` values of number answers), each a frame step of
#: :func:`candidates` whose work column is named after it. A final answer statement after the
#: last box wins over the box (see :func:`candidates`).
NUMBER_RULES: tuple[Rule, ...] = rule_table(
    Rule("boxed", 10),  # the last box's last number (_boxed)
    Rule("statement", 20),  # after the last answer statement (_statement)
    Rule("equals", 30),  # a final "= n" (Grammar.equals)
    Rule("conclusion", 40),  # a conclusion followed only by context (_conclusion)
    Rule("last", 50),  # the last number
)
#: The rules' columns, in priority order.
RULE_COLUMNS = tuple(rule.name for rule in NUMBER_RULES)


def candidates(g: Grammar, df: pl.DataFrame, mode: str) -> pl.DataFrame:
    """``row_key``, ``cand`` (the answer's number as written) and ``rule`` of ``df`` (columns
    ``row_key``, ``normalized_text``, and its screen ``screen_bits`` unless ``mode`` is
    ``first``), in another row order.

    Text is cut with ``contains``/``replace`` (no capture groups: Rust's fast engines), and
    each rule runs only on the rows that can match it and that no earlier rule answered."""
    f = pl.col
    if mode == "first":  # no rules: no gates
        df = df.with_columns(
            f("normalized_text").str.extract_all(g.candidate).list.first().alias("cand")
        )
        first = pl.when(f("cand").is_not_null()).then(pl.lit("first")).otherwise(pl.lit("none"))
        return df.select("row_key", "cand", first.alias("rule"))
    # Gates are bits of the texts' screen (g; xpert_frames.reading.numeric.screens).
    no_check = screens.after_in_place(functools.partial(_no_check, g))
    df = on_subset(df, screens.has(screens.CHECK), no_check)
    df = on_subset(
        df,
        screens.has(screens.BOX),
        functools.partial(_boxed, g),
        {"boxed": pl.String(), "late": pl.Boolean()},
    )
    late = f("late").fill_null(False)
    # After the last box, a conclusion (So/Therefore/Thus/Hence ...) is a statement too.
    stmt = functools.partial(_statement, g, through=g.through_late)
    df = on_subset(df, late, stmt, {"statement": pl.String()})
    # The marker screen's rows: those whose text holds no statement keep theirs (the cut
    # through the statement tells them apart, no search first).
    has_marker = screens.has(screens.MARKER) & f("boxed").is_null()
    df = on_subset(df, has_marker, functools.partial(_statement, g, screened=True))
    equals = f("normalized_text").str.extract(g.equals, 1).alias("equals")
    has_eq = pl.all_horizontal(f("boxed", "statement").is_null()) & screens.has(screens.EQUALS)
    df = on_subset(df, has_eq, lambda d: d.with_columns(equals), {"equals": pl.String()})
    rest = pl.all_horizontal(f("boxed", "statement", "equals").is_null())
    last = last_candidate(g, f("normalized_text")).alias("last")
    df = on_subset(df, rest, lambda d: d.with_columns(last), {"last": pl.String()})
    df = _words_fallback(g, df, "last", pl.when(rest).then(f("normalized_text")))
    # A conclusion followed only by context sentences (not by a step or an answer) wins.
    added = {"conclusion": pl.String()}
    words = screens.has(screens.CONCLUSION_WORD)  # CONCLUSION_WORDS
    regex = functools.partial(
        on_subset, cond=f("normalized_text").str.contains(CLAUSE_CONCLUSION), added=added
    )
    concluded = functools.partial(regex, fn=functools.partial(_conclusion, g))
    df = on_subset(df, rest & f("last").is_not_null() & words, concluded, added)
    # A statement after the last box wins over it; else the rules in order.
    won = late & f("statement").is_not_null()
    cand = pl.coalesce(pl.when(won).then(f("statement")), *RULE_COLUMNS)
    # The rule's index in RULE_COLUMNS (then "none"), its name gathered once: cheaper than
    # a chain of string-valued whens.
    code = pl.coalesce(
        pl.when(won).then(pl.lit(RULE_COLUMNS.index("statement"), pl.UInt8)),
        *(
            pl.when(f(name).is_not_null()).then(pl.lit(k, pl.UInt8))
            for k, name in enumerate(RULE_COLUMNS)
        ),
        pl.lit(len(RULE_COLUMNS), pl.UInt8),
    )
    rule = pl.lit(pl.Series([*RULE_COLUMNS, "none"], dtype=pl.String)).gather(code)
    # One step each: in one step the two cost twice as much as apart (measured, Polars 2.1);
    # a select of the three columns, not a frame grown by two then cut (which copied all).
    rules = df.select(rule.alias("rule")).to_series()
    return df.select("row_key", cand.alias("cand")).with_columns(rules)
