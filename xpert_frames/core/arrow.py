"""Arrow buffers of a Polars string Series, as the package's one C extension (the number
screen, :mod:`xpert_frames.numeric.screens`) reads them."""

from __future__ import annotations

from typing import Any

import polars as pl


def arrow_strings(series: pl.Series) -> tuple[Any, Any, Any, int, int]:
    """``(offsets, data, validity or None, start, offset width)`` of a string Series' Arrow
    array, as the C number screen reads them (``large_string``: Polars' oldest compatibility level,
    one contiguous array whatever the Series' chunks and string views)."""
    import pyarrow as pa

    array = series.cast(pl.String).to_arrow(compat_level=pl.CompatLevel.oldest())
    if not pa.types.is_large_string(array.type):  # a Polars that exports otherwise
        raise TypeError(
            f"expected Polars to export a String Series as Arrow large_string, got {array.type}; "
            "hint: report the Polars version, the C number screen reads Arrow buffers directly"
        )
    validity, offsets, data = array.buffers()
    if array.null_count == 0:
        validity = None
    return offsets, b"" if data is None else data, validity, array.offset, 8
