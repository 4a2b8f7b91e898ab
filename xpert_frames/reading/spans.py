"""Spans that several readers share: the last sentence of a text.

The stated-answer sentence and its clause are cut by the number reader
(:mod:`xpert_frames.reading.numbers.rules`) and the text reader (:mod:`xpert_frames.reading.text`)
from the pieces in :mod:`xpert_frames.reading.vocabulary`; the final box is
:mod:`xpert_frames.reading.boxes`.
"""

from __future__ import annotations

import polars as pl

#: The last sentence of a text (without its final stop).
LAST_SENTENCE = r"(?s)^(?:.*(?:[。；;！!？?\n]|\.\s))?(.*)$"


def last_sentence(text: pl.Expr) -> pl.Expr:
    """The last sentence of ``text`` (:data:`LAST_SENTENCE`), without its final stop."""
    return text.str.strip_chars_end(" \t\n\r.。").str.extract(LAST_SENTENCE, 1)
