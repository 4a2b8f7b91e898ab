"""How pairs of strings reach rapidfuzz's scorer: two interchangeable paths, chosen at import.

* **native** (the optional C extension ``xpert_frames.distance._arrow_scorer``, built by
  ``pip install`` when a C compiler is there): the Arrow ``string_view`` buffers of both
  columns (what Polars holds, exported without a copy) go straight to rapidfuzz's own scorer
  through its C scorer interface (the
  ``_RF_Scorer`` capsule, struct version 3, checked at import), one uncached call per pair, an
  ASCII string as its bytes and any other decoded from UTF-8 to code points; no Python string
  is made. Python threads (:func:`kernel_threads`) score slices of the rows, the GIL released
  in C.
* **cpdist** (the twin, always there): the pairs become Python lists and go to
  ``rapidfuzz.process.cpdist`` with ``workers`` threads.

Both give bit-identical scores (the suite runs both). ``XPERT_FRAMES_NATIVE`` selects: ``1``
requires the extension (an error at import if it is not built), ``0`` uses the twin, unset
uses the extension when it is built and otherwise says once (a :class:`SlowPathWarning`) that
the slower twin is in use.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import Literal

import numpy as np
import polars as pl
import pyarrow as pa

from xpert_frames.core.budget import available_cores
from xpert_frames.core.exceptions import InvalidOptionError

#: The environment variable that selects the path: "1" native, "0" the cpdist twin.
ENV = "XPERT_FRAMES_NATIVE"

Backend = Literal["native", "cpdist"]


class SlowPathWarning(UserWarning):
    """The C extension is not built: the fuzzy kernel runs its slower (equal) twin."""


def _load_native() -> tuple[ModuleType | None, str]:
    """The extension, checked against the installed rapidfuzz; or None and why not."""
    try:
        from xpert_frames.distance import _arrow_scorer  # type: ignore[attr-defined]
    except ImportError as exc:
        return None, f"not built ({exc})"
    from rapidfuzz.distance import Levenshtein

    try:
        _arrow_scorer.check(Levenshtein.normalized_similarity)
    except (TypeError, RuntimeError, AttributeError) as exc:  # a rapidfuzz with another ABI
        return None, f"unusable with this rapidfuzz ({exc})"
    return _arrow_scorer, ""


def _select() -> tuple[ModuleType | None, Backend]:
    choice = os.environ.get(ENV, "")
    if choice not in ("", "0", "1"):
        raise InvalidOptionError(
            f"{ENV} must be 1 (the C extension), 0 (rapidfuzz.process.cpdist) or unset "
            f"(the extension when built), got {choice!r}"
        )
    if choice == "0":
        return None, "cpdist"
    native, why = _load_native()
    if native is not None:
        return native, "native"
    if choice == "1":
        raise ImportError(
            f"{ENV}=1 asks for the C extension xpert_frames.distance._arrow_scorer, which is "
            f"{why}; hint: reinstall with a C compiler (pip install --force-reinstall "
            f"--no-deps .), or unset {ENV}"
        )
    warnings.warn(
        f"xpert_frames: C extension {why}; the fuzzy kernel uses the slower "
        f"rapidfuzz.process.cpdist path (same scores; set {ENV}=0 to choose it silently)",
        SlowPathWarning,
        stacklevel=2,
    )
    return None, "cpdist"


_NATIVE, BACKEND = _select()


def backend() -> Backend:
    """The path in use: ``"native"`` (the C extension) or ``"cpdist"`` (its twin)."""
    return "native" if _NATIVE is not None else "cpdist"


def kernel_threads() -> int:
    """Threads for the kernel: the process's one core budget
    (:func:`~xpert_frames.core.budget.available_cores`: the affinity mask, Polars' thread pool,
    a Ray task's or actor's CPU allotment)."""
    return available_cores()


Pieces = list[tuple[int, int]]


def score_with_cpdist(
    a: pl.Series, b: pl.Series, rows: np.ndarray, pieces: Pieces, threads: int
) -> np.ndarray:
    """Scores of the pairs ``(a[r], b[r])`` for ``r`` in ``rows``, piece by piece through
    ``rapidfuzz.process.cpdist`` on Python strings (the twin)."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    sa, sb = a.gather(rows), b.gather(rows)
    out = np.empty(len(rows), dtype=np.float64)
    for begin, end in pieces:
        out[begin:end] = process.cpdist(
            sa.slice(begin, end - begin).to_list(),
            sb.slice(begin, end - begin).to_list(),
            scorer=Levenshtein.normalized_similarity,
            dtype=np.float64,
            workers=threads,
        )
        # Back in the interpreter between pieces: a pending signal's handler runs here.
    return out


def score_native(
    a: pl.Series,
    b: pl.Series,
    *,
    max_cells: int,
    threads: int,
    pieces: Callable[[np.ndarray, int], Pieces],
) -> tuple[np.ndarray, int]:
    """Scores of the aligned pairs of ``a`` and ``b`` (NaN where either is null or the pair is
    over ``max_cells``) and how many pairs were over it: the Arrow buffers straight to
    rapidfuzz's scorer (the C extension), ``threads`` Python threads over the pieces that
    ``pieces(cells, threads)`` makes of the pairs' byte-length products (an upper bound on
    their code-point cells)."""
    from rapidfuzz.distance import Levenshtein

    if _NATIVE is None:
        raise RuntimeError("the C extension xpert_frames.distance._arrow_scorer is not loaded")
    native, scorer = _NATIVE, Levenshtein.normalized_similarity
    left, right = string_views(a), string_views(b)
    rows = np.flatnonzero(~(a.is_null() | b.is_null()).to_numpy())
    out = np.full(len(a), np.nan)
    if len(rows) == 0:
        return out, 0
    cells = _byte_lengths(left, rows).astype(np.float64) * _byte_lengths(right, rows)
    scores = np.empty(len(rows), dtype=np.float64)
    skipped: list[int] = []  # one count per piece (list.append is atomic under the GIL)

    def run(piece: tuple[int, int]) -> None:
        begin, end = piece
        # Each piece writes its own slice of ``scores``; the GIL is released while it runs.
        piece_rows, piece_out = rows[begin:end], scores[begin:end]
        skipped.append(native.score(scorer, *left, *right, piece_rows, piece_out, max_cells))

    _run_pieces(run, pieces(cells, threads), threads)
    out[rows] = scores
    return out, sum(skipped)


#: One Arrow ``string_view`` array: its views buffer, its data buffers, its offset.
Views = tuple[pa.Buffer, tuple[pa.Buffer, ...], int]


def string_views(s: pl.Series) -> Views:
    """``s`` as one Arrow ``string_view`` array's buffers, as Polars holds them (no copy for a
    Series of one chunk): 16 bytes a row, an int32 byte length first."""
    arr = s.to_arrow(compat_level=pl.CompatLevel.newest())
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if arr.type != pa.string_view():
        arr = arr.cast(pa.string_view())
    _validity, views, *data = arr.buffers()
    return views if views is not None else pa.py_buffer(b""), tuple(data), arr.offset


def _byte_lengths(views: Views, rows: np.ndarray) -> np.ndarray:
    """Byte lengths of the given rows: the int32 that opens each 16-byte view."""
    buffer, _data, first = views
    lengths = np.frombuffer(buffer, dtype="<i4")[::4]
    return lengths[first + rows]


def pair_heads(a: pl.Series, b: pl.Series) -> np.ndarray:
    """One uint64 per row from the first 8 bytes of both strings' views (each string's byte
    length and its first four bytes; the bytes past a shorter string's end masked out); 0
    where either is null. Equal pairs have equal heads, so the number of distinct heads is a
    lower bound on the number of distinct pairs. No string is read."""
    heads = []
    for s in (a, b):
        buffer, _data, first = string_views(s)
        head = np.frombuffer(buffer, dtype="<u8")[2 * first : 2 * (first + len(s)) : 2]
        length = head & np.uint64(0xFFFF_FFFF)
        short = length < 4
        if short.any():  # Arrow pads them with zeros; not trusted here
            head = head.copy()
            bits = np.uint64(32) + length[short] * np.uint64(8)
            head[short] &= (np.uint64(1) << bits) - np.uint64(1)
        heads.append(head)
    mixed = heads[0] * np.uint64(0x9E37_79B9_7F4A_7C15) ^ heads[1]  # wraps: collisions only merge
    mixed[(a.is_null() | b.is_null()).to_numpy()] = 0
    return mixed


def _run_pieces(run: Callable[[tuple[int, int]], None], pieces: Pieces, threads: int) -> None:
    """``run`` on every piece, in ``threads`` threads. The main thread waits between pieces
    in Python, so a pending signal's handler runs within one piece's time; on any exception
    the pieces not started are cancelled and the running ones finish before it propagates."""
    if threads <= 1 or len(pieces) == 1:
        for piece in pieces:
            run(piece)
        return
    pool = ThreadPoolExecutor(max_workers=min(threads, len(pieces)))
    try:
        for future in [pool.submit(run, piece) for piece in pieces]:
            future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
