"""How ``xpert-frames score`` runs: the scoring plan, in this process (chunked, atomic) or
through Ray Data."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click
import polars as pl

from xpert_frames.cli import files, lines, progress
from xpert_frames.core.frames import Columns
from xpert_frames.plans import Plan
from xpert_frames.scoring import plan

if TYPE_CHECKING:
    import pyarrow as pa


def scored_plan(
    lf: pl.LazyFrame,
    evaluators: Plan,
    columns: Columns,
    all_rows: bool,
    row_id: str,
) -> pl.LazyFrame:
    """The scoring plan (validated against the input as given), with ``row_id`` added."""
    in_schema = lf.collect_schema()
    scored = plan(lf, evaluators, columns, all_rows=all_rows)
    if row_id and row_id in in_schema and not in_schema[row_id].is_integer():
        raise click.BadParameter(
            f"column {row_id!r} is in the input as {in_schema[row_id]}, not integers; name "
            "another column (--row-id n) or none (--row-id '')",
            param_hint="'--row-id'",
        )
    if not row_id or row_id in in_schema:
        return scored
    # The row index goes on the scan, under the scoring: a chunk's slice then reaches the
    # Parquet reader (a row index above the scoring would make every chunk start at row 0).
    outputs = scored.collect_schema().names()[len(in_schema) :]
    indexed = lf.with_row_index(row_id).with_columns(pl.col(row_id).cast(pl.Int64))
    return plan(indexed, evaluators, columns, all_rows=all_rows).select(
        *in_schema.names(), row_id, *outputs
    )


def scored_chunks(
    lf: pl.LazyFrame,
    scoring_plan: Plan,
    columns: Columns,
    all_rows: bool,
    row_id: str,
    *,
    total: int,
    chunk_rows: int,
    advance: Callable[[int], object] | None = None,
) -> Iterator[pa.Table]:
    """The scored table, ``chunk_rows`` input rows at a time, as :func:`scored_plan` gives it.

    Each chunk of the input is read (its slice reaching the Parquet reader), made contiguous,
    then scored: a chunk read from several files (a directory) or row groups is scored as one
    batch, so the evaluators' per-batch work (regex compilation, number parsing setup) runs
    once per chunk, not once per file."""
    in_schema = lf.collect_schema()
    source, order = lf, in_schema.names()
    if row_id and row_id not in in_schema:
        source = lf.with_row_index(row_id).with_columns(pl.col(row_id).cast(pl.Int64))
        order = [*order, row_id]
    for offset in range(0, max(total, 1), chunk_rows):
        part = source.slice(offset, chunk_rows).collect(engine="streaming").rechunk()
        scored = plan(part.lazy(), scoring_plan, columns, all_rows=all_rows)
        outputs = scored.collect_schema().names()[len(order) :]
        table = scored.select(*order, *outputs).collect().to_arrow()
        yield table
        if advance is not None:
            advance(table.num_rows)


def score_with_ray(
    inputs: tuple[str, ...],
    output: Path,
    evaluators: Plan,
    columns: Columns,
    address: str | None,
    row_id: str,
    all_rows: bool,
    quiet: bool,
) -> float:
    """Read, score and write through Ray Data; returns when start-up ended."""
    try:
        from xpert_frames.cli.ray_engine import score_files
    except ImportError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing in ("ray", "aiohttp", "pyarrow"):  # the extra is not installed
            raise click.UsageError(
                f"--engine ray needs Ray Data, which is not installed (no module {exc.name!r}); "
                "install the extra with: pip install 'xpert-frames[ray]', or score in this "
                "process (--engine polars, the default)"
            ) from None
        raise click.UsageError(str(exc)) from None
    ready = time.perf_counter()
    with progress.held_stderr(quiet):  # Ray's C++ core and workers write to fd 2
        score_files(
            inputs,
            output,
            evaluators,
            columns,
            address=address,
            row_id=row_id or None,
            all_rows=all_rows,
            quiet=quiet,
        )
    return ready


def score_in_process(
    inputs: tuple[str, ...],
    output: Path,
    scored: pl.LazyFrame,
    scoring_plan: Plan,
    chunk_rows: int,
    quiet: bool,
    chunks: Callable[..., Iterator[pa.Table]] | None = None,
) -> float:
    """Stream the plan into ``output`` atomically, with the configuration (evaluators and row
    filters) in its metadata; returns when start-up (tokenizers, dictionaries) ended."""
    meta = scoring_plan.metadata()  # the configuration travels with the scores
    evaluators = scoring_plan.evaluators
    total = files.count_rows(inputs)
    progress.warm_up(evaluators)
    ready = time.perf_counter()
    bar = progress.bar(total=total, disable=quiet)

    def write(tmp: Path) -> None:
        if total is not None and chunks is not None:  # Parquet: bounded, contiguous chunks
            files.write_tables(
                tmp, chunks(total=total, chunk_rows=chunk_rows, advance=bar.update), meta
            )
        elif total is not None:  # Parquet: bounded chunks, whatever the plan holds in memory
            files.sink_chunked(
                scored, tmp, total=total, chunk_rows=chunk_rows, advance=bar.update, metadata=meta
            )
        else:
            tracked = progress.track(scored, evaluators[0].score_column, bar)
            tracked.sink_parquet(tmp, metadata=meta)
        bar.close()

    try:
        files.write_atomic(output, write)
    except pl.exceptions.PolarsError:
        if total is None:  # a line format: name the file and line if one is the cause
            lines.diagnose([str(p) for p in files.expand(inputs)])
        raise
    return ready
