"""The same scores and the same reports on Ray Data, from one laptop to a cluster.

Import it explicitly (``from xpert_frames.ray import score_dataset``); ``import xpert_frames``
never imports Ray. Install with ``pip install 'xpert-frames[ray]'``.

- :func:`score_dataset` maps :class:`~xpert_frames.scoring.BatchScorer` over a dataset with a
  pool of actors: each worker process unpickles the evaluators once and keeps its per-process
  setup (jieba dictionary, tokenizers) for every batch it scores.
- :func:`report_dataset` reduces every batch to the additive statistics of
  :func:`xpert_frames.report.partials`, adds them up on the driver and finalizes them: the report
  equals ``xf.report`` of the whole table (floating-point sums up to summation order).
- :func:`score_files` reads Parquet, JSONL or CSV through Ray Data and writes one Parquet file
  atomically, rows in input order (the ``--engine ray`` CLI path).
"""

from __future__ import annotations

import base64
import csv
import importlib.util
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from xpert_frames import frames, io, stats
from xpert_frames._options import check_int
from xpert_frames.report import (
    Metric,
    finalize,
    merge_partials,
    partials,
    report_plan,
)
from xpert_frames.scoring import BatchScorer, EvaluatorLike, as_evaluators

try:
    import ray
    import ray.data
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "xpert_frames.ray needs Ray Data, which is not installed; "
        "install it with: pip install 'xpert-frames[ray]'"
    ) from exc

if TYPE_CHECKING:
    from xpert_frames.evaluators.base import BaseEvaluator

__all__ = ["BATCH_SIZE", "report_dataset", "score_dataset", "score_files"]

#: Rows per batch. Below the jieba two-process threshold (``tokenize.pool.MIN_PARALLEL``), so a
#: worker actor never starts processes of its own, and small enough to bound worker memory.
BATCH_SIZE = 10_000
_SCHEMA_KEY = b"xpert_frames.schema"
_METRICS_KEY = b"xpert_frames.metrics"

Actors = int | tuple[int, int] | None


# --------------------------------------------------------------------------- scoring
class _ScoreBatches:
    """The callable class Ray Data instantiates once per worker actor."""

    def __init__(self, scorer: BatchScorer) -> None:
        self.scorer = scorer

    def __call__(self, batch: pa.Table) -> pa.Table:
        return self.scorer(batch)


def score_dataset(
    ds: ray.data.Dataset,
    evaluators: EvaluatorLike | Sequence[EvaluatorLike],
    *,
    columns: frames.Columns | Mapping[str, str] | None = None,
    actors: Actors = None,
    batch_size: int = BATCH_SIZE,
    all_rows: bool = False,
    **names: str,
) -> ray.data.Dataset:
    """``ds`` with score columns appended, computed lazily by a pool of worker actors.

    Same arguments as :func:`xpert_frames.score` (names or instances; column roles as keywords).
    ``actors`` is the pool size: an int, ``(min, max)`` to autoscale, or ``None`` for Ray's
    default (autoscaling from 1). Rows keep their input order only when the dataset's
    ``context.execution_options.preserve_order`` is set; otherwise blocks may come back in
    completion order (rows inside a block keep their order).

    >>> scored = score_dataset(ray.data.read_parquet("answers/"), ["fuzzy"])  # doctest: +SKIP
    """
    scorer = BatchScorer(evaluators, columns=columns, all_rows=all_rows, **names)
    schema = _known_schema(ds)
    if schema is not None:  # fail on the driver, before any worker starts
        scorer(schema.empty_table())
    return ds.map_batches(
        _ScoreBatches,
        fn_constructor_args=(scorer,),
        batch_format="pyarrow",
        batch_size=check_int("batch_size", batch_size, low=1),
        compute=_pool(actors),
        udf_modifying_row_count=False,
    )


def _pool(actors: Actors) -> ray.data.ActorPoolStrategy:
    if actors is None:
        return ray.data.ActorPoolStrategy(min_size=1, max_size=None)
    if isinstance(actors, tuple) and len(actors) == 2:
        low = check_int("actors[0]", actors[0], low=1)
        high = check_int("actors[1]", actors[1], low=low)
        return ray.data.ActorPoolStrategy(min_size=low, max_size=high)
    if isinstance(actors, int) and not isinstance(actors, bool):
        return ray.data.ActorPoolStrategy(size=check_int("actors", actors, low=1))
    raise TypeError(f"actors must be an int, a (min, max) tuple or None, got {actors!r}")


def _known_schema(ds: ray.data.Dataset) -> pa.Schema | None:
    """The dataset's Arrow schema if Ray knows it without running anything, else ``None``."""
    return _arrow_schema(ds.schema(fetch_if_missing=False))


def _arrow_schema(schema: ray.data.Schema | None) -> pa.Schema | None:
    """A Ray schema as an Arrow schema (``None`` if unknown or not expressible in Arrow)."""
    if schema is None:
        return None
    base = schema.base_schema
    if isinstance(base, pa.Schema):
        return base
    types = schema.types
    if all(isinstance(t, pa.DataType) for t in types):  # pandas blocks with Arrow-typed columns
        return pa.schema(list(zip(schema.names, types, strict=True)))
    return None


# --------------------------------------------------------------------------- reports
def _partials_of(
    batch: pa.Table,
    by: list[str],
    evaluators: list[BaseEvaluator] | None,
) -> pa.Table:
    """One batch's additive statistics, with the batch schema and metric names as metadata."""
    metrics = report_plan(frames.schema_of(batch), by, evaluators)
    out = partials(batch, by, metrics).to_arrow()
    return out.replace_schema_metadata(
        {
            _SCHEMA_KEY: base64.b64encode(batch.schema.serialize().to_pybytes()),
            _METRICS_KEY: json.dumps([m.metric for m in metrics]).encode(),
        }
    )


def report_dataset(
    ds: ray.data.Dataset,
    by: str | Sequence[str] | None = None,
    *,
    evaluators: Sequence[EvaluatorLike] | None = None,
    n_boot: int = stats.N_BOOT,
    batch_size: int = BATCH_SIZE,
) -> pl.DataFrame:
    """``xf.report`` of a scored dataset, computed where the data is.

    Each batch is reduced to per-group sums, sums of squares, min, max, counts and bootstrap
    sums (corpus metrics: their summed statistics) by Ray tasks; only those small tables reach
    the driver, which merges and finalizes them. Exact, not sampled: counts, skipped, min and
    max equal ``xf.report`` of the whole table; means, standard errors and intervals agree to
    1e-12 relative (the same sums, added in another order). Evaluators are found from
    ``<name>_score`` columns unless given (pass them when one was registered at runtime: workers
    only know the evaluators their own import registers).
    """
    group = [by] if isinstance(by, str) else list(by or [])
    evs = as_evaluators(evaluators) if evaluators is not None else None
    n_boot = check_int("n_boot", n_boot, low=1)
    known = _known_schema(ds)
    if known is not None:  # fail on the driver, before any task starts
        report_plan(_polars_schema(known), group, evs)
    parts = ds.map_batches(
        _partials_of,
        fn_kwargs={"by": group, "evaluators": evs},
        batch_format="pyarrow",
        batch_size=check_int("batch_size", batch_size, low=1),
    )
    tables = [t for t in ray.get(parts.to_arrow_refs()) if t.num_rows]
    if not tables:  # an empty dataset: the report of an empty table
        return _empty_report(ds, group, evs, n_boot)
    metrics = _driver_metrics(tables, group, evs)
    merged = merge_partials([pl.DataFrame(t.replace_schema_metadata(None)) for t in tables])
    return finalize(merged, metrics, n_boot=n_boot)


def _driver_metrics(
    tables: list[pa.Table], by: list[str], evaluators: list[BaseEvaluator] | None
) -> list[Metric]:
    """The workers' metric list, rebuilt here from the batch schema they sent back."""
    meta = [t.schema.metadata or {} for t in tables]
    if any(_SCHEMA_KEY not in m for m in meta):
        raise RuntimeError("a partial report came back without its batch schema (Ray bug?)")
    names = {m[_METRICS_KEY] for m in meta}
    if len(names) > 1:
        raise ValueError(
            "batches of the dataset have different score columns, so their reports cannot be "
            f"merged: {sorted(n.decode() for n in names)}"
        )
    schema = _polars_schema(
        pa.ipc.read_schema(pa.py_buffer(base64.b64decode(meta[0][_SCHEMA_KEY])))
    )
    metrics = report_plan(schema, by, evaluators)
    if json.dumps([m.metric for m in metrics]).encode() not in names:
        raise ValueError(
            "the Ray workers found different evaluators for the score columns than this process "
            "(an evaluator registered at runtime?); pass evaluators=[...] to report_dataset"
        )
    return metrics


def _empty_report(
    ds: ray.data.Dataset, by: list[str], evs: list[BaseEvaluator] | None, n_boot: int
) -> pl.DataFrame:
    schema = _arrow_schema(ds.schema())
    if schema is None:
        raise ValueError("cannot report on an empty dataset whose schema Ray does not know")
    empty = schema.empty_table()
    metrics = report_plan(frames.schema_of(empty), by, evs)
    return finalize(partials(empty, by, metrics), metrics, n_boot=n_boot)


def _polars_schema(schema: pa.Schema) -> pl.Schema:
    return frames.schema_of(schema.empty_table())


# --------------------------------------------------------------------------- files (CLI)
def score_files(
    inputs: Sequence[str],
    output: Path,
    evaluators: EvaluatorLike | Sequence[EvaluatorLike],
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

    Every input row and column in order, then ``row_id`` (a 0-based Int64 row number in input
    order, added unless the input has that column or ``row_id`` is empty), then the score
    columns. The file is written atomically: a temporary file beside ``output``, on which
    ``after_write(tmp)`` runs (a report, say) before the rename; if anything fails, ``output`` is
    untouched. ``address`` goes to ``ray.init`` (``"auto"`` joins a running cluster; ``None``
    starts Ray on this machine) unless this process is already connected to Ray, in which case
    it must be ``None``. A Ray instance started here is shut down before returning.
    ``quiet`` turns off Ray's Python log lines and Ray Data's progress bars (the CLI also holds
    back the C++ core's lines, see :func:`xpert_frames.progress.held_stderr`).
    """
    files = io.expand(inputs)
    scorer = BatchScorer(evaluators, columns=columns, all_rows=all_rows)
    if quiet:
        _silence()
    started = _connect(address, quiet)
    try:
        ds = _read(files)
        # Ray reads at most the first block for this: column errors surface here, with a clean
        # message, rather than from inside a worker.
        schema = _arrow_schema(ds.schema())
        if schema is not None:
            scorer(schema.empty_table())
        scored = score_dataset(
            ds,
            scorer.evaluators,
            columns=scorer.columns,
            actors=actors,
            batch_size=batch_size,
            all_rows=scorer.all_rows,
        )
        scored.context.execution_options.preserve_order = True
        n_out = len(scorer.output_names(schema))

        def write(tmp: Path) -> None:
            _write_parquet(scored, tmp, n_out, row_id or None)
            if after_write is not None:
                after_write(tmp)

        io.write_atomic(output, write)
    finally:
        if started:
            ray.shutdown()


def _silence() -> None:
    """Ray's Python log lines and Ray Data's progress bars off."""
    import logging

    for name in ("ray", "ray.data", "ray.data._internal"):
        logging.getLogger(name).setLevel(logging.ERROR)
    ray.data.DataContext.get_current().enable_progress_bars = False
    ray.data.DataContext.get_current().print_on_execution_start = False


def _connect(address: str | None, quiet: bool = False) -> bool:
    if ray.is_initialized():
        if address is not None:
            raise ValueError(
                f"this process is already connected to Ray, so address={address!r} cannot be "
                "used; pass address=None to use the current connection"
            )
        return False
    if quiet:
        import logging

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


def _write_parquet(scored: ray.data.Dataset, path: Path, n_out: int, row_id: str | None) -> None:
    """Stream the dataset's batches, in order, into one Parquet file on this machine."""
    writer: pq.ParquetWriter | None = None
    offset = 0
    try:
        for batch in scored.iter_batches(batch_format="pyarrow", batch_size=None):
            n_in = batch.num_columns - n_out
            if row_id is not None and row_id not in batch.column_names[:n_in]:
                numbers = pa.array(np.arange(offset, offset + batch.num_rows, dtype=np.int64))
                batch = batch.add_column(n_in, row_id, numbers)
            offset += batch.num_rows
            if writer is None:
                writer = pq.ParquetWriter(path, batch.schema)
            elif batch.schema != writer.schema:
                batch = batch.cast(writer.schema)
            writer.write_table(batch)
        if writer is None:  # no rows: an empty file with the scored schema
            schema = _arrow_schema(scored.schema())
            if schema is None:
                raise ValueError("the inputs hold no rows and Ray does not know their schema")
            if row_id is not None and row_id not in schema.names[: len(schema) - n_out]:
                schema = schema.insert(len(schema) - n_out, pa.field(row_id, pa.int64()))
            pq.write_table(schema.empty_table(), path)
    finally:
        if writer is not None:
            writer.close()
