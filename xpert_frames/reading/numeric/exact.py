"""Exact keys of integers at any size, as Polars expressions: two integers are equal exactly
when their keys are equal strings, however many digits they have (Float64 holds every integer
only below 2**53 and none above about 1.8e308).

The key of a nonzero integer is ``<sign><significant digits>e<trailing zeros>``: the digits
without leading zeros, then the trailing zeros counted (``18446744073709551616`` is
``18446744073709551616e0``, ``-1,000,000`` is ``-1e6``, ``2.5万`` is ``25e3``, ``10^{5000}``
is ``1e5000``); zero is ``0``. Every integer has one key, so a power of ten and the same
number written in full agree without writing out its digits, and nothing is converted to a
Python int or a float.

:func:`integer_key` reads a number as written (the number reader's ``text``): an integer
(sign, digits with thousands commas, a decimal part of zeros, ``万``/``亿``, then nothing or
a unit), and with ``scientific=True`` also ``2.5e3`` (scientific notation, which otherwise
writes approximations and keeps the tolerance). :func:`power_key` reads an answer span that is
an integer or a power of ten (``10^{5000}``, ``3\\times 10^{400}``, ``$10^5$``).
"""

from __future__ import annotations

import decimal
import functools
from collections.abc import Callable

import polars as pl

__all__ = [
    "beyond_float",
    "exact_keys",
    "integer_key",
    "integer_keys",
    "keys_close",
    "keys_within",
    "power_key",
    "power_keys",
]

#: Below this, Float64 holds every integer exactly (and a text of one reads exactly).
WHOLE_BELOW = 2.0**53

#: A number as written that is an integer, or scientific notation: sign, digits (thousands
#: commas allowed), a decimal part, an exponent, ``万``/``亿``, then the rest (a unit).
_WRITTEN = (
    r"(?s)^(?P<sign>[-+]?)(?P<int>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.(?P<frac>[0-9]+))?"
    r"(?:[eE](?P<exp>[-+]?[0-9]+))?\s*(?P<mult>[万亿])?(?P<rest>.*)$"
)
#: What cannot follow an integer's digits when the rest is a unit (``%``, a fraction, more
#: digits, a product).
_NOT_A_UNIT = r"^\s*[-+/%‰0-9.,×*^\\]"
#: An answer span that is an integer or ``[m ×] 10^{e}`` (LaTeX ``\\times``/``\\cdot``, ``×``,
#: ``*``, ``·``), in ``$`` or not.
_POWER = (
    r"^\$*\s*(?P<sign>[-+]?)\s*(?:(?P<int>[0-9]+)(?:\.(?P<frac>[0-9]+))?\s*"
    r"(?:\\times|\\cdot|×|\*|·)\s*)?10\s*\^\s*(?:\{\s*(?P<exp>[0-9]{1,18})\s*\}|(?P<bare>[0-9]{1,18}))"
    r"\s*\$*$"
)
_MULT_ZEROS = {"万": 4, "亿": 8}


def _keys(df: pl.DataFrame) -> pl.Series:
    """The key of ``sign whole.frac × 10^exponent`` for each row of ``df`` (``whole`` digits,
    ``frac`` digits or null, ``exponent`` Int64), or null when that is not an integer. Step
    by step on an eager frame: each intermediate column is computed once."""
    f = pl.col
    df = df.with_columns(f("frac").fill_null("").str.strip_chars_end("0"))
    df = df.with_columns(pl.concat_str(f("whole"), f("frac")).str.strip_chars_start("0").alias("d"))
    df = df.with_columns(f("d").str.strip_chars_end("0").alias("s"))
    length = [f(c).str.len_chars().cast(pl.Int64) for c in ("d", "s", "frac")]
    df = df.with_columns((length[0] - length[1] - length[2] + f("exponent")).alias("z"))
    negative = pl.when(f("sign") == "-").then(pl.lit("-")).otherwise(pl.lit(""))
    body = pl.concat_str(negative, f("s"), pl.lit("e"), f("z").cast(pl.String))
    key = pl.when(f("d") == "").then(pl.lit("0")).when(f("z") >= 0).then(body)
    return df.select(key).to_series()


def _on_values(fn: Callable[[pl.Series], pl.Series]) -> Callable[[pl.Series], pl.Series]:
    """A batch function that runs ``fn`` on the non-null texts of a batch only."""

    def batch(texts: pl.Series) -> pl.Series:
        out = pl.repeat(None, len(texts), dtype=pl.String, eager=True).alias(texts.name)
        present = texts.is_not_null()
        if not present.any():
            return out
        return out.scatter(present.arg_true(), fn(texts.filter(present)))

    return batch


def integer_keys(texts: pl.Series, *, scientific: bool = False) -> pl.Series:
    """:func:`integer_key` of a Series (eager)."""
    df = pl.DataFrame({"text": texts}).select(pl.col("text").str.extract_groups(_WRITTEN))
    df = df.unnest("text")
    f = pl.col
    exponent = f("exp").cast(pl.Int64, strict=False)
    written = ~f("rest").str.contains(_NOT_A_UNIT)
    if scientific:
        written = written & (f("exp").is_null() | exponent.is_not_null())
    else:
        written = written & f("exp").is_null()
    mult = f("mult").replace_strict(_MULT_ZEROS, default=0, return_dtype=pl.Int64)
    df = df.select(
        "sign",
        f("int").str.replace_all(",", "", literal=True).alias("whole"),
        "frac",
        (exponent.fill_null(0) + mult).alias("exponent"),
        written.fill_null(False).alias("written"),
    )
    return pl.select(pl.when(df["written"]).then(_keys(df))).to_series().alias(texts.name)


def integer_key(text: pl.Expr, *, scientific: bool = False) -> pl.Expr:
    """The key of a number as written (see module docs) when it is an integer, else null.
    ``scientific``: ``2.5e3`` counts too (its value is an integer); else scientific notation
    gives null. A batch function over the non-null texts."""
    fn = _on_values(functools.partial(integer_keys, scientific=scientific))
    return text.map_batches(fn, return_dtype=pl.String, is_elementwise=True)


def power_keys(texts: pl.Series) -> pl.Series:
    """:func:`power_key` of a Series (eager)."""
    spans = texts.str.strip_chars(" \t\n\r$")
    df = pl.DataFrame({"text": spans}).select(pl.col("text").str.extract_groups(_POWER))
    df = df.unnest("text")
    f = pl.col
    df = df.select(
        "sign",
        f("int").fill_null("1").alias("whole"),
        "frac",
        pl.coalesce("exp", "bare").cast(pl.Int64, strict=False).alias("exponent"),
    )
    power = _keys(df)
    plain = spans.str.contains(r"^[-+]?[0-9][0-9,]*(?:\.[0-9]+)?$")
    plain_keys = _on_values(integer_keys)(pl.select(pl.when(plain).then(spans)).to_series())
    return pl.select(pl.coalesce(power, plain_keys)).to_series().alias(texts.name)


def power_key(text: pl.Expr) -> pl.Expr:
    """The key of an answer span that is an integer as written (:func:`integer_key`, no unit)
    or a power of ten with an optional factor (``10^{5000}``, ``3\\times10^{400}``), else
    null. A batch function over the non-null spans."""
    fn = _on_values(power_keys)
    return text.map_batches(fn, return_dtype=pl.String, is_elementwise=True)


def _parts(key: str) -> tuple[decimal.Decimal, int, int]:
    """The value, the exponent of the lowest digit and of the highest of a key."""
    value = decimal.Decimal(key)
    exponent = int(value.as_tuple().exponent)
    return value, exponent, value.adjusted()


def keys_within(first: str, second: str, tolerance: float) -> bool:
    """Whether two integers given by their keys differ by at most ``tolerance`` (a finite
    float), computed exactly (decimal arithmetic with as many digits as the numbers span; a
    difference that must exceed any float is decided without computing it)."""
    if first == second:
        return True
    if tolerance < 1:  # different integers differ by at least 1
        return False
    a, low_a, high_a = _parts(first)
    b, low_b, high_b = _parts(second)
    if a.is_zero() or b.is_zero():
        low = low_b if a.is_zero() else low_a
        high = high_b if a.is_zero() else high_a
    else:
        low, high = min(low_a, low_b), max(high_a, high_b)
    # |a - b| >= 10**low (a nonzero multiple of it); and >= 10**(high - 1) when the highest
    # digits are two or more places apart.
    if low > 310 or (abs(high_a - high_b) >= 2 and high > 311):
        return False
    context = decimal.Context(prec=max(high - low + 2, 1), traps=[decimal.Inexact])
    return abs(context.subtract(a, b)) <= decimal.Decimal(tolerance)


def beyond_float(value: pl.Expr) -> pl.Expr:
    """Whether a number read (its text is not null) has no finite Float64 value: an integer
    beyond Float64's range (about 1.8e308) reads as null or infinity."""
    return value.is_null() | ~value.is_finite()


def _keys_batch(pairs: pl.Series) -> pl.Series:
    """:func:`integer_keys` of the texts ``text`` of a batch of ``{text, value}`` (most are
    null: only the rows :func:`exact_keys` picks are read); scientific notation only where its
    ``value`` is beyond Float64 (elsewhere it keeps the tolerance)."""
    out = pl.repeat(None, len(pairs), dtype=pl.String, eager=True).alias(pairs.name)
    df = pairs.struct.unnest().with_row_index("row").drop_nulls("text")
    if df.height == 0:
        return out
    keys = integer_keys(df["text"])
    beyond = df.select(beyond_float(pl.col("value"))).to_series()
    if beyond.any():
        scientific = integer_keys(df["text"], scientific=True)
        keys = pl.select(pl.coalesce(keys, pl.when(beyond).then(scientific))).to_series()
    return out.scatter(df["row"], keys)


def exact_keys(value: pl.Expr, other: pl.Expr, text: pl.Expr, other_text: pl.Expr) -> pl.Expr:
    """The key of ``text`` (the number ``value`` as written) when ``value`` and ``other``
    (written ``other_text``) are whole or beyond Float64 and one of them is at or above 2**53
    or beyond Float64, else null: a batch function that reads only those rows (below 2**53
    Float64 holds every integer exactly, so the others need no key)."""
    beyond, beyond_other = beyond_float(value), beyond_float(other) & other_text.is_not_null()
    whole = (value.round(0) == value) | beyond
    whole_other = (other.round(0) == other) | beyond_other
    big = (value.abs() >= WHOLE_BELOW) | (other.abs() >= WHOLE_BELOW) | beyond | beyond_other
    pick = (whole & whole_other & big).fill_null(False) & text.is_not_null()
    pairs = pl.struct(pl.when(pick).then(text).alias("text"), value.alias("value"))
    return pairs.map_batches(_keys_batch, return_dtype=pl.String, is_elementwise=True)


def _within_batch(pairs: pl.Series, tolerance: float) -> pl.Series:
    """:func:`keys_within` once per distinct pair of keys ``{first, second}`` of a batch."""
    df = pairs.struct.unnest()
    todo = df.drop_nulls().unique()
    hits = [keys_within(a, b, tolerance) for a, b in todo.iter_rows()]
    table = todo.with_columns(pl.Series("hit", hits, dtype=pl.Boolean))
    out = df.join(
        table, on=["first", "second"], how="left", maintain_order="left", nulls_equal=False
    )
    return out["hit"].alias(pairs.name)


def keys_close(first: pl.Expr, second: pl.Expr, tolerance: float) -> pl.Expr:
    """Whether the integers of two keys differ by at most ``tolerance`` (exactly; null when
    a key is null): equal keys below a tolerance of 1, else :func:`keys_within` once per
    distinct pair of different keys (rare: integers beyond 2**53 within a tolerance)."""
    if tolerance < 1:
        return first == second
    differ = pl.struct(
        pl.when(first != second).then(first).alias("first"),
        pl.when(first != second).then(second).alias("second"),
    )
    within = differ.map_batches(
        functools.partial(_within_batch, tolerance=tolerance),
        return_dtype=pl.Boolean,
        is_elementwise=True,
    )
    return pl.when(first == second).then(pl.lit(True)).otherwise(within)
