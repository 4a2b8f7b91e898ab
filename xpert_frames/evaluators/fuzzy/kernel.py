"""Native kernels called on whole batches: never one Python call per row.

``levenshtein_similarity`` is ``1 - distance / max(len)`` on Unicode code points, computed by
rapidfuzz in float64 (its ``cpdist`` default, float32, differs from the exact value by up to
~3e-8). Equal strings (including two empty ones) are answered by Polars without the kernel;
the rest is converted to Python strings chunk by chunk while the previous chunk is in the
kernel, so conversion and computation overlap.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:  # numpy and rapidfuzz load on first use, not with the package
    import numpy as np

CHUNK = 32_768


def _kernel(a: list[str], b: list[str], workers: int) -> np.ndarray:
    import numpy as np
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    return process.cpdist(
        a, b, scorer=Levenshtein.normalized_similarity, dtype=np.float64, workers=workers
    )


def _store(out: np.ndarray, idx: np.ndarray, start: int, future: object) -> None:
    chunk = future.result()  # type: ignore[attr-defined]
    out[idx[start : start + len(chunk)]] = chunk


def levenshtein_similarity(a: pl.Series, b: pl.Series, *, workers: int = -1) -> pl.Series:
    """Normalized Levenshtein similarity of aligned string Series; null where either is null."""
    import numpy as np

    if len(a) != len(b):
        raise ValueError(f"series lengths differ: {len(a)} and {len(b)}")
    a = a.cast(pl.String)
    b = b.cast(pl.String)
    out = np.ones(len(a), dtype=np.float64)
    need = (a != b).fill_null(False)
    idx = need.arg_true().to_numpy()
    if len(idx):
        a_need = a.gather(idx)
        b_need = b.gather(idx)
        with ThreadPoolExecutor(max_workers=1) as pool:
            pending: list[tuple[int, object]] = []
            for start in range(0, len(idx), CHUNK):
                a_list = a_need.slice(start, CHUNK).to_list()
                b_list = b_need.slice(start, CHUNK).to_list()
                pending.append((start, pool.submit(_kernel, a_list, b_list, workers)))
                if len(pending) == 2:  # at most one chunk converting while one computes
                    _store(out, idx, *pending.pop(0))
            for item in pending:
                _store(out, idx, *item)
    result = pl.Series(a.name, out, dtype=pl.Float64)
    nulls = a.is_null() | b.is_null()
    if nulls.any():
        result = pl.select(pl.when(nulls).then(None).otherwise(result)).to_series().alias(a.name)
    return result
