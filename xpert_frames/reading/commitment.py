"""The committed answer after a concession (``A and B both look plausible, but the correct one
is B``; ``表面上像合同纠纷，但实质上属于债权债务``): the conceded part is erased so that only
the answer after the "but" is read.

A sentence is rewritten when, before its "but" (:data:`~xpert_frames.reading.vocabulary.BUT_ZH`,
``BUT_EN``), it holds a conceding word (``CONCEDING_*``: both, could, seems, 都, 像, 可能 …) and,
after it, a committing one (``COMMITTING_*``: is, 是, 属于 …). ``Paris is the capital, but
Lyon is bigger`` concedes nothing and is left alone. Used for text and label answers (choice
answers take the last statement already).
"""

from __future__ import annotations

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.reading.vocabulary import (
    BUT_EN,
    BUT_ZH,
    COMMITTING_EN,
    COMMITTING_ZH,
    CONCEDING_EN,
    CONCEDING_ZH,
    ERASED,
    either,
)

_IN_SENTENCE = r"[^。！？!?\n]"
#: The conceded part does not reach into a bracket (``Sydney (although …, but …)``: the
#: aside concedes, the answer before it stands).
_IN_CLAUSE = r"[^。！？!?\n(（)）]"
_CONCEDING = rf"(?:{either(CONCEDING_ZH)}|(?i:\b(?:{either(CONCEDING_EN)})\b))"
_BUT = rf"(?:[,，;；]\s*(?:{either(BUT_ZH)})|(?i:,?\s*\b(?:{either(BUT_EN)})\b))"
_COMMITTING = rf"(?:{either(COMMITTING_ZH)}|(?i:\b(?:{either(COMMITTING_EN)})\b))"
#: A conceded part, its "but", and the committed part after it.
CONCESSION = (
    rf"{_IN_CLAUSE}*{_CONCEDING}{_IN_CLAUSE}*?(?P<but>{_BUT})"
    rf"(?P<after>{_IN_SENTENCE}*{_COMMITTING})"
)
#: Cheap test before the rewrite.
CONCESSION_TRIGGER = rf"{either(BUT_ZH)}|(?i:\b(?:{either(BUT_EN)})\b)"


def committed(prediction: IntoExpr) -> pl.Expr:
    """The prediction with conceded parts erased (``A and B both look plausible, but the
    correct one is B`` -> ``✗, but the correct one is B``)."""
    p = text.to_expr(prediction)
    hit = pl.when(p.str.contains(CONCESSION_TRIGGER)).then(p)
    return pl.coalesce(hit.str.replace_all(CONCESSION, f"{ERASED}${{but}}${{after}}"), p)
