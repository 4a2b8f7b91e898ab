"""Text references made only of symbols (bracket completions ``} ) }``, operators ``->``,
emoticons ``:)``): compared by their symbols, never reduced to nothing.

Every other text comparison drops punctuation at the ends of both sides, which leaves such a
reference empty (no answer could match it) or a stray bracket (a cut-off trace of a stack
matches it by chance). For these rows only the last answer statement counts (``So the answer is
} ) }.``, ``答案：] >``): its line, whitespace collapsed and a closing full stop dropped, must
equal the reference, whitespace collapsed. A row without an answer statement states no answer.
"""

from __future__ import annotations

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.reading.text_rules import STATEMENT

#: A reference with no letter, digit or CJK character (only symbols and spaces), not blank.
SYMBOLS_ONLY = r"^[^\p{L}\p{N}]*[^\p{L}\p{N}\s][^\p{L}\p{N}]*$"
#: A full stop closing a statement (``} ) }.``): the sentence's, not the answer's.
_CLOSING_STOP = r"\s*[.。]\s*$"


def _collapsed(value: pl.Expr) -> pl.Expr:
    return value.str.replace_all(r"\s+", " ").str.strip_chars(" ")


def symbols_only(reference: IntoExpr) -> pl.Expr:
    """Whether the reference is made only of symbols (see module)."""
    return text.to_expr(reference).cast(pl.String).str.contains(SYMBOLS_ONLY)


def symbols_stated(prediction: IntoExpr, reference: IntoExpr) -> pl.Expr:
    """Whether the last answer statement of ``prediction`` states ``reference``'s symbols."""
    said = text.to_expr(prediction).str.extract(STATEMENT, 1)
    said = _collapsed(said.str.replace(_CLOSING_STOP, ""))
    return (said == _collapsed(text.to_expr(reference).cast(pl.String))).fill_null(False)
