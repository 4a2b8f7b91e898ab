"""Dictionary matching of TCM terms on whole string columns, in the package's C extension.

:class:`TermMatcher` finds, in every row, the leftmost-longest occurrences of a set of surface
strings (each reported as a name, or matched without being reported) and returns the names in
order of first appearance, each once, as a List(String) column: what Polars'
``str.extract_many(keys sorted longest first, leftmost=True)`` followed by a mapping and a
per-row ``unique(maintain_order=True)`` gives, in one pass over the Arrow buffers (the tests
compare the two, and both with the plain-Python oracle).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from xpert_frames.core.arrow import arrow_strings
from xpert_frames.evaluators.tcm._terms import find_terms

_LIST = pl.List(pl.String)


class TermMatcher:
    """Surfaces and the name each one reports (``None``: matched, consumes its text, not
    reported). Built when an expression is built; cheap (a few hundred strings)."""

    def __init__(self, surfaces: Sequence[str], names: Sequence[str | None]) -> None:
        import numpy as np

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
        ids = {n: i for i, n in enumerate(self.names)}
        encoded = [s.encode("utf-8") for s in surfaces]
        self._offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        self._offsets[1:] = np.cumsum([len(e) for e in encoded])
        self._data = b"".join(encoded)
        self._ids = np.array([-1 if n is None else ids[n] for n in names], dtype=np.int32)
        self._name_series = pl.Series(self.names, dtype=pl.String)

    def __call__(self, series: pl.Series) -> pl.Series:
        """The names found in every row (List(String)); null rows stay null."""
        import numpy as np
        import pyarrow as pa

        offsets, data, validity, start, width = arrow_strings(series)
        row_offsets, values = find_terms(
            offsets, data, validity, start, width, self._offsets, self._data, self._ids,
            len(self.names),
        )  # fmt: skip
        found = self._name_series.gather(pl.Series(np.frombuffer(values, dtype=np.uint32)))
        lists = pa.LargeListArray.from_arrays(
            pa.array(np.frombuffer(row_offsets, dtype=np.int64)),
            found.to_arrow(),
            mask=series.is_null().to_arrow() if series.null_count() else None,
        )
        out = pl.Series(series.name, lists)
        return out.cast(_LIST)
