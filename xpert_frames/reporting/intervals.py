"""Interval statistics of the reports: Wilson for 0/1 metrics, the Poisson bootstrap's weights
and percentiles otherwise (the bootstrap itself: :mod:`xpert_frames.reporting.bootstrap`).

Replicate ``b`` gives bucket ``j`` the Poisson(1) weight ``W[b, j]``, drawn from a hash of
``(j, b)``: no random state. ``W`` (``n_boot × BUCKETS``) is built once per process.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

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


def splitmix64(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """SplitMix64's finalizer, elementwise on unsigned 64-bit integers (into ``out``, which may
    be ``x``)."""
    import numpy as np

    z = np.add(x, np.uint64(_GOLDEN), out=out)
    t = np.right_shift(z, np.uint64(30))
    z ^= t
    z *= np.uint64(0xBF58476D1CE4E5B9)
    np.right_shift(z, np.uint64(27), out=t)
    z ^= t
    z *= np.uint64(0x94D049BB133111EB)
    np.right_shift(z, np.uint64(31), out=t)
    z ^= t
    return z


def poisson_weights(keys: np.ndarray, replicate: int | np.ndarray) -> np.ndarray:
    """Poisson(1) weights of ``keys`` in bootstrap replicate ``replicate`` (replicates
    broadcast against keys)."""
    import numpy as np

    with np.errstate(over="ignore"):
        salt = (np.asarray(replicate, dtype=np.uint64) + np.uint64(1)) * np.uint64(_GOLDEN)
        mixed = splitmix64(keys ^ salt)
    uniform = (mixed >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    return np.searchsorted(_POISSON_CDF, uniform, side="right").astype(np.float64)


@functools.lru_cache(maxsize=4)
def bucket_weights(n_boot: int) -> np.ndarray:
    """Poisson(1) weights of every bucket in every replicate, shape ``(n_boot, BUCKETS)``;
    built once per process and ``n_boot`` (read-only)."""
    import numpy as np

    buckets = np.arange(BUCKETS, dtype=np.uint64)
    weights = poisson_weights(buckets[None, :], np.arange(n_boot, dtype=np.uint64)[:, None])
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
