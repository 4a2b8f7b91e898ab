"""Digits written with Chinese scale characters between them → ASCII digits: ``1万2千`` =
12000, ``12万5千`` = 125000, ``1亿2千万`` = 120000000, ``2千5百`` = 2500, ``3万2500`` = 32500,
and the colloquial omitted trailing unit: one last digit right after ``亿``/``万``/``千``/``百``
takes the next lower unit (``3万5`` = 35000, as ``三万五``).

Rare in answers: the rows are picked by :data:`TRIGGER` (after a literal screen,
:data:`SCREEN`), and each distinct text of those is rewritten once in plain Python. A run that
does not read as one number (scales out of order, ``2千3万``; a ``千`` before ``克``/``米``,
``1万2千克``) stays as written; a plain ``12万`` is read by the grammar as it is.
"""

from __future__ import annotations

import re

import polars as pl

#: Literal characters every :data:`TRIGGER` match holds (a cheap screen first).
SCREEN: list[str] = ["万", "亿", "千", "百"]
#: A digit, a scale character, a digit: the text may hold a mixed run.
TRIGGER = r"[0-9][万亿千百][0-9]"
_RUN = re.compile(
    r"(?<![0-9.,])((?:[0-9]+[亿万千百]|(?<=[千百])[万亿])+(?:[0-9]+)?)(?![0-9.千百万亿克米瓦分卡])"
)
_INNER = re.compile(r"[亿万千百][0-9]")
_TOKEN = re.compile(r"([0-9]*)([亿万千百])|([0-9]+)$")
_SMALL = {"千": 1000, "百": 100}
_LOWER = {"亿": 10**7, "万": 1000, "千": 100, "百": 10}
_ZEROS = {"亿": 8, "万": 4, "千": 3, "百": 2}


def run_value(run: str) -> int | None:
    """The integer a mixed run writes (module docs), else ``None``."""
    done, section, small, rank, prev = 0, 0, 0, 10**9, ""
    for m in _TOKEN.finditer(run):
        digits, scale, tail = m.groups()
        if tail is not None:  # digits after the last scale
            if len(tail) == 1:
                small += int(tail) * _LOWER[prev]
            elif len(tail) <= _ZEROS[prev] and small == 0 and prev in ("亿", "万"):
                small += int(tail)
            else:
                return None
            continue
        if scale in _SMALL:
            if len(digits) != 1 or _SMALL[scale] >= rank:
                return None
            small, rank = small + int(digits) * _SMALL[scale], _SMALL[scale]
        else:
            if digits and rank < 10**9:  # 2千3万, 0千1亿: a scale inside a section
                return None
            if scale == "万":
                if section or len(digits) > 4:
                    return None
                section = (small + int(digits or 0)) * 10**4
            else:
                if done or section or len(digits) > 4:
                    return None
                done = (small + int(digits or 0)) * 10**8
            if not (section or done) or (scale == "万" and not section):
                return None
            small, rank = 0, 10**9
        prev = scale
    return done + section + small


def _rewrite(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        value = run_value(m.group(1)) if _INNER.search(m.group(1)) else None
        return m.group(1) if value is None else str(value)

    return _RUN.sub(one, text)


def _rewrite_batch(texts: pl.Series) -> pl.Series:
    hit = texts.str.contains(TRIGGER).fill_null(False)
    if not hit.any():
        return texts
    distinct = texts.filter(hit).unique()
    table = pl.DataFrame(
        [distinct.alias("source_text"), pl.Series("rewritten", [_rewrite(t) for t in distinct])]
    )
    out = pl.DataFrame({"source_text": texts}).join(
        table, on="source_text", how="left", maintain_order="left"
    )
    return out.select(pl.coalesce("rewritten", "source_text")).to_series().alias(texts.name)


def digit_scales(text: pl.Expr) -> pl.Expr:
    """Mixed digit and scale runs as ASCII digits (module docs); the other texts as they are.
    A batch function: apply it on the rows that contain one of :data:`SCREEN` (its regex
    reads every row it is given)."""
    return text.map_batches(_rewrite_batch, return_dtype=pl.String, is_elementwise=True)
