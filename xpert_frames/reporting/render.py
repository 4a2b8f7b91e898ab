"""Reports as text: an aligned table, Markdown, JSON or CSV."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, get_args

import polars as pl

from xpert_frames.core.aliases import ReportFormat

if TYPE_CHECKING:
    from xpert_frames.evaluators.base import BaseEvaluator

_SLICE = 100_000
#: Output formats of ``xpert-frames report``.
FORMATS: tuple[ReportFormat, ...] = get_args(ReportFormat)


def render(
    frame: pl.DataFrame, fmt: ReportFormat | str, evaluators: Sequence[BaseEvaluator] = ()
) -> str:
    """A report as text; table and Markdown end with the evaluators' signatures, JSON is
    ``{"report": [...], "signatures": {...}}``."""
    signatures = {ev.name: ev.signature for ev in evaluators if ev.signature}
    if fmt == "json":  # rows written by Polars: no Python object per report row
        sigs = json.dumps(signatures, ensure_ascii=False, indent=2)
        return f'{{"report": {frame.write_json()},\n"signatures": {sigs}}}\n'

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


def write_report(
    frame: pl.DataFrame,
    fmt: ReportFormat | str,
    path: str | Path,
    evaluators: Sequence[BaseEvaluator] = (),
) -> None:
    """:func:`render` into a file; JSON and CSV rows are streamed by Polars (a report of a
    million groups is never one Python string)."""
    with open(path, "w", encoding="utf-8") as handle:
        if fmt == "csv":
            frame.write_csv(handle)
        elif fmt == "json":
            signatures = {ev.name: ev.signature for ev in evaluators if ev.signature}
            handle.write('{"report": [')
            for start in range(0, frame.height, _SLICE):  # bounded text: a slice at a time
                rows = frame.slice(start, _SLICE).write_json()[1:-1]
                handle.write(("," if start else "") + rows)
            handle.write("]")
            handle.write(
                f',\n"signatures": {json.dumps(signatures, ensure_ascii=False, indent=2)}}}\n'
            )
        else:
            handle.write(render(frame, fmt, evaluators))
