"""Tokenize whole String columns: each unique string once, per language, in batches.

Token lists are built as flat tokens + offsets into an Arrow ``ListArray`` (building nested
Python lists into a ``List(String)`` column costs more than scoring). English goes through the
Polars fast path (:mod:`xpert_frames.tokens.en_fast`) except the strings it routes to NLTK;
Chinese is split into jieba's blocks with Polars and each unique block is segmented once
(:mod:`xpert_frames.tokens.zh`), by rjieba where proven identical to jieba, by jieba elsewhere
(in worker processes as well when there are enough such blocks, :mod:`xpert_frames.tokens.pool`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import polars as pl

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


def from_offsets(offsets: np.ndarray, flat: pl.Series) -> pl.Series:
    """A ``List(String)`` Series: list ``i`` is ``flat[offsets[i]:offsets[i + 1]]``.

    The offsets go to Arrow as a raw buffer: ``pyarrow.array`` would import pandas (~1 s)."""
    import pyarrow as pa

    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    arrow_offsets = pa.Array.from_buffers(pa.int64(), len(offsets), [None, pa.py_buffer(offsets)])
    array = pa.LargeListArray.from_arrays(arrow_offsets, flat.cast(pl.String).to_arrow())
    return pl.Series(array).cast(TOKENS)


def from_lists(lists: Sequence[Sequence[str]]) -> pl.Series:
    """A ``List(String)`` Series from Python token lists, via flat tokens + offsets."""
    lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = pl.Series([tok for toks in lists for tok in toks], dtype=pl.String)
    return from_offsets(offsets, flat)


def _english(unique: pl.Series) -> pl.Series:
    from xpert_frames.tokens import en, en_fast

    frame = pl.DataFrame({"text": unique}).with_row_index("row")
    frame = frame.with_columns(en_fast.needs_nltk(pl.col("text")).alias("needs_nltk"))
    slow = frame.filter(pl.col("needs_nltk"))
    if len(slow) == 0:
        return frame.select(en_fast.tokens(pl.col("text"))).to_series()
    fast = frame.filter(~pl.col("needs_nltk")).select(
        "row", en_fast.tokens(pl.col("text")).alias("tokens")
    )
    slow_tokens = from_lists(en.tokenize_many(slow["text"].to_list())).alias("tokens")
    both = pl.concat([fast, slow.select("row", slow_tokens)])
    return both.sort("row")["tokens"]


def segment_blocks(blocks: pl.Series) -> pl.Series:
    """``jieba.lcut`` of each block (strings of jieba's block characters), same order: rjieba
    where proven identical, jieba elsewhere (in worker processes too when many)."""
    from xpert_frames.tokens import pool, zh

    frame = pl.DataFrame({"block": blocks}).with_row_index("row")
    jieba_only = zh.needs_jieba(pl.col("block"))
    fast = frame.filter(~jieba_only)
    fast_tok = pool.rjieba_zh(fast["block"].to_list())
    if fast_tok is None:  # rjieba not installed
        return from_lists(pool.tokenize_zh(blocks.to_list()))
    slow = frame.filter(jieba_only)
    if len(slow) == 0:
        return from_lists(fast_tok)
    parts = [
        fast.select("row", from_lists(fast_tok).alias("tokens")),
        slow.select("row", from_lists(pool.tokenize_zh(slow["block"].to_list())).alias("tokens")),
    ]
    return pl.concat(parts).sort("row")["tokens"]


def _chinese(unique: pl.Series) -> pl.Series:
    """``jieba.lcut`` of each string, segmenting each unique block once (see
    :mod:`xpert_frames.tokens.zh` for why this is exact)."""
    from xpert_frames.tokens import zh

    pieces = unique.str.extract_all(zh.PIECE)
    piece_ends = np.cumsum(pieces.list.len().to_numpy().astype(np.int64))
    flat = pl.DataFrame({"piece": pieces.explode(empty_as_null=False)}).with_columns(
        pl.col("piece").str.contains("^" + zh.BLOCK_CHAR).alias("block")
    )
    blocks = flat.filter(pl.col("block"))["piece"].unique()
    table = pl.DataFrame({"piece": blocks, "tokens": segment_blocks(blocks)})
    tok = (
        flat.join(table, on="piece", how="left", maintain_order="left")
        .select(pl.when(pl.col("block")).then(pl.col("tokens")).otherwise(pl.concat_list("piece")))
        .to_series()
    )
    token_ends = np.zeros(len(tok) + 1, dtype=np.int64)
    np.cumsum(tok.list.len().to_numpy(), out=token_ends[1:])
    offsets = np.zeros(len(unique) + 1, dtype=np.int64)
    offsets[1:] = token_ends[piece_ends]
    return from_offsets(offsets, tok.explode(empty_as_null=False))


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
