"""Which gates of the number rules a text can pass, for a whole column in one pass.

Reading a number runs many steps, each only on the rows that can match it
(:func:`xpert_frames.reading.numeric.rules.on_subset`); deciding which rows those are took a
regex or ``contains_any`` pass over every row per step. :func:`screen` finds, in one
Aho-Corasick pass (the literals matched in either ASCII case spelled out in every case; the bits
of the literals found or-ed per text by numpy), which of a few short patterns occur in each
text and returns a UInt32 of bits; a gate is then a bit test (:func:`has`), and a gate that is
a regex runs that regex only on the rows whose bits are set (:func:`matches`).

A C byte-trie scan of the Arrow buffers gave the same bits; it made the math evaluator 1.37x
faster end to end on the 1M-row benchmark (1.35-1.38x in CPU; accuracy about 1.05x), under
the 1.5x that native code of our own must earn, so it was removed (``benchmarks/RESULTS.md``).

Two kinds of bit: an *exact* bit is set exactly when its gate holds (a ``contains_any`` of
literals, or the fold gate); a *screen* bit is set whenever its regex can match (every match
holds one of the bit's patterns), so the regex decides on those rows only. Tests check both
claims against Polars on generated and real texts. The work frames carry the text as
``normalized_text`` and its bits as ``screen_bits``; a step that rewrites ``normalized_text``
screens its rows again (:func:`rescreen`), or, when it keeps the rows in order, only the rows
whose text it changed (:func:`after_in_place`)."""

from __future__ import annotations

import functools
import string
from collections.abc import Callable

import numpy as np
import polars as pl

from xpert_frames.reading.numeric.grammar import (
    CHECK_TRIGGERS,
    CONCLUSION_WORDS,
    FOLDS,
    REWRITE_TRIGGERS,
)
from xpert_frames.reading.numeric.scales import SCREEN as SCALE_SCREEN

#: Exact: ``contains_any`` of the keys of the fold table (``grammar.FOLDS``).
FOLD = 1 << 11
#: Exact: ``contains_any`` of the rewrite triggers and Chinese scales (``\\ × 第 - 万 亿 千 百``).
REWRITE = 1 << 0
#: Screen of the number-form stages' triggers
#: (:func:`~xpert_frames.reading.numeric.forms.form_stages`).
STAGES = 1 << 1
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

#: In a pattern, any ASCII digit.
_D = "\x00"
#: ``(bit, pattern, ci)``: with ``ci``, ASCII letters match in either case (Polars'
#: ``ascii_case_insensitive``); every other character as written. ``ſ`` (long s) and ``K``
#: (Kelvin sign) match ``s``/``k`` in a Unicode ``(?i)`` regex: screens of such regexes spell
#: them out (or avoid those letters).
_PATTERNS: tuple[tuple[int, str, bool], ...] = (
    *((REWRITE, p, False) for p in (*REWRITE_TRIGGERS, *SCALE_SCREEN)),
    *((STAGES, p, False) for p in ("\\frac", f"{_D} {_D}", f"{_D},{_D}", "percent", "pct")),
    *((STAGES, p, True) for p in ("thou", "million", "billion")),
    *((STAGES, f"{c}{_D}", True) for c in string.ascii_lowercase),  # forms.GLUED_TRIGGER
    *((RARE, p, True) for p in ("approx", "about", "roughly")),
    *((RARE, p, False) for p in ("约", "又", "\\overline", "\\dot", f"({_D}", f"{_D}...")),
    *((RARE, p, False) for p in (f"{_D}…", f"{_D}\\dots", f"{_D}\\ldots", f"{_D}\\cdots")),
    (APPROX, "≈", False),
    (DIGIT_SPACE, f"{_D} ", False),
    (SLASH, "/", False),
    *((CHECK, p, True) for p in CHECK_TRIGGERS),
    *((BOX, p, False) for p in ("boxed", "fbox")),
    *((MARKER, p, False) for p in ("答案", "答:", "结果", "所以", "因此", "故", "####")),
    *((MARKER, p, True) for p in ("answer", "anſwer")),
    (EQUALS, "=", False),
    *((CONCLUSION_WORD, p, True) for p in CONCLUSION_WORDS),
    *((FOLD, p, False) for p in FOLDS),
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
    """The bits of the literals (:func:`_lookup`) found in ``texts``: one overlapping
    Aho-Corasick pass (``extract_many``) finds every occurrence of every literal; the bits of
    the literals found are or-ed per text (0 for none or a null). One pass instead of a
    ``contains`` or ``contains_any`` per bit: 0.28 -> 0.13 CPU-s for 400,000 texts, math 1.15x
    end to end; the literals matched in either ASCII case are spelled out in every case, so
    that one pass finds them too (a second, case-insensitive pass cost more: 0.21 -> 0.16
    CPU-s for 500,000 benchmark predictions). The occurrences of all texts are read as one
    flat column (each literal cast to its index, its bits looked up by index) and or-ed per
    text by ``np.bitwise_or.reduceat``: a ``list.eval`` per text cost as much as the search
    (0.55 -> 0.42 CPU-s for 880,000 texts)."""
    literals, enum, bits = _lookup()
    found = texts.str.extract_many(literals, overlapping=True)
    counts = found.list.len().fill_null(0).cast(pl.Int64).to_numpy()
    out = np.zeros(len(texts), dtype=np.uint32)
    flat = found.explode(empty_as_null=False, keep_nulls=False)
    if len(flat) == 0:
        return out
    values = bits[flat.cast(enum).to_physical().to_numpy()]
    some = counts > 0
    out[some] = np.bitwise_or.reduceat(values, (np.cumsum(counts) - counts)[some])
    return out


@functools.cache
def _lookup() -> tuple[list[str], pl.Enum, np.ndarray]:
    """The literals (:func:`_table`), the Enum of them, and their bits by index."""
    table = _table()
    literals = list(table)
    return literals, pl.Enum(literals), np.fromiter(table.values(), np.uint32, len(table))


def rescreen(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with ``screen_bits``, the bits of its text ``normalized_text``, (re)computed."""
    return df.with_columns(screen(df["normalized_text"]).alias("screen_bits"))


def after(step: Callable[[pl.DataFrame], pl.DataFrame]) -> Callable[[pl.DataFrame], pl.DataFrame]:
    """``step`` (which rewrites ``normalized_text``) followed by :func:`rescreen`."""

    def run(df: pl.DataFrame) -> pl.DataFrame:
        return rescreen(step(df))

    return run


def after_in_place(
    step: Callable[[pl.DataFrame], pl.DataFrame],
) -> Callable[[pl.DataFrame], pl.DataFrame]:
    """``step`` (which rewrites ``normalized_text`` and keeps the rows in order) followed by
    :func:`rescreen` of only the rows whose text it changed: bits depend on the text alone, and
    most rows a rewrite gate admits come out as they went in (``4732×653``, ``二千七百``)."""

    def run(df: pl.DataFrame) -> pl.DataFrame:
        before = df["normalized_text"]
        out = step(df)
        text = out["normalized_text"]
        at = text.ne_missing(before).arg_true()
        if len(at) == 0:
            return out
        if len(at) == len(out):
            return rescreen(out)
        bits = out["screen_bits"].scatter(at, screen(text.gather(at)))
        return out.with_columns(bits)

    return run


def has(bits: int) -> pl.Expr:
    """Whether the text has all of ``bits`` (exact bits: their gates; screens: can match)."""
    return (pl.col("screen_bits") & bits) == bits


def matches(df: pl.DataFrame, bits: int, regex: str, where: pl.Expr | None = None) -> pl.Series:
    """The mask of ``n.str.contains(regex)`` (and ``where``) over ``df``, the regex run only on
    the rows whose screen has ``bits`` (the others cannot match). The rows are filtered first: a
    regex over ``when(...).then(n)`` would read the masked rows too."""
    screen = has(bits) if where is None else has(bits) & where
    mask = df.select(screen.fill_null(False)).to_series()
    at = mask.arg_true()
    if len(at) == 0:
        return mask
    hits = df.filter(mask).select(pl.col("normalized_text").str.contains(regex)).to_series()
    return mask.scatter(at, hits)
