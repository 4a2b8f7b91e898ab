"""Inline SVG charts for the HTML report: no scripts, no fonts, every label escaped."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

WIDTH = 520
LABEL = 170  # left margin for row labels
ROW = 24
PAD = 28  # room for the axis below and the title above
COLORS = ("#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b83280", "#4a5568")


def esc(value: object) -> str:
    """Text for HTML and SVG: ``&``, ``<``, ``>`` and both quotes escaped."""
    return escape("" if value is None else str(value), quote=True)


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
        f"<title>{esc(title)}</title>",
        f'<text x="4" y="16" class="ctitle">{esc(title)}</text>',
        *_axis(lo, hi, PAD - 6, height - PAD),
    ]
    if zero is not None:
        x = _x(zero, lo, hi)
        parts.append(
            f'<line x1="{x:.1f}" y1="{PAD - 6}" x2="{x:.1f}" y2="{height - PAD}" class="zero"/>'
        )
    for i, (label, est, low, high) in enumerate(rows):
        y = PAD + ROW * i + ROW / 2
        parts.append(
            f'<text x="{LABEL - 8}" y="{y + 4:.1f}" text-anchor="end" class="label">'
            f"{esc(_short(label))}</text>"
        )
        if _finite(low) and _finite(high):
            x1, x2 = _x(_clip(low, lo, hi), lo, hi), _x(_clip(high, lo, hi), lo, hi)
            parts.append(
                f'<line x1="{x1:.1f}" y1="{y:.1f}" x2="{x2:.1f}" y2="{y:.1f}" '
                f'stroke="{color}" stroke-width="2"/>'
            )
        if _finite(est):
            tip = f"{label}: {est:.4f}" + (
                f" [{low:.4f}, {high:.4f}]" if _finite(low) and _finite(high) else ""
            )
            parts.append(
                f'<circle cx="{_x(_clip(est, lo, hi), lo, hi):.1f}" cy="{y:.1f}" r="5" '
                f'fill="{color}"><title>{esc(tip)}</title></circle>'
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
        f"<title>{esc(title)}</title>",
        f'<text x="4" y="16" class="ctitle">{esc(title)}</text>',
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


def _short(label: str, limit: int = 30) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"
