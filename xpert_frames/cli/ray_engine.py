"""``xpert-frames score --engine ray``: read Parquet, JSONL or CSV through Ray Data, score with
:func:`xpert_frames.ray_data.score_dataset` and write one Parquet file atomically, rows in input
order."""

from __future__ import annotations

import csv
import importlib.util
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import cast

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import ray
import ray.data

from xpert_frames.api import BatchScorer
from xpert_frames.cli import files
from xpert_frames.core import frames
from xpert_frames.core.exceptions import EmptyInputError, InvalidOptionError
from xpert_frames.plans import PlanLike
from xpert_frames.ray_data import BATCH_SIZE, Actors, arrow_schema, score_dataset


def score_files(
    inputs: Sequence[str],
    output: Path,
    evaluators: PlanLike,
    columns: frames.Columns | Mapping[str, str] | None,
    *,
    address: str | None,
    row_id: str | None = None,
    after_write: Callable[[Path], None] | None = None,
    actors: Actors = None,
    batch_size: int = BATCH_SIZE,
    all_rows: bool = False,
    quiet: bool = False,
) -> None:
    """Score Parquet/JSONL/CSV ``inputs`` through Ray Data into ONE Parquet file ``output``.

    ``evaluators`` is anything :func:`xpert_frames.score` takes, a scoring plan too.

    Every input row and column in order, then ``row_id`` (a 0-based Int64 row number in input
    order, added unless the input has that column or ``row_id`` is empty), then the score
    columns. The file is written atomically: a temporary file beside ``output``, on which
    ``after_write(tmp)`` runs (a report, say) before the rename; if anything fails, ``output`` is
    untouched. ``address`` goes to ``ray.init`` (``"auto"`` joins a running cluster; ``None``
    starts Ray on this machine) unless this process is already connected to Ray, in which case
    it must be ``None``. A Ray instance started here is shut down before returning.
    ``all_rows`` scores every row with every evaluator (see :func:`xpert_frames.score`);
    ``quiet`` turns off Ray's Python log lines and Ray Data's progress bars (the CLI also holds
    back the C++ core's lines, see :func:`xpert_frames.cli.progress.held_stderr`).
    """
    paths = files.expand(inputs)
    scorer = BatchScorer(evaluators, columns=columns, all_rows=all_rows)
    if quiet:
        _silence()
    started = _connect(address, quiet)
    try:
        ds = _read(paths)
        # Ray reads at most the first block for this: column errors surface here, with a clean
        # message, rather than from inside a worker.
        schema = arrow_schema(ds.schema())
        if schema is not None:
            scorer(schema.empty_table())
        scored = score_dataset(
            ds,
            scorer.plan,
            columns=scorer.columns,
            actors=actors,
            batch_size=batch_size,
            all_rows=all_rows,
        )
        scored.context.execution_options.preserve_order = True
        n_out = len(scorer.output_names(schema))  # <name>_applicable columns follow the schema

        def write(tmp: Path) -> None:
            meta = scorer.plan.metadata()  # the configuration travels along
            _write_parquet(scored, tmp, n_out, row_id or None, meta)
            if after_write is not None:
                after_write(tmp)

        files.write_atomic(output, write)
    finally:
        if started:
            ray.shutdown()


def _silence() -> None:
    """Ray's Python log lines and Ray Data's progress bars off."""
    for name in ("ray", "ray.data", "ray.data._internal"):
        logging.getLogger(name).setLevel(logging.ERROR)
    ray.data.DataContext.get_current().enable_progress_bars = False
    ray.data.DataContext.get_current().print_on_execution_start = False


def _connect(address: str | None, quiet: bool = False) -> bool:
    if ray.is_initialized():
        if address is not None:
            raise InvalidOptionError(
                f"this process is already connected to Ray, so address={address!r} cannot be "
                "used; pass address=None to use the current connection"
            )
        return False
    if quiet:
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    else:
        ray.init(address=address)
    return True


def _read(files: list[Path]) -> ray.data.Dataset:
    names = [str(p) for p in files]
    suffix = files[0].suffix.lower()
    if suffix in (".parquet", ".pq"):
        if len(names) > 1 and importlib.util.find_spec("aiohttp") is None:
            # Ray Data lists several Parquet files in threads that each try to import fsspec's
            # HTTP filesystem; without aiohttp that import races and fails as an ImportError.
            raise ImportError(
                "reading several Parquet files through Ray Data needs aiohttp; "
                "install it with: pip install 'xpert-frames[ray]'"
            )
        return ray.data.read_parquet(names, file_extensions=None)
    if suffix in (".jsonl", ".ndjson", ".json"):
        # Arrow's JSON reader takes one object per line (``lines=True`` would go through pandas).
        return ray.data.read_json(names, file_extensions=None)
    # As the in-process CLI (Polars): every CSV column is text; an empty field is null, a quoted
    # "" is an empty string.
    import pyarrow.csv as pacsv

    delimiter = "\t" if suffix == ".tsv" else ","
    header: dict[str, pa.DataType] = {}
    for path in files:
        with open(path, newline="", encoding="utf-8") as handle:
            header |= {name: pa.string() for name in next(csv.reader(handle, delimiter=delimiter))}
    return ray.data.read_csv(
        names,
        file_extensions=None,
        parse_options=pacsv.ParseOptions(delimiter=delimiter),
        convert_options=pacsv.ConvertOptions(
            column_types=header,
            strings_can_be_null=True,
            null_values=[""],
            quoted_strings_can_be_null=False,
        ),
    )


def _write_parquet(
    scored: ray.data.Dataset,
    path: Path,
    n_out: int,
    row_id: str | None,
    metadata: dict[str, str] | None = None,
) -> None:
    """Stream the dataset's batches, in order, into one Parquet file on this machine."""

    def batches() -> Iterator[pa.Table]:
        offset = 0
        for block in scored.iter_batches(batch_format="pyarrow", batch_size=None):
            batch = cast(pa.Table, block)  # batch_format="pyarrow": a Table
            n_in = batch.num_columns - n_out
            if row_id is not None and row_id not in batch.column_names[:n_in]:
                numbers = pa.array(np.arange(offset, offset + batch.num_rows, dtype=np.int64))
                batch = batch.add_column(n_in, row_id, numbers)
            offset += batch.num_rows
            yield batch

    if files.write_tables(path, batches(), metadata) == 0:  # no rows: an empty file, scored schema
        schema = arrow_schema(scored.schema())
        if schema is None:
            raise EmptyInputError("the inputs hold no rows and Ray does not know their schema")
        if row_id is not None and row_id not in schema.names[: len(schema) - n_out]:
            schema = schema.insert(len(schema) - n_out, pa.field(row_id, pa.int64()))
        pq.write_table(schema.empty_table().replace_schema_metadata(metadata), path)
