"""Inline SVG charts for the HTML report: no scripts, no fonts, every label escaped.

Labels taken from the data are never clipped and never make the page large: a row label is cut
to fit the label margin (:data:`LABEL_UNITS` units of a lower-case letter; a wide CJK
character counts two, capitals more than one) and a chart title to the chart's width, with
an ellipsis; the tooltip (``<title>``) holds the value, itself cut after :data:`TIP_LIMIT`
characters with its length stated.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from html import escape

WIDTH = 520
LABEL = 170  # left margin for row labels
ROW = 24
PAD = 28  # room for the axis below and the title above
COLORS = ("#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b83280", "#4a5568")
#: Display units (:func:`units`; about 6px each at 11px) of a row label: the label margin.
LABEL_UNITS = 24
#: Display units of a 13px chart title (about 7px each): the chart's width.
TITLE_UNITS = 66
#: Characters of a value a tooltip holds; longer values are cut, their length stated.
TIP_LIMIT = 1000


def esc(value: object) -> str:
    """Text for HTML and SVG: ``&``, ``<``, ``>`` and both quotes escaped."""
    return escape("" if value is None else str(value), quote=True)


_NARROW = frozenset("iljtfrI.,:;'|!()[] ")
_BROAD = frozenset("MWmw@%")


def _unit(ch: str) -> float:
    """Rough width of ``ch`` in a proportional sans-serif, in units of a lower-case letter."""
    if unicodedata.east_asian_width(ch) in "WF":
        return 2.0
    if ch in _NARROW:
        return 0.5
    if ch in _BROAD:
        return 1.7
    return 1.3 if ch.isupper() else 1.0


def units(text: str) -> float:
    """Display width of ``text`` in units of a lower-case letter (wide characters count two)."""
    return sum(_unit(ch) for ch in text)


def ellipsize(text: str, limit: float) -> str:
    """``text`` cut to ``limit`` display units, ending with ``…`` when cut."""
    if len(text) <= limit / 2 or units(text) <= limit:
        return text
    out, used = [], 1.0  # room for the ellipsis
    for ch in text:
        used += _unit(ch)
        if used > limit:
            break
        out.append(ch)
    return "".join(out) + "…"


def tip(value: object) -> str:
    """A value for a tooltip: whole up to :data:`TIP_LIMIT` characters, else cut and its
    length stated."""
    text = "" if value is None else str(value)
    if len(text) <= TIP_LIMIT:
        return text
    return f"{text[:TIP_LIMIT]}… ({len(text):,} characters)"


def _text(x: float, y: float, label: str, limit: float, attrs: str) -> str:
    """An SVG text element: ``label`` cut to ``limit`` units, its tooltip the value."""
    shown = ellipsize(label, limit)
    title = f"<title>{esc(tip(label))}</title>" if shown != label else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" {attrs}>{title}{esc(shown)}</text>'


def _x(value: float, lo: float, hi: float) -> float:
    span = hi - lo or 1.0
    return LABEL + (value - lo) / span * (WIDTH - LABEL - 20)


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def _axis(lo: float, hi: float, top: float, bottom: float) -> list[str]:
    out = []
    for tick in _ticks(lo, hi):
        x = _x(tick, lo, hi)
        out.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" class="grid"/>'
            f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle" class="tick">'
            f"{tick:.2g}</text>"
        )
    return out


def dot_chart(
    title: str,
    rows: Sequence[tuple[str, float | None, float | None, float | None]],
    *,
    domain: tuple[float, float] = (0.0, 1.0),
    zero: float | None = None,
    color: str = COLORS[0],
) -> str:
    """One row per label: a dot at the estimate and a line over its 95% interval.

    ``rows`` are ``(label, estimate, ci_low, ci_high)``; missing values draw nothing but the
    label. ``zero`` draws a reference line (a difference of 0)."""
    lo, hi = domain
    height = PAD * 2 + ROW * max(len(rows), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{WIDTH}" '
        f'height="{height}" viewBox="0 0 {WIDTH} {height}" class="chart">',
        f"<title>{esc(tip(title))}</title>",
        _text(4, 16, title, TITLE_UNITS, 'class="ctitle"'),
        *_axis(lo, hi, PAD - 6, height - PAD),
    ]
    if zero is not None:
        x = _x(zero, lo, hi)
        parts.append(
            f'<line x1="{x:.1f}" y1="{PAD - 6}" x2="{x:.1f}" y2="{height - PAD}" class="zero"/>'
        )
    for i, (label, est, low, high) in enumerate(rows):
        y = PAD + ROW * i + ROW / 2
        parts.append(_text(LABEL - 8, y + 4, label, LABEL_UNITS, 'text-anchor="end" class="label"'))
        if _finite(low) and _finite(high):
            x1, x2 = _x(_clip(low, lo, hi), lo, hi), _x(_clip(high, lo, hi), lo, hi)
            parts.append(
                f'<line x1="{x1:.1f}" y1="{y:.1f}" x2="{x2:.1f}" y2="{y:.1f}" '
                f'stroke="{color}" stroke-width="2"/>'
            )
        if _finite(est):
            note = f"{tip(label)}: {est:.4f}" + (
                f" [{low:.4f}, {high:.4f}]" if _finite(low) and _finite(high) else ""
            )
            parts.append(
                f'<circle cx="{_x(_clip(est, lo, hi), lo, hi):.1f}" cy="{y:.1f}" r="5" '
                f'fill="{color}"><title>{esc(note)}</title></circle>'
            )
    parts.append("</svg>")
    return "".join(parts)


def histogram(
    title: str,
    counts: Sequence[int],
    *,
    domain: tuple[float, float] = (0.0, 1.0),
    color: str = COLORS[0],
) -> str:
    """Bars of ``counts`` over equal bins of ``domain``, with a count axis (rows) on the left
    and the score axis below."""
    lo, hi = domain
    height, bottom, top_y = 170, 130, 30
    ticks = count_ticks(max(counts, default=0))
    top = ticks[-1]
    width = (WIDTH - LABEL - 20) / max(len(counts), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{WIDTH}" '
        f'height="{height}" viewBox="0 0 {WIDTH} {height}" class="chart">',
        f"<title>{esc(tip(title))}</title>",
        _text(4, 16, title, TITLE_UNITS, 'class="ctitle"'),
        *_axis(lo, hi, top_y, bottom),
        f'<text x="{LABEL - 40}" y="{(top_y + bottom) / 2:.1f}" text-anchor="middle" '
        f'class="label" transform="rotate(-90 {LABEL - 40} {(top_y + bottom) / 2:.1f})">'
        "rows</text>",
        f'<text x="{(LABEL + WIDTH - 20) / 2:.1f}" y="{height - 4}" text-anchor="middle" '
        'class="label">score</text>',
    ]
    for tick in ticks:
        y = bottom - (bottom - top_y) * tick / top
        parts.append(
            f'<line x1="{LABEL}" y1="{y:.1f}" x2="{WIDTH - 20}" y2="{y:.1f}" class="grid"/>'
            f'<text x="{LABEL - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick count">'
            f"{tick:,}</text>"
        )
    for i, count in enumerate(counts):
        h = (bottom - top_y) * count / top
        x = LABEL + i * width
        a, b = lo + (hi - lo) * i / len(counts), lo + (hi - lo) * (i + 1) / len(counts)
        parts.append(
            f'<rect x="{x + 1:.1f}" y="{bottom - h:.1f}" width="{width - 2:.1f}" '
            f'height="{h:.1f}" fill="{color}"><title>{esc(f"[{a:.2g}, {b:.2g}): {count}")}'
            "</title></rect>"
        )
    parts.append("</svg>")
    return "".join(parts)


def count_ticks(largest: int, most: int = 5) -> list[int]:
    """Ticks of a count axis from 0: a step of 1, 2 or 5 times a power of ten, at most
    ``most`` ticks, the last at or above ``largest``.

    >>> count_ticks(0), count_ticks(7), count_ticks(49), count_ticks(1234)
    ([0, 1], [0, 2, 4, 6, 8], [0, 20, 40, 60], [0, 500, 1000, 1500])
    """
    largest = max(int(largest), 1)
    power = 1
    while True:
        for step in (power, 2 * power, 5 * power):
            n = -(-largest // step)  # ticks above 0
            if n + 1 <= most:
                return [step * i for i in range(n + 1)]
        power *= 10


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def _clip(value: float | None, lo: float, hi: float) -> float:
    return min(max(float(value or 0.0), lo), hi)
