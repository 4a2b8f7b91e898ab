"""A self-contained HTML report of a scored table: one file, no scripts, opens offline.

Sections: the per-group table with 95% intervals; charts (each metric by group with its
interval, sub-type metrics such as per answer type, score distributions, a paired comparison
against a baseline model); the wrong answers per model with the prediction, reference, extracted
value and rule; the evaluators' options and signatures. Every value taken from the data is
HTML-escaped; charts are inline SVG, styles inline, fonts the system's. A value from the data
never makes the page large (:mod:`~xpert_frames.reporting.html_cells`): labels and headings
show :data:`SHOWN` characters, table cells :data:`CELL` characters, chart labels what fits
(:mod:`~xpert_frames.reporting.svg`); a cut value ends with ``…`` and its tooltip holds the
value up to :data:`~.svg.TIP_LIMIT` characters.
The sections on models (paired comparison, wrong answers) are
:mod:`~xpert_frames.reporting.html_model_sections`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.aliases import Frame
from xpert_frames.core.exceptions import InvalidOptionError, did_you_mean
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.reporting.html_cells import (  # noqa: F401 - SHOWN, CELL re-exported
    CELL,
    SHOWN,
    html_table,
    shown,
)
from xpert_frames.reporting.html_model_sections import compare_section, wrong_section
from xpert_frames.reporting.report import report
from xpert_frames.reporting.svg import COLORS, dot_chart, esc, histogram

TITLE = "xpert-frames report"
BINS = 10
#: Metric columns per table of the report section: seven fit 1,280 pixels.
TABLE_METRICS = 7
_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;
max-width:1100px;padding:0 1em;color:#1a202c}
h1{font-size:1.6em}h2{margin-top:1.8em;border-bottom:1px solid #cbd5e0}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
th,td{border:1px solid #e2e8f0;padding:3px 7px;vertical-align:top;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}th{background:#edf2f7}
td.t{max-width:380px;white-space:pre-wrap;word-break:break-word}
.grid{stroke:#e2e8f0}.zero{stroke:#e53e3e;stroke-dasharray:4 3}
.tick,.label{font-size:11px;fill:#4a5568}.ctitle{font-size:13px;font-weight:600}
.charts{display:flex;flex-wrap:wrap;gap:1em}.note{color:#718096;font-size:.9em}
details{margin:.3em 0}summary{cursor:pointer}code{font-size:.85em}
.ci{color:#718096;font-size:.8em;white-space:nowrap}td.g{white-space:nowrap}
.wide{overflow-x:auto}.wide table{margin-bottom:1em}
"""


def html_report(
    scored: Frame,
    by: str | Sequence[str] | None = None,
    *,
    evaluators: Sequence[BaseEvaluator],
    report_frame: pl.DataFrame | None = None,
    model: str | None = None,
    baseline: str | None = None,
    on: str = "question_id",
    columns: frames.Columns | Mapping[str, str] | None = None,
    title: str = TITLE,
    wrong_rows: int = 20,
) -> str:
    """The HTML report of ``scored`` (any table :func:`xpert_frames.report` takes) for the
    evaluator instances ``evaluators`` (:func:`xpert_frames.html_report` also finds them from
    the ``<name>_score`` columns).

    ``report_frame`` is the report to show (computed here when absent). ``model`` is the column
    compared and drilled into (default: the first ``by`` column, else ``model`` if present);
    ``baseline`` the model the others are compared against on the items ``on`` (default: the
    first model in sorted order); ``columns`` names the prediction and answer columns shown
    with wrong answers; ``wrong_rows`` caps the wrong answers listed per model and evaluator.
    """
    lf = frames.to_lazy(scored)
    schema = lf.collect_schema()
    group = [by] if isinstance(by, str) else list(by or [])
    evs = list(evaluators)
    rep = report_frame if report_frame is not None else report(lf, group, evaluators=evs)
    if model is None:
        model = group[0] if group else ("model" if "model" in schema else None)
    if baseline is not None:
        _check_baseline(lf, schema, model, baseline)
    cols = frames.Columns.of(columns)
    rows = lf.select(pl.len()).collect().item()
    body = [
        f"<h1>{esc(title)}</h1>",
        f'<p class="note">{rows:,} rows; evaluators {shown(", ".join(e.name for e in evs))}'
        f"; grouped by {shown(', '.join(group) or 'nothing (all rows)')}.</p>",
        '<nav><a href="#groups">By group</a> · <a href="#table">Report</a> · '
        '<a href="#types">Sub-types</a> · <a href="#dist">Distributions</a> · '
        '<a href="#compare">Comparison</a> · <a href="#wrong">Wrong answers</a> · '
        '<a href="#config">Evaluators</a></nav>',
        _group_section(rep, group, evs),
        _table_section(lf, schema, rep, group, evs),
        _subtype_section(lf, schema, rep, group, evs),
        _distribution_section(lf, schema, evs),
        compare_section(lf, schema, evs, model, baseline, on),
        wrong_section(lf, schema, evs, model, on, cols, wrong_rows),
        _config_section(evs),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        # Nothing may load from anywhere: a page that tried would log a violation.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


# --------------------------------------------------------------------------- helpers
def _check_baseline(lf: pl.LazyFrame, schema: pl.Schema, model: str | None, baseline: str) -> None:
    if model is None or model not in schema:
        raise InvalidOptionError(
            f"baseline {baseline!r} needs a model column; group by it (by='model') or name it "
            "with model=..."
        )
    models = lf.select(pl.col(model).cast(pl.String).drop_nulls().unique()).collect()[model]
    names = sorted(models.to_list())
    if baseline not in names:
        raise InvalidOptionError(
            f"baseline {baseline!r} is not a value of column {model!r}; expected one of "
            f"{names}.{did_you_mean(baseline, names)}"
        )


def _label(row: dict[str, Any], group: list[str]) -> str:
    return " / ".join(str(row[c]) for c in group) if group else "all rows"


def _overall(ev: BaseEvaluator) -> list[str]:
    return [m.metric for m in ev.report_metrics() if getattr(m, "split", None) is None]


def _chart_rows(rep: pl.DataFrame, metric: str, group: list[str]) -> list[tuple]:
    rows = rep.filter(pl.col("metric") == metric)
    return [
        (_label(r, group), r["score"], r["ci_low"], r["ci_high"])
        for r in rows.iter_rows(named=True)
    ]


# --------------------------------------------------------------------------- sections
def _table_section(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    rep: pl.DataFrame,
    group: list[str],
    evs: Sequence[BaseEvaluator],
) -> str:
    """Groups × metrics, one table per evaluator (so that no table is wider than a screen),
    each cell the score and its 95% interval; then every report row."""
    cells: dict[str, dict[str, str]] = {}
    for r in rep.iter_rows(named=True):  # report rows, not data rows
        note = f"{r['count']} scored, {r['skipped']} skipped, {r['not_applicable']} not applicable"
        text = "–" if r["score"] is None else f"{r['score']:.3f}"
        if r["ci_low"] is not None and r["ci_high"] is not None:
            text += f'<br><span class="ci">[{r["ci_low"]:.3f}, {r["ci_high"]:.3f}]</span>'
        cells.setdefault(_label(r, group), {})[r["metric"]] = (
            f'<td class="n" title="{esc(note)}">{text}</td>'
        )
    tables = []
    for metrics in _metric_tables(lf, schema, rep, evs):
        head = f"<th>{shown(' / '.join(group) or 'rows')}</th>" + "".join(
            f"<th>{shown(m)}</th>" for m in metrics
        )
        body = "".join(
            f'<tr><td class="g">{shown(label)}</td>'
            + "".join(row.get(m, "<td></td>") for m in metrics)
            + "</tr>"
            for label, row in cells.items()
        )
        tables.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    keep = [*group, "metric", "score", "ci_low", "ci_high", "count", "skipped", "not_applicable"]
    full = html_table(rep.select(c for c in keep if c in rep.columns))
    return (
        '<h2 id="table">Report</h2><p class="note">Score and 95% interval per group and '
        "metric (hover for counts).</p>"
        f'<div class="wide">{"".join(tables)}</div>'
        f"<details><summary>Every report row</summary>{full}</details>"
    )


def _metric_tables(
    lf: pl.LazyFrame, schema: pl.Schema, rep: pl.DataFrame, evs: Sequence[BaseEvaluator]
) -> list[list[str]]:
    """The report's metrics in tables of at most :data:`TABLE_METRICS` columns, in the
    report's order, an evaluator's overall and sub-type metrics in one table where they fit."""
    present = list(dict.fromkeys(rep["metric"].to_list()))
    owned: list[list[str]] = []
    for ev in evs:
        names = []
        for m in ev.report_metrics():
            split = getattr(m, "split", None)
            if split is None:
                names.append(m.metric)
            elif split in schema:
                values = lf.select(pl.col(split).drop_nulls().unique()).collect()[split]
                names += [m.metric.replace("{}", str(v)) for v in values.to_list()]
        owned.append([name for name in present if name in set(names)])
    claimed = {name for names in owned for name in names}
    owned.append([name for name in present if name not in claimed])
    tables: list[list[str]] = []
    for names in owned:  # an evaluator's metrics stay together where they fit in one table
        for i in range(0, len(names), TABLE_METRICS):
            part = names[i : i + TABLE_METRICS]
            if tables and len(tables[-1]) + len(part) <= TABLE_METRICS:
                tables[-1] += part
            else:
                tables.append(part)
    return tables


def _group_section(rep: pl.DataFrame, group: list[str], evs: Sequence[BaseEvaluator]) -> str:
    charts = [
        dot_chart(
            f"{metric} (95% interval)",
            _chart_rows(rep, metric, group),
            domain=ev.score_range,
            color=COLORS[i % len(COLORS)],
        )
        for i, ev in enumerate(evs)
        for metric in _overall(ev)
    ]
    where = f"by {', '.join(group)}" if group else "over all rows"
    return f'<h2 id="groups">Metrics {shown(where)}</h2><div class="charts">{"".join(charts)}</div>'


def _subtype_section(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    rep: pl.DataFrame,
    group: list[str],
    evs: Sequence[BaseEvaluator],
) -> str:
    charts = []
    for i, ev in enumerate(evs):
        for m in ev.report_metrics():
            split = getattr(m, "split", None)
            if split is None or split not in schema:
                continue
            values = lf.select(pl.col(split).drop_nulls().unique().sort()).collect()[split]
            for value in values.to_list():
                metric = m.metric.replace("{}", str(value))
                charts.append(
                    dot_chart(
                        f"{metric} (95% interval)",
                        _chart_rows(rep, metric, group),
                        domain=ev.score_range,
                        color=COLORS[i % len(COLORS)],
                    )
                )
    inner = "".join(charts) or '<p class="note">No evaluator here splits by a sub-type.</p>'
    return f'<h2 id="types">Per answer type and sub-type</h2><div class="charts">{inner}</div>'


def _distribution_section(lf: pl.LazyFrame, schema: pl.Schema, evs: Sequence[BaseEvaluator]) -> str:
    charts = []
    for i, ev in enumerate(evs):
        lo, hi = ev.score_range
        s = pl.col(ev.score_column).cast(pl.Float64)
        bins = ((s - lo) / ((hi - lo) or 1.0) * BINS).floor().clip(0, BINS - 1).cast(pl.Int64)
        counts = (
            lf.filter(s.is_not_null() & s.is_finite()).group_by(bins.alias("bin")).len().collect()
        )
        hist = [0] * BINS
        for b, n in counts.iter_rows():
            hist[b] = n
        charts.append(
            histogram(
                f"{ev.score_column}: scored rows by score",
                hist,
                domain=(lo, hi),
                color=COLORS[i % len(COLORS)],
            )
        )
    return f'<h2 id="dist">Score distributions</h2><div class="charts">{"".join(charts)}</div>'


def _config_section(evs: Sequence[BaseEvaluator]) -> str:
    rows = pl.DataFrame(
        {
            "name": [ev.name for ev in evs],
            "class": [type(ev).__name__ for ev in evs],
            "options": [", ".join(f"{k}={v!r}" for k, v in ev.options().items()) for ev in evs],
            "signature": [ev.signature or "" for ev in evs],
        },
        schema={c: pl.String for c in ("name", "class", "options", "signature")},
    )
    return f'<h2 id="config">Evaluators</h2>{html_table(rows)}'
