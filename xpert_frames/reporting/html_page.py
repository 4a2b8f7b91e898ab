"""A self-contained HTML report of a scored table: one file, no scripts, opens offline.

Sections: the per-group table with 95% intervals; charts (each metric by group with its
interval, sub-type metrics such as per answer type, score distributions, a paired comparison
against a baseline model); the wrong answers per model with the prediction, reference, extracted
value and rule; the evaluators' options and signatures. Every value taken from the data is
HTML-escaped; charts are inline SVG, styles inline, fonts the system's. A value from the data
never makes the page large: labels and headings show :data:`SHOWN` characters, table cells
:data:`CELL` characters, chart labels what fits (:mod:`~xpert_frames.reporting.svg`); a cut
value ends with ``…`` and its tooltip holds the value up to :data:`~.svg.TIP_LIMIT` characters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.aliases import Frame
from xpert_frames.core.exceptions import InvalidOptionError, did_you_mean
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.reporting.compare import compare
from xpert_frames.reporting.report import report
from xpert_frames.reporting.svg import COLORS, dot_chart, esc, histogram, tip

TITLE = "xpert-frames report"
BINS = 10
#: Metric columns per table of the report section: seven fit 1,280 pixels.
TABLE_METRICS = 7
#: Characters of a label or heading taken from the data (a group, a model, a column name).
SHOWN = 80
#: Characters of a table cell (a prediction, a reference).
CELL = 400
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
        f'<p class="note">{rows:,} rows; evaluators {_shown(", ".join(e.name for e in evs))}'
        f"; grouped by {_shown(', '.join(group) or 'nothing (all rows)')}.</p>",
        '<nav><a href="#groups">By group</a> · <a href="#table">Report</a> · '
        '<a href="#types">Sub-types</a> · <a href="#dist">Distributions</a> · '
        '<a href="#compare">Comparison</a> · <a href="#wrong">Wrong answers</a> · '
        '<a href="#config">Evaluators</a></nav>',
        _group_section(rep, group, evs),
        _table_section(lf, schema, rep, group, evs),
        _subtype_section(lf, schema, rep, group, evs),
        _distribution_section(lf, schema, evs),
        _compare_section(lf, schema, evs, model, baseline, on),
        _wrong_section(lf, schema, evs, model, on, cols, wrong_rows),
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


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f'<td class="n">{value:.4f}</td>'
    if isinstance(value, int) and not isinstance(value, bool):
        return f'<td class="n">{value:,}</td>'
    return f'<td class="t">{_shown(value, CELL)}</td>'


def _shown(value: Any, limit: int = SHOWN) -> str:
    """``value`` as escaped text of at most ``limit`` characters; a longer value is cut with
    ``…`` and its tooltip holds it (up to ``svg.TIP_LIMIT`` characters)."""
    text = "" if value is None else str(value)
    if len(text) <= limit:
        return esc(text)
    return f'<span title="{esc(tip(text))}">{esc(text[: limit - 1])}…</span>'


def _html_table(frame: pl.DataFrame) -> str:
    head = "".join(f"<th>{_shown(c)}</th>" for c in frame.columns)
    body = "".join(  # a few hundred report or listed rows at most, never the data
        "<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in frame.iter_rows()
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


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
        head = f"<th>{_shown(' / '.join(group) or 'rows')}</th>" + "".join(
            f"<th>{_shown(m)}</th>" for m in metrics
        )
        body = "".join(
            f'<tr><td class="g">{_shown(label)}</td>'
            + "".join(row.get(m, "<td></td>") for m in metrics)
            + "</tr>"
            for label, row in cells.items()
        )
        tables.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    keep = [*group, "metric", "score", "ci_low", "ci_high", "count", "skipped", "not_applicable"]
    full = _html_table(rep.select(c for c in keep if c in rep.columns))
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
    return (
        f'<h2 id="groups">Metrics {_shown(where)}</h2><div class="charts">{"".join(charts)}</div>'
    )


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


def _compare_section(
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
            f'<p class="note">Needs a model column and an item column {_shown(on)} '
            f"(found model={_shown(model)}).</p>"
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
        tables.append(f"<h3>{_shown(ev.name)}</h3>{_html_table(table)}")
    note = (
        f'<p class="note">Each model minus the baseline {_shown(used)} on the items '
        f"({_shown(on)}) "
        "both answered; paired bootstrap intervals and p-values.</p>"
    )
    return head + note + f'<div class="charts">{"".join(charts)}</div>' + "".join(tables)


def _wrong_section(
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
    shown = [c for c in (on, cols.prediction, answer) if c in schema]
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
            .select(*([key] if key else []), *shown, ev.score_column, *extra)
            .collect()
        )
        counts = picked.group_by(key or pl.lit("all rows")).len().collect()
        label = "below the middle of the score range" if not ev.binary_score else "scored 0"
        parts.append(f"<h3>{_shown(ev.name)} <span class='note'>({esc(label)})</span></h3>")
        if counts.height == 0:
            parts.append('<p class="note">None.</p>')
        for name, n in counts.sort(counts.columns[0], nulls_last=True).iter_rows():
            rows = listed.filter(pl.col(key) == name) if key else listed
            more = f", the first {rows.height} shown" if n > rows.height else ""
            parts.append(
                f"<details><summary>{_shown(name)}: {n:,} wrong{esc(more)}</summary>"
                f"{_html_table(rows.drop(key) if key else rows)}</details>"
            )
    return "".join(parts)


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
    return f'<h2 id="config">Evaluators</h2>{_html_table(rows)}'
