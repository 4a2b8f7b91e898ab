"""Type stub of the C extension built from ``_levenshtein.c`` (see there for the algorithm)."""

from typing import TypeAlias

# Anything with the buffer protocol (pyarrow.Buffer, bytes, numpy arrays); typing has no
# name for it before Python 3.12.
Buffer: TypeAlias = object

def similarity(
    a_offsets: Buffer,
    a_data: Buffer,
    a_validity: Buffer | None,
    a_start: int,
    a_width: int,
    b_offsets: Buffer,
    b_data: Buffer,
    b_validity: Buffer | None,
    b_start: int,
    b_width: int,
    out: Buffer,
    threads: int,
    /,
) -> None:
    """Normalized Levenshtein similarity of aligned Arrow string arrays, written into ``out``
    (float64; NaN where either side is null). Raises ValueError on invalid UTF-8 or offsets."""
