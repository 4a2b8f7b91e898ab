"""Confidence intervals that merge: Wilson for 0/1 metrics, a Poisson bootstrap otherwise.

The bootstrap is computed from a mergeable state holding, per group, each *distinct* row content
(a 64-bit hash of all its columns) with its number of occurrences and its values. Only when the
report is finalized are the occurrences ``0 .. n-1`` of a content spread over ``BUCKETS`` buckets
by a hash of (content, occurrence number); replicate ``b`` then gives bucket ``j`` the Poisson(1)
weight ``W[b, j]``, drawn from a hash of ``(j, b)``. No random state, no row numbers, no
dependence on how the table was split: the state of a table is the sum of the states of its
parts, whatever the split (duplicate rows included), and the interval is a function of the state.

Cost: the state has one entry per distinct row and group; a group's replicates cost
``n_boot × min(rows, BUCKETS)``. A group held in one bucket (a single row, say) is computed from
the 13 possible weights of that bucket rather than ``n_boot`` replicates. ``W`` (``n_boot ×
BUCKETS``) is built once per process.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:  # numpy is imported when a report needs it, not with the package
    import numpy as np

N_BOOT = 1000
#: Row occurrences are spread over this many buckets; a group's bootstrap reweights buckets.
#: With one row per bucket it is the row-level Poisson bootstrap; with many, the ratio
#: estimator's variance is the same in expectation.
BUCKETS = 1024
Z95 = 1.959963984540054
QUANTILES = (0.025, 0.975)
SEED = 0x5EED
# CDF of Poisson(1) at 0..11; a uniform above the last step gets weight 12 (p < 1e-9).
_POISSON_CDF = [sum(math.exp(-1) / math.factorial(i) for i in range(k + 1)) for k in range(12)]
MAX_WEIGHT = len(_POISSON_CDF)
_GOLDEN = 0x9E3779B97F4A7C15
_OCCURRENCE = 0xD1B54A32D192ED03
#: Bounds of one block of the replicate computation (``n_boot × entries`` floats at a time).
_BLOCK_ENTRIES = 4096
_BLOCK_GROUPS = 1024
#: Groups held in one bucket computed at a time (13 replicate values each).
_BLOCK_SINGLE = 1 << 16


def row_key() -> pl.Expr:
    """A 64-bit hash of each row's full content (all columns), deterministic across processes
    of the same Polars version."""
    return pl.struct(pl.all()).hash(SEED)


def _splitmix64(x: np.ndarray) -> np.ndarray:
    import numpy as np

    with np.errstate(over="ignore"):
        z = x + np.uint64(_GOLDEN)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def poisson_weights(keys: np.ndarray, replicate: int) -> np.ndarray:
    """Poisson(1) weights of ``keys`` in bootstrap replicate ``replicate``."""
    import numpy as np

    with np.errstate(over="ignore"):
        mixed = _splitmix64(keys ^ (np.uint64(replicate + 1) * np.uint64(_GOLDEN)))
    uniform = (mixed >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    return np.searchsorted(_POISSON_CDF, uniform, side="right").astype(np.float64)


@functools.lru_cache(maxsize=4)
def bucket_weights(n_boot: int) -> np.ndarray:
    """Poisson(1) weights of every bucket in every replicate, shape ``(n_boot, BUCKETS)``;
    built once per process and ``n_boot`` (read-only)."""
    import numpy as np

    buckets = np.arange(BUCKETS, dtype=np.uint64)
    weights = np.stack([poisson_weights(buckets, b) for b in range(n_boot)])
    weights.flags.writeable = False
    return weights


@functools.lru_cache(maxsize=4)
def weight_histogram(n_boot: int) -> np.ndarray:
    """``H[j, t]``: the number of replicates giving bucket ``j`` weight ``t`` (0..MAX_WEIGHT)."""
    import numpy as np

    w = bucket_weights(n_boot).astype(np.int64)
    hist = np.zeros((BUCKETS, MAX_WEIGHT + 1), dtype=np.int64)
    np.add.at(hist, (np.broadcast_to(np.arange(BUCKETS), w.shape), w), 1)
    hist.flags.writeable = False
    return hist


def occurrence_buckets(hashes: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The bucket of every occurrence of every content: occurrence ``k`` of content ``h`` goes
    to ``splitmix64(h + k·c) mod BUCKETS``. Returns (content index per occurrence, bucket)."""
    import numpy as np

    counts = counts.astype(np.int64)
    owner = np.repeat(np.arange(len(hashes)), counts)
    starts = np.cumsum(counts) - counts
    k = np.arange(len(owner), dtype=np.int64) - np.repeat(starts, counts)
    with np.errstate(over="ignore"):
        mixed = _splitmix64(hashes[owner] + k.astype(np.uint64) * np.uint64(_OCCURRENCE))
    return owner, (mixed % np.uint64(BUCKETS)).astype(np.int64)


def wilson_arrays(successes: np.ndarray, n: np.ndarray, z: float = Z95) -> tuple[np.ndarray, ...]:
    """Wilson score intervals of proportions (NaN where ``n == 0``)."""
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        nf = n.astype(np.float64)
        p = successes / nf
        denom = 1 + z * z / nf
        centre = (p + z * z / (2 * nf)) / denom
        half = z * np.sqrt(p * (1 - p) / nf + z * z / (4 * nf * nf)) / denom
        low = np.where(successes <= 0, 0.0, np.maximum(0.0, centre - half))
        high = np.where(successes >= nf, 1.0, np.minimum(1.0, centre + half))
    empty = n <= 0
    return np.where(empty, np.nan, low), np.where(empty, np.nan, high)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float | None, float | None]:
    """Wilson score interval of a proportion (``None`` for ``n == 0``)."""
    if n <= 0:
        return None, None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def stderr_arrays(total: np.ndarray, total_sq: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Standard errors of means from additive sums (sample variance, ddof=1; NaN for n < 2)."""
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.maximum(0.0, (total_sq - total * total / n) / (n - 1))
        return np.where(n < 2, np.nan, np.sqrt(var / n))


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    import numpy as np

    diff = b - a
    return np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)  # numpy's own interpolation


def row_intervals(replicates: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of ``replicates`` (groups × n_boot, NaN = dropped): the 2.5 and 97.5 percentiles
    (linear interpolation) and the standard deviation (ddof=1) of its finite values."""
    import numpy as np

    finite = np.isfinite(replicates)
    nf = finite.sum(axis=1)
    ordered = np.sort(np.where(finite, replicates, np.inf), axis=1)
    rows = np.arange(len(ordered))
    out = []
    for q in QUANTILES:
        virtual = q * np.maximum(nf - 1, 0)
        lo = np.floor(virtual).astype(np.int64)
        hi = np.minimum(lo + 1, np.maximum(nf - 1, 0))
        value = _lerp(ordered[rows, lo], ordered[rows, hi], virtual - lo)
        out.append(np.where(nf > 0, value, np.nan))
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.where(finite, replicates, 0.0)
        mean = values.sum(axis=1) / nf
        dev = np.where(finite, replicates - mean[:, None], 0.0)
        std = np.sqrt((dev * dev).sum(axis=1) / (nf - 1))
    return out[0], out[1], np.where(nf > 1, std, np.nan)


def histogram_intervals(
    values: np.ndarray, hist: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`row_intervals` of rows given as distinct values with multiplicities: ``values``
    (groups × k) occurring ``hist`` (groups × k) times each."""
    import numpy as np

    hist = np.where(np.isfinite(values), hist, 0)
    order = np.argsort(np.where(hist > 0, values, np.inf), axis=1, kind="stable")
    vals = np.take_along_axis(values, order, axis=1)
    mult = np.take_along_axis(hist, order, axis=1)
    cum = np.cumsum(mult, axis=1)
    nf = cum[:, -1]
    rows = np.arange(len(vals))

    def at(position: np.ndarray) -> np.ndarray:
        return vals[rows, np.minimum((cum > position[:, None]).argmax(axis=1), vals.shape[1] - 1)]

    out = []
    for q in QUANTILES:
        virtual = q * np.maximum(nf - 1, 0)
        lo = np.floor(virtual).astype(np.int64)
        hi = np.minimum(lo + 1, np.maximum(nf - 1, 0))
        out.append(np.where(nf > 0, _lerp(at(lo), at(hi), virtual - lo), np.nan))
    with np.errstate(invalid="ignore", divide="ignore"):
        safe = np.where(mult > 0, vals, 0.0)
        mean = (safe * mult).sum(axis=1) / nf
        dev = np.where(mult > 0, vals - mean[:, None], 0.0)
        std = np.sqrt((dev * dev * mult).sum(axis=1) / (nf - 1))
    return out[0], out[1], np.where(nf > 1, std, np.nan)


Replicate = Callable[["np.ndarray", "np.ndarray"], "np.ndarray"]


def bootstrap(
    group: np.ndarray,
    bucket: np.ndarray,
    sums: np.ndarray,
    counts: np.ndarray,
    n_groups: int,
    statistic: Replicate,
    n_boot: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Percentile intervals and replicate standard deviations of every group.

    Entries are (group, bucket) cells sorted by group: ``sums`` (entries × k) of the values
    and ``counts`` of rows. ``statistic(weighted_sums, weighted_counts)`` maps replicate sums
    (rows × k) and row counts (rows) to one value per row (NaN to drop a replicate). Groups
    without entries get NaN.
    """
    import numpy as np

    low = np.full(n_groups, np.nan)
    high = np.full(n_groups, np.nan)
    std = np.full(n_groups, np.nan)
    if not len(group):
        return low, high, std
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
        low[gid], high[gid], std[gid] = histogram_intervals(values, hist)
    many = np.flatnonzero(~single)
    block: list[int] = []  # indices into starts
    entries = 0
    for i in many:  # blocks of whole groups: bounded memory, numpy work per block
        if block and (entries + sizes[i] > _BLOCK_ENTRIES or len(block) >= _BLOCK_GROUPS):
            _block(
                block,
                starts,
                sizes,
                group,
                bucket,
                sums,
                counts,
                weights,
                statistic,
                low,
                high,
                std,
            )
            block, entries = [], 0
        block.append(int(i))
        entries += int(sizes[i])
    if block:
        _block(
            block, starts, sizes, group, bucket, sums, counts, weights, statistic, low, high, std
        )
    return low, high, std


def _block(
    block: list[int],
    starts: np.ndarray,
    sizes: np.ndarray,
    group: np.ndarray,
    bucket: np.ndarray,
    sums: np.ndarray,
    counts: np.ndarray,
    weights: np.ndarray,
    statistic: Replicate,
    low: np.ndarray,
    high: np.ndarray,
    std: np.ndarray,
) -> None:
    import numpy as np

    first = starts[block]
    size = sizes[block]
    local = np.r_[0, np.cumsum(size)[:-1]]
    rows = np.repeat(first - local, size) + np.arange(int(size.sum()))
    w = weights[:, bucket[rows]]  # n_boot × entries
    n_boot, g, k = len(weights), len(block), sums.shape[1]
    rep_sums = np.stack(
        [np.add.reduceat(w * sums[rows, j], local, axis=1) for j in range(k)], axis=-1
    )  # n_boot × groups × k
    rep_counts = np.add.reduceat(w * counts[rows], local, axis=1)
    values = statistic(rep_sums.reshape(n_boot * g, k), rep_counts.reshape(-1))
    gid = group[first]
    low[gid], high[gid], std[gid] = row_intervals(values.reshape(n_boot, g).T)
