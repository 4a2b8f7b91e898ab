"""A bounded per-process cache of token lists, for strings that recur across batches.

References are shared by every model's rows; a streaming engine hands the evaluator one morsel
at a time, so without a cache each morsel would tokenize the same references again. The cache
is a Polars table per language (string → tokens), looked up with one join per batch; when it
outgrows :data:`MAX_STRINGS` only the newest entries are kept. Tokenization is a pure function of
the string (for the installed tokenizer versions), so a hit is exactly what tokenizing gives.
"""

from __future__ import annotations

import threading
from typing import Literal

import polars as pl

from xpert_frames.tokens.columns import TOKENS, tokenize_unique

#: Strings kept per language.
MAX_STRINGS = 300_000
_tables: dict[str, pl.DataFrame] = {}
_lock = threading.Lock()


def clear() -> None:
    with _lock:
        _tables.clear()


def lookup(unique: pl.Series, language: Literal["en", "zh"]) -> tuple[pl.DataFrame, pl.Series]:
    """``(frame, missing)``: ``frame`` has columns ``i``, ``t``, ``tok`` (null where not cached)
    in the order of ``unique``; ``missing`` are the strings to tokenize, in that order."""
    with _lock:
        table = _tables.get(language)
    frame = pl.DataFrame({"t": unique.cast(pl.String)}).with_row_index("i")
    if table is not None:
        frame = frame.join(table, on="t", how="left", maintain_order="left")
    else:
        frame = frame.with_columns(pl.lit(None, TOKENS).alias("tok"))
    return frame, frame.filter(pl.col("tok").is_null())["t"]


def store(texts: pl.Series, tokens: pl.Series, language: Literal["en", "zh"]) -> None:
    """Remember ``tokens`` of ``texts`` (newest kept when the cache is full)."""
    if len(texts) == 0:
        return
    new = pl.DataFrame({"t": texts, "tok": tokens})
    with _lock:
        current = _tables.get(language)
        # Concurrent batches may add the same string twice: keep one (a join must not fan out).
        merged = (
            new
            if current is None
            else pl.concat([current, new]).unique("t", keep="last", maintain_order=True)
        )
        _tables[language] = merged.tail(MAX_STRINGS) if len(merged) > MAX_STRINGS else merged


def fill(frame: pl.DataFrame, tokens: pl.Series) -> pl.Series:
    """The ``tok`` column of a :func:`lookup` frame with its missing rows set to ``tokens``."""
    missing = frame.filter(pl.col("tok").is_null()).select("i")
    if len(missing) == 0:
        return frame["tok"]
    hits = frame.filter(pl.col("tok").is_not_null()).select("i", "tok")
    both = pl.concat([hits, missing.with_columns(tokens.alias("tok"))])
    return both.sort("i")["tok"]


def tokenize_cached(unique: pl.Series, language: Literal["en", "zh"]) -> pl.Series:
    """:func:`~xpert_frames.tokens.columns.tokenize_unique`, reusing earlier results."""
    frame, missing = lookup(unique, language)
    tokens = tokenize_unique(missing, language)
    store(missing, tokens, language)
    return fill(frame, tokens).alias(unique.name)
