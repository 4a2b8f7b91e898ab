"""``xpert-frames report``: the report of already scored files, as a table, Markdown, JSON,
CSV or a self-contained HTML page; the configuration recorded with the scores when there is one."""

from __future__ import annotations

from pathlib import Path

import click

from xpert_frames.api import refuse_unknown_options
from xpert_frames.cli import files, safety
from xpert_frames.cli.options import BY_HELP, group_columns
from xpert_frames.plans import Plan
from xpert_frames.registry import detect_evaluators
from xpert_frames.reporting.html_page import html_report
from xpert_frames.reporting.render import FORMATS, format_for, render
from xpert_frames.reporting.report import report as make_report
from xpert_frames.reporting.report import report_parquet


@click.command("report")
@click.argument("scored", nargs=-1, required=True)
@click.option("--by", multiple=True, metavar="COLUMN", help=BY_HELP)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="table (default on a terminal), markdown, json, csv, or html (a self-contained "
    "page with charts; needs -o); default: from the -o suffix, else table",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="write the report to this file (atomically) instead of printing it",
)
@click.option(
    "--baseline",
    default=None,
    metavar="MODEL",
    help="HTML: the model the others are compared against (default: first by name)",
)
@click.option(
    "--long",
    "long_table",
    is_flag=True,
    help="table: the long report (every metric and count) instead of the summary",
)
def report_cmd(
    scored: tuple[str, ...],
    by: tuple[str, ...],
    fmt: str | None,
    output: Path | None,
    baseline: str | None,
    long_table: bool,
) -> None:
    """Report on already scored files: a table, Markdown, JSON, CSV or an HTML page.

    \b
    Examples:
      xpert-frames report scored.parquet --by model
      xpert-frames report scored.parquet --by model,answer_type --format markdown
      xpert-frames report scored.parquet --by model --by "city, state"  # a comma in a name
      xpert-frames report scored.parquet --by model --format html -o report.html
    """
    if fmt is None:
        fmt = format_for(output) if output is not None else "table"
    if fmt == "html" and output is None:
        raise click.BadParameter("--format html writes a file: add -o report.html")
    if baseline is not None and fmt != "html":
        raise click.BadParameter("--baseline is for HTML reports: add --format html")
    paths = files.expand(scored)
    lf = files.scan(paths)
    # As recorded with the scores (a scored Parquet file), else found from the score columns.
    recorded = Plan.from_scored(paths) if files.kind(paths[0]) == "parquet" else None
    rows = recorded.describe_rows() if recorded is not None else {}
    if recorded is not None:
        evaluators = recorded.evaluators
    else:
        evaluators = detect_evaluators(lf.collect_schema())
        refuse_unknown_options(evaluators)
    group = group_columns(by, lf.collect_schema().names())
    parquet = files.kind(paths[0]) == "parquet"

    def work() -> str:
        # Parquet in slices (a stop request is seen between them; memory follows the slice),
        # other files (JSONL, CSV: read whole anyway) in one piece.
        if parquet:
            rep = report_parquet(lf, group, evaluators, files.CHUNK_ROWS)
        else:
            rep = make_report(lf, by=group, evaluators=evaluators)
        if fmt == "html":
            return html_report(
                lf, group, evaluators=evaluators, report_frame=rep, baseline=baseline
            )
        return render(rep, fmt, evaluators, long=long_table, rows=rows)

    # On a thread, so that Ctrl-C or SIGTERM stops the command at once, not after the report;
    # nothing is written before the work ends (the output is written atomically after it).
    text = safety.run_stoppable(work, grace=1.0)
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        files.write_text_atomic(output, text)
