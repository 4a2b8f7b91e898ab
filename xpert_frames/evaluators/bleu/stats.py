"""BLEU sufficient statistics, counted vectorized, and scores computed from them.

A row's statistics are, per n-gram order ``n``: ``matches`` (clipped n-gram matches) and
``denominators`` (NLTK's ``max(1, number of hypothesis n-grams)``), plus ``hyp_len`` and
``ref_len`` (the closest reference length, ties to the shorter). A sentence score is the score
of its own statistics; a corpus score (NLTK's ``corpus_bleu``) is the score of summed statistics
(sacrebleu's design). Counting is exact: n-grams are compared on integer token ids packed into
64-bit words (never hashed), grouped with Polars in bounded chunks of rows.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from xpert_frames.evaluators.bleu import bitset as bleu_bitset

#: NLTK ``SmoothingFunction().epsilon`` used by ``method1``.
EPSILON = 0.1
#: Rows per counting chunk (bounds memory).
CHUNK_ROWS = 100_000


def stats_dtype(n: int) -> pl.Struct:
    return pl.Struct(
        {
            "matches": pl.Array(pl.Int64, n),
            "denominators": pl.Array(pl.Int64, n),
            "hyp_len": pl.Int64,
            "ref_len": pl.Int64,
        }
    )


@dataclass
class Tokens:
    """Token ids of unique strings: string ``u`` is ``ids[offsets[u]:offsets[u + 1]]``."""

    ids: np.ndarray  # uint32
    offsets: np.ndarray  # int64, len = strings + 1

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)


def _segments(tokens: Tokens, sel: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tokens of strings ``sel`` concatenated: (segment index, position in segment, token id)."""
    lens = tokens.lengths[sel]
    total = int(lens.sum())
    seg = np.repeat(np.arange(len(sel), dtype=np.int64), lens)
    starts = np.zeros(len(sel), dtype=np.int64)
    np.cumsum(lens[:-1], out=starts[1:])
    pos = np.arange(total, dtype=np.int64) - starts[seg]
    ids = tokens.ids[tokens.offsets[sel][seg] + pos]
    return seg, pos, ids


def _gram_columns(
    seg: np.ndarray, pos: np.ndarray, ids: np.ndarray, lens: np.ndarray, n: int, bits: int
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Owner segment and exact packed key columns of every n-gram of the segments."""
    idx = np.flatnonzero(pos + n <= lens[seg])
    per_word = max(1, 64 // bits)
    cols: dict[str, np.ndarray] = {}
    for w, first in enumerate(range(0, n, per_word)):
        key = np.zeros(len(idx), dtype=np.uint64)
        for k in range(first, min(n, first + per_word)):
            key = (key << np.uint64(bits)) | ids[idx + k].astype(np.uint64)
        cols[f"g{w}"] = key
    return seg[idx], cols


def count_stats(
    tokens: Tokens,
    hyp: np.ndarray,
    refs: np.ndarray,
    ref_offsets: np.ndarray,
    n: int,
) -> dict[str, np.ndarray]:
    """Statistics of rows whose hypothesis is string ``hyp[i]`` and whose references are
    strings ``refs[ref_offsets[i]:ref_offsets[i + 1]]`` (at least one per row)."""
    rows = len(hyp)
    out = {
        "matches": np.zeros((rows, n), dtype=np.int64),
        "denominators": np.zeros((rows, n), dtype=np.int64),
        "hyp_len": tokens.lengths[hyp].astype(np.int64),
        "ref_len": np.zeros(rows, dtype=np.int64),
    }
    h = out["hyp_len"]
    for k in range(n):
        out["denominators"][:, k] = np.maximum(1, h - k)
    # Closest reference length, ties to the shorter: minimise (|r - h|, r).
    ref_rows = np.repeat(np.arange(rows), np.diff(ref_offsets))
    rl = tokens.lengths[refs].astype(np.int64)
    key = (np.abs(rl - h[ref_rows]) << 32) | rl
    out["ref_len"] = np.minimum.reduceat(key, ref_offsets[:-1]) & 0xFFFFFFFF if rows else h
    # Short rows (every string at most 64 tokens): bitsets; longer rows: exact group-by.
    longest = np.maximum(h, np.maximum.reduceat(rl, ref_offsets[:-1]) if rows else h)
    widths = np.searchsorted(np.array(bleu_bitset.WIDTHS), longest)
    for w, width in enumerate((*bleu_bitset.WIDTHS, None)):
        sel = np.flatnonzero(widths == w)
        if len(sel) == 0:
            continue
        sub_hyp, sub_refs, sub_offsets = _select_rows(hyp, refs, ref_offsets, sel)
        if width is not None:
            out["matches"][sel] = bleu_bitset.clipped_matches(
                tokens.ids, tokens.offsets, sub_hyp, sub_refs, sub_offsets, n, width
            )
        else:
            out["matches"][sel] = _count_grouped(tokens, sub_hyp, sub_refs, sub_offsets, n)
    return out


def _select_rows(
    hyp: np.ndarray, refs: np.ndarray, ref_offsets: np.ndarray, sel: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    counts = ref_offsets[sel + 1] - ref_offsets[sel]
    new_offsets = np.zeros(len(sel) + 1, dtype=np.int64)
    np.cumsum(counts, out=new_offsets[1:])
    idx = np.repeat(ref_offsets[sel] - new_offsets[:-1], counts) + np.arange(new_offsets[-1])
    return hyp[sel], refs[idx], new_offsets


def _count_grouped(
    tokens: Tokens, hyp: np.ndarray, refs: np.ndarray, ref_offsets: np.ndarray, n: int
) -> np.ndarray:
    """Clipped matches with Polars group-by/join on exact packed n-gram keys, in chunks."""
    rows = len(hyp)
    matches = np.zeros((rows, n), dtype=np.int64)
    ref_rows = np.repeat(np.arange(rows), np.diff(ref_offsets))
    vocab = int(tokens.ids.max()) + 1 if len(tokens.ids) else 1
    bits = max(1, (vocab - 1).bit_length())
    for start in range(0, rows, CHUNK_ROWS):
        stop = min(rows, start + CHUNK_ROWS)
        r0, r1 = ref_offsets[start], ref_offsets[stop]
        _count_chunk(
            tokens,
            hyp[start:stop],
            refs[r0:r1],
            ref_rows[r0:r1] - start,
            n,
            bits,
            matches[start:stop],
        )
    return matches


def _count_chunk(
    tokens: Tokens,
    hyp: np.ndarray,
    refs: np.ndarray,
    ref_rows: np.ndarray,
    n: int,
    bits: int,
    matches: np.ndarray,
) -> None:
    hseg, hpos, hids = _segments(tokens, hyp)
    rseg, rpos, rids = _segments(tokens, refs)
    hlens, rlens = tokens.lengths[hyp], tokens.lengths[refs]
    multi = len(refs) > len(hyp)
    for k in range(n):
        order = k + 1
        hrow, hcols = _gram_columns(hseg, hpos, hids, hlens, order, bits)
        if len(hrow) == 0:
            continue
        rref, rcols = _gram_columns(rseg, rpos, rids, rlens, order, bits)
        keys = ["row", *hcols]
        hyp_counts = (
            pl.DataFrame({"row": hrow.astype(np.uint32), **hcols})
            .lazy()
            .group_by(keys)
            .agg(pl.len().alias("hyp_count"))
        )
        ref_frame = pl.DataFrame({"row": ref_rows[rref].astype(np.uint32), **rcols}).lazy()
        if multi:
            ref_frame = ref_frame.with_columns(pl.Series("ref", rref.astype(np.uint32)))
            ref_counts = (
                ref_frame.group_by(["ref", *keys])
                .agg(pl.len().alias("ref_count"))
                .group_by(keys)
                .agg(pl.col("ref_count").max())
            )
        else:
            ref_counts = ref_frame.group_by(keys).agg(pl.len().alias("ref_count"))
        clipped = (
            hyp_counts.join(ref_counts, on=keys, how="inner")
            .group_by("row")
            .agg(pl.min_horizontal("hyp_count", "ref_count").sum().alias("matched"))
            .collect()
        )
        matches[clipped["row"].to_numpy(), k] = clipped["matched"].to_numpy()


# --------------------------------------------------------------------------- scores
def _weights_tuple(weights: Sequence[float]) -> tuple[float, ...]:
    return tuple(float(w) for w in weights)


def bleu_numpy(
    matches: np.ndarray,
    denominators: np.ndarray,
    hyp_len: np.ndarray,
    ref_len: np.ndarray,
    weights: Sequence[float],
    *,
    smoothing: bool,
) -> np.ndarray:
    """NLTK's BLEU of statistics, one score per row of ``matches`` (shape ``(rows, n)``).

    Rows are sentences (sentence BLEU) or sums over groups (corpus BLEU). Follows
    ``nltk.translate.bleu_score.corpus_bleu``: 0 without a unigram match; ``method1`` adds
    ``epsilon`` to zero match counts; without smoothing (``method0``) a zero precision becomes
    ``sys.float_info.min``; brevity penalty from the hypothesis and closest reference lengths.
    """
    m = np.asarray(matches, dtype=np.float64)
    d = np.asarray(denominators, dtype=np.float64)
    h = np.asarray(hyp_len, dtype=np.float64)
    r = np.asarray(ref_len, dtype=np.float64)
    w = np.asarray(_weights_tuple(weights), dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        zero = EPSILON / d if smoothing else np.full_like(d, sys.float_info.min)
        p = np.where(m > 0, m / d, zero)
        log_sum = (w * np.log(p)).sum(axis=1) if len(w) else np.zeros(len(m))
        bp = np.where(h > r, 1.0, np.where(h == 0, 0.0, np.exp(1.0 - r / h)))
        score = bp * np.exp(log_sum)
    return np.where(m[:, 0] == 0, 0.0, score) if m.shape[1] else score


def bleu_python(
    matches: Sequence[int],
    denominators: Sequence[int],
    hyp_len: int,
    ref_len: int,
    weights: Sequence[float],
    *,
    smoothing: bool,
) -> float:
    """The same formula in plain Python, one row: the readable reference for :func:`bleu_numpy`
    (the tests check both against NLTK)."""
    if matches[0] == 0:
        return 0.0
    logs = []
    for m, d, w in zip(matches, denominators, weights, strict=True):
        p = m / d if m > 0 else (EPSILON / d if smoothing else sys.float_info.min)
        logs.append(w * math.log(p))
    if hyp_len > ref_len:
        bp = 1.0
    elif hyp_len == 0:
        bp = 0.0
    else:
        bp = math.exp(1 - ref_len / hyp_len)
    return bp * math.exp(math.fsum(logs))
