"""Spans that several readers share: the last sentence of a text, and the cuts that end the
stated-answer sentence and its clause.

The number reader (:mod:`xpert_frames.reading.numeric.rules`, through its grammar) and the math
span reader (:mod:`xpert_frames.evaluators.math_answer.symbolic`) cut the sentence after an
answer statement with :data:`SENTENCE_END` and its clause with :data:`CLAUSE_END`; the text
reader (:mod:`xpert_frames.reading.text`) cuts its own sentences and clauses (without ``；``
and ``;`` as sentence ends) from the pieces in :mod:`xpert_frames.reading.text_rules`; the
final box is :mod:`xpert_frames.reading.boxes`.
"""

from __future__ import annotations

import polars as pl

#: The first sentence end of a text and all after it (removed, it leaves the first sentence).
SENTENCE_END = r"(?s)(?:[。；;！!？?\n]|\.(?:\s|$)).*$"
#: The first clause end (``，`` or ``, ``) and all after it.
CLAUSE_END = r"(?s)(?:，|, ).*$"
#: The last sentence of a text (without its final stop).
LAST_SENTENCE = r"(?s)^(?:.*(?:[。；;！!？?\n]|\.\s))?(.*)$"


def last_sentence(text: pl.Expr) -> pl.Expr:
    """The last sentence of ``text`` (:data:`LAST_SENTENCE`), without its final stop."""
    return text.str.strip_chars_end(" \t\n\r.。").str.extract(LAST_SENTENCE, 1)
