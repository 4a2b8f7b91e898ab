"""Text normalization expressions shared by evaluators (Polars only, no row loops)."""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from xpert_frames.core.aliases import IntoExpr

# U+FF01..U+FF5E are the full-width forms of ASCII U+0021..U+007E; U+3000 is the ideographic space.
_FULL = [chr(c) for c in range(0xFF01, 0xFF5F)] + ["\u3000"]
_HALF = [chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)] + [" "]


def to_expr(value: IntoExpr) -> pl.Expr:
    return pl.col(value) if isinstance(value, str) else value


def full_to_half(text: IntoExpr) -> pl.Expr:
    """Full-width ASCII forms (``Ａ``, ``１``, ``（``) and the ideographic space to half-width."""
    return to_expr(text).str.replace_many(_FULL, _HALF)


def collapse_whitespace(text: IntoExpr) -> pl.Expr:
    """Runs of Unicode whitespace to one space, stripped at both ends."""
    return to_expr(text).str.replace_all(r"\s+", " ").str.strip_chars()


def strip_punctuation(text: IntoExpr) -> pl.Expr:
    """Remove Unicode punctuation (``\\p{P}``: ASCII and Chinese alike) and symbols (``\\p{S}``)."""
    return to_expr(text).str.replace_all(r"[\p{P}\p{S}]", "")


def replace_aliases(text: IntoExpr, aliases: Mapping[str, str]) -> pl.Expr:
    """Replace each alias by its canonical form, leftmost-longest, in one pass."""
    if not aliases:
        return to_expr(text)
    keys = sorted(aliases, key=len, reverse=True)
    return to_expr(text).str.replace_many(keys, [aliases[k] for k in keys], leftmost=True)
