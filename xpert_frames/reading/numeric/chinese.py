"""Chinese numerals as Polars expressions: ``三点五``, ``一百二十``, ``一千零五十``, ``两千``,
``二零二三``, ``十二万零三``, and the colloquial omitted trailing unit: a last digit right after
``万``/``千``/``百`` takes the next lower unit (``一万二`` = 12000, ``三百五`` = 350;
``三百零五`` = 305, ``一百二十`` = 120).

No Python runs per row or per string: one anchored regex splits a numeral into its
亿 / 万 / units sections and their 千 / 百 / 十 / 个 digits (``str.extract_groups``), the digits
are mapped with ``replace_strict`` and the value is summed. A string that is not a well-formed
numeral gives null.
"""

from __future__ import annotations

import functools

import polars as pl

from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.text import to_expr

#: Digit characters and their values (``两`` is the counting form of 2, ``〇`` a written zero).
DIGITS: dict[str, int] = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
#: Characters that may appear in a Chinese integer.
INT_CHARS = "".join(DIGITS) + "十百千万亿"
_D = "[" + "".join(DIGITS) + "]"


def _section(tag: str) -> str:
    """Regex of a section below 10,000: ``[d千][零][d百][零][[d]十][零][d]``."""
    return (
        f"(?:(?P<{tag}k>{_D})千)?零?(?:(?P<{tag}h>{_D})百)?零?"
        f"(?:(?P<{tag}t>{_D})?(?P<{tag}m>十))?零?(?P<{tag}u>{_D})?"
    )


_INTEGER = f"^(?:{_section('y')}亿)?零?(?:{_section('w')}万)?零?{_section('a')}$"
#: :data:`_INTEGER` for a numeral without 万 or 亿 (its 亿 and 万 sections cannot match, so
#: the groups it has match alike): a third of the groups, several times faster.
_SMALL_INTEGER = f"^零?零?{_section('a')}$"
_SEQUENCE = f"^{_D}+$"
_SPLIT = f"^(?P<int>[{INT_CHARS}]+)(?:点(?P<dec>{_D}+))?$"


def _digit(field: pl.Expr) -> pl.Expr:
    return field.replace_strict(DIGITS, default=None, return_dtype=pl.Int64)


def _digits_to_ascii(text: pl.Expr) -> pl.Expr:
    return text.str.replace_many(list(DIGITS), [str(v) for v in DIGITS.values()])


def _section_value(tag: str) -> pl.Expr:
    """Value of one section, from the fields of the ``extract_groups`` struct."""

    def g(name: str) -> pl.Expr:
        return pl.field(f"{tag}{name}")

    tens = pl.when(g("m").is_not_null()).then(_digit(g("t")).fill_null(1)).otherwise(0)
    return (
        _digit(g("k")).fill_null(0) * 1000
        + _digit(g("h")).fill_null(0) * 100
        + tens * 10
        + _digit(g("u")).fill_null(0)
    ).cast(pl.Float64)


def _fields(tags: str) -> list[str]:
    return [f"{tag}{name}" for tag in tags for name in "khtmu"]


#: A last digit right after 百/千/万 (group 1: that unit), and the weight it then has.
_OMITTED = f"([百千万]){_D}$"
_OMITTED_WEIGHT = {"百": 10, "千": 100, "万": 1000}


def chinese_integer(text: IntoExpr, *, large: bool = True) -> pl.Expr:
    """Value (Float64) of a Chinese integer such as ``一千零五十`` or ``二零二三``; else null.

    The anchored regex runs once per string; the sections are summed from its struct fields.
    ``large=False``: for texts without ``万`` or ``亿`` only (the same values, faster).
    """
    expr = to_expr(text)
    tags, pattern = ("ywa", _INTEGER) if large else ("a", _SMALL_INTEGER)
    matched = pl.any_horizontal(pl.field(name).is_not_null() for name in _fields(tags))
    total = _section_value("a")
    if large:
        total = _section_value("y") * 1e8 + _section_value("w") * 1e4 + total
    weight = expr.str.extract(_OMITTED, 1).replace_strict(
        _OMITTED_WEIGHT, default=1, return_dtype=pl.Float64
    )
    total = total + _digit(pl.field("au")).fill_null(0) * (weight - 1)
    value = (
        expr.str.extract_groups(pattern)
        .struct.with_fields(pl.when(matched).then(total).alias("__value"))
        .struct.field("__value")
    )
    sequence = _digits_to_ascii(expr).cast(pl.Float64, strict=False)
    return pl.when(expr.str.contains(_SEQUENCE)).then(sequence).otherwise(value)


def _from_parts(integer: pl.Expr, decimal: pl.Expr, *, large: bool = True) -> pl.Expr:
    decimals = pl.concat_str(pl.lit("0."), _digits_to_ascii(decimal))
    value = chinese_integer(integer, large=large)
    return value + decimals.cast(pl.Float64, strict=False).fill_null(0.0)


@functools.cache
def _value_of_parts(large: bool) -> pl.Expr:
    return _from_parts(pl.col("int"), pl.col("dec"), large=large)


def chinese_numbers(strings: pl.Series) -> pl.Series:
    """Value (Float64) of each string that is exactly a Chinese numeral with optional ``点``
    decimals (``三点五`` = 3.5), else null. The numeral is split once and the parts read as
    columns (an eager frame shares no sub-expressions); numerals without ``万``/``亿`` (most)
    with the smaller regex."""
    parts = strings.str.extract_groups(_SPLIT).struct.unnest()
    large = parts.select(pl.col("int").str.contains("[万亿]").fill_null(False)).to_series()
    if not large.any() or large.all():
        return parts.select(_value_of_parts(large.all()).alias(strings.name)).to_series()
    out = pl.repeat(None, len(strings), dtype=pl.Float64, eager=True).alias(strings.name)
    for rows, big in ((large, True), (~large, False)):
        values = parts.filter(rows).select(_value_of_parts(big)).to_series()
        out = out.scatter(rows.arg_true(), values)
    return out
