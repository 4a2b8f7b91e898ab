"""Reports as text: an aligned table, Markdown, JSON or CSV."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, get_args

import polars as pl

from xpert_frames.core.aliases import ReportFormat

if TYPE_CHECKING:
    from xpert_frames.evaluators.base import BaseEvaluator

#: Output formats of ``xpert-frames report``.
FORMATS: tuple[ReportFormat, ...] = get_args(ReportFormat)


def render(
    frame: pl.DataFrame, fmt: ReportFormat | str, evaluators: Sequence[BaseEvaluator] = ()
) -> str:
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
