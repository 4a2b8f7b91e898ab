"""The HTML report's sections about models: the paired comparison of each model against the
baseline, and the wrong answers of each model with what was extracted from them."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from xpert_frames.core import frames
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.reporting.compare import compare
from xpert_frames.reporting.html_cells import html_table, shown
from xpert_frames.reporting.svg import COLORS, dot_chart, esc


def compare_section(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    evs: Sequence[BaseEvaluator],
    model: str | None,
    baseline: str | None,
    on: str,
) -> str:
    head = '<h2 id="compare">Paired comparison</h2>'
    if model is None or model not in schema or on not in schema:
        return head + (
            f'<p class="note">Needs a model column and an item column {shown(on)} '
            f"(found model={shown(model)}).</p>"
        )
    charts, tables, used = [], [], baseline
    for i, ev in enumerate(evs):
        table = compare(lf, model, ev.score_column, on=on, baseline=baseline)
        if table.height == 0:
            continue
        used = table["baseline"][0]
        span = ev.score_range[1] - ev.score_range[0]
        rows = [
            (r["model"], r["diff"], r["ci_low"], r["ci_high"]) for r in table.iter_rows(named=True)
        ]
        charts.append(
            dot_chart(
                f"{ev.name}: difference to {used} (95% interval)",
                rows,
                domain=(-span, span),
                zero=0.0,
                color=COLORS[i % len(COLORS)],
            )
        )
        tables.append(f"<h3>{shown(ev.name)}</h3>{html_table(table)}")
    note = (
        f'<p class="note">Each model minus the baseline {shown(used)} on the items '
        f"({shown(on)}) "
        "both answered; paired bootstrap intervals and p-values.</p>"
    )
    return head + note + f'<div class="charts">{"".join(charts)}</div>' + "".join(tables)


def wrong_section(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    evs: Sequence[BaseEvaluator],
    model: str | None,
    on: str,
    cols: frames.Columns,
    limit: int,
) -> str:
    parts = ['<h2 id="wrong">Wrong answers</h2>']
    answer = cols.answer if cols.answer in schema else cols.reference
    columns_shown = [c for c in (on, cols.prediction, answer) if c in schema]
    key = model if model is not None and model in schema else None
    for ev in evs:
        lo, hi = ev.score_range
        s = pl.col(ev.score_column)
        wrong = (s == lo) if ev.binary_score else (s < (lo + hi) / 2)
        extra = [ev.column(x) for x in ("extracted", "value", "matched", "rule")]
        extra = [c for c in extra if c in schema]
        picked = lf.filter(wrong.fill_null(False))
        rank = pl.int_range(pl.len()).over(key) if key else pl.int_range(pl.len())
        listed = (
            picked.filter(rank < limit)
            .select(*([key] if key else []), *columns_shown, ev.score_column, *extra)
            .collect()
        )
        counts = picked.group_by(key or pl.lit("all rows")).len().collect()
        label = "below the middle of the score range" if not ev.binary_score else "scored 0"
        parts.append(f"<h3>{shown(ev.name)} <span class='note'>({esc(label)})</span></h3>")
        if counts.height == 0:
            parts.append('<p class="note">None.</p>')
        for name, n in counts.sort(counts.columns[0], nulls_last=True).iter_rows():
            rows = listed.filter(pl.col(key) == name) if key else listed
            more = f", the first {rows.height} shown" if n > rows.height else ""
            parts.append(
                f"<details><summary>{shown(name)}: {n:,} wrong{esc(more)}</summary>"
                f"{html_table(rows.drop(key) if key else rows)}</details>"
            )
    return "".join(parts)
