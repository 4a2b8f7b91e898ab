"""One batch of BLEU scoring: languages, unique strings, token ids, statistics, scores.

Every unique (string, language) of the batch (predictions and references together) is tokenized
once, in chunks; tokens become integer ids (a Polars categorical local to the batch) and only the
ids are kept. Statistics are then counted by :mod:`xpert_frames.evaluators.bleu.stats`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from xpert_frames.evaluators.bleu.stats import Tokens, bleu_numpy, count_stats, stats_dtype
from xpert_frames.tokens import cache, pool
from xpert_frames.tokens.cache import tokenize_cached
from xpert_frames.tokens.columns import TOKENS, from_lists, is_chinese, tokenize_unique

#: Unique strings tokenized (and turned into ids) at a time: bounds the memory of token strings.
TOKENIZE_CHUNK = 200_000
#: Order of unique strings: (Chinese?, reference?) groups.
GROUPS = ((False, True), (False, False), (True, True), (True, False))
#: Share of each Chinese chunk sent to the worker process (this one also builds the result).
#: The worker is not started on Chinese before the English work: with the streaming engine,
#: two batches run at once and holding the worker across one batch's English work idles the
#: other batch (measured: 1M rows 59 s without, 124 s with under similar load).
WORKER_SHARE = 0.45


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
    """Token ids of ``unique`` (columns ``text``, ``zh``, ``ref``), in its row order, which must
    be grouped by (zh, ref) as :data:`GROUPS`. References go through the token cache.

    Chinese goes to jieba in two processes (this one and a worker, see
    :mod:`xpert_frames.tokens.pool`), chunk by chunk.
    """

    def part(zh: bool, ref: bool) -> pl.Series:
        return unique.filter((pl.col("zh") == zh) & (pl.col("ref") == ref))["text"]

    zh_frame, zh_missing = cache.lookup(part(True, True), "zh")
    todo = pl.concat([zh_missing, part(True, False)]).to_list()
    chunks = [todo[i : i + TOKENIZE_CHUNK] for i in range(0, len(todo), TOKENIZE_CHUNK)]
    if len(todo) >= pool.MIN_PARALLEL:
        pool.prestart()  # its start-up overlaps the English tokenization
    pending: pool.Pending | None = None
    out = _Ids()
    try:
        for ref in (True, False):
            texts = part(False, ref)
            for start in range(0, len(texts), TOKENIZE_CHUNK):
                chunk = texts.slice(start, TOKENIZE_CHUNK)
                out.add(tokenize_cached(chunk, "en") if ref else tokenize_unique(chunk, "en"))
        zh_tokens: list[pl.Series] = []
        for chunk in chunks:
            pending = pool.Pending(chunk, WORKER_SHARE)
            zh_tokens.append(from_lists(pending.finish()))
            pending = None
    finally:
        if pending is not None:
            pending.close()
    done = pl.concat(zh_tokens) if zh_tokens else pl.Series([], dtype=TOKENS)
    new_refs = done.slice(0, len(zh_missing))
    cache.store(zh_missing, new_refs, "zh")
    out.add(cache.fill(zh_frame, new_refs))
    rest = done.slice(len(zh_missing))
    for start in range(0, len(rest), TOKENIZE_CHUNK):
        out.add(rest.slice(start, TOKENIZE_CHUNK))
    return out.tokens()


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
    size = len(batch)
    dtype = result_dtype(n, *names)
    rows = valid.arg_true()
    if len(rows) == 0:
        return pl.Series(batch.name, [None] * size, dtype=dtype)
    frame = pl.DataFrame({"text": pred.gather(rows)}).with_row_index("row")
    if language == "auto":
        frame = frame.with_columns(is_chinese(pl.col("text")).alias("zh"))
    else:
        frame = frame.with_columns(pl.lit(language == "zh").alias("zh"))
    refs = frame.select("row", "zh", answer.gather(rows).alias("text"))
    if isinstance(refs.schema["text"], pl.List):
        refs = refs.explode("text").filter(pl.col("text").is_not_null())
    hyps = frame.select("row", "zh", "text")
    unique = (
        pl.concat(
            [
                hyps.select("text", "zh", pl.lit(False).alias("ref")),
                refs.select("text", "zh", pl.lit(True).alias("ref")),
            ]
        )
        .group_by("text", "zh")
        .agg(pl.col("ref").any())
    )
    unique = (
        unique.with_columns(  # the GROUPS order
            (pl.col("zh").cast(pl.Int32) * 2 + (~pl.col("ref")).cast(pl.Int32)).alias("g")
        )
        .sort("g", maintain_order=True)
        .drop("g")
        .with_row_index("uid")
    )
    tokens = _token_ids(unique)
    hyp_uid = hyps.join(unique, on=["text", "zh"], how="left", maintain_order="left")["uid"]
    ref_uid = refs.join(unique, on=["text", "zh"], how="left", maintain_order="left")
    counts = ref_uid.group_by("row", maintain_order=True).len().sort("row")["len"].to_numpy()
    ref_offsets = np.zeros(len(frame) + 1, dtype=np.int64)
    np.cumsum(counts, out=ref_offsets[1:])
    stats = count_stats(
        tokens,
        hyp_uid.to_numpy().astype(np.int64),
        ref_uid["uid"].to_numpy().astype(np.int64),
        ref_offsets,
        n,
    )
    idx = rows.to_numpy()
    full = {
        "matches": np.zeros((size, n), dtype=np.int64),
        "denominators": np.zeros((size, n), dtype=np.int64),
        "hyp_len": np.zeros(size, dtype=np.int64),
        "ref_len": np.zeros(size, dtype=np.int64),
    }
    for key, values in stats.items():
        full[key][idx] = values
    score = np.zeros(size, dtype=np.float64)
    score[idx] = bleu_numpy(
        stats["matches"],
        stats["denominators"],
        stats["hyp_len"],
        stats["ref_len"],
        weights,
        smoothing=smoothing,
    )
    return (
        pl.DataFrame(full)
        .select(
            pl.when(pl.lit(valid))
            .then(
                pl.struct(
                    pl.lit(pl.Series(score)).alias(names[0]),
                    pl.struct(pl.all()).cast(stats_dtype(n)).alias(names[1]),
                )
            )
            .otherwise(None)
            .alias(batch.name)
        )
        .to_series()
    )
