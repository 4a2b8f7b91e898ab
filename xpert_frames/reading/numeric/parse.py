"""Numbers in model answers, as Polars expressions.

:func:`extract_number` finds the answer's number in free text and returns a struct
``{value: Float64, unit: String, rule: String}``; :func:`parse_number` reads a string that is
exactly a number (with an optional unit). Both run as Polars operations on whole batches
(``map_batches``, one call per batch; no Python per row or per string): regexes,
``extract_groups`` and arithmetic, Chinese numerals included
(:mod:`xpert_frames.reading.numeric.chinese`). Inside a batch, a text that is one bare ASCII number
is a
cast, each rule runs only on the rows that can match it, and repeated texts are read once.

Where the answer's number comes from (``rule``), in priority order:

``boxed``      the last ``\\boxed{...}``;
``statement``  after the last answer statement (答案是/答案为/答案：/答：/所以/因此/故/最终答案/
               结果是/结果为/the answer is/final answer/answer:/``####``): the last number of
               its clause (the text up to the next ``，``/``, `` or sentence end; after the
               clause's last ``=`` if it has one), else the last number of its sentence;
``equals``     ``= <number>`` ending the text;
``conclusion`` the number of a last conclusion sentence (So/Therefore/Thus/Hence …) that
               only context sentences follow;
``last``       the last number in the text;
``none``       nothing found (value null).

With ``mode="first"`` the rules are skipped and the first number is taken (``rule="first"``):
the seed's choice, read with the full grammar below.

Forms (``normalize=True``): integers, decimals, signs (``-``, ``负``, ``－``), full-width digits,
thousands separators (``1,250.5``), scientific notation (``2.5e3``, ``2.5×10^3``), powers of
ten (``10^{5}``, ``10^5``: their value), fractions
``a/b``, ``a分之b`` (= b/a), ``\\frac{a}{b}``, ``$...$``, percent (``50%`` and ``百分之五十`` are
0.5, unit ``%``), Chinese numerals (``三点五``, ``一千零五十``, ``两千``), ``万``/``亿``
multipliers after digits (``2.5万`` = 25000), and a unit after the number (``kg``, ``m/s``,
``°C``, ``米``, ``千克`` ...; see :mod:`xpert_frames.reading.numeric.units`).

``normalize=False`` reads only the ASCII number forms as written (the rules and the units stay):
no full-width folding, no Chinese numerals, ``负``, ``分之``, ``百分之`` or ``万``/``亿``
multipliers, no LaTeX clean-up (``$``, ``\\left``, ``\\dfrac``,
``{,}``, ``\\times 10^n``), no binary-minus detection (``7-2`` gives ``-2``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal

import polars as pl

from xpert_frames.core.aliases import IntoExpr, MathExtract
from xpert_frames.core.exceptions import InvalidOptionError
from xpert_frames.core.options import check_bool, check_choice
from xpert_frames.core.text import to_expr
from xpert_frames.reading.numeric.forms import (
    DECIMAL_COMMAS,
)
from xpert_frames.reading.numeric.grammar import (
    normalize_text,
)
from xpert_frames.reading.numeric.infinity import with_infinity as _with_infinity
from xpert_frames.reading.numeric.read import extract_series, parse_series
from xpert_frames.reading.numeric.rules import RULE_COLUMNS

ExtractMode = MathExtract
EXTRACT_MODES: tuple[str, ...] = ("last", "first")
#: Every ``*_rule`` value of a number: the rules, ``first`` (mode ``first``) and ``none``.
RULES: tuple[str, ...] = (*RULE_COLUMNS, "first", "none")
NUMBER_DTYPE = pl.Struct({"value": pl.Float64, "unit": pl.String, "rule": pl.String})
DETAIL_DTYPE = pl.Struct(
    {"value": pl.Float64, "unit": pl.String, "rule": pl.String, "text": pl.String}
    | {"approx": pl.Float64()}
)
DecimalComma = Literal["auto", "always", "never"]

__all__ = [
    "EXTRACT_MODES",
    "NUMBER_DTYPE",
    "RULES",
    "ExtractMode",
    "extract_number",
    "extract_number_detail",
    "extract_number_pair",
    "normalize_text",
    "parse_number",
    "parse_number_detail",
    "parse_number_with_unit",
]


def _check_mode(mode: object) -> str:
    try:
        return check_choice("mode", mode, EXTRACT_MODES)
    except InvalidOptionError as exc:
        raise InvalidOptionError(
            f"{exc} Hint: 'last' follows answer statements and takes the last number; "
            "'first' is the seed's choice."
        ) from None


# --------------------------------------------------------------------------- public
def _check_decimal_comma(decimal_comma: object) -> str:
    try:
        return check_choice("decimal_comma", decimal_comma, DECIMAL_COMMAS)
    except InvalidOptionError as exc:
        raise InvalidOptionError(
            f"{exc} Hint: 'auto' reads '2,74' as 2.74 and '1,000' as 1000; 'always' reads "
            "every comma between digits as a decimal point; 'never' only as thousands."
        ) from None


def extract_number(
    text: IntoExpr,
    *,
    mode: ExtractMode = "last",
    normalize: bool = True,
    decimal_comma: DecimalComma = "auto",
) -> pl.Expr:
    """The answer's number in free text: struct ``{value, unit, rule}`` (see module docs).

    ``text`` is a column name or a String expression; null text gives a null struct. Runs as
    Polars expressions over each batch's distinct texts (no per-row Python).
    """
    return _extract(text, mode, normalize, decimal_comma, detail=False)


def extract_number_detail(
    text: IntoExpr,
    *,
    mode: ExtractMode = "last",
    normalize: bool = True,
    decimal_comma: DecimalComma = "auto",
) -> pl.Expr:
    """:func:`extract_number` plus ``text`` (the number as written, after normalization) and
    ``approx`` (the value of an approximation written right after it: ``1/3 ≈ 0.33``)."""
    return _extract(text, mode, normalize, decimal_comma, detail=True)


def _series_reader(
    mode: object, normalize: object, decimal_comma: object, *, detail: bool
) -> Callable[[pl.Series], pl.Series]:
    """:func:`~xpert_frames.reading.numeric.read.extract_series` with its options checked
    once, when the expression is built."""
    return functools.partial(
        extract_series,
        mode=_check_mode(mode),
        normalize=check_bool("normalize", normalize),
        decimal_comma=_check_decimal_comma(decimal_comma),
        detail=detail,
    )


def _extract(
    text: IntoExpr, mode: object, normalize: object, decimal_comma: object, *, detail: bool
) -> pl.Expr:
    fn = _series_reader(mode, normalize, decimal_comma, detail=detail)
    dtype = DETAIL_DTYPE if detail else NUMBER_DTYPE

    def batch(texts: pl.Series) -> pl.Series:
        return _with_infinity(texts, fn(texts))

    return to_expr(text).map_batches(batch, return_dtype=dtype, is_elementwise=True)


def extract_number_pair(
    first: IntoExpr,
    second: IntoExpr,
    *,
    mode: ExtractMode = "last",
    normalize: bool = True,
    decimal_comma: DecimalComma = "auto",
) -> pl.Expr:
    """:func:`extract_number_detail` of two texts (a prediction and its reference), as struct
    ``{first, second}``: one batch call reads both columns (half the fixed cost per batch)."""
    fn = _series_reader(mode, normalize, decimal_comma, detail=True)

    def batch(pair: pl.Series) -> pl.Series:
        frame = pair.struct.unnest()
        texts = pl.concat([frame.to_series(0), frame.to_series(1)]).cast(pl.String)
        read = _with_infinity(texts, fn(texts))
        half = len(pair)
        out = pl.DataFrame({"first": read.head(half), "second": read.tail(len(read) - half)})
        return out.select(pl.struct("first", "second").alias(pair.name)).to_series()

    both = pl.struct(
        to_expr(first).cast(pl.String).alias("a"), to_expr(second).cast(pl.String).alias("b")
    )
    dtype = pl.Struct({"first": DETAIL_DTYPE, "second": DETAIL_DTYPE})
    return both.map_batches(batch, return_dtype=dtype, is_elementwise=True)


def parse_number(
    text: IntoExpr, *, normalize: bool = True, decimal_comma: DecimalComma = "auto"
) -> pl.Expr:
    """Float64 value of a string that is exactly one number, with an optional unit and
    surrounding whitespace (``"1,250.5元"``, ``"二分之一"``, ``"-3e-2"``); otherwise null."""
    return parse_number_with_unit(
        text, normalize=normalize, decimal_comma=decimal_comma
    ).struct.field("value")


def parse_number_with_unit(
    text: IntoExpr, *, normalize: bool = True, decimal_comma: DecimalComma = "auto"
) -> pl.Expr:
    """Struct ``{value, unit}`` of a string that is exactly one number (else both null)."""
    return _parse(text, normalize, decimal_comma, detail=False)


def parse_number_detail(
    text: IntoExpr, *, normalize: bool = True, decimal_comma: DecimalComma = "auto"
) -> pl.Expr:
    """:func:`parse_number_with_unit` plus ``text``: the string as normalized when it is a
    number (a bare number beyond Float64's range too, whose value is null), else null; what
    :func:`~xpert_frames.reading.numeric.exact.integer_key` reads."""
    return _parse(text, normalize, decimal_comma, detail=True)


def _parse(text: IntoExpr, normalize: object, decimal_comma: object, *, detail: bool) -> pl.Expr:
    fn = functools.partial(
        parse_series,
        normalize=check_bool("normalize", normalize),
        decimal_comma=_check_decimal_comma(decimal_comma),
        detail=detail,
    )
    dtype = pl.Struct(
        {"value": pl.Float64(), "unit": pl.String()} | ({"text": pl.String()} if detail else {})
    )

    def batch(texts: pl.Series) -> pl.Series:
        return _with_infinity(texts, fn(texts))

    return to_expr(text).map_batches(batch, return_dtype=dtype, is_elementwise=True)
