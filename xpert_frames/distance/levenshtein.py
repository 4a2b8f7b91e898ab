"""Normalized Levenshtein similarity of two string columns: rapidfuzz's own kernel
(``rapidfuzz.distance.Levenshtein.normalized_similarity``) on whole batches, never one Python
call per row. Below the evaluators: the fuzzy evaluator and the TCM evaluator both use it.

``levenshtein_similarity`` is ``1 - distance / max(len)`` on Unicode code points (1.0 for two
equal strings, including two empty ones), exactly rapidfuzz's ``normalized_similarity`` (the
tests compare it with the seed's plain dynamic programme,
:func:`xpert_frames.evaluators.fuzzy.matcher.levenshtein_distance`). How the strings reach
rapidfuzz:

1. Each distinct (a, b) pair is scored once: rows are numbered by a 64-bit hash of the pair,
   one representative per hash is scored, and every row is checked against its representative
   (a hash collision is scored on its own, never given another pair's score). When more than
   :data:`DISTINCT_SHARE` of the pairs are distinct, every row is scored instead; the pairs'
   heads (byte lengths and first bytes, read from the Arrow views) usually show it before
   any hashing.
2. Equal pairs score 1.0 and null pairs null in Polars, without reaching rapidfuzz.
3. The other pairs go to rapidfuzz in **pieces** (:data:`PIECE_ROWS` pairs and
   :data:`PIECE_CELLS` cells at most, one longer pair alone) by one of two equal paths
   (:mod:`xpert_frames.distance.scorers`): the optional C extension, which hands the Arrow
   string buffers straight to rapidfuzz's scorer (its C scorer interface) in Python threads,
   or its twin, ``rapidfuzz.process.cpdist`` on Python strings with ``workers`` threads.
   Threads come from the process's core budget (:func:`kernel_threads`). Between two pieces
   the interpreter runs Python code again, so a pending signal's handler (Ctrl-C, the CLI's
   SIGTERM handler) runs within one piece's time (well under a second on one core; the CLI
   turns it into a clean exit).
4. **Cap:** a pair whose code-point lengths multiply to more than ``max_cells`` (by default
   :data:`MAX_PAIR_CELLS` = 10^10, e.g. two strings of 100,000 characters, about half a
   second of one core) is not scored: its score is null (the row is kept and counted as
   skipped) and a :class:`LongPairWarning` gives the count. Levenshtein is quadratic; two
   strings of 2 MB would hold one core for minutes with no way to stop it.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.exceptions import InvalidOptionError
from xpert_frames.distance import scorers
from xpert_frames.distance.scorers import kernel_threads

__all__ = [
    "MAX_PAIR_CELLS",
    "LongPairWarning",
    "kernel_threads",
    "levenshtein_similarity",
    "normalized_similarity",
]

#: Cells (product of the two code-point lengths) above which a pair is not scored (null).
MAX_PAIR_CELLS = 10**10
#: Above this share of distinct pairs, every row is scored (deduplication would cost more than
#: it saves).
DISTINCT_SHARE = 0.8
#: At most this many pairs per piece (one ``cpdist`` call, or one call of the C extension).
PIECE_ROWS = 50_000
#: At most this many cells per piece (a single longer pair is a piece of its own).
PIECE_CELLS = 2 * 10**9

_SEEDS = (0x5EED_F001, 0x5EED_F002)


class LongPairWarning(UserWarning):
    """Some pairs were too long to score (their score is null)."""


def normalized_similarity(a: IntoExpr, b: IntoExpr, *, whole_column: bool = False) -> pl.Expr:
    """Normalized Levenshtein similarity of two string columns, as is (Float64; null if either
    is null or the pair is over :data:`MAX_PAIR_CELLS`): :func:`levenshtein_similarity` on
    each batch.

    ``whole_column=True`` makes it one batch over the whole column, whichever engine collects
    it: every distinct pair of the column is scored once (the streaming engine otherwise hands
    over morsels of 100,000 rows, each deduplicated on its own) and the threads start once;
    the streaming engine then holds the whole column first. Give it a column of its own
    (``with_columns``): the optimizer does not share such a batch function between two
    expressions that use it, and would run it twice.

    >>> df = pl.DataFrame({"a": ["kitten", "的人", None], "b": ["sitting", "的人", "x"]})
    >>> df.select(normalized_similarity("a", "b").round(4)).to_series().to_list()
    [0.5714, 1.0, None]
    """
    if not isinstance(whole_column, bool):
        raise InvalidOptionError(f"whole_column must be True or False, got {whole_column!r}")
    pair = pl.struct(text.to_expr(a).alias("left"), text.to_expr(b).alias("right"))
    return pair.map_batches(
        _similarity_batch, return_dtype=pl.Float64, is_elementwise=not whole_column
    )


def _similarity_batch(pair: pl.Series) -> pl.Series:
    fields = pair.struct.unnest().rechunk()  # a whole column comes in morsels
    return levenshtein_similarity(fields["left"], fields["right"])


def levenshtein_similarity(
    a: pl.Series,
    b: pl.Series,
    *,
    workers: int | None = None,
    max_cells: int | None = None,
) -> pl.Series:
    """Normalized Levenshtein similarity of aligned string Series; null where either is null
    and where a pair has more than ``max_cells`` cells (a :class:`LongPairWarning` says how
    many; by default :data:`MAX_PAIR_CELLS`). ``workers`` is rapidfuzz's thread count; by
    default :func:`kernel_threads`."""
    if len(a) != len(b):
        raise InvalidOptionError(f"series lengths differ: {len(a)} and {len(b)}")
    threads = kernel_threads() if workers is None else workers
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise InvalidOptionError(
            f"workers must be a positive thread count or None, got {workers!r}"
        )
    if max_cells is None:
        max_cells = MAX_PAIR_CELLS
    if isinstance(max_cells, bool) or not isinstance(max_cells, int) or max_cells < 1:
        raise InvalidOptionError(f"max_cells must be a positive integer, got {max_cells!r}")
    frame = pl.DataFrame({"left": a, "right": b}, schema={"left": pl.String, "right": pl.String})
    if frame.height == 0:
        return pl.Series(a.name, [], dtype=pl.Float64)
    name, a, b = a.name, frame["left"], frame["right"]  # as String (e.g. an all-null column)
    if _surely_distinct(a, b):  # a cheap lower bound already says: not worth hashing
        return _score_distinct(a, b, threads, max_cells).alias(name)
    keyed = frame.with_columns(pair_hash=_pair_key(), row=pl.int_range(pl.len(), dtype=pl.UInt32))
    first = keyed.select(pl.col("pair_hash").is_first_distinct()).to_series()
    if first.sum() > DISTINCT_SHARE * frame.height:  # few repeats: not worth gathering back
        return _score_distinct(a, b, threads, max_cells).alias(name)
    reps = keyed.filter(first).with_columns(rep=pl.int_range(pl.len(), dtype=pl.UInt32))
    scores = _score_distinct(reps["left"], reps["right"], threads, max_cells)
    # Each row's representative (its index among ``reps``); the pairs behind one hash are
    # equal, except after a collision, so every row is checked. (Not on a thread of our own
    # beside the kernel: called from a Polars thread, as inside a batch function, Polars work
    # started on another thread waits for the pool this thread holds.)
    found = keyed.select("pair_hash").join(
        reps.select("pair_hash", "rep", "row"), on="pair_hash", how="left", maintain_order="left"
    )
    rep = found["row"]
    same = frame.select(
        pl.col("left").eq_missing(a.gather(rep)) & pl.col("right").eq_missing(b.gather(rep))
    ).to_series()
    rep = found["rep"]
    result = scores.gather(rep)
    if not same.all():
        other = frame.filter(~same)
        own = _score_distinct(other["left"], other["right"], threads, max_cells)
        result = result.scatter((~same).arg_true(), own)
    return result.alias(name)


def _surely_distinct(a: pl.Series, b: pl.Series) -> bool:
    """Whether more than :data:`DISTINCT_SHARE` of the pairs are surely distinct, from their
    heads alone (:func:`~xpert_frames.distance.scorers.pair_heads`: byte lengths and first
    bytes, read from the Arrow views without touching the strings): their distinct count is a
    lower bound on the distinct pairs'. About a tenth of the cost of hashing the pairs."""
    return pl.Series(scorers.pair_heads(a, b)).n_unique() > DISTINCT_SHARE * len(a)


def _pair_key() -> pl.Expr:
    """A 64-bit hash of the pair (left, right): equal pairs, equal keys."""
    return pl.col("left").hash(_SEEDS[0]) ^ pl.col("right").hash(_SEEDS[1])


def _score_distinct(a: pl.Series, b: pl.Series, threads: int, max_cells: int) -> pl.Series:
    """Scores of aligned pairs (no deduplication), by rapidfuzz in pieces: the C extension
    when built (equal pairs, nulls and the cap in C), else ``cpdist`` (equal pairs, nulls
    and the cap in Polars)."""
    if scorers.backend() == "native":
        out, skipped = scorers.score_native(
            a, b, max_cells=max_cells, threads=threads, pieces=_thread_pieces
        )
    else:
        out, skipped = _score_with_cpdist(a, b, threads, max_cells)
    if skipped:
        warnings.warn(
            f"fuzzy: {skipped:,} pair(s) not scored (score null, counted as skipped): "
            f"the product of their lengths in characters exceeds {max_cells:,} (e.g. two strings "
            f"of {int(max_cells**0.5):,} characters); Levenshtein distance is quadratic",
            LongPairWarning,
            stacklevel=2,
        )
    return pl.Series(out, dtype=pl.Float64, nan_to_null=True)


def _score_with_cpdist(
    a: pl.Series, b: pl.Series, threads: int, max_cells: int
) -> tuple[np.ndarray, int]:
    frame = pl.DataFrame({"left": a, "right": b})
    lengths = frame.select(
        todo=(pl.col("left") != pl.col("right")).fill_null(False),
        cells=pl.col("left").str.len_chars().cast(pl.Float64)
        * pl.col("right").str.len_chars().cast(pl.Float64),
    )
    out = np.where((a.is_null() | b.is_null()).to_numpy(), np.nan, 1.0)
    todo = lengths["todo"]
    cells = lengths["cells"].fill_null(0.0).to_numpy()
    long = todo.to_numpy() & (cells > max_cells)
    if long.any():
        out[long] = np.nan
        todo = todo & pl.Series(~long)
    rows = todo.arg_true().to_numpy()
    if len(rows):
        out[rows] = scorers.score_with_cpdist(a, b, rows, _pieces(cells[rows]), threads)
    return out, int(long.sum())


def _thread_pieces(cells: np.ndarray, threads: int) -> list[tuple[int, int]]:
    """Pieces for Python threads: a few per thread (none waits on another), at least 1,000
    pairs each, within :data:`PIECE_ROWS` and :data:`PIECE_CELLS`."""
    per_thread = -(-len(cells) // (4 * threads))
    return _pieces(cells, max_rows=max(1_000, per_thread))


def _pieces(cells: object, *, max_rows: int | None = None) -> list[tuple[int, int]]:
    """Consecutive ``[begin, end)`` ranges of at most :data:`PIECE_ROWS` pairs (or
    ``max_rows``, if fewer) and :data:`PIECE_CELLS` cells (a pair above that alone)."""
    limit = PIECE_ROWS if max_rows is None else min(max_rows, PIECE_ROWS)
    total = np.cumsum(np.asarray(cells, dtype=np.float64))
    out: list[tuple[int, int]] = []
    begin, n = 0, len(total)
    while begin < n:
        base = total[begin - 1] if begin else 0.0
        end = int(np.searchsorted(total, base + PIECE_CELLS, side="right"))
        end = min(max(end, begin + 1), begin + limit, n)
        out.append((begin, end))
        begin = end
    return out
