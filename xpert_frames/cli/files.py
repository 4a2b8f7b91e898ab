"""Reading inputs lazily and writing outputs atomically (:mod:`xpert_frames.core.atomic`)."""

from __future__ import annotations

import contextlib
import glob
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from xpert_frames.core import interrupt
from xpert_frames.core.atomic import temporary_beside
from xpert_frames.core.atomic import write_atomic as write_atomic
from xpert_frames.core.atomic import write_text_atomic as write_text_atomic
from xpert_frames.core.exceptions import InputError

if TYPE_CHECKING:
    import pyarrow as pa

#: Rows scored at a time by :func:`sink_chunked`.
CHUNK_ROWS = 500_000
_PARQUET = (".parquet", ".pq")
_JSONL = (".jsonl", ".ndjson", ".json")
_CSV = (".csv", ".tsv")


def expand(inputs: Sequence[str | Path]) -> list[Path]:
    """Files named by ``inputs``: files, directories (their Parquet files, recursively) and
    globs. Missing paths and empty matches are errors."""
    files: list[Path] = []
    for item in inputs:
        text = str(item)
        path = Path(text)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() in _PARQUET)
            if not found:
                raise InputError(f"directory {text!r} holds no Parquet files")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        elif glob.has_magic(text):
            found = sorted(Path(p) for p in glob.glob(text, recursive=True) if Path(p).is_file())
            if not found:
                raise InputError(f"glob {text!r} matched no files")
            files.extend(found)
        else:
            raise InputError(f"input {text!r} does not exist")
    kinds = {kind(p) for p in files}
    if len(kinds) > 1:
        raise InputError(f"inputs mix file kinds {sorted(kinds)}; score each kind separately")
    return files


def kind(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in _PARQUET:
        return "parquet"
    if suffix in _JSONL:
        return "jsonl"
    if suffix in _CSV:
        return "csv"
    raise InputError(
        f"cannot read {str(path)!r}: expected .parquet, .jsonl/.ndjson or .csv, got {suffix!r}"
    )


def scan(inputs: Sequence[str | Path]) -> pl.LazyFrame:
    """One LazyFrame over all inputs (Parquet, JSONL or CSV), in file order."""
    files = expand(inputs)
    file_kind = kind(files[0])
    names = [str(p) for p in files]
    if file_kind == "parquet":
        for name in names:
            _check_parquet(name)
        return pl.scan_parquet(names)
    if file_kind == "jsonl":
        from xpert_frames.cli.lines import scan_jsonl  # values read per line as written

        for name in names:
            _check_utf8(name)
        lf = pl.concat([scan_jsonl(n) for n in names], how="diagonal_relaxed")
        return _drop_empty_structs(lf)
    from xpert_frames.cli.lines import scan_csv  # header checked for repeated names

    for name in names:
        _check_utf8(name)
    sep = "\t" if names[0].lower().endswith(".tsv") else ","
    return pl.concat([scan_csv(n, sep) for n in names], how="diagonal_relaxed")


def _drop_empty_structs(lf: pl.LazyFrame) -> pl.LazyFrame:
    """JSON objects that are always ``{}`` infer as structs without fields, which Parquet
    cannot store: keep such columns, as all-null columns."""
    schema = lf.collect_schema()
    empty = [
        name for name, dtype in schema.items() if isinstance(dtype, pl.Struct) and not dtype.fields
    ]
    return lf.with_columns(pl.lit(None, pl.Null).alias(name) for name in empty) if empty else lf


def _check_parquet(name: str) -> None:
    try:
        pl.read_parquet_schema(name)
    except Exception as exc:
        raise InputError(f"cannot read Parquet file {name!r}: {exc}") from None


def _check_utf8(name: str) -> None:
    """Report the first line that is not valid UTF-8, with file and line number."""
    with open(name, "rb") as handle:
        for number, line in enumerate(handle, 1):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{name}:{number}: invalid UTF-8 at byte {exc.start} of the line; "
                    "re-encode the file as UTF-8"
                ) from None


def count_rows(inputs: Sequence[str | Path]) -> int | None:
    """Row count of Parquet inputs from their metadata (``None`` for other kinds)."""
    files = expand(inputs)
    if kind(files[0]) != "parquet":
        return None
    return int(pl.scan_parquet([str(p) for p in files]).select(pl.len()).collect().item())


def write_tables(
    path: Path, tables: Iterable[pa.Table], metadata: dict[str, str] | None = None
) -> int:
    """Append ``tables`` (one row group each) to one new Parquet file; later tables are cast to
    the first one's schema. ``metadata`` goes into the file's key-value metadata (the scoring
    configuration). Returns the number of tables written (0: no file was created)."""
    import pyarrow.parquet as pq

    writer: pq.ParquetWriter | None = None
    count = 0
    try:
        for table in tables:
            if metadata is not None:
                table = table.replace_schema_metadata(metadata)
            if writer is None:
                writer = pq.ParquetWriter(path, table.schema, compression="zstd")
            elif table.schema != writer.schema:
                table = table.cast(writer.schema)
            writer.write_table(table)
            count += 1
    finally:
        if writer is not None:
            writer.close()
    return count


@contextlib.contextmanager
def staged(source: pl.LazyFrame, beside: Path) -> Iterator[tuple[pl.LazyFrame, int]]:
    """``source`` (a JSONL or CSV scan, which cannot be sliced without reading it from its
    start) written once, as read, to a temporary Parquet file beside ``beside`` (the output:
    named as :mod:`xpert_frames.core.atomic` names temporary files, removed afterwards): a scan
    of it, whose slices read only their own row groups, and its row count."""
    with temporary_beside(beside, ".input") as stage:
        source.sink_parquet(stage, row_group_size=CHUNK_ROWS // 4)
        lf = pl.scan_parquet(stage)
        yield lf, int(lf.select(pl.len()).collect().item())


def sink_chunked(
    source: pl.LazyFrame,
    score: Callable[[pl.DataFrame, int], pl.DataFrame],
    path: Path,
    *,
    total: int,
    chunk_rows: int = CHUNK_ROWS,
    advance: Callable[[int], object] | None = None,
    metadata: dict[str, str] | None = None,
) -> None:
    """Score the input ``chunk_rows`` rows at a time into one Parquet file (one row group per
    chunk).

    Each chunk is a slice of the *input* (``source``, a Parquet scan of ``total`` rows: the
    slice reads only the row groups it needs), scored on its own by ``score(chunk, offset)``
    (``offset``: the chunk's first row in the input) and appended. No step of the scoring plan
    ever sees more than one chunk, whatever it holds in memory (a batch function over a whole
    column, a mapping replacement): peak memory follows ``chunk_rows``, time the number of
    rows. A stop request (:mod:`xpert_frames.core.interrupt`) is raised between chunks.
    """

    def chunks() -> Iterator[pa.Table]:
        for offset in range(0, max(total, 1), chunk_rows):
            interrupt.raise_pending()
            # One contiguous batch: a chunk read from several files (a directory) or row groups
            # reaches the evaluators' per-batch work (regexes, number parsing) once, not per file.
            chunk = source.slice(offset, chunk_rows).collect().rechunk()
            table = score(chunk, offset).to_arrow()
            interrupt.raise_pending()
            yield table
            if advance is not None:
                advance(table.num_rows)

    write_tables(path, chunks(), metadata)
