"""Reports as text: a summary or an aligned table, Markdown, JSON or CSV (HTML: :mod:`.html_page`).

The terminal default is the *summary*: one row per group, one column per evaluator's headline
metric, each cell ``score [95% interval]``. The long table (every metric, with ``min``, ``max``,
``count``, ``skipped``, ``not_applicable`` and ``stderr``) is ``long=True``; Markdown holds both,
JSON and CSV the long table.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import polars as pl

from xpert_frames.core.aliases import ReportFormat
from xpert_frames.core.exceptions import InvalidOptionError

if TYPE_CHECKING:
    from xpert_frames.evaluators.base import BaseEvaluator

#: Output formats of ``xpert-frames report``.
FORMATS: tuple[ReportFormat, ...] = get_args(ReportFormat)
#: Report file suffixes and the formats they select.
SUFFIXES = {".json": "json", ".md": "markdown", ".markdown": "markdown", ".csv": "csv"}
SUFFIXES |= {".html": "html", ".htm": "html"}
TITLE = "xpert-frames report"
#: Width the terminal summary aims at (its notes and signatures wrap at it).
WIDTH = 120
_SLICE = 100_000
#: Characters that open Markdown/HTML constructs inline (CommonMark escapes any of them); an
#: underscore between two letters or digits cannot (``fuzzy_match_rate`` stays as it is).
_MD_SPECIAL = re.compile(r"([\\`*\[\]{}()<>&|~!$#]|(?<![^\W_])_|_(?![^\W_]))")
_GAP = "  "


def format_for(path: Path) -> str:
    """The report format a file name asks for; ``ValueError`` for an unknown suffix."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InvalidOptionError(
            f"report path must end in .json, .md, .csv or .html, got {path.name!r}"
        )
    return SUFFIXES[suffix]


def render(
    frame: pl.DataFrame,
    fmt: ReportFormat | str,
    evaluators: Sequence[BaseEvaluator] = (),
    *,
    title: str = TITLE,
    long: bool = False,
    rows: Mapping[str, str] | None = None,
) -> str:
    """A report as text. ``table`` is the summary (:func:`summary`) unless ``long``; Markdown
    holds the summary and the long table; table and Markdown end with the row filters of the
    scoring plan (``rows``: evaluator name to filter text) and the evaluators' signatures. JSON
    is ``{"report": [...], "signatures": {...}}`` (plus ``"rows"`` when there are filters)."""
    if fmt == "html":
        raise InvalidOptionError(
            "an HTML report needs the scored table: use xpert_frames.html_report"
        )
    signatures = {ev.name: ev.signature for ev in evaluators if ev.signature}
    rows = dict(rows or {})
    if fmt == "json":  # rows written by Polars: no Python object per report row
        sigs = json.dumps(signatures, ensure_ascii=False, indent=2)
        extra = f',\n"rows": {json.dumps(rows, ensure_ascii=False, indent=2)}' if rows else ""
        return f'{{"report": {frame.write_json()},\n"signatures": {sigs}{extra}}}\n'

    if fmt == "csv":
        return frame.write_csv()
    if fmt == "markdown":
        return markdown(frame, title=title, signatures=signatures, evaluators=evaluators, rows=rows)
    if not long:
        return summary(frame, evaluators, rows=rows, signatures=signatures)
    with pl.Config(
        tbl_rows=-1,
        tbl_cols=-1,
        fmt_str_lengths=60,
        tbl_width_chars=200,
        tbl_hide_dataframe_shape=True,
        tbl_hide_column_data_types=True,
    ):
        text = str(frame)
    notes = [f"{name} rows: {text}" for name, text in rows.items()]
    notes += [f"{name} signature: {sig}" for name, sig in signatures.items()]
    return text + "".join(f"\n{note}" for note in notes)


# --------------------------------------------------------------------------- summary
def headline_metrics(frame: pl.DataFrame, evaluators: Sequence[BaseEvaluator] = ()) -> list[str]:
    """The summary's metrics: each evaluator's overall metric (its first), in order; without
    evaluators, every metric of the report."""
    present = frame["metric"].unique(maintain_order=True).to_list() if frame.height else []
    if not evaluators:
        return present
    wanted = [metrics[0].metric for ev in evaluators if (metrics := ev.report_metrics())]
    return [m for m in wanted if m in present]


def summary_frame(frame: pl.DataFrame, evaluators: Sequence[BaseEvaluator] = ()) -> pl.DataFrame:
    """The summary as a table of text: the ``by`` columns (``group`` = ``all rows`` without
    any), then one column per headline metric holding ``score [ci_low,ci_high]`` (``-`` when the
    group has no scored row)."""
    by = frame.columns[: frame.columns.index("metric")]
    metrics = headline_metrics(frame, evaluators)
    groups: dict[tuple[Any, ...], dict[str, str]] = {}
    picked = frame.filter(pl.col("metric").is_in(metrics))
    for row in picked.iter_rows(named=True):  # report rows (groups x metrics), not data rows
        key = tuple(row[c] for c in by)
        cell = _cell(row["score"], row["ci_low"], row["ci_high"])
        groups.setdefault(key, {})[row["metric"]] = cell
    names = by or ["group"]
    keys = list(groups) if by else [("all rows",)]
    cells = groups if by else {("all rows",): next(iter(groups.values()), {})}
    data: dict[str, list[str]] = {
        name: ["null" if k[i] is None else _one_line(str(k[i])) for k in keys]
        for i, name in enumerate(names)
    }
    for metric in metrics:
        data[metric] = [cells.get(k, {}).get(metric, "-") for k in keys]
    return pl.DataFrame(data, schema=dict.fromkeys(data, pl.String))


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", " ")


def _cell(score: float | None, low: float | None, high: float | None) -> str:
    if score is None or math.isnan(score):
        return "-"
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return f"{score:.3f}"
    return f"{score:.3f} [{low:.2f},{high:.2f}]"


def summary(
    frame: pl.DataFrame,
    evaluators: Sequence[BaseEvaluator] = (),
    *,
    rows: Mapping[str, str] | None = None,
    signatures: Mapping[str, str] | None = None,
    width: int = WIDTH,
) -> str:
    """The terminal summary: one row per group, one column per evaluator's headline metric
    (``score [95% interval]``), aligned with spaces; then a note on the long table, the row
    filters and the signatures, wrapped at ``width``."""
    table = summary_frame(frame, evaluators)
    header = table.columns
    body = [["" if v is None else str(v) for v in row] for row in table.iter_rows()]
    widths = [max([len(h), *(len(r[i]) for r in body)]) for i, h in enumerate(header)]

    def line(values: Sequence[str]) -> str:
        return _GAP.join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    lines = [line(header), line(["-" * w for w in widths]), *(line(r) for r in body)]
    notes = ["score [95% interval]; every metric with counts: --long"]
    notes += [f"{name} rows: {text}" for name, text in (rows or {}).items()]
    notes += [f"{name} signature: {sig}" for name, sig in (signatures or {}).items()]
    return "\n".join(lines + [wrapped for note in notes for wrapped in _wrap(note, width)])


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken after spaces or ``|`` (a
    signature has no spaces); continuation lines indented by four spaces."""
    out: list[str] = []
    rest = text
    while len(rest) > width:
        cut = max(rest.rfind(" ", 0, width), rest.rfind("|", 0, width - 1) + 1)
        if cut <= 4:
            cut = width
        out.append(rest[:cut].rstrip())
        rest = "    " + rest[cut:].lstrip()
    out.append(rest)
    return out


# --------------------------------------------------------------------------- markdown
def markdown(
    frame: pl.DataFrame,
    *,
    title: str = TITLE,
    signatures: dict[str, str] | None = None,
    evaluators: Sequence[BaseEvaluator] = (),
    rows: Mapping[str, str] | None = None,
) -> str:
    """A Markdown document: a title, the summary (one row per group, one column per headline
    metric), the long report (``|`` and newlines in cells escaped, numbers right-aligned), the
    row filters of the scoring plan, the signatures, and a trailing newline."""
    lines = [f"# {_md_cell(title)}", ""]
    if frame.height and {"metric", "score", "ci_low", "ci_high"} <= set(frame.columns):
        lines += ["## Summary: score [95% interval]", ""]
        by = max(frame.columns.index("metric"), 1)
        lines += _md_table(summary_frame(frame, evaluators), right_from=by)
        lines += ["", "## Every metric", ""]
    lines += _md_table(frame)
    if rows:
        lines += ["", "Rows scored by each evaluator (beside its answer types):", ""]
        lines += [f"- {_md_cell(name)}: `{_md_code(text)}`" for name, text in rows.items()]
    for name, sig in (signatures or {}).items():
        quoted = sig.replace("`", "'")
        lines += ["", f"{_md_cell(name)} signature: `{quoted}`"]
    return "\n".join(lines) + "\n"


def _md_table(frame: pl.DataFrame, *, right_from: int | None = None) -> list[str]:
    """Rows of a Markdown table; numbers (or every column from ``right_from``) right-aligned."""
    numeric = [dtype.is_numeric() for dtype in frame.dtypes]
    if right_from is not None:
        numeric = [i >= right_from for i in range(frame.width)]
    lines = ["| " + " | ".join(_md_cell(c) for c in frame.columns) + " |"]
    lines.append("|" + "|".join("---:" if n else "---" for n in numeric) + "|")
    for row in frame.iter_rows():  # report rows (one per group and metric), not data rows
        lines.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
    return lines


def _md_code(text: str) -> str:
    return text.replace("`", "'").replace("\n", " ")


def _md_cell(value: Any) -> str:
    """A value as Markdown text that renders as itself: every character that can open a
    Markdown or HTML construct inline (links and images, emphasis, code, raw HTML, entities,
    strikethrough, math, table cells) is backslash-escaped (an underscore inside a word is
    left: it cannot open emphasis); line breaks become ``<br>``."""
    if value is None:
        return ""
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.6g}"
    if isinstance(value, int):
        return str(value)
    text = _MD_SPECIAL.sub(r"\\\1", str(value))
    return text.replace("\r\n", "<br>").replace("\n", "<br>").replace("\r", "<br>")


def write_report(
    frame: pl.DataFrame,
    fmt: ReportFormat | str,
    path: str | Path,
    evaluators: Sequence[BaseEvaluator] = (),
    *,
    rows: Mapping[str, str] | None = None,
) -> None:
    """:func:`render` into a file; JSON and CSV rows are written by Polars a slice at a time
    (a report of a million groups is never one Python string)."""
    with open(path, "w", encoding="utf-8") as handle:
        if fmt == "csv":
            frame.write_csv(handle)
        elif fmt == "json":
            signatures = {ev.name: ev.signature for ev in evaluators if ev.signature}
            handle.write('{"report": [')
            for start in range(0, frame.height, _SLICE):
                part = frame.slice(start, _SLICE).write_json()[1:-1]
                handle.write(("," if start else "") + part)
            handle.write("]")
            handle.write(f',\n"signatures": {json.dumps(signatures, ensure_ascii=False, indent=2)}')
            if rows:
                handle.write(f',\n"rows": {json.dumps(dict(rows), ensure_ascii=False, indent=2)}')
            handle.write("}\n")
        else:
            handle.write(render(frame, fmt, evaluators, rows=rows))
