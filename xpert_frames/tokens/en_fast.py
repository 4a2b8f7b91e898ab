"""NLTK's ``NLTKWordTokenizer`` as Polars (Rust regex) substitutions over a whole column.

``NLTKWordTokenizer.tokenize`` is an ordered list of regex substitutions followed by
``str.split()``. Every rule is rewritten here for Rust's regex, in the same order, with the same
leftmost-first semantics:

* ``(?<!\\w)(')(?!(?:re|ve|ll|m|t|s|d|n)\\b)(?=\\w)`` (look-around) becomes three passes with a
  private-use sentinel: mark ``'`` after a non-word char (or the start) and before a word char,
  unmark the marks followed by ``re|ve|ll|m|t|s|d|n`` and a non-word char (or the end), then turn
  the marks into the inserted space. Consuming the neighbouring characters is safe: a char the
  next candidate would need as its left context is never a word char taken by a previous match.
* ``[...]*+`` (possessive) equals the greedy ``[...]*`` there: if the longest run of the class
  cannot be followed by ``\\s*$``, no shorter run can.
* Python's ``$`` also matches before a final newline: ``([:,])$`` becomes ``([:,])(\\n?)$``; in
  ``\\s*$`` the greedy ``\\s*`` already eats that newline.
* ``(?=\\s)`` in the ``wanna`` rule consumes the space and puts it back.
* ``(?#X)`` comments are dropped.
* ``str.split()`` after ``\\s+ -> ' '``: only spaces remain, so runs of non-spaces are the tokens.

What cannot be rewritten is character classes: ``\\w``/``\\s``/``\\d``/case folding differ between
Python's ``re``, the ``regex`` module and Rust on some code points. Strings containing such a
code point (see :mod:`xpert_frames.tokens._charsets`) are routed to NLTK itself
(:func:`needs_nltk`). Identity is tested with hypothesis and on a 1M-string generated corpus
(``benchmarks/verify_tokenizer.py``).
"""

from __future__ import annotations

import polars as pl

from xpert_frames.tokens._charsets import SENTINEL, unsafe_class

_M = SENTINEL
# (pattern, replacement) in NLTK's order; replacements use Rust's ${n} syntax.
_RULES: tuple[tuple[str, str], ...] = (
    # STARTING_QUOTES
    (r"([«“‘„]|[`]+)", " ${1} "),
    (r'^"', "``"),
    (r"(``)", " ${1} "),
    (r"""([ (\[{<])("|'{2})""", "${1} `` "),
    (r"(^|\W)'(\w)", "${1}'" + _M + "${2}"),
    (r"(?i)'" + _M + r"(re|ve|ll|m|t|s|d|n)(\W|$)", "'${1}${2}"),
    (_M, " "),
    # PUNCTUATION
    (r"""([^.])(\.)([\])}>"'»”’ ]*)\s*$""", "${1} ${2} ${3} "),
    (r"([:,])([^\d])", " ${1} ${2}"),
    (r"([:,])(\n?)$", " ${1} ${2}"),
    (r"\.{2,}", " ${0} "),
    (r"[;@#$%&]", " ${0} "),
    (r"[\u2012-\u2015]", " ${0} "),
    (r"""([^.])(\.)([\])}>"']*)\s*$""", "${1} ${2}${3} "),
    (r"[?!]", " ${0} "),
    (r"([^'])' ", "${1} ' "),
    (r"[*]", " ${0} "),
    # PARENS_BRACKETS, DOUBLE_DASHES
    (r"[\]\[(){}<>]", " ${0} "),
    (r"--", " -- "),
)
_ENDING: tuple[tuple[str, str], ...] = (
    (r"([»”’])", " ${1} "),
    (r"''", " '' "),
    (r'"', " '' "),
    (r"\s+", " "),
    (r"([^' ])('[sS]|'[mM]|'[dD]|') ", "${1} ${2} "),
    (r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "${1} ${2} "),
    # CONTRACTIONS2
    (r"(?i)\b(can)(not)\b", " ${1} ${2} "),
    (r"(?i)\b(d)('ye)\b", " ${1} ${2} "),
    (r"(?i)\b(gim)(me)\b", " ${1} ${2} "),
    (r"(?i)\b(gon)(na)\b", " ${1} ${2} "),
    (r"(?i)\b(got)(ta)\b", " ${1} ${2} "),
    (r"(?i)\b(lem)(me)\b", " ${1} ${2} "),
    (r"(?i)\b(more)('n)\b", " ${1} ${2} "),
    (r"(?i)\b(wan)(na)(\s)", " ${1} ${2} ${3}"),
    # CONTRACTIONS3
    (r"(?i) ('t)(is)\b", " ${1} ${2} "),
    (r"(?i) ('t)(was)\b", " ${1} ${2} "),
)


def needs_nltk(text: pl.Expr) -> pl.Expr:
    """True where the fast path is not proven identical (an unsafe code point): tokenize
    those strings with :class:`nltk.tokenize.NLTKWordTokenizer`."""
    return text.str.contains(f"[{unsafe_class()}]")


def tokens(text: pl.Expr) -> pl.Expr:
    """``NLTKWordTokenizer().tokenize(text)`` as a ``List(String)`` expression; valid only where
    :func:`needs_nltk` is False."""
    for pattern, replacement in _RULES:
        text = text.str.replace_all(pattern, replacement)
    text = pl.concat_str(pl.lit(" "), text, pl.lit(" "))
    for pattern, replacement in _ENDING:
        text = text.str.replace_all(pattern, replacement)
    return text.str.extract_all(r"[^ ]+")
