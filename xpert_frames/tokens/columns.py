"""Tokenize whole String columns: each unique string once, per language, in batches.

Token lists are built as flat tokens + offsets into an Arrow ``ListArray`` (building nested
Python lists into a ``List(String)`` column costs more than scoring). English goes through the
Polars fast path (:mod:`xpert_frames.tokens.en_fast`) except the strings it routes to NLTK;
Chinese goes through jieba, in a second process as well when the batch is large enough to pay
for it (:mod:`xpert_frames.tokens.pool`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import polars as pl
import pyarrow as pa

from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.text import to_expr

TOKENS = pl.List(pl.String)
#: Share of CJK characters above which a text is Chinese (the seed's rule).
CJK_SHARE = 0.2


def is_chinese(text: IntoExpr) -> pl.Expr:
    """The seed's language rule as an expression: CJK characters (U+4E00–U+9FFF) are more than
    20% of the text's characters (code points). Empty text is not Chinese."""
    expr = to_expr(text)
    total = expr.str.len_chars()
    cjk = expr.str.count_matches(r"[\x{4e00}-\x{9fff}]")
    return (total > 0) & (cjk.cast(pl.Float64) / total.cast(pl.Float64) > CJK_SHARE)


def from_lists(lists: Sequence[Sequence[str]]) -> pl.Series:
    """A ``List(String)`` Series from Python token lists, via flat tokens + offsets."""
    lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = [tok for toks in lists for tok in toks]
    array = pa.LargeListArray.from_arrays(pa.array(offsets), pa.array(flat, pa.large_string()))
    return pl.Series(array).cast(TOKENS)


def _english(unique: pl.Series) -> pl.Series:
    from xpert_frames.tokens import en, en_fast

    frame = pl.DataFrame({"t": unique}).with_row_index("i")
    frame = frame.with_columns(en_fast.needs_nltk(pl.col("t")).alias("r"))
    slow = frame.filter(pl.col("r"))
    if len(slow) == 0:
        return frame.select(en_fast.tokens(pl.col("t"))).to_series()
    fast = frame.filter(~pl.col("r")).select("i", en_fast.tokens(pl.col("t")).alias("tok"))
    slow_tok = from_lists(en.tokenize_many(slow["t"].to_list())).alias("tok")
    both = pl.concat([fast, slow.select("i", slow_tok)])
    return both.sort("i")["tok"]


def _chinese(unique: pl.Series) -> pl.Series:
    from xpert_frames.tokens import pool

    return from_lists(pool.tokenize_zh(unique.to_list()))


def tokenize_unique(unique: pl.Series, language: Literal["en", "zh"]) -> pl.Series:
    """Token lists of already-unique, non-null strings (same order)."""
    if len(unique) == 0:
        return pl.Series(unique.name, [], dtype=TOKENS)
    out = _english(unique) if language == "en" else _chinese(unique)
    return out.alias(unique.name)


def tokenize_series(texts: pl.Series, language: Literal["en", "zh"]) -> pl.Series:
    """Token lists of a String Series (null stays null); each unique string tokenized once."""
    frame = pl.DataFrame({"t": texts.cast(pl.String)})
    unique = frame["t"].drop_nulls().unique()
    table = pl.DataFrame({"t": unique, "tok": tokenize_unique(unique, language)})
    return frame.join(table, on="t", how="left", maintain_order="left")["tok"].alias(texts.name)
