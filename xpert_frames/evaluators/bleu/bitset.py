"""Clipped n-gram matches of short rows with per-position bitsets (no sort, no hash).

For a row with hypothesis tokens ``h`` and reference tokens ``r`` (both at most 64 long), bit
``j`` of ``E[i]`` says ``h[i] == r[j]``. The n-grams starting at ``i`` and ``j`` are equal when
``E[i] & E[i+1] >> 1 & ... & E[i+n-1] >> (n-1)`` has bit ``j``, so one pass of comparisons gives
every order by shifts and ANDs; popcounts give how often hypothesis n-gram ``i`` occurs in the
reference (``c_r``), the same on the hypothesis itself gives ``c_h``, and counting each distinct
n-gram at its first occurrence, the clipped matches are ``sum(min(c_h, c_r))`` — exactly NLTK's
``modified_precision`` numerator. Rows are processed in chunks padded to 16, 32 or 64 tokens;
several references take the maximum ``c_r`` over references, as NLTK does.
"""

from __future__ import annotations

import numpy as np

#: Widths rows are padded to; longer rows use the group-by path.
WIDTHS = (16, 32, 64)
#: Rows per chunk (the comparison cube is chunk x width x width bytes).
CHUNK = 4096
_HYP_PAD = -1
_REF_PAD = -2


def _padded(
    ids: np.ndarray, offsets: np.ndarray, sel: np.ndarray, width: int, pad: int
) -> np.ndarray:
    lens = offsets[sel + 1] - offsets[sel]
    out = np.full((len(sel), width), pad, dtype=np.int64)
    col = np.arange(width)
    mask = col[None, :] < lens[:, None]
    src = offsets[sel][:, None] + col[None, :]
    out[mask] = ids[src[mask]]
    return out


def _bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``out[p, i]`` has bit ``j`` set where ``a[p, i] == b[p, j]`` (uint64)."""
    width = a.shape[1]
    eq = a[:, :, None] == b[:, None, :]
    packed = np.packbits(eq, axis=2, bitorder="little")  # (p, width, width / 8)
    if width < 64:
        packed = np.concatenate(
            [packed, np.zeros((*packed.shape[:2], 8 - width // 8), dtype=np.uint8)], axis=2
        )
    return packed.view("<u8")[:, :, 0]


def clipped_matches(
    ids: np.ndarray,
    offsets: np.ndarray,
    hyp: np.ndarray,
    refs: np.ndarray,
    ref_offsets: np.ndarray,
    n: int,
    width: int,
) -> np.ndarray:
    """``(rows, n)`` clipped matches; every string involved must be at most ``width`` long."""
    rows = len(hyp)
    out = np.zeros((rows, n), dtype=np.int64)
    lens = np.diff(offsets)
    for start in range(0, rows, CHUNK):
        stop = min(rows, start + CHUNK)
        r0, r1 = ref_offsets[start], ref_offsets[stop]
        counts = np.diff(ref_offsets[start : stop + 1])
        pair_row = np.repeat(np.arange(stop - start), counts)
        h = _padded(ids, offsets, hyp[start:stop], width, _HYP_PAD)
        r = _padded(ids, offsets, refs[r0:r1], width, _REF_PAD)
        e1 = _bits(h[pair_row], r)  # hypothesis position vs reference positions, per pair
        s1 = _bits(h, h)  # hypothesis position vs hypothesis positions
        hlen = lens[hyp[start:stop]]
        first_pair = ref_offsets[start:stop] - r0
        e, s = e1, s1
        for k in range(n):
            if k:
                shift = np.uint64(k)
                e = e[:, :-1] & (e1[:, k:] >> shift)
                s = s[:, :-1] & (s1[:, k:] >> shift)
            positions = width - k
            c_r = np.maximum.reduceat(np.bitwise_count(e), first_pair, axis=0).astype(np.int64)
            c_h = np.bitwise_count(s).astype(np.int64)
            below = (np.uint64(1) << np.arange(positions, dtype=np.uint64)) - np.uint64(1)
            first = (s & below[None, :]) == 0
            valid = np.arange(positions)[None, :] < (hlen - k)[:, None]
            out[start:stop, k] = (np.minimum(c_h, c_r) * (first & valid)).sum(axis=1)
    return out
