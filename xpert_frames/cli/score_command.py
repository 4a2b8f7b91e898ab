"""``xpert-frames score``: score input files into a scored Parquet file, then (unless quiet)
the report, printed and/or written (``--report``) from the scored file once it is in place."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import polars as pl

from xpert_frames.cli import engines, files, progress, safety
from xpert_frames.cli.options import BY_HELP, build_plan, columns_from, group_columns, role_options
from xpert_frames.core import utf8
from xpert_frames.core.frames import Columns
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.plans import Plan
from xpert_frames.reporting.html_page import html_report
from xpert_frames.reporting.render import format_for, render, write_report
from xpert_frames.reporting.report import report_parquet


# --------------------------------------------------------------------------- output
def _write_report(
    path: Path,
    scored: Path,
    rep: pl.DataFrame,
    evaluators: Sequence[BaseEvaluator],
    by: list[str],
    baseline: str | None,
    columns: Columns,
    rows: dict[str, str] | None = None,
) -> None:
    fmt = format_for(Path(path))
    if fmt == "html":
        text = html_report(
            pl.scan_parquet(scored),
            by,
            evaluators=evaluators,
            report_frame=rep,
            baseline=baseline,
            columns=columns,
        )
        files.write_text_atomic(path, text)
    else:  # streamed: a report of a million groups is never one Python string
        files.write_atomic(path, lambda tmp: write_report(rep, fmt, tmp, evaluators, rows=rows))


# --------------------------------------------------------------------------- commands
SCORE_EXAMPLES = """\b
Examples:
  xpert-frames score answers.parquet -o scored.parquet -e accuracy -e math
  xpert-frames score answers/ -o scored.parquet -e "fuzzy:threshold=0.8,normalize=case|width" \\
      --by model --report report.html
  xpert-frames score answers/ -o scored.parquet -e accuracy -e bleu \\
      --rows "bleu: task = 'translation'"
  xpert-frames score answers/ -o scored.parquet --plan plan.toml --by model

\b
-e NAME:opt=value,opt=value sets an evaluator's options (lists as a|b, mappings as JSON);
`xpert-frames evaluators` lists names, options and defaults. With an answer_type column each
evaluator scores only the rows it fits; --all-rows scores every row with every evaluator.
--rows NAME:SQL narrows an evaluator to the rows of a SQL predicate over the input's columns
(the others are not applicable to it); a plan file says evaluators, options and rows at once:

\b
  [evaluators.bleu]
  rows = "task = 'translation'"
  [evaluators.fuzzy_strict]
  evaluator = "fuzzy"
  options = { threshold = 0.9 }
  rows = "task = 'translation'"
"""


@click.command(epilog=SCORE_EXAMPLES)
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
    metavar="NAME[:OPT=V,...]",
    help="evaluator to apply, e.g. -e accuracy or -e fuzzy:threshold=0.8; repeat for several",
)
@click.option(
    "--plan",
    "plan_path",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="scoring plan (TOML): evaluators, their options and the rows each scores",
)
@click.option(
    "--rows",
    "rows",
    multiple=True,
    metavar="NAME:SQL",
    help="score evaluator NAME on the rows of a SQL predicate only, e.g. "
    "\"bleu: task = 'translation'\"; repeat for several",
)
@click.option(
    "--report",
    "report_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="also write the report: .json, .md, .csv or .html (a self-contained page)",
)
@click.option("--by", multiple=True, metavar="COLUMN", help=BY_HELP)
@click.option(
    "--baseline",
    default=None,
    metavar="MODEL",
    help="HTML report: the model the others are compared against (default: first by name)",
)
@click.option(
    "--all-rows",
    is_flag=True,
    help="score every row with every evaluator, whatever its answer_type",
)
@click.option(
    "--row-id",
    default="row_id",
    show_default=True,
    help="column numbering the input rows (0-based, input order) for joining scores back; "
    "left as is when the input has it as integers; empty to add none",
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
    help="input rows scored at a time, each chunk on its own: peak memory follows this, not "
    "the input's size (one row group each)",
)
@click.option(
    "--long", "long_table", is_flag=True, help="print the long report (every metric and count)"
)
@click.option("-q", "--quiet", is_flag=True, help="print nothing but errors (Ray's logs too)")
@role_options
def score(
    inputs: tuple[str, ...],
    output: Path,
    specs: tuple[str, ...],
    plan_path: Path | None,
    rows: tuple[str, ...],
    report_path: Path | None,
    by: tuple[str, ...],
    baseline: str | None,
    all_rows: bool,
    row_id: str,
    engine: str,
    address: str | None,
    chunk_rows: int,
    long_table: bool,
    quiet: bool,
    **roles: Any,
) -> None:
    """Score INPUTS (Parquet files, directories or globs; JSONL; CSV) into OUTPUT."""
    started = time.perf_counter()
    scoring_plan = build_plan(plan_path, specs, rows)  # also: names must differ
    evaluators = scoring_plan.evaluators
    _check_score_options(report_path, baseline, engine, address)
    columns = columns_from(roles)
    safety.check_outputs(files.expand(inputs), output, report_path)
    source = files.scan(inputs)
    scored = engines.scored_plan(source, scoring_plan, columns, all_rows, row_id)
    group = group_columns(by, scored.collect_schema().names())
    if engine == "ray":
        ready = engines.score_with_ray(
            inputs, output, scoring_plan, columns, address, row_id, all_rows, quiet
        )
    else:
        score_chunk = engines.chunk_scorer(scoring_plan, columns, all_rows, row_id)
        try:
            ready = engines.score_in_process(
                inputs, output, source, score_chunk, scoring_plan, chunk_rows, quiet
            )
        except pl.exceptions.ComputeError as exc:
            raise _explained(exc, inputs) from None
    done = time.perf_counter()
    rep = None
    if report_path or not quiet:  # else nobody reads a report
        rep = safety.run_stoppable(  # a signal is raised at once, not after the report
            lambda: _report_after(
                output, report_path, group, scoring_plan, baseline, columns, chunk_rows
            ),
            # the report sees a stop request between its slices; its file is written after
        )
    if not quiet and rep is not None:
        text = render(rep, "table", evaluators, long=long_table, rows=scoring_plan.describe_rows())
        click.echo(text)
        click.echo(progress.summary(output, evaluators, (started, ready, done), engine))


def _explained(exc: Exception, inputs: Sequence[str]) -> Exception:
    """Polars' error on invalid UTF-8 in Parquet input names no column: the column, row and
    file (:func:`~xpert_frames.core.utf8.locate_in_parquet`), else ``exc`` itself."""
    names = [str(p) for p in files.expand(inputs)]
    if "UTF-8" not in str(exc) or files.kind(Path(names[0])) != "parquet":
        return exc
    return utf8.locate_in_parquet(names) or exc


def _check_score_options(
    report_path: Path | None, baseline: str | None, engine: str, address: str | None
) -> None:
    if report_path:
        try:
            format_for(report_path)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--report'") from None
    if baseline is not None and not (report_path and format_for(report_path) == "html"):
        raise click.BadParameter("--baseline is for HTML reports: add --report report.html")
    if address is not None and engine != "ray":
        raise click.BadParameter("--address needs --engine ray", param_hint="'--address'")


def _report_after(
    output: Path,
    report_path: Path | None,
    group: list[str],
    scoring_plan: Plan,
    baseline: str | None,
    columns: Columns,
    chunk_rows: int,
) -> pl.DataFrame:
    """The report, made from the scored file once it is in place: a report that fails (memory,
    say) loses nothing, and the error names the kept output."""
    evaluators = scoring_plan.evaluators
    try:
        rep = report_parquet(output, group, evaluators, chunk_rows)
        if report_path:
            rows = scoring_plan.describe_rows()
            _write_report(report_path, output, rep, evaluators, group, baseline, columns, rows)
    except Exception as exc:
        raise safety.ReportFailedError(
            f"the scores were written to {output}, but the report failed: {exc}; retry "
            f"with `xpert-frames report {output}`"
        ) from exc
    return rep
