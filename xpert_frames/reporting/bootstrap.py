"""The reports' Poisson bootstrap, from a state of distinct values with occurrence counts.

Each content of a group (a distinct score, or a distinct tuple of a corpus metric's statistics)
has a 64-bit key made from the bits of its values (:func:`content_keys`). When the report is
finalized, occurrence ``k`` (``0 .. n-1``) of a content goes to bucket
``splitmix64(key + k·c) mod BUCKETS`` (:func:`occurrence_buckets`), and replicate ``b`` weighs
bucket ``j`` by ``W[b, j]`` (:func:`intervals.bucket_weights`). Everything is a function of the
state (values and their counts): not of row order, nor of how a table was split.

Groups are computed three ways, each over many groups at once: a group held in one bucket from
the 13 weights that bucket can take; a group with many occurrences as a dense row of bucket sums
times ``W`` (one matrix product per block of groups); the others from their (group, bucket)
cells, a block of groups at a time. Cost: ``O(rows)`` to spread occurrences over buckets, then
``n_boot × BUCKETS`` per large group and ``n_boot × cells`` per small one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xpert_frames.reporting.intervals import (
    BUCKETS,
    MAX_WEIGHT,
    SEED,
    bucket_weights,
    histogram_intervals,
    row_intervals,
    splitmix64,
    weight_histogram,
)

if TYPE_CHECKING:  # numpy is imported when a report needs it, not with the package
    import numpy as np

Replicate = Callable[["np.ndarray", "np.ndarray"], "np.ndarray"]
_OCCURRENCE = 0xD1B54A32D192ED03
#: Groups with at least this many occurrences are computed as dense rows of BUCKETS sums.
DENSE_MIN = 64
#: Dense groups per matrix product (``groups × BUCKETS`` and ``groups × n_boot`` floats).
_BLOCK_DENSE = 256
#: Bounds of one block of sparse groups (``n_boot × cells`` floats at a time).
_BLOCK_ENTRIES = 4096
_BLOCK_GROUPS = 1024
#: Groups held in one bucket computed at a time (13 replicate values each).
_BLOCK_SINGLE = 1 << 16


def content_keys(values: np.ndarray) -> np.ndarray:
    """The key of each row of ``values`` (contents × k floats): SplitMix64 folded over the bits
    of its values (-0.0 as 0.0, every NaN alike)."""
    import numpy as np

    v = np.where(values == 0, 0.0, values)
    v = np.ascontiguousarray(np.where(np.isnan(v), np.nan, v), dtype=np.float64)
    bits = v.view(np.uint64).reshape(v.shape)
    key = np.full(len(v), SEED, dtype=np.uint64)
    for j in range(v.shape[1]):
        key = splitmix64(key ^ bits[:, j])
    return key


def occurrence_buckets(keys: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The bucket of every occurrence of every content, contents in order: occurrence ``k`` of
    the content keyed ``h`` goes to ``splitmix64(h + k·c) mod BUCKETS``."""
    import numpy as np

    counts = counts.astype(np.int64)
    c = np.uint64(_OCCURRENCE)
    with np.errstate(over="ignore"):
        # h + k·c = (h - start·c) + i·c for the i-th occurrence overall, start its content's first
        starts = (np.cumsum(counts) - counts).astype(np.uint64)
        x = np.repeat(keys - starts * c, counts)
        step = np.arange(len(x), dtype=np.uint64)
        step *= c
        x += step
    return (splitmix64(x, out=x) & np.uint64(BUCKETS - 1)).astype(np.intp)


def bootstrap(
    group: np.ndarray,
    keys: np.ndarray,
    counts: np.ndarray,
    values: np.ndarray,
    n_groups: int,
    statistic: Replicate,
    n_boot: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Percentile intervals and replicate standard deviations of every group.

    Contents are sorted by ``group``: their ``keys``, occurrence ``counts`` and ``values``
    (contents × k). ``statistic(weighted_sums, weighted_counts)`` maps replicate sums (rows × k)
    and row counts (rows) to one value per row (NaN to drop a replicate). Groups without
    contents get NaN.
    """
    import numpy as np

    out = (np.full(n_groups, np.nan), np.full(n_groups, np.nan), np.full(n_groups, np.nan))
    if not len(group):
        return out
    dense = np.bincount(group, weights=counts, minlength=n_groups) >= DENSE_MIN
    in_dense = dense[group]
    if in_dense.all():
        _dense(group, keys, counts, values, dense, statistic, n_boot, out)
        return out
    if in_dense.any():
        d = np.flatnonzero(in_dense)
        _dense(group[d], keys[d], counts[d], values[d], dense, statistic, n_boot, out)
        rest = np.flatnonzero(~in_dense)
        group, keys, counts, values = group[rest], keys[rest], counts[rest], values[rest]
    owner = np.repeat(np.arange(len(keys)), counts.astype(np.int64))
    cell = group[owner] * BUCKETS + occurrence_buckets(keys, counts)
    cells, inverse = np.unique(cell, return_inverse=True)
    sums = np.stack(
        [
            np.bincount(inverse, weights=values[owner, j], minlength=len(cells))
            for j in range(values.shape[1])
        ],
        axis=-1,
    )
    rows = np.bincount(inverse, minlength=len(cells)).astype(np.float64)
    _sparse(cells // BUCKETS, cells % BUCKETS, sums, rows, statistic, n_boot, out)
    return out


Intervals = tuple["np.ndarray", "np.ndarray", "np.ndarray"]


def _dense(
    group: np.ndarray,
    keys: np.ndarray,
    counts: np.ndarray,
    values: np.ndarray,
    dense: np.ndarray,
    statistic: Replicate,
    n_boot: int,
    out: Intervals,
) -> None:
    """Groups with many occurrences (contents sorted by ``group``), a block of groups at a
    time: their bucket sums (groups × BUCKETS) times ``W.T``, all replicates at once."""
    import numpy as np

    ids = np.flatnonzero(dense)
    position = (np.cumsum(dense) - 1)[group]
    weights = bucket_weights(n_boot)
    k = values.shape[1]
    counts = counts.astype(np.int64)
    for first in range(0, len(ids), _BLOCK_DENSE):
        block = ids[first : first + _BLOCK_DENSE]
        lo, hi = np.searchsorted(position, [first, first + len(block)])
        n = counts[lo:hi]
        cell = np.repeat((position[lo:hi] - first) * BUCKETS, n)
        cell += occurrence_buckets(keys[lo:hi], n)
        width = len(block) * BUCKETS
        sums = [
            np.bincount(cell, weights=np.repeat(values[lo:hi, j], n), minlength=width)
            for j in range(k)
        ]
        rows = np.bincount(cell, minlength=width).astype(np.float64)
        # (n_boot × BUCKETS) · (BUCKETS × (k + 1)·groups): every replicate of every group
        reps = weights @ np.stack([*sums, rows]).reshape(-1, BUCKETS).T
        reps = reps.reshape(n_boot, k + 1, len(block))
        stat = statistic(reps[:, :k].transpose(2, 0, 1).reshape(-1, k), reps[:, k].T.reshape(-1))
        low, high, std = row_intervals(stat.reshape(len(block), n_boot))
        out[0][block], out[1][block], out[2][block] = low, high, std


def _sparse(
    group: np.ndarray,
    bucket: np.ndarray,
    sums: np.ndarray,
    counts: np.ndarray,
    statistic: Replicate,
    n_boot: int,
    out: Intervals,
) -> None:
    """Groups from their (group, bucket) cells sorted by group: ``sums`` (cells × k) of the
    values and ``counts`` of rows per cell."""
    import numpy as np

    weights = bucket_weights(n_boot)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    sizes = np.diff(np.r_[starts, len(group)])
    single = sizes == 1
    singles = starts[single]
    t = np.arange(1, MAX_WEIGHT + 1, dtype=np.float64)
    for first in range(0, len(singles), _BLOCK_SINGLE):
        # One bucket: its replicates take 13 values, t·(the group's sums) for weights t.
        idx = singles[first : first + _BLOCK_SINGLE]
        g, k = len(idx), sums.shape[1]
        scaled = (t[None, :, None] * sums[idx][:, None, :]).reshape(g * MAX_WEIGHT, k)
        n_scaled = (t[None, :] * counts[idx][:, None]).reshape(-1)
        values = statistic(scaled, n_scaled).reshape(g, MAX_WEIGHT)
        hist = weight_histogram(n_boot)[bucket[idx]][:, 1:]
        gid = group[idx]
        out[0][gid], out[1][gid], out[2][gid] = histogram_intervals(values, hist)
    many = np.flatnonzero(~single)
    # Blocks of whole groups: bounded memory, numpy work per block.
    bounds = np.cumsum(sizes[many])
    begin = 0
    while begin < len(many):
        base = bounds[begin] - sizes[many[begin]]
        end = int(np.searchsorted(bounds, base + _BLOCK_ENTRIES, side="right"))
        end = min(max(end, begin + 1), begin + _BLOCK_GROUPS, len(many))
        _block(many[begin:end], starts, sizes, group, bucket, sums, counts, weights, statistic, out)
        begin = end


def _block(
    block: np.ndarray,
    starts: np.ndarray,
    sizes: np.ndarray,
    group: np.ndarray,
    bucket: np.ndarray,
    sums: np.ndarray,
    counts: np.ndarray,
    weights: np.ndarray,
    statistic: Replicate,
    out: Intervals,
) -> None:
    import numpy as np

    first = starts[block]
    size = sizes[block]
    local = np.r_[0, np.cumsum(size)[:-1]]
    rows = np.repeat(first - local, size) + np.arange(int(size.sum()))
    w = weights[:, bucket[rows]]  # n_boot × cells
    n_boot, g, k = len(weights), len(block), sums.shape[1]
    rep_sums = np.stack(
        [np.add.reduceat(w * sums[rows, j], local, axis=1) for j in range(k)], axis=-1
    )  # n_boot × groups × k
    rep_counts = np.add.reduceat(w * counts[rows], local, axis=1)
    values = statistic(rep_sums.reshape(n_boot * g, k), rep_counts.reshape(-1))
    gid = group[first]
    out[0][gid], out[1][gid], out[2][gid] = row_intervals(values.reshape(n_boot, g).T)
