"""The ``xpert-frames`` console script. Choices and defaults come from the registry.

Exit codes: 0 ok, 2 usage or input error (a clear message, no traceback), 1 unexpected.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import polars as pl

from xpert_frames import io, progress, provenance, registry, safety
from xpert_frames.cli_options import parse_evaluator
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.exceptions import XpertFramesError
from xpert_frames.frames import Columns
from xpert_frames.report import (
    detect_evaluators,
    finalize,
    merge_partials,
    partials,
    refuse_unknown_options,
    report_plan,
)
from xpert_frames.report import report as make_report
from xpert_frames.safety import ReportFailedError
from xpert_frames.scoring import as_evaluators, plan

ROLE_FLAGS = (
    "prediction",
    "answer",
    "answer_type",
    "choices",
    "tcm_eval_type",
    "reference",
    "meta",
)


def _columns(kwargs: dict[str, Any]) -> Columns:
    return Columns.of(**{role: kwargs[role] for role in ROLE_FLAGS if kwargs.get(role)})


def _role_options(func: Any) -> Any:
    defaults = Columns()
    for role in reversed(ROLE_FLAGS):
        flag = "--" + role.replace("_", "-")
        func = click.option(
            flag,
            role,
            default=None,
            metavar="COLUMN",
            help=f"column holding the {role.replace('_', ' ')} "
            f"(default {getattr(defaults, role)!r})",
        )(func)
    return func


# --------------------------------------------------------------------------- output
def render(frame: pl.DataFrame, fmt: str, evaluators: Sequence[BaseEvaluator] = ()) -> str:
    """A report as text; table and Markdown end with the evaluators' signatures, JSON is
    ``{"report": [...], "signatures": {...}}``."""
    signatures = {ev.name: ev.signature for ev in evaluators if ev.signature}
    if fmt == "json":
        payload = {"report": frame.to_dicts(), "signatures": signatures}
        return json.dumps(payload, ensure_ascii=False, indent=2)
    if fmt == "csv":
        return frame.write_csv()
    if fmt == "markdown":
        with pl.Config(
            tbl_formatting="MARKDOWN",
            tbl_hide_column_data_types=True,
            tbl_hide_dataframe_shape=True,
            tbl_rows=-1,
            tbl_cols=-1,
            fmt_str_lengths=80,
            tbl_width_chars=10_000,
        ):
            text = str(frame)
        return text + "".join(f"\n\n`{sig}`" for sig in signatures.values())
    with pl.Config(
        tbl_rows=-1,
        tbl_cols=-1,
        fmt_str_lengths=60,
        tbl_width_chars=200,
        tbl_hide_dataframe_shape=True,
        tbl_hide_column_data_types=True,
    ):
        text = str(frame)
    return text + "".join(f"\n{name} signature: {sig}" for name, sig in signatures.items())


def report_file(
    path: Path, by: list[str], evaluators: Sequence[BaseEvaluator], chunk_rows: int
) -> pl.DataFrame:
    """The report of a scored Parquet file, ``chunk_rows`` rows at a time: each slice is reduced
    to the report's mergeable state, merged into the state so far (duplicates counted once)."""
    lf = pl.scan_parquet(path)
    metrics = report_plan(lf.collect_schema(), by, evaluators)
    total = lf.select(pl.len()).collect().item()
    state: pl.DataFrame | None = None
    for offset in range(0, max(total, 1), chunk_rows):
        part = partials(lf.slice(offset, chunk_rows), by, metrics)
        state = part if state is None else merge_partials([state, part])
    assert state is not None  # at least one slice
    return finalize(state, metrics)


def _format_for(path: Path) -> str:
    suffix = path.suffix.lower()
    formats = {".json": "json", ".md": "markdown", ".markdown": "markdown", ".csv": "csv"}
    if suffix not in formats:
        raise click.BadParameter(f"report path must end in .json, .md or .csv, got {path.name!r}")
    return formats[suffix]


def _by(value: str | None) -> list[str]:
    return [c.strip() for c in value.split(",") if c.strip()] if value else []


# --------------------------------------------------------------------------- commands
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="xpert-frames")
def cli() -> None:
    """Score LLM outputs against reference answers over Parquet, JSONL or CSV."""


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="scored Parquet file (written atomically)",
)
@click.option(
    "-e",
    "--evaluator",
    "specs",
    multiple=True,
    required=True,
    metavar="NAME[:OPT=V,...]",
    help="evaluator to apply; repeat for several (see `xpert-frames evaluators`)",
)
@click.option(
    "--report",
    "report_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="also write the report (.json, .md or .csv)",
)
@click.option("--by", default=None, help="comma-separated columns to group the report by")
@click.option(
    "--row-id",
    default="row_id",
    show_default=True,
    help="column numbering the input rows (0-based, input order) for joining scores back; "
    "left as is when the input has it; empty to add none",
)
@click.option(
    "--engine",
    type=click.Choice(["polars", "ray"]),
    default="polars",
    show_default=True,
    help="polars: score in this process; ray: read, score and write through Ray Data "
    "(pip install 'xpert-frames[ray]')",
)
@click.option(
    "--address",
    default=None,
    metavar="ADDRESS",
    help="with --engine ray: the Ray cluster to join ('auto': the cluster this machine is "
    "part of); default: start Ray on this machine",
)
@click.option(
    "--chunk-rows",
    type=click.IntRange(min=1),
    default=io.CHUNK_ROWS,
    show_default=True,
    help="rows scored at a time from Parquet inputs (bounds memory; one row group each)",
)
@click.option("-q", "--quiet", is_flag=True, help="print nothing but errors")
@_role_options
def score(
    inputs: tuple[str, ...],
    output: Path,
    specs: tuple[str, ...],
    report_path: Path | None,
    by: str | None,
    row_id: str,
    engine: str,
    address: str | None,
    chunk_rows: int,
    quiet: bool,
    **roles: Any,
) -> None:
    """Score INPUTS (Parquet files, directories or globs; JSONL; CSV) into OUTPUT."""
    started = time.perf_counter()
    evaluators = as_evaluators([parse_evaluator(s) for s in specs])  # also: names must differ
    fmt = _format_for(report_path) if report_path else None
    safety.check_outputs(io.expand(inputs), output, report_path)
    lf = io.scan(inputs)
    scored = plan(lf, evaluators, _columns(roles))  # validates against the input as given
    if row_id and row_id not in lf.collect_schema():
        # The row index goes on the scan, under the scoring: a chunk's slice then reaches the
        # Parquet reader (a row index above the scoring would make every chunk start at row 0).
        inputs_cols = lf.collect_schema().names()
        outputs = [name for ev in evaluators for name in ev.output_names()]
        indexed = lf.with_row_index(row_id).with_columns(pl.col(row_id).cast(pl.Int64))
        scored = plan(indexed, evaluators, _columns(roles)).select(*inputs_cols, row_id, *outputs)
    group = _by(by)
    schema = scored.collect_schema()
    missing = [c for c in group if c not in schema]
    if missing:
        raise click.BadParameter(f"--by column(s) {missing} not in the input: {schema.names()}")
    if address is not None and engine != "ray":
        raise click.BadParameter("--address needs --engine ray", param_hint="'--address'")
    meta = provenance.metadata(evaluators)  # the configuration travels with the scores
    if engine == "ray":
        try:
            from xpert_frames.ray import score_files
        except ImportError as exc:
            raise click.UsageError(str(exc)) from None
        score_files(
            inputs,
            output,
            evaluators,
            _columns(roles),
            address=address,
            row_id=row_id or None,
        )
    else:
        total = io.count_rows(inputs)
        bar = progress.bar(total=total, disable=quiet)

        def write(tmp: Path) -> None:
            if total is not None:  # Parquet: bounded chunks, whatever the plan holds in memory
                io.sink_chunked(
                    scored,
                    tmp,
                    total=total,
                    chunk_rows=chunk_rows,
                    advance=bar.update,
                    metadata=meta,
                )
            else:
                tracked = progress.track(scored, evaluators[0].score_column, bar)
                tracked.sink_parquet(tmp, metadata=meta)
            bar.close()

        io.write_atomic(output, write)
    # The scored file is in place before the report is made: a report that fails (memory, a
    # bad --by) loses nothing; it is reported as an error naming the kept output.
    try:
        made = report_file(output, group, evaluators, chunk_rows)
        if report_path and fmt:
            io.write_text_atomic(report_path, render(made, fmt, evaluators))
    except Exception as exc:
        raise ReportFailedError(
            f"the scores were written to {output}, but the report failed: {exc}; retry with "
            f"`xpert-frames report {output}`"
        ) from exc
    if not quiet:
        result = pl.scan_parquet(output)
        rows = result.select(pl.len()).collect().item()
        skipped = (
            result.select(
                pl.any_horizontal(pl.col(ev.score_column).is_null() for ev in evaluators).sum()
            )
            .collect()
            .item()
        )
        seconds = time.perf_counter() - started
        click.echo(render(made, "table", evaluators))
        click.echo(
            f"scored {rows:,} rows ({skipped:,} skipped by at least one evaluator) in "
            f"{seconds:.2f} s ({rows / seconds if seconds else 0:,.0f} rows/s) -> {output}"
        )


@cli.command("report")
@click.argument("scored", nargs=-1, required=True)
@click.option("--by", default=None, help="comma-separated columns to group by")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "markdown", "json", "csv"]),
    default="table",
    show_default=True,
)
def report_cmd(scored: tuple[str, ...], by: str | None, fmt: str) -> None:
    """Report on already scored files (evaluators rebuilt from the configuration a scored
    Parquet file records; else found from the score columns)."""
    files = io.expand(scored)
    lf = io.scan(files)
    evaluators = provenance.read_evaluators(files) if io.kind(files[0]) == "parquet" else None
    if evaluators is None:
        evaluators = detect_evaluators(lf.collect_schema())
        refuse_unknown_options(evaluators)
    click.echo(render(make_report(lf, by=_by(by), evaluators=evaluators), fmt, evaluators))


@cli.command()
def evaluators() -> None:
    """List the registered evaluators, their options and defaults."""
    for record in registry.records():
        lo, hi = record.score_range
        types = ", ".join(record.answer_types) or "any"
        click.echo(f"{record.name}: {record.description}")
        click.echo(f"    answer types: {types}; score range [{lo}, {hi}]; metric {record.metric!r}")
        for option, default in record.options().items():
            click.echo(f"    --  {option} = {default!r}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code instead of raising for input errors."""
    try:
        with safety.signals_as_exceptions():
            cli.main(
                args=list(argv) if argv is not None else None,
                prog_name="xpert-frames",
                standalone_mode=False,
            )
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("interrupted", err=True)
        return 130
    except safety.Terminated as exc:
        click.echo(f"terminated by {exc.name}", err=True)
        return 128 + exc.signum
    except click.ClickException as exc:
        exc.show()
        return 2
    except (XpertFramesError, pl.exceptions.PolarsError, OSError) as exc:
        if (signum := safety.received()) is not None:  # a signal wrapped by a library
            return _signalled(signum)
        click.echo(f"error: {exc}", err=True)
        return 2
    except Exception as exc:  # unexpected: say so, keep the traceback for bug reports
        if (signum := safety.received()) is not None:
            return _signalled(signum)
        import traceback

        traceback.print_exc()
        click.echo(f"unexpected error: {type(exc).__name__}: {exc}", err=True)
        return 1
    return 0


def _signalled(signum: int) -> int:
    import signal

    click.echo(f"stopped by {signal.Signals(signum).name}", err=True)
    return 130 if signum == signal.SIGINT else 128 + signum


if __name__ == "__main__":
    sys.exit(main())
