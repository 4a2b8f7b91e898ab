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

from xpert_frames import registry
from xpert_frames.cli import files, progress
from xpert_frames.core.exceptions import XpertFramesError
from xpert_frames.core.frames import Columns
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.registry import detect_evaluators
from xpert_frames.reporting.render import FORMATS, render
from xpert_frames.reporting.report import report as make_report
from xpert_frames.reporting.report import report_parquet
from xpert_frames.scoring import check_names, plan

ROLE_FLAGS = (
    "prediction",
    "answer",
    "answer_type",
    "choices",
    "tcm_eval_type",
    "reference",
    "meta",
)


# --------------------------------------------------------------------------- option parsing
def _convert(option: str, raw: str, default: Any) -> Any:
    """Text from the command line, typed after the option's default."""
    lowered = raw.strip().lower()
    if isinstance(default, bool) or lowered in ("true", "false"):
        if lowered in ("true", "1", "yes"):
            return True
        if lowered in ("false", "0", "no"):
            return False
        raise click.BadParameter(f"option {option!r} takes true/false, got {raw!r}")
    if isinstance(default, list | tuple) or "|" in raw:
        kind = type(default[0]) if isinstance(default, list | tuple) and default else None
        return [_convert(option, part, kind() if kind else None) for part in raw.split("|") if part]
    if isinstance(default, int) and not isinstance(default, bool):
        try:
            return int(raw)
        except ValueError:
            return float(raw) if _is_float(raw) else raw
    if isinstance(default, float):
        return float(raw) if _is_float(raw) else raw
    if raw.startswith(("{", "[")):
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise click.BadParameter(f"option {option!r}: invalid JSON {raw!r}: {exc}") from None
    if default is None and _is_float(raw):
        return float(raw)
    return raw


def _is_float(raw: str) -> bool:
    try:
        float(raw)
    except ValueError:
        return False
    return True


def parse_evaluator(spec: str) -> BaseEvaluator:
    """``name`` or ``name:opt=value,opt=value`` (lists as ``a|b``, mappings as JSON)."""
    name, _, rest = spec.partition(":")
    record = registry.get_record(name.strip())
    defaults = record.options()
    options: dict[str, Any] = {}
    for item in _split_options(rest):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise click.BadParameter(f"expected opt=value in {spec!r}, got {item!r}")
        options[key] = _convert(key, value, defaults.get(key))
    return registry.get_evaluator(record.name, **options)


def _split_options(text: str) -> list[str]:
    """Split on commas that are not inside JSON brackets."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "[{"
        depth -= char in "]}"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    return [p for p in parts if p.strip()]


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
    default=files.CHUNK_ROWS,
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
    evaluators = check_names([parse_evaluator(s) for s in specs])  # also: names must differ
    fmt = _format_for(report_path) if report_path else None
    lf = files.scan(inputs)
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
    holder: dict[str, pl.DataFrame] = {}

    def finish(tmp: Path) -> None:
        # The report is made from the written file before it is renamed into place: a failure
        # here leaves neither output nor report behind.
        holder["report"] = report_parquet(tmp, group, evaluators, chunk_rows)
        if report_path and fmt:
            files.write_text_atomic(report_path, render(holder["report"], fmt, evaluators))

    if engine == "ray":
        try:
            from xpert_frames.cli.ray_engine import score_files
        except ImportError as exc:
            raise click.UsageError(str(exc)) from None
        score_files(
            inputs,
            output,
            evaluators,
            _columns(roles),
            address=address,
            row_id=row_id or None,
            after_write=finish,
        )
    else:
        total = files.count_rows(inputs)
        bar = progress.bar(total=total, disable=quiet)

        def write(tmp: Path) -> None:
            if total is not None:  # Parquet: bounded chunks, whatever the plan holds in memory
                files.sink_chunked(
                    scored, tmp, total=total, chunk_rows=chunk_rows, advance=bar.update
                )
            else:
                progress.track(scored, evaluators[0].score_column, bar).sink_parquet(tmp)
            bar.close()
            finish(tmp)

        files.write_atomic(output, write)
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
        click.echo(render(holder["report"], "table", evaluators))
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
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
)
def report_cmd(scored: tuple[str, ...], by: str | None, fmt: str) -> None:
    """Report on already scored files."""
    lf = files.scan(scored)
    evaluators = detect_evaluators(lf.collect_schema())
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
        cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="xpert-frames",
            standalone_mode=False,
        )
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.ClickException as exc:
        exc.show()
        return 2
    except (XpertFramesError, pl.exceptions.PolarsError, OSError) as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    except Exception as exc:  # unexpected: say so, keep the traceback for bug reports
        import traceback

        traceback.print_exc()
        click.echo(f"unexpected error: {type(exc).__name__}: {exc}", err=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
