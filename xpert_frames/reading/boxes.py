"""The final box of a text (``\\boxed{...}`` or ``\\fbox{...}``): the one box reader of the package.

The plain regex for the last box, ``(?s).*\\(?:boxed|fbox)\\s*\\{(<content>)\\}``, reads the whole
text with capture groups (Rust's slowest engine). Faster: cut the text through its last
``\\boxed`` or ``\\fbox`` (:func:`box_tail`, a replace without captures) and match only the short
rest, anchored (:func:`anchored_box`).

Only the *last* box counts: where it is not well formed (it never closes, or its braces do not
balance within the nesting the content pattern allows) the text has no box content, and an
earlier box is never read instead. An earlier box is an answer the model went on to replace
(``\\boxed{3}. Wait, that is wrong … \\boxed{\\frac{1}{2}``); reading it when the last one is
cut off credits the superseded answer. The plain regex for the last box backtracks to an
earlier box, so it is not used to read one.

The content patterns (how deep braces may nest) are in :mod:`xpert_frames.reading.vocabulary`:
the number reader reads three levels (:data:`~xpert_frames.reading.vocabulary.BOX_CONTENT`),
the math span reader four (:data:`~xpert_frames.reading.vocabulary.BOX_CONTENT_DEEP`).
"""

from __future__ import annotations

import polars as pl

from xpert_frames.reading.spans import last_sentence
from xpert_frames.reading.vocabulary import BOX_CONTENT_DEEP, BOX_OPENERS

_THROUGH_LAST = r"(?s)^.*\\(?:boxed|fbox)"
#: Scratch column of :func:`after_box`: the text after the last box opener.
_AFTER = "__text_after_box"


def anchored_box(content: str) -> str:
    """The box's braces at the start of :func:`box_tail`: group 1 the content, and a replace
    with ``""`` leaves the text after the box."""
    return rf"^\s*\{{({content})\}}"


def box_tail(text: pl.Expr) -> pl.Expr:
    """The text after its last ``\\boxed``/``\\fbox``; null where it has none."""
    has_box = text.str.contains_any(list(BOX_OPENERS))
    return pl.when(has_box).then(text.str.replace(_THROUGH_LAST, ""))


def last_box(df: pl.DataFrame, text: str, content: str) -> pl.DataFrame:
    """Add ``content``: the content of the last box of column ``text`` (four levels of nested
    braces), read after the last ``\\boxed``/``\\fbox``; null where that box is not well
    formed (never an earlier box's content, module docs) or there is none."""
    f = pl.col
    found = box_tail(f(text)).str.extract(anchored_box(BOX_CONTENT_DEEP), 1).alias(content)
    return df.with_columns(found)


def after_box(df: pl.DataFrame, text: str) -> pl.DataFrame:
    """Column ``text`` replaced by the last sentence after its last box (null where there is no
    box or the last one is not well formed: never the text after an earlier box)."""
    f = pl.col
    anchored = anchored_box(BOX_CONTENT_DEEP)
    df = df.with_columns(box_tail(f(text)).alias(_AFTER))  # a column: read once
    after = pl.when(f(_AFTER).str.contains(anchored)).then(f(_AFTER).str.replace(anchored, ""))
    return df.with_columns(last_sentence(after).alias(text)).drop(_AFTER)
