"""Two whole-text checks on text answers: a reference stated in several clauses, and an
undecided conclusion.

* **Clauses** (dictation, quotations): a reference with inner punctuation or spaces
  (``海内存知己，天涯若比邻``) matches when the prediction states every clause in order,
  whatever punctuation or spacing separates them (``海内存知己。天涯若比邻。``); one clause
  alone or a wrong second clause does not. Both sides are folded (every run of punctuation and
  whitespace to one space) and the folded reference must be a whole part of the folded
  prediction.
* **Undecided**: conditional branches (``if you mean …``, ``如果…``) closed by a conclusion
  that leaves the choice open (``so it depends``, ``取决于``) commit to no answer.
"""

from __future__ import annotations

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.reading.spans import last_sentence
from xpert_frames.reading.vocabulary import (
    BRANCH_EN,
    BRANCH_ZH,
    CLAUSE_BREAKS,
    UNDECIDED_EN,
    UNDECIDED_ZH,
    either,
)

_BRANCH = rf"{either(BRANCH_ZH)}|(?i:\b(?:{either(BRANCH_EN)})\b)"
_UNDECIDED = rf"{either(UNDECIDED_ZH)}|(?i:\b(?:{either(UNDECIDED_EN)})\b)"
#: Cheap test before :func:`undecided`: an undecided word anywhere.
UNDECIDED_TRIGGER = _UNDECIDED


def fold(value: IntoExpr) -> pl.Expr:
    """Lower case, every run of punctuation and whitespace one space, framed by spaces
    (``" 海内存知己，天涯若比邻。"`` -> ``" 海内存知己 天涯若比邻 "``)."""
    folded = text.full_to_half(text.to_expr(value)).str.to_lowercase()
    folded = folded.str.replace_all(CLAUSE_BREAKS, " ").str.strip_chars(" ")
    return pl.lit(" ") + folded + pl.lit(" ")


def several_clauses(reference: IntoExpr) -> pl.Expr:
    """The reference has two clauses or more of two characters at least: split by
    punctuation, or (Chinese) by spaces too; the words of a Latin name are not clauses."""
    inner = text.to_expr(reference).str.strip_chars()
    inner = inner.str.replace_all(r"^[\p{P}\s]+|[\p{P}\s]+$", "")
    punctuated = inner.str.contains(r"\w\w\s*[,;:，；。！？!?、]+\s*\w\w")
    spaced = inner.str.contains(r"\p{Han}{2}\s+\p{Han}{2}")
    return punctuated | spaced


def clauses_match(prediction: IntoExpr, reference: IntoExpr) -> pl.Expr:
    """Every clause of a several-clause reference stated in order in the prediction."""
    ref = text.to_expr(reference)
    latin = ref.str.contains(r"[A-Za-z0-9]")
    # CJK clauses may sit inside a sentence; Latin ones need word boundaries (the spaces).
    cjk_ref = fold(ref).str.strip_chars(" ")
    hit = (
        pl.when(latin)
        .then(fold(prediction).str.contains(fold(ref), literal=True))
        .otherwise(fold(prediction).str.contains(cjk_ref, literal=True))
    )
    return (several_clauses(ref) & hit).fill_null(False)


def undecided(prediction: IntoExpr) -> pl.Expr:
    """Conditional branches, then a last sentence that leaves the answer open."""
    p = text.to_expr(prediction)
    return (p.str.contains(_BRANCH) & last_sentence(p).str.contains(_UNDECIDED)).fill_null(False)
