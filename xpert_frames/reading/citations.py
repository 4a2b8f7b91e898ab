"""Citation markers that web-search chat models glue to an answer (``…voiced by Tom Hanks1.``,
``Kilimanjaro [1][2]``, ``Ottawa^2``, ``[^1^]``, ``[doc1]``, ``ranksnumber 5in``,
``in2013after``): not part of the answer, removed before a text answer is read (never when
the reference itself holds such a form, so ``Route 66`` and ``Windows 10`` keep their digits).

Patterns for the Rust ``regex`` engine (ASCII words, so the per-row oracle reads them the same).
"""

from __future__ import annotations

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr

#: (pattern, replacement), applied in order.
CITATIONS: tuple[tuple[str, str], ...] = (
    # [1], [1][2], [^1^], [doc1], 【1】
    (r"[ \t]*(?:\[\^?\d{1,2}\^?\]|\[doc\d{1,2}\]|【\d{1,2}】)+", ""),
    # Ottawa^2 at a clause or sentence end
    (r"([A-Za-z]{3,})\^\d{1,2}([\s.,;:!?。，；]|$)", "${1}${2}"),
    # ranksnumber 5in -> ranks 5 in
    (r"([a-z])number ?(\d+)([a-z])", "${1} ${2} ${3}"),
    # onFebruary 27, 199612 -> on February 27, 1996, byMickey -> by Mickey (a linked name or
    # date that lost its space, and the citation digits glued to a date's year)
    (r"\b(on|in|by|at|to|from)([A-Z][a-z]{2,})", "${1} ${2}"),
    (r"([A-Z][a-z]{2,8}\.? \d{1,2}, (?:1[0-9]|20)\d\d)\d{1,2}([.,;:!?。，；]|\s*$)", "${1}${2}"),
    # in2013after -> in 2013 after (a linked number that lost its spaces)
    (r"\b([a-z]{2,})(\d{1,4})([a-z]{2,})\b", "${1} ${2} ${3}"),
    # Man1. / population1 / Arizona12. / 1970s1. at a clause or sentence end
    (r"([A-Za-z][a-z]{2,}|\d{4}s)\d{1,2}([.,;:!?。，；]|\s*$)", "${1}${2}"),
    # Eiffel 1 2. (two or more spaced single digits after a capitalised word)
    (r"([A-Z][a-z]+)(?: \d){2,}[ \t]*([.。]|$)", "${1}${2}"),
)
#: A reference holding one of these forms keeps the prediction's markers.
CITED_REFERENCE = r"[\[\]^【】]|[A-Za-z]\d"


def without_citations(value: IntoExpr, reference: IntoExpr) -> pl.Expr:
    """``value`` with citation markers removed, where ``reference`` holds none of their forms."""
    out = text.to_expr(value)
    cleaned = out
    for pattern, replacement in CITATIONS:
        cleaned = cleaned.str.replace_all(pattern, replacement)
    keep = text.to_expr(reference).str.contains(CITED_REFERENCE).fill_null(False)
    # Every marker holds a digit: rows without one skip the rewrites.
    keep = keep | ~out.str.contains(r"\d").fill_null(False)
    return pl.when(keep).then(out).otherwise(cleaned)
