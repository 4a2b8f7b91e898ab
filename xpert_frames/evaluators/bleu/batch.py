"""One batch of BLEU scoring: languages, unique strings, token ids, statistics, scores.

Every unique (string, language) of the batch (predictions and references together) is tokenized
once, in chunks (references through the per-process token cache); tokens become integer ids (a
Polars categorical local to the batch) and only the ids are kept. Statistics are then counted by
:mod:`xpert_frames.evaluators.bleu.stats`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import polars as pl

from xpert_frames.evaluators.bleu.stats import Tokens, bleu_numpy, count_stats, stats_dtype
from xpert_frames.tokens.cache import tokenize_cached
from xpert_frames.tokens.columns import is_chinese, tokenize_unique

#: Unique strings tokenized (and turned into ids) at a time: bounds the memory of token strings.
TOKENIZE_CHUNK = 200_000
#: Order of unique strings: (Chinese?, reference?) groups.
GROUPS = ((False, True), (False, False), (True, True), (True, False))


def result_dtype(n: int, score: str = "score", stats: str = "stats") -> pl.Struct:
    """The batch result: a struct whose fields are the output columns (unnested by the caller)."""
    return pl.Struct({score: pl.Float64, stats: stats_dtype(n)})


class _Ids:
    """Token lists → integer ids, chunk by chunk, with one string-to-id map for the batch."""

    def __init__(self) -> None:
        # The categories' map lives only while a Series uses it: keep every converted Series
        # alive until the batch is done, so ids agree across chunks.
        self.categories = pl.Categories.random()
        self.alive: list[pl.Series] = []
        self.ids: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []

    def add(self, toks: pl.Series) -> None:
        self.lengths.append(toks.list.len().to_numpy().astype(np.int64))
        flat = toks.explode(empty_as_null=False).drop_nulls()
        self.alive.append(flat.cast(pl.Categorical(self.categories)))
        self.ids.append(self.alive[-1].to_physical().to_numpy())

    def tokens(self) -> Tokens:
        lens = np.concatenate(self.lengths) if self.lengths else np.zeros(0, dtype=np.int64)
        offsets = np.zeros(len(lens) + 1, dtype=np.int64)
        np.cumsum(lens, out=offsets[1:])
        flat = np.concatenate(self.ids) if self.ids else np.zeros(0, dtype=np.uint32)
        return Tokens(flat.astype(np.uint32, copy=False), offsets)


def _token_ids(unique: pl.DataFrame) -> Tokens:
    """Token ids of ``unique`` (columns ``text``, ``chinese``, ``ref``), in its row order, which
    must be grouped by (chinese, ref) as :data:`GROUPS`. References go through the token
    cache."""
    out = _Ids()
    for zh, ref in GROUPS:
        language: Literal["en", "zh"] = "zh" if zh else "en"
        texts = unique.filter((pl.col("chinese") == zh) & (pl.col("ref") == ref))["text"]
        for start in range(0, len(texts), TOKENIZE_CHUNK):
            chunk = texts.slice(start, TOKENIZE_CHUNK)
            out.add(tokenize_cached(chunk, language) if ref else tokenize_unique(chunk, language))
    return out.tokens()


def _texts(
    pred: pl.Series, answer: pl.Series, rows: pl.Series, language: str
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``(hyps, refs)`` of the valid ``rows``: columns ``row`` (0.. over valid rows), ``chinese``,
    ``text``; a list answer gives one reference row per non-null element."""
    frame = pl.DataFrame({"text": pred.gather(rows)}).with_row_index("row")
    if language == "auto":
        hyps = frame.with_columns(is_chinese(pl.col("text")).alias("chinese"))
    else:
        hyps = frame.with_columns(pl.lit(language == "zh").alias("chinese"))
    refs = hyps.select("row", "chinese", answer.gather(rows).alias("text"))
    if isinstance(refs.schema["text"], pl.List):
        refs = refs.explode("text").filter(pl.col("text").is_not_null())
    return hyps.select("row", "chinese", "text"), refs


def _unique_texts(hyps: pl.DataFrame, refs: pl.DataFrame) -> pl.DataFrame:
    """Unique (text, chinese) with ``ref`` (used as a reference) and ``uid``, in :data:`GROUPS`
    order."""
    both = pl.concat(
        [
            hyps.select("text", "chinese", pl.lit(False).alias("ref")),
            refs.select("text", "chinese", pl.lit(True).alias("ref")),
        ]
    )
    group = pl.col("chinese").cast(pl.Int32) * 2 + (~pl.col("ref")).cast(pl.Int32)
    return (
        both.group_by("text", "chinese")
        .agg(pl.col("ref").any())
        .sort(group, maintain_order=True)
        .with_row_index("uid")
    )


def _row_stats(
    hyps: pl.DataFrame, refs: pl.DataFrame, unique: pl.DataFrame, tokens: Tokens, n: int
) -> dict[str, np.ndarray]:
    """Statistics of each hypothesis row against its references (``count_stats``)."""
    hyp_uid = hyps.join(unique, on=["text", "chinese"], how="left", maintain_order="left")["uid"]
    ref_uid = refs.join(unique, on=["text", "chinese"], how="left", maintain_order="left")
    counts = ref_uid.group_by("row", maintain_order=True).len().sort("row")["len"].to_numpy()
    ref_offsets = np.zeros(len(hyps) + 1, dtype=np.int64)
    np.cumsum(counts, out=ref_offsets[1:])
    return count_stats(
        tokens,
        hyp_uid.to_numpy().astype(np.int64),
        ref_uid["uid"].to_numpy().astype(np.int64),
        ref_offsets,
        n,
    )


def _result(
    stats: dict[str, np.ndarray],
    score: np.ndarray,
    valid: pl.Series,
    rows: np.ndarray,
    n: int,
    names: tuple[str, str],
    name: str,
) -> pl.Series:
    """The result struct Series: statistics and scores of the valid ``rows``, null elsewhere."""
    size = len(valid)
    full = {
        "matches": np.zeros((size, n), dtype=np.int64),
        "denominators": np.zeros((size, n), dtype=np.int64),
        "hyp_len": np.zeros(size, dtype=np.int64),
        "ref_len": np.zeros(size, dtype=np.int64),
    }
    for key, values in stats.items():
        full[key][rows] = values
    scores = np.zeros(size, dtype=np.float64)
    scores[rows] = score
    return (
        pl.DataFrame(full)
        .select(
            pl.when(pl.lit(valid))
            .then(
                pl.struct(
                    pl.lit(pl.Series(scores)).alias(names[0]),
                    pl.struct(pl.all()).cast(stats_dtype(n)).alias(names[1]),
                )
            )
            .otherwise(None)
            .alias(name)
        )
        .to_series()
    )


def score_batch(
    batch: pl.Series,
    *,
    n: int,
    weights: Sequence[float],
    smoothing: bool,
    language: str,
    names: tuple[str, str] = ("score", "stats"),
) -> pl.Series:
    """``batch``: struct of (prediction, answer, valid) → struct of (score, stats) fields named
    ``names``; null for invalid rows."""
    fields = batch.struct.unnest()
    pred, answer, valid = fields[:, 0], fields[:, 1], fields[:, 2].fill_null(False)
    rows = valid.arg_true()
    if len(rows) == 0:
        return pl.Series(batch.name, [None] * len(batch), dtype=result_dtype(n, *names))
    hyps, refs = _texts(pred, answer, rows, language)
    unique = _unique_texts(hyps, refs)
    stats = _row_stats(hyps, refs, unique, _token_ids(unique), n)
    score = bleu_numpy(
        stats["matches"],
        stats["denominators"],
        stats["hyp_len"],
        stats["ref_len"],
        weights,
        smoothing=smoothing,
    )
    return _result(stats, score, valid, rows.to_numpy(), n, names, batch.name)
