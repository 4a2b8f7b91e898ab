"""Type stub of the C extension built from ``_terms.c`` (see there for the algorithm)."""

from typing import TypeAlias

# Anything with the buffer protocol (pyarrow.Buffer, bytes, numpy arrays); typing has no
# name for it before Python 3.12.
Buffer: TypeAlias = object

def find_terms(
    offsets: Buffer,
    data: Buffer,
    validity: Buffer | None,
    start: int,
    width: int,
    pat_offsets: Buffer,
    pat_data: Buffer,
    pat_ids: Buffer,
    n_ids: int,
    /,
) -> tuple[bytes, bytes]:
    """Leftmost-longest dictionary matches of every row of an Arrow string array: (int64 row
    offsets, uint32 ids in order of first appearance, each once per row, -1 ids dropped).
    Raises ValueError on inconsistent buffers or patterns (empty, out of range, bad id)."""
