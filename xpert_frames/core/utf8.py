"""UTF-8 of Arrow string columns, checked once where Arrow data enters (before Polars reads it:
Polars trusts Arrow strings to be UTF-8, and invalid bytes in one crash or corrupt it).

The check is cheap (see :func:`check_table`): a column whose character bytes are all ASCII is
valid without looking at its rows (one vectorized maximum over the data buffer); any other
column is checked by pyarrow's full validation (``Array.validate(full=True)``), and only an
invalid one is searched for its first bad row (halving the rows, each half validated).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from xpert_frames.core.budget import available_cores
from xpert_frames.core.exceptions import InvalidUTF8Error

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "check_array",
    "check_for_polars",
    "check_table",
    "locate_in_pandas",
    "locate_in_parquet",
]


def _has_strings(dtype: pa.DataType) -> bool:
    """Whether ``dtype`` is or holds a string type (list, struct, map, dictionary values)."""
    import pyarrow as pa

    if pa.types.is_string(dtype) or pa.types.is_large_string(dtype):
        return True
    if pa.types.is_string_view(dtype):
        return True
    if pa.types.is_dictionary(dtype):
        return _has_strings(dtype.value_type)
    return any(_has_strings(dtype.field(i).type) for i in range(dtype.num_fields))


def _ascii(array: pa.Array) -> bool:
    """Whether the characters of a ``string``/``large_string`` array are all ASCII (then
    every row is UTF-8), from its offsets and data buffers, without a row loop."""
    import numpy as np
    import pyarrow as pa

    _, offsets, data = array.buffers()
    if offsets is None or data is None or len(array) == 0:
        return True
    width = np.int64 if pa.types.is_large_string(array.type) else np.int32
    bounds = np.frombuffer(offsets, dtype=width)[[array.offset, array.offset + len(array)]]
    low, high = int(bounds[0]), int(bounds[1])
    if high <= low:
        return True
    if low < 0 or high > data.size:  # offsets outside the data: let the full check say so
        return False
    text = np.frombuffer(data, dtype=np.uint8)[low:high]
    # Text with non-ASCII characters mostly shows one early: then skip the full scan.
    return bool(text[:65536].max() < 0x80 and text.max() < 0x80)


def _valid(array: pa.Array) -> bool:
    import pyarrow as pa

    try:
        array.validate(full=True)
    except pa.ArrowInvalid:
        return False
    return True


def _first_bad(array: pa.Array) -> int:
    """The first row of an invalid array that is invalid on its own (halving: about twice
    the cost of one full validation). A nested array's slices are copied (a slice keeps
    all of its children's values); a dictionary is decoded first (the rows that use a bad
    value; its first row when no row uses one)."""
    import pyarrow as pa

    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    nested = array.type.num_fields > 0

    def part(start: int, length: int) -> pa.Array:
        piece = array.slice(start, length)
        return piece.take(pa.array(range(length), pa.int64())) if nested else piece

    if _valid(part(0, len(array))):
        return 0
    low, high = 0, len(array)  # the first bad row is in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        if _valid(part(low, middle - low)):
            low = middle
        else:
            high = middle
    return low


def check_array(name: str, array: pa.ChunkedArray, *, first_row: int = 0, source: str = "") -> None:
    """Raise :class:`InvalidUTF8Error` naming ``name`` and the first row whose strings are
    not UTF-8 (or whose buffers are inconsistent), if any (rows counted from ``first_row``;
    ``source``: the file, named in the error)."""
    import pyarrow as pa

    if not _has_strings(array.type):
        return
    plain = pa.types.is_string(array.type) or pa.types.is_large_string(array.type)
    start = first_row
    for chunk in array.chunks:
        if not (plain and _ascii(chunk)) and not _valid(chunk):
            row = start + _first_bad(chunk)
            raise InvalidUTF8Error(name, row, str(chunk.type), source=source)
        start += len(chunk)


def check_table(table: pa.Table) -> pa.Table:
    """``table`` once every string column (nested ones too) is checked to hold UTF-8 only;
    else :class:`InvalidUTF8Error` naming the first bad column and row.

    Cost (``python -m benchmarks --only utf8``, 1,000,000 strings, load average 10-12): 2-3 ms
    for ASCII answers (19 MiB; ``pl.from_arrow`` of the column 8 ms, pyarrow's full
    validation 9-15 ms); for answers about half non-ASCII (12.6 MiB) the full validation,
    27 ms (``pl.from_arrow`` 13 ms). A table of at least 65,536 rows has its columns checked
    in threads (the core budget; pyarrow's validation releases the GIL): the benchmark data's
    two mostly non-ASCII columns of 1,000,000 rows, 0.065 s -> 0.035 s wall on 2 cores."""
    return _checked(table, as_views=False)


def check_for_polars(table: pa.Table) -> pa.Table:
    """:func:`check_table`, and then each checked ``string``/``large_string`` column cast to
    ``string_view`` (what Polars holds), in the checking thread: ``pl.from_arrow`` then takes
    the columns without converting them (it would convert them one by one, in one thread:
    about 7 ms a column of 1,000,000 rows). The cast reuses the data buffers (views only);
    a chunk whose text reaches 2 GiB is left to Polars (a view's offset is an int32)."""
    return _checked(table, as_views=True)


def _checked(table: pa.Table, *, as_views: bool) -> pa.Table:
    columns = list(zip(table.column_names, table.columns, strict=True))
    threads = min(available_cores(), len(columns))
    if threads < 2 or table.num_rows < _PARALLEL_ROWS:
        found = []
        for named in columns:  # the first bad column raised before the next is read
            found.append(_error_in(named, as_views))
            if isinstance(found[-1], InvalidUTF8Error):
                raise found[-1]
    else:
        # pyarrow's validation and casts release the GIL: columns at once, the first bad
        # one (in column order) raised, as the loop would.
        with ThreadPoolExecutor(max_workers=threads) as pool:
            found = list(pool.map(lambda named: _error_in(named, as_views), columns))
    for i, column in enumerate(found):
        if isinstance(column, InvalidUTF8Error):
            raise column
        field = table.schema.field(i)
        if column.type != field.type:  # cast to string_view
            table = table.set_column(i, field.with_type(column.type), column)
    return table


#: Tables of at least this many rows have their columns checked in threads.
_PARALLEL_ROWS = 65_536
#: A chunk with at least this many bytes of text is not cast to ``string_view`` here.
_VIEW_BYTES = 2**31 - 1


def _error_in(
    named: tuple[str, pa.ChunkedArray], as_views: bool = False
) -> InvalidUTF8Error | pa.ChunkedArray:
    """The column's error, or the column (cast to ``string_view`` if asked and plain)."""
    import pyarrow as pa

    name, column = named
    try:
        check_array(name, column)
    except InvalidUTF8Error as exc:
        return exc
    plain = pa.types.is_string(column.type) or pa.types.is_large_string(column.type)
    if not (as_views and plain and all(_text_bytes(c) < _VIEW_BYTES for c in column.chunks)):
        return column
    return column.cast(pa.string_view())


def _text_bytes(array: pa.Array) -> int:
    """Bytes of text a ``string``/``large_string`` array spans (from its offsets)."""
    import numpy as np
    import pyarrow as pa

    offsets = array.buffers()[1]
    if offsets is None or len(array) == 0:
        return 0
    width = np.int64 if pa.types.is_large_string(array.type) else np.int32
    bounds = np.frombuffer(offsets, dtype=width)[[array.offset, array.offset + len(array)]]
    return int(bounds[1]) - int(bounds[0])


def locate_in_parquet(paths: Sequence[str]) -> InvalidUTF8Error | None:
    """The first string column and row that is not UTF-8 in Parquet files (``paths``, rows
    counted over them in order), or ``None``: what explains Polars' own error, which names
    neither (pyarrow reads the bytes as stored; only the string columns are read)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    first_row = 0
    for path in paths:
        handle = pq.ParquetFile(path)
        names = [f.name for f in handle.schema_arrow if _has_strings(f.type)]
        for batch in handle.iter_batches(columns=names) if names else ():
            for name in names:
                column = pa.chunked_array([batch.column(name)])
                try:
                    check_array(name, column, first_row=first_row, source=path)
                except InvalidUTF8Error as exc:
                    return exc
            first_row += batch.num_rows
        if not names:
            first_row += handle.metadata.num_rows
    return None


def locate_in_pandas(frame: Any) -> InvalidUTF8Error | None:
    """The first column and row of a pandas DataFrame holding a string that has no UTF-8 form
    (a lone surrogate such as ``"\\udcff"``, left by ``errors="surrogateescape"``), or
    ``None``. Called only after the conversion to Arrow failed on one, so its row loop runs
    on the error path only; a column's values are tried at once first (one ``str.join``)."""
    for name in frame.columns:
        column = frame[name]
        if column.dtype != object:
            continue  # pandas' Arrow-backed strings cannot hold such a string
        texts = [v for v in column.tolist() if isinstance(v, str)]
        try:
            "".join(texts).encode("utf-8")
        except UnicodeEncodeError:
            for row, value in enumerate(column.tolist()):
                if isinstance(value, str):
                    try:
                        value.encode("utf-8")
                    except UnicodeEncodeError:
                        return InvalidUTF8Error(str(name), row, "object")
    return None
