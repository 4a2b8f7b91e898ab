"""Full dates stated in a text (``2 September 1945``, ``September 2, 1945``, ``1945年9月2日``) as
canonical keys (``1945-9-2``), and the years on which a stated full date disagrees with every
full date among the accepted answers.

Several accepted answers may hold a year and a full date (``1945``, ``17 August 1945``): a
prediction that states another full date in that year (``on 2 September 1945``) states another
answer, and the bare year does not credit it. Polars expressions over whole columns.
"""

from __future__ import annotations

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.reading.vocabulary import MONTHS, either

_MONTH_KEYS = tuple(m[:3] for m in MONTHS[:12])
_MONTH = f"(?i:{either(_MONTH_KEYS)})"
#: A year, and the citation digits a web-search model may glue to it (``1945`` of ``194512``).
_YEAR = r"(\d{4})\d{0,2}\b"
#: ``2 September 1945``, ``2nd of Sept. 1945``.
DAY_MONTH_YEAR = rf"\b0?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})[a-zA-Z]*\.?,?\s+{_YEAR}"
#: ``September 2, 1945`` (``onSeptember 2, 1945``: a linked date that lost its space).
MONTH_DAY_YEAR = rf"\b(?:on|in)?({_MONTH})[a-zA-Z]*\.?\s+0?(\d{{1,2}})(?:st|nd|rd|th)?,?\s+{_YEAR}"
#: ``1945年9月2日``.
CHINESE_DATE = r"(\d{4})\s*年\s*0?(\d{1,2})\s*月\s*0?(\d{1,2})\s*[日号]"
#: Rows that may hold a full date.
DATE_TRIGGER = rf"{_MONTH}|月"
_OPEN, _CLOSE = "\x02", "\x03"


def stated_dates(value: IntoExpr) -> pl.Expr:
    """The full dates of a text as keys ``year-month-day`` (``List(String)``; empty without
    one)."""
    v = text.to_expr(value)
    marked = (
        v.str.replace_all(DAY_MONTH_YEAR, f"{_OPEN}${{3}}-${{2}}-${{1}}{_CLOSE}")
        .str.replace_all(MONTH_DAY_YEAR, f"{_OPEN}${{3}}-${{1}}-${{2}}{_CLOSE}")
        .str.replace_all(CHINESE_DATE, f"{_OPEN}${{1}}-${{2}}-${{3}}{_CLOSE}")
        .str.to_lowercase()
    )
    keys = [f"-{m}-" for m in _MONTH_KEYS]
    numbered = marked.str.replace_many(keys, [f"-{i}-" for i in range(1, 13)])
    return numbered.str.extract_all(rf"{_OPEN}\d{{4}}-\d{{1,2}}-\d{{1,2}}{_CLOSE}").list.eval(
        pl.element().str.strip_chars(_OPEN + _CLOSE)
    )


def conflicting_years(prediction: IntoExpr, references: IntoExpr) -> pl.Expr:
    """The years (``List(String)``) in which the prediction states a full date while the
    accepted answers (``List(String)``) hold other full dates of that year and none of the
    prediction's; empty where there is no such disagreement."""
    refs = text.to_expr(references).list.join("\n")
    pred = text.to_expr(prediction)
    todo = refs.str.contains(DATE_TRIGGER) & pred.str.contains(DATE_TRIGGER)
    accepted = stated_dates(pl.when(todo).then(refs))
    stated = stated_dates(pl.when(todo).then(pred))
    agree = stated.list.set_intersection(accepted).list.len() > 0
    years = stated.list.eval(pl.element().str.slice(0, 4)).list.set_intersection(
        accepted.list.eval(pl.element().str.slice(0, 4))
    )
    return pl.when(todo & ~agree).then(years).otherwise(pl.lit([], pl.List(pl.String)))
