"""Which gates of the number rules a text can pass, for a whole column in one pass.

Reading a number runs many steps, each only on the rows that can match it
(:func:`xpert_frames.reading.numeric.rules.on_subset`); deciding which rows those are took a
regex or ``contains_any`` pass over every row per step. :func:`screen` finds, in one
Aho-Corasick pass (ASCII letters in either case, each occurrence looked up as written; the bits
of the literals found or-ed per text by numpy), which of a few short patterns occur in each
text and returns a UInt32 of bits; a gate is then a bit test (:func:`has`), and a gate that is
a regex runs that regex only on the rows whose bits are set (:func:`matches`).

A C byte-trie scan of the Arrow buffers gave the same bits; it made the math evaluator 1.37x
faster end to end on the 1M-row benchmark (1.35-1.38x in CPU; accuracy about 1.05x), under
the 1.5x that native code of our own must earn, so it was removed (``benchmarks/RESULTS.md``).

Two kinds of bit: an *exact* bit is set exactly when its gate holds (a ``contains_any`` of
literals); a *screen* bit is set whenever its regex can match (every match
holds one of the bit's patterns), so the regex decides on those rows only. Tests check both
claims against Polars on generated and real texts. The work frames carry the text as
``normalized_text`` and its bits as ``screen_bits``; a step that rewrites ``normalized_text``
screens its rows again (:func:`rescreen`), or, when it keeps the rows in order, only the rows
whose text it changed (:func:`after_in_place`)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import polars as pl

from xpert_frames.reading.numeric.grammar import (
    CHECK_TRIGGERS,
    CONCLUSION_WORDS,
    WRAPPERS,
)
from xpert_frames.reading.numeric.scales import SCREEN as SCALE_SCREEN

#: Screen of :data:`~xpert_frames.reading.numeric.forms.RARE_TRIGGER`.
RARE = 1 << 2
#: Exact: ``≈``.
APPROX = 1 << 3
#: A digit then a space; with :data:`SLASH`, a screen of the mixed-number trigger.
DIGIT_SPACE = 1 << 4
#: Exact: ``/``.
SLASH = 1 << 5
#: Exact: ``contains_any(CHECK_TRIGGERS, ascii_case_insensitive=True)``.
CHECK = 1 << 6
#: Exact: ``contains_any(["boxed", "fbox"])``.
BOX = 1 << 7
#: Screen of the answer-statement markers (``Grammar.marker``).
MARKER = 1 << 8
#: Exact: ``=``.
EQUALS = 1 << 9
#: Exact: ``contains_any(CONCLUSION_WORDS, ascii_case_insensitive=True)``.
CONCLUSION_WORD = 1 << 10

#: Screens of the rewrites of folded text (``grammar.REWRITES``, then powers of ten and digits
#: between Chinese scales), each a literal every match of its rewrite holds: ``\\text`` (and
#: the other wrappers), ``×`` (with ``^``), ``第``, ``-``, ``^``, ``万 亿 千 百``.
WRAPPER = 1 << 11
TIMES = 1 << 12
POWER = 1 << 13
ORDINAL = 1 << 14
MINUS = 1 << 15
SCALE = 1 << 16
#: The screen of each rewrite of folded text, in order (``grammar.rewrite_rows``).
REWRITE_SCREENS = (WRAPPER, TIMES | POWER, ORDINAL, MINUS, POWER)

#: In a pattern, any ASCII digit.
_D = "\x00"
#: ``(bit, pattern, ci)``: with ``ci``, ASCII letters match in either case (Polars'
#: ``ascii_case_insensitive``); every other character as written. ``ſ`` (long s) and ``K``
#: (Kelvin sign) match ``s``/``k`` in a Unicode ``(?i)`` regex: screens of such regexes spell
#: them out (or avoid those letters). At most 100 search patterns in all (:func:`_lookup`):
#: above that the Aho-Corasick search is an NFA, about twice as slow (0.028 -> 0.053 CPU-s per
#: 283,000 benchmark texts); so no pattern spells out a digit pair or a letter-digit pair (the
#: number-form stages' triggers, a regex over every row, cost less than their 490 literals).
_PATTERNS: tuple[tuple[int, str, bool], ...] = (
    *((WRAPPER, p, False) for p in WRAPPERS),
    (TIMES, "×", False),
    (POWER, "^", False),
    (ORDINAL, "第", False),
    (MINUS, "-", False),
    *((SCALE, p, False) for p in SCALE_SCREEN),
    *((RARE, p, True) for p in ("approx", "about", "roughly")),
    *((RARE, p, False) for p in ("约", "又", "\\overline", "\\dot", f"({_D}", "...", "…", "dots")),
    (APPROX, "≈", False),
    (DIGIT_SPACE, f"{_D} ", False),
    (SLASH, "/", False),
    *((CHECK, p, True) for p in CHECK_TRIGGERS),
    *((BOX, p, False) for p in ("boxed", "fbox")),
    *((MARKER, p, False) for p in ("答案", "答:", "结果", "所以", "因此", "故", "####")),
    *((MARKER, p, True) for p in ("answer", "anſwer")),
    (EQUALS, "=", False),
    *((CONCLUSION_WORD, p, True) for p in CONCLUSION_WORDS),
)


def screen(texts: pl.Series) -> pl.Series:
    """The bits (UInt32) of each text; 0 for a null."""
    if len(texts) == 0:
        return pl.Series(texts.name, [], dtype=pl.UInt32)
    return pl.Series(texts.name, _bits(texts), dtype=pl.UInt32)


def _literals(pattern: str) -> list[str]:
    """The literal strings a pattern stands for (each :data:`_D` as each ASCII digit)."""
    out = [""]
    for ch in pattern:
        out = [o + d for o in out for d in ("0123456789" if ch == _D else ch)]
    return out


def _cased(literal: str) -> list[str]:
    """``literal`` in every ASCII case (other characters as written): what Polars'
    ``ascii_case_insensitive`` matches."""
    out = [""]
    for ch in literal:
        cases = dict.fromkeys((ch.lower(), ch.upper()) if ch.isascii() else (ch,))
        out = [o + c for o in out for c in cases]
    return out


@functools.cache
def _table() -> dict[str, int]:
    """Every literal the patterns stand for, with the bits it sets; a pattern matched in either
    ASCII case stands for its literals in every case (``so``, ``So``, ``sO``, ``SO``)."""
    table: dict[str, int] = {}
    for bit, pattern, fold in _PATTERNS:
        for literal in _literals(pattern):
            for written in _cased(literal) if fold else [literal]:
                table[written] = table.get(written, 0) | bit
    return table


def _bits(texts: pl.Series) -> np.ndarray:
    """The bits of the literals (:func:`_table`) found in ``texts``: one overlapping
    Aho-Corasick pass (``extract_many``) finds every occurrence of every search pattern; the
    bits of the occurrences are or-ed per text (0 for none or a null). One pass instead of a
    ``contains`` or ``contains_any`` per bit: 0.28 -> 0.13 CPU-s for 400,000 texts, math 1.15x
    end to end. The pass matches ASCII letters in either case and returns each occurrence as
    written: an occurrence is looked up as written, so a pattern matched in one case only sets
    its bit only when written so. The occurrences of all texts are read as one flat column
    (each cast to its index in the table, one past its end when not there, its bits looked up
    by index) and or-ed per text by ``np.bitwise_or.reduceat`` over every text (no mask of the
    texts with occurrences: 0.009 -> 0.005 CPU-s per 283,000 texts): a ``list.eval`` per text
    cost as much as the search (0.55 -> 0.42 CPU-s for 880,000 texts)."""
    patterns, enum, bits = _lookup()
    found = texts.str.extract_many(patterns, overlapping=True, ascii_case_insensitive=True)
    counts = found.list.len().fill_null(0).cast(pl.Int64).to_numpy()
    flat = found.explode(empty_as_null=False, keep_nulls=False)
    if len(flat) == 0:
        return np.zeros(len(texts), dtype=np.uint32)
    index = flat.cast(enum, strict=False).to_physical().fill_null(len(bits) - 1)
    # A 0 after the last occurrence: a text without any (its segment empty, which reduceat
    # reads as the one value at its start) may start there; those are set to 0 after.
    values = bits[np.append(index.to_numpy(), len(bits) - 1)]
    out = np.bitwise_or.reduceat(values, np.cumsum(counts) - counts)
    out[counts == 0] = 0
    return out


def _ascii_lower(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)


@functools.cache
def _lookup() -> tuple[list[str], pl.Enum, np.ndarray]:
    """The search patterns (the literals of :func:`_table` in ASCII lower case, each once:
    at most 100, see :data:`_PATTERNS`), the Enum of the literals, and their bits by index
    (then a 0 for an occurrence not in the table, such as ``BOXED``)."""
    table = _table()
    literals = list(table)
    patterns = list(dict.fromkeys(_ascii_lower(literal) for literal in literals))
    bits = np.fromiter([*table.values(), 0], np.uint32, len(table) + 1)
    return patterns, pl.Enum(literals), bits


def rescreen(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with ``screen_bits``, the bits of its text ``normalized_text``, (re)computed."""
    return df.with_columns(screen(df["normalized_text"]).alias("screen_bits"))


def after_in_place(
    step: Callable[[pl.DataFrame], pl.DataFrame],
) -> Callable[[pl.DataFrame], pl.DataFrame]:
    """``step`` (which rewrites ``normalized_text`` and keeps the rows in order) followed by
    :func:`rescreen` of only the rows whose text it changed: bits depend on the text alone, and
    most rows a rewrite gate admits come out as they went in (``4732×653``, ``二千七百``)."""

    def run(df: pl.DataFrame) -> pl.DataFrame:
        out = step(df)
        return rescreen_changed(out, df["normalized_text"])

    return run


def rescreen_changed(df: pl.DataFrame, before: pl.Series) -> pl.DataFrame:
    """``df``, whose ``normalized_text`` was ``before`` (the same rows in the same order), with
    ``screen_bits`` screened again only where its text changed (bits depend on the text
    alone)."""
    return rescreen_rows(df, df["normalized_text"].ne_missing(before))


def rescreen_rows(df: pl.DataFrame, rows: pl.Series) -> pl.DataFrame:
    """``df`` with ``screen_bits`` screened again on the rows of the mask ``rows`` (those whose
    ``normalized_text`` changed)."""
    at = rows.arg_true()
    if len(at) == 0:
        return df
    if len(at) == len(df):
        return rescreen(df)
    bits = screen(df["normalized_text"].filter(rows))
    return df.with_columns(df["screen_bits"].scatter(at, bits))


def has(bits: int) -> pl.Expr:
    """Whether the text has all of ``bits`` (exact bits: their gates; screens: can match)."""
    return (pl.col("screen_bits") & bits) == bits


def matches(df: pl.DataFrame, bits: int, regex: str, where: pl.Expr | None = None) -> pl.Series:
    """The mask of ``n.str.contains(regex)`` (and ``where``) over ``df``, the regex run only on
    the rows whose screen has ``bits`` (the others cannot match). Their texts are filtered first:
    a regex over ``when(...).then(n)`` would read the masked rows too."""
    screen = has(bits) if where is None else has(bits) & where
    mask = df.select(screen.fill_null(False)).to_series()
    at = mask.arg_true()
    if len(at) == 0:
        return mask
    # Only the text of those rows is filtered (not the whole frame; a gather across chunks
    # would cost ten times a filter).
    hits = df["normalized_text"].filter(mask).str.contains(regex)
    return mask.scatter(at, hits)
