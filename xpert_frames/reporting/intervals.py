"""Confidence intervals that merge: Wilson for 0/1 metrics, a Poisson bootstrap otherwise.

Rows go to one of ``BUCKETS`` buckets by a hash of their content (no random state, no row
numbers), and a report keeps per-bucket sums, which add up across batches. The bootstrap then
gives each bucket, in replicate ``b``, a Poisson(1) weight drawn from a hash of the bucket and
``b``. The same rows give the same interval in a notebook, in a CLI run and on Ray workers,
whatever the batching.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:  # numpy is imported when a report needs it, not with the package
    import numpy as np

N_BOOT = 1000
#: Rows are spread over this many buckets by a hash of their content; a report keeps per-bucket
#: sums, and the bootstrap reweights buckets. With one row per bucket it is the row-level
#: Poisson bootstrap; with many, the ratio estimator's variance is the same in expectation.
BUCKETS = 1024
Z95 = 1.959963984540054
_SEED = 0x5EED
# CDF of Poisson(1) at 0..11; a uniform above the last step gets weight 12 (p < 1e-9).
_POISSON_CDF = [sum(math.exp(-1) / math.factorial(i) for i in range(k + 1)) for k in range(12)]
_GOLDEN = 0x9E3779B97F4A7C15


def bucket_key(row_hash: str) -> pl.Expr:
    """The bucket hash of each row: its content hash, mixed with its occurrence number among
    identical rows, so that duplicate rows spread over buckets like distinct rows do (else they
    would be resampled as one cluster and widen the interval). Rows that occur once, the usual
    case with an id or model column, get the same bucket however the table is split."""
    occurrence = pl.int_range(pl.len(), dtype=pl.UInt64).over(row_hash)
    return pl.struct(pl.col(row_hash), occurrence).hash(_SEED)


def row_key() -> pl.Expr:
    """A 64-bit hash of each row's full content (all columns), deterministic across processes
    of the same Polars version."""
    return pl.struct(pl.all()).hash(_SEED)


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


def bucket_weights(n_boot: int) -> np.ndarray:
    """Poisson(1) weights of every row bucket in every replicate, shape ``(n_boot, BUCKETS)``."""
    import numpy as np

    buckets = np.arange(BUCKETS, dtype=np.uint64)
    return np.stack([poisson_weights(buckets, b) for b in range(n_boot)])


def percentile_interval(replicates: np.ndarray) -> tuple[float | None, float | None]:
    import numpy as np

    finite = replicates[np.isfinite(replicates)]
    if len(finite) == 0:
        return None, None
    low, high = np.percentile(finite, [2.5, 97.5])
    return float(low), float(high)


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


def stderr(total: float, total_sq: float, n: int) -> float | None:
    """Standard error of the mean from additive sums (sample variance, ddof=1)."""
    if n < 2:
        return None
    var = max(0.0, (total_sq - total * total / n) / (n - 1))
    return math.sqrt(var / n)
