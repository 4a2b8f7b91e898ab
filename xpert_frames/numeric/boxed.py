"""The last ``\\boxed{...}`` (or ``\\fbox{...}``) of a text, as Polars expressions.

The plain regex for it, ``(?s).*\\(?:boxed|fbox)\\s*\\{(<content>)\\}``, reads the whole text with
capture groups (Rust's slowest engine). Faster: cut the text through its last ``\\boxed`` or
``\\fbox`` (:func:`box_tail`, a replace without captures) and match only the short rest,
anchored (:func:`anchored_box`). Where the last box is not well formed (its braces do not
balance within the nesting the content pattern allows) an earlier box may be: callers read
the rows where the anchored match fails with the plain regex, so the result is the same.
"""

from __future__ import annotations

import polars as pl

_THROUGH_LAST = r"(?s)^.*\\(?:boxed|fbox)"


def plain_box(content: str) -> str:
    """The plain regex: group 1 is the content of the last well-formed box."""
    return rf"(?s).*\\(?:boxed|fbox)\s*\{{({content})\}}"


def anchored_box(content: str) -> str:
    """The box's braces at the start of :func:`box_tail`: group 1 the content, and a replace
    with ``""`` leaves the text after the box."""
    return rf"^\s*\{{({content})\}}"


def box_tail(text: pl.Expr) -> pl.Expr:
    """The text after its last ``\\boxed``/``\\fbox``; null where it has none."""
    has_box = text.str.contains_any(["\\boxed", "\\fbox"])
    return pl.when(has_box).then(text.str.replace(_THROUGH_LAST, ""))
