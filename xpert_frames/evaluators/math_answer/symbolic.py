"""Symbolic math answers: which rows are not plain numbers, and their equivalence.

A number taken from a symbolic answer proves nothing (``2^{2025}`` against ``3^{2025}``, an
interval against ``1``, ``(1+\\sqrt5)/2`` against ``2``), so such rows are decided
symbolically or not at all:

* the *answer span* of the reference is its last ``\\boxed{}`` content, else the whole
  reference; of the prediction, the sentence after the last answer statement when that gave
  the number (rule ``statement``), else the last box's content, else none (the whole
  prediction is handed to Math-Verify, which finds its own answer);
* a span is *symbolic* when it is not one plain number (with an optional unit) and it holds a
  LaTeX command other than ``\\frac``, a power, root, π, ∞, set operator, an interval or tuple
  in brackets, or a factorial; a reference or boxed span also when it has an equation or
  inequality, a one-letter variable, a comma list or arithmetic between terms, unless it reads
  as prose (CJK text or a word of three letters or more);
* a row is symbolic when either span is. Its pair is verified once per distinct pair by
  Math-Verify (:mod:`xpert_frames.evaluators.math_answer.verify_pool`, per-pair deadline),
  or, without the ``symbolic`` extra (or with ``symbolic="latex"``), by exact comparison of
  the normalized LaTeX of both spans.
"""

from __future__ import annotations

import functools

import polars as pl

from xpert_frames.evaluators.math_answer import verify_pool as math_verify_pool
from xpert_frames.numeric.grammar import STATEMENT_MARKERS, fold_text, rewrite_text
from xpert_frames.numeric.parse import parse_number

SYMBOLIC_MODES: tuple[str, ...] = ("auto", "math_verify", "latex")
_BOXED = r"(?s).*\\(?:boxed|fbox)\s*\{((?:[^{}]|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*)\}"
_MARKERS = "|".join(
    m.replace("答案:", "答案[:：]").replace("答:", "答[:：]") for m in STATEMENT_MARKERS
)
_THROUGH_MARKER = f"(?s)^.*(?:{_MARKERS})"
_SENTENCE_END = r"(?s)(?:[。；;！!？?\n]|\.(?:\s|$)).*$"
_DELIMITERS = r"^[\s$]*(?:\\\(|\\\[)?|(?:\\\)|\\\])?[\s$]*[.。]?[\s$]*$"

_STRONG = r"\\[a-zA-Z]+|[\^_√π∞≤≥≠±∪∩∈]|[(\[][^()\[\]]*,[^()\[\]]*[)\]]|[0-9]!"
_WEAK = (
    r"[=<>]|(?:^|[^a-zA-Z\\])[a-zA-Z](?:[^a-zA-Z]|$)|[0-9a-zA-Z)}]\s*,\s*[-+0-9a-zA-Z(\\{]"
    r"|[0-9a-zA-Z)}]\s*[-+*/×−]\s*[0-9a-zA-Z(\\{]"
)
_PROSE = r"[\x{3400}-\x{9fff}]|(?:^|[^a-zA-Z\\])[a-zA-Z]{3,}"


def boxed_content(text: pl.Expr) -> pl.Expr:
    """The content of the last ``\\boxed{}`` (three levels of nested braces), else null."""
    return text.str.extract(_BOXED, 1)


def strip_delimiters(span: pl.Expr) -> pl.Expr:
    """A span without ``$``, ``\\(``/``\\)``, ``\\[``/``\\]`` around it or a final period."""
    return span.str.replace_all(_DELIMITERS, "").str.strip_chars()


def reference_span(reference: pl.Expr) -> pl.Expr:
    """The reference's answer: its last box's content, else the whole reference."""
    return strip_delimiters(pl.coalesce(boxed_content(reference), reference))


def prediction_span(prediction: pl.Expr, rule: pl.Expr) -> pl.Expr:
    """The prediction's answer span for the rule that found its number (see module docs)."""
    sentence = (
        prediction.str.replace(_THROUGH_MARKER, "")
        .str.strip_chars_start(" \t:,，：")
        .str.replace(_SENTENCE_END, "")
    )
    return strip_delimiters(
        pl.when(rule == "statement").then(sentence).otherwise(boxed_content(prediction))
    )


def _math_form(span: pl.Expr) -> pl.Expr:
    """The span folded (LaTeX spellings, ``\\text{}`` wrappers) and without ``\\frac``."""
    return rewrite_text(fold_text(span)).str.replace_all("\\frac", "", literal=True)


def is_symbolic(span: pl.Expr, *, strong_only: pl.Expr | bool = False) -> pl.Expr:
    """Whether a span is symbolic (module docs); null span: False."""
    form = _math_form(span)
    weak = form.str.contains(_WEAK) & ~form.str.contains(_PROSE)
    only = pl.lit(strong_only) if isinstance(strong_only, bool) else strong_only
    looks = form.str.contains(_STRONG) | (~only & weak)
    plain = parse_number(pl.when(looks).then(span)).is_not_null()
    return (looks & ~plain).fill_null(False)


def latex_form(span: pl.Expr) -> pl.Expr:
    """Normalized LaTeX for the exact fallback: folded, no spaces, single characters unbraced
    (``\\sqrt{5}`` = ``\\sqrt5``, ``x^{2}`` = ``x^2``), ``\\dfrac`` = ``\\frac``."""
    out = rewrite_text(fold_text(span)).str.replace_all(r"\s+", "")
    return out.str.replace_all(r"\{(.)\}", "${1}").str.strip_chars(".")


def _verify_batch(pairs: pl.Series, *, timeout: float) -> pl.Series:
    """Outcome per row of a struct ``{p, r}`` batch (null where either is null): each
    distinct pair verified once by Math-Verify."""
    df = pairs.struct.unnest()
    todo = df.drop_nulls().unique()
    outcomes = math_verify_pool.pool(timeout).verify(list(todo.iter_rows()))
    todo = todo.with_columns(pl.Series("o", outcomes, dtype=pl.String))
    out = df.join(todo, on=["p", "r"], how="left", maintain_order="left")
    return out["o"].alias(pairs.name)


def symbolic_outcome(
    prediction: pl.Expr, reference: pl.Expr, on: pl.Expr, *, mode: str, timeout: float
) -> pl.Expr:
    """``equal``/``different``/``timeout``/``error`` for the rows where ``on`` holds (else
    null), and the method used: ``symbolic`` (Math-Verify) or ``latex-exact``."""
    if resolve_mode(mode) == "latex":
        same = latex_form(prediction) == latex_form(reference)
        return pl.when(on).then(pl.when(same).then(pl.lit("equal")).otherwise(pl.lit("different")))
    pair = pl.struct(
        pl.when(on).then(prediction).alias("p"),
        pl.when(on).then(pl.lit("$") + reference + pl.lit("$")).alias("r"),
    )
    fn = functools.partial(_verify_batch, timeout=timeout)
    return pair.map_batches(fn, return_dtype=pl.String, is_elementwise=True)


def resolve_mode(mode: str) -> str:
    """``auto`` → ``math_verify`` when the extra is installed, else ``latex``."""
    if mode == "auto":
        return "math_verify" if math_verify_pool.available() else "latex"
    return mode


def method_name(mode: str) -> str:
    """The rule suffix of a symbolic row: ``symbolic`` (Math-Verify) or ``latex-exact``."""
    return "symbolic" if resolve_mode(mode) == "math_verify" else "latex-exact"
