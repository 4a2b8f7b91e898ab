"""Reports as text: an aligned table, Markdown, JSON or CSV (HTML: :mod:`.html`)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import polars as pl

from xpert_frames.core.aliases import ReportFormat

if TYPE_CHECKING:
    from xpert_frames.evaluators.base import BaseEvaluator

#: Output formats of ``xpert-frames report``.
FORMATS: tuple[ReportFormat, ...] = get_args(ReportFormat)
#: Report file suffixes and the formats they select.
SUFFIXES = {".json": "json", ".md": "markdown", ".markdown": "markdown", ".csv": "csv"}
SUFFIXES |= {".html": "html", ".htm": "html"}
TITLE = "xpert-frames report"
_SLICE = 100_000
#: Characters that open Markdown/HTML constructs inline (CommonMark escapes any of them); an
#: underscore between two letters or digits cannot (``fuzzy_match_rate`` stays as it is).
_MD_SPECIAL = re.compile(r"([\\`*\[\]{}()<>&|~!$#]|(?<![^\W_])_|_(?![^\W_]))")


def format_for(path: Path) -> str:
    """The report format a file name asks for; ``ValueError`` for an unknown suffix."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"report path must end in .json, .md, .csv or .html, got {path.name!r}")
    return SUFFIXES[suffix]


def render(
    frame: pl.DataFrame,
    fmt: ReportFormat | str,
    evaluators: Sequence[BaseEvaluator] = (),
    *,
    title: str = TITLE,
) -> str:
    """A report as text; table and Markdown end with the evaluators' signatures, JSON is
    ``{"report": [...], "signatures": {...}}``."""
    if fmt == "html":
        raise ValueError("an HTML report needs the scored table: use xpert_frames.html_report")
    signatures = {ev.name: ev.signature for ev in evaluators if ev.signature}
    if fmt == "json":  # rows written by Polars: no Python object per report row
        sigs = json.dumps(signatures, ensure_ascii=False, indent=2)
        return f'{{"report": {frame.write_json()},\n"signatures": {sigs}}}\n'

    if fmt == "csv":
        return frame.write_csv()
    if fmt == "markdown":
        return markdown(frame, title=title, signatures=signatures)
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


def markdown(
    frame: pl.DataFrame, *, title: str = TITLE, signatures: dict[str, str] | None = None
) -> str:
    """A Markdown document: a title, the report as a table (``|`` and newlines in cells
    escaped, numbers right-aligned), the signatures, and a trailing newline."""
    numeric = [dtype.is_numeric() for dtype in frame.dtypes]
    lines = [f"# {_md_cell(title)}", ""]
    lines.append("| " + " | ".join(_md_cell(c) for c in frame.columns) + " |")
    lines.append("|" + "|".join("---:" if n else "---" for n in numeric) + "|")
    for row in frame.iter_rows():  # report rows (one per group and metric), not data rows
        lines.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
    for name, sig in (signatures or {}).items():
        quoted = sig.replace("`", "'")
        lines += ["", f"{_md_cell(name)} signature: `{quoted}`"]
    return "\n".join(lines) + "\n"


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
                rows = frame.slice(start, _SLICE).write_json()[1:-1]
                handle.write(("," if start else "") + rows)
            handle.write("]")
            handle.write(
                f',\n"signatures": {json.dumps(signatures, ensure_ascii=False, indent=2)}}}\n'
            )
        else:
            handle.write(render(frame, fmt, evaluators))
