"""Type stub of the C extension built from ``_screen.c`` (see there for the algorithm)."""

from typing import TypeAlias

# Anything with the buffer protocol (pyarrow.Buffer, bytes, numpy arrays); typing has no
# name for it before Python 3.12.
Buffer: TypeAlias = object

def screen(
    offsets: Buffer,
    data: Buffer,
    validity: Buffer | None,
    start: int,
    width: int,
    n: int,
    pat_offsets: Buffer,
    pat_data: Buffer,
    pat_kinds: Buffer,
    pat_bits: Buffer,
    /,
) -> bytes:
    """Per row of an Arrow string array of ``n`` rows, the OR of the bits (uint32) of the
    patterns found in it, as uint32 bytes; 0 for a null row. Raises ValueError on inconsistent
    buffers or patterns."""
