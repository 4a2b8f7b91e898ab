"""Dictionary matching of TCM terms on whole string columns, on Polars' Aho-Corasick.

:class:`TermMatcher` finds, in every row, the leftmost-longest occurrences of a set of surface
strings (each reported as a name, or matched without being reported) and returns the names in
order of first appearance, each once, as a List(String) column: Polars'
``str.extract_many(surfaces longest first, leftmost=True)`` (leftmost-first with the longest
surface first is leftmost-longest), each surface mapped to its name, unreported ones dropped,
then ``list.unique(maintain_order=True)``. The tests compare it with a plain-Python scan.

A C scan of the Arrow buffers replaced this expression once; it gave equal output and was
about 1.1x faster end to end on the TCM benchmark (1M rows), under the 1.5x that native code
of our own must earn (``benchmarks/RESULTS.md``), so it was removed.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

_LIST = pl.List(pl.String)


class TermMatcher:
    """Surfaces and the name each one reports (``None``: matched, consumes its text, not
    reported). Built when an expression is built; cheap (a few hundred strings)."""

    def __init__(self, surfaces: Sequence[str], names: Sequence[str | None]) -> None:
        if len(surfaces) != len(names):
            raise ValueError(
                f"expected one name per surface, got {len(surfaces)} surfaces and "
                f"{len(names)} names"
            )
        empty = [i for i, s in enumerate(surfaces) if not s]
        if empty:
            raise ValueError(f"surfaces must be non-empty strings; entry {empty[0]} is empty")
        if len(set(surfaces)) != len(surfaces):
            raise ValueError("surfaces must be distinct")
        self.names = list(dict.fromkeys(n for n in names if n is not None))
        order = sorted(range(len(surfaces)), key=lambda i: -len(surfaces[i]))
        self._keys = [surfaces[i] for i in order]
        self._key_names = [names[i] for i in order]

    def __call__(self, series: pl.Series) -> pl.Series:
        """The names found in every row (List(String)); null rows stay null."""
        if not self._keys:
            empty = pl.select(pl.when(pl.lit(series).is_not_null()).then(pl.lit([], _LIST)))
            return empty.to_series().alias(series.name)
        to_name = pl.element().replace_strict(
            self._keys, self._key_names, default=None, return_dtype=pl.String
        )
        found = series.str.extract_many(self._keys, leftmost=True)
        names = found.list.eval(to_name.drop_nulls()).list.unique(maintain_order=True)
        return names.cast(_LIST).alias(series.name)
