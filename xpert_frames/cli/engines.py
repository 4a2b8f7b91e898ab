"""How ``xpert-frames score`` runs: the scoring plan, in this process (chunked, atomic) or
through Ray Data."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import click
import polars as pl

from xpert_frames.cli import files, lines, progress, safety
from xpert_frames.core import interrupt
from xpert_frames.core.frames import Columns
from xpert_frames.plans import Plan
from xpert_frames.scoring import Evaluators, plan

#: Rows scored at once within a chunk: between pieces, a stop request (Ctrl-C) is seen.
PIECE_ROWS = 100_000


def scored_plan(
    lf: pl.LazyFrame,
    evaluators: Evaluators,
    columns: Columns,
    all_rows: bool,
    row_id: str,
    offset: int = 0,
) -> pl.LazyFrame:
    """The scoring plan (validated against the input as given), with ``row_id`` added
    (numbered from ``offset``: the first row's place in the input)."""
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
    indexed = lf.with_row_index(row_id, offset=offset).with_columns(pl.col(row_id).cast(pl.Int64))
    return plan(indexed, evaluators, columns, all_rows=all_rows).select(
        *in_schema.names(), row_id, *outputs
    )


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


def chunk_scorer(
    evaluators: Evaluators,
    columns: Columns,
    all_rows: bool,
    row_id: str,
    piece_rows: int = PIECE_ROWS,
) -> Callable[[pl.DataFrame, int], pl.DataFrame]:
    """``score(chunk, offset)``: one chunk of input rows scored on its own, in pieces of
    ``piece_rows`` rows; a stop request (:mod:`xpert_frames.core.interrupt`) is raised between
    pieces (the symbolic pool and the tokenizer workers stop sooner, within a piece)."""

    def score(chunk: pl.DataFrame, offset: int) -> pl.DataFrame:
        pieces = []
        for start in range(0, max(chunk.height, 1), piece_rows):
            piece = chunk.slice(start, piece_rows).lazy()
            lf = scored_plan(piece, evaluators, columns, all_rows, row_id, offset + start)
            pieces.append(lf.collect(engine="streaming"))
            interrupt.raise_pending()
        return pieces[0] if len(pieces) == 1 else pl.concat(pieces, rechunk=False)

    return score


def score_in_process(
    inputs: tuple[str, ...],
    output: Path,
    source: pl.LazyFrame,
    score: Callable[[pl.DataFrame, int], pl.DataFrame],
    scoring_plan: Plan,
    chunk_rows: int,
    quiet: bool,
) -> float:
    """Score ``source`` (the input scan) into ``output`` atomically, ``chunk_rows`` input rows
    at a time (:func:`files.sink_chunked`), with the configuration (evaluators and row filters)
    in its metadata; returns when start-up (tokenizers, dictionaries) ended. The work runs on a
    thread that stops between pieces after a signal (:func:`safety.run_stoppable`)."""
    meta = scoring_plan.metadata()  # the configuration travels with the scores
    evaluators = scoring_plan.evaluators
    total = files.count_rows(inputs)
    progress.warm_up(evaluators)
    ready = time.perf_counter()
    bar = progress.bar(total=total, disable=quiet)

    def sink(lf: pl.LazyFrame, rows: int, tmp: Path) -> None:
        files.sink_chunked(
            lf, score, tmp, total=rows, chunk_rows=chunk_rows, advance=bar.update, metadata=meta
        )

    def write(tmp: Path) -> None:
        if total is not None:  # Parquet: slices read from its row groups
            sink(source, total, tmp)
        else:  # a line format: read once into a temporary Parquet file, then the same
            with files.staged(source, output) as (lf, rows):
                bar.total = rows
                sink(lf, rows, tmp)
        bar.close()

    try:
        files.write_atomic(output, lambda tmp: safety.run_stoppable(lambda: write(tmp)))
    except pl.exceptions.PolarsError:
        if total is None:  # a line format: name the file and line if one is the cause
            lines.diagnose([str(p) for p in files.expand(inputs)])
        raise
    return ready
