"""Values from the data as HTML of bounded size: escaped, cut to :data:`SHOWN` characters in
labels and headings and :data:`CELL` characters in table cells, a cut value ending with ``…``
and its tooltip holding the value (up to :data:`~xpert_frames.reporting.svg.TIP_LIMIT`
characters); and small tables of such cells."""

from __future__ import annotations

from typing import Any

import polars as pl

from xpert_frames.reporting.svg import esc, tip

#: Characters of a label or heading taken from the data (a group, a model, a column name).
SHOWN = 80
#: Characters of a table cell (a prediction, a reference).
CELL = 400


def cell(value: Any) -> str:
    if isinstance(value, float):
        return f'<td class="n">{value:.4f}</td>'
    if isinstance(value, int) and not isinstance(value, bool):
        return f'<td class="n">{value:,}</td>'
    return f'<td class="t">{shown(value, CELL)}</td>'


def shown(value: Any, limit: int = SHOWN) -> str:
    """``value`` as escaped text of at most ``limit`` characters; a longer value is cut with
    ``…`` and its tooltip holds it (up to ``svg.TIP_LIMIT`` characters)."""
    text = "" if value is None else str(value)
    if len(text) <= limit:
        return esc(text)
    return f'<span title="{esc(tip(text))}">{esc(text[: limit - 1])}…</span>'


def html_table(frame: pl.DataFrame) -> str:
    head = "".join(f"<th>{shown(c)}</th>" for c in frame.columns)
    body = "".join(  # a few hundred report or listed rows at most, never the data
        "<tr>" + "".join(cell(v) for v in row) + "</tr>" for row in frame.iter_rows()
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
