"""Values of number candidates (strings that the grammar's ``candidate`` matched, or any
string for :func:`~xpert_frames.reading.numeric.parse.parse_number`), as Polars frame operations:
the batch step behind :mod:`xpert_frames.reading.numeric.parse`. Bare ASCII numbers, and ASCII
numbers
followed only by a known unit, are casts; the rest goes through the grammar's capture groups,
Chinese numerals once per distinct string."""

from __future__ import annotations

import functools

import polars as pl

from xpert_frames.reading.numeric.chinese import chinese_numbers
from xpert_frames.reading.numeric.grammar import ASCII_NUMBER, MIXED_TRIGGER, Grammar, grammar
from xpert_frames.reading.numeric.units import unit_table

#: A bare ASCII number (thousands separators, decimals, exponent), anchored.
BARE = r"^[-+]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$"


def _operands(g: Grammar, df: pl.DataFrame, ops: list[str]) -> pl.DataFrame:
    """Replace the number-token columns ``ops`` by their values: ASCII digits (with thousands
    separators) by a cast; Chinese numerals once per distinct string over all columns, only
    on the rows that have one."""
    f = pl.col
    ascii_values = {
        n: f(n).str.replace_all(",", "", literal=True).cast(pl.Float64, strict=False) for n in ops
    }
    if not g.chinese:
        return df.with_columns(v.alias(n) for n, v in ascii_values.items())
    chinese = pl.any_horizontal(f(n).str.contains("[^0-9.,eE+-]").fill_null(False) for n in ops)
    df = df.with_columns(chinese.alias("__cn"))
    plain = df.filter(~f("__cn")).with_columns(v.alias(n) for n, v in ascii_values.items())
    df = df.filter(f("__cn"))
    need = pl.concat([df.select(f(n).alias("numeral")) for n in ops]).drop_nulls().unique()
    table = need.with_columns(chinese_numbers(need["numeral"]).alias("__numeral_value")).drop_nulls(
        "__numeral_value"
    )
    for n, v in ascii_values.items():
        df = df.join(table, left_on=n, right_on="numeral", how="left")
        df = df.with_columns(pl.coalesce(v, f("__numeral_value")).alias(n)).drop("__numeral_value")
    return pl.concat([plain, df]).drop("__cn")


def parse_frame(normalize: bool, candidates: pl.Series, *, validated: bool) -> pl.DataFrame:
    """``{candidate, value, unit}`` for each distinct non-null candidate string ``candidate``.

    ``validated``: every ``candidate`` is a match of the grammar's ``candidate`` (else non-matches
    give
    null)."""
    df = pl.DataFrame({"candidate": candidates.unique().drop_nulls()})
    return parse_rows(normalize, df, validated=validated)


def parse_rows(normalize: bool, df: pl.DataFrame, *, validated: bool) -> pl.DataFrame:
    """``df`` (non-null strings ``candidate`` and any key columns) plus ``value`` and ``unit``, in
    another row order (without the rows that are no number when not ``validated``): one read
    per row, for rows that are mostly distinct. Strings that can hold a mixed number are read
    with the full grammar, the others with the faster one without that form."""
    mixed = df.select(pl.col("candidate").str.contains(MIXED_TRIGGER)).to_series()
    hits = mixed.sum()
    fast = grammar(normalize, mixed=False)
    if hits == 0:
        return _parse_part(fast, df, validated=validated)
    full = grammar(normalize)
    if hits == df.height:
        return _parse_part(full, df, validated=validated)
    return pl.concat(
        [
            _parse_part(full, df.filter(mixed), validated=validated),
            _parse_part(fast, df.filter(~mixed), validated=validated),
        ]
    )


_ASCII_PREFIX = rf"^[-+]?{ASCII_NUMBER}"
#: An ASCII ``\\frac{a}{b}`` or ``a/b``, anchored, with the groups of the grammar's forms:
#: where it matches, no other form of ``number_groups`` can (they need other characters).
_ASCII_FRACTION = (
    rf"^(?P<sign>[-+])?(?:\\frac\s*\{{\s*(?P<frac_num>[-+]?{ASCII_NUMBER})\s*\}}"
    rf"\s*\{{\s*(?P<frac_den>[-+]?{ASCII_NUMBER})\s*\}}"
    rf"|(?P<slash_num>{ASCII_NUMBER})\s*/\s*(?P<slash_den>{ASCII_NUMBER}))$"
)


#: An ASCII ``a分之b`` (b/a), anchored: where it matches, ``number_groups`` reads it with its
#: Chinese fraction form only (``sign``, ``zh_den``, ``zh_num``: no other form holds ``分之``
#: after ASCII digits, and no ``又``), as :func:`_ascii_zh_fraction` cuts it.
_ASCII_ZH_FRACTION = rf"^(?:[-+]|负)?{ASCII_NUMBER}\s*分之\s*{ASCII_NUMBER}$"


#: A text holding one of these may match a fraction form of ``number_groups`` (or a percent
#: word); without, only the plain number form (``Grammar.plain_groups``) can match.
_FRACTION_MARKS = ["\\frac", "/", "分之"]


def _ascii_fraction(df: pl.DataFrame) -> pl.DataFrame:
    """The operands (:data:`_OPERANDS`) of texts ``num`` that match :data:`_ASCII_FRACTION`,
    by literal cuts (no capture groups: the regex engine's slow path): the sign is the first
    character when it is one, the operands are what ``/`` or ``}{`` separate once white
    space is gone (an operand holds none). Each cut is computed once (an eager frame does
    not share sub-expressions)."""
    f = pl.col
    first = f("num").str.slice(0, 1)
    signed = first.is_in(["-", "+"])
    body = pl.when(signed).then(f("num").str.slice(1)).otherwise(f("num"))
    df = df.with_columns(
        pl.when(signed).then(first).alias("sign"),
        body.str.replace_all(r"\s+", "").alias("__body"),
    )
    # ``\frac{a}{b}`` -> ``a/b``: then one cut at ``/`` for both forms.
    frac = f("__body").str.strip_prefix("\\frac{").str.strip_suffix("}")
    frac = frac.str.replace("}{", "/", literal=True)
    cut = f("__body").str.starts_with("\\frac")
    df = df.with_columns(
        pl.when(cut).then(frac).otherwise(f("__body")).str.split_exact("/", 1).alias("__cut")
    )
    parts = f("__cut").struct
    return df.select(
        pl.exclude("__body", "__cut", "sign"),
        "sign",
        parts.field("field_0").alias("numerator"),
        parts.field("field_1").alias("denominator"),
        pl.lit(None, pl.String).alias("whole"),
        pl.lit(None, pl.String).alias("mult"),
        pl.lit(False).alias("percent"),
    )


def _ascii_zh_fraction(df: pl.DataFrame) -> pl.DataFrame:
    """The operands (:data:`_OPERANDS`) of texts ``num`` that match
    :data:`_ASCII_ZH_FRACTION`, by literal cuts (the capture groups of ``number_groups`` cost
    ten times as much): the sign is the first character when it is one, the denominator and
    the numerator what ``分之`` separates, without the white space next to it."""
    f = pl.col
    first = f("num").str.slice(0, 1)
    signed = first.is_in(["-", "+", "负"])
    body = pl.when(signed).then(f("num").str.slice(1)).otherwise(f("num"))
    df = df.with_columns(
        pl.when(signed).then(first).alias("sign"), body.str.split_exact("分之", 1).alias("__cut")
    )
    parts = f("__cut").struct
    return df.select(
        pl.exclude("__cut", "sign"),
        "sign",
        parts.field("field_1").str.strip_chars_start().alias("numerator"),
        parts.field("field_0").str.strip_chars_end().alias("denominator"),
        pl.lit(None, pl.String).alias("whole"),
        pl.lit(None, pl.String).alias("mult"),
        pl.lit(False).alias("percent"),
    )


#: The operand columns every form is folded into (after the key columns and ``unit``).
_OPERANDS = ["sign", "numerator", "denominator", "whole", "mult", "percent"]


def _fold(g: Grammar, groups: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The named groups of ``g.number_groups`` (or of ``g.plain_groups``: the groups it lacks
    are null) folded into :data:`_OPERANDS`: each form has a numerator and maybe a
    denominator and a whole part."""
    f = pl.col
    nums, dens, whole = ["frac_num", "slash_num", "plain"], ["frac_den", "slash_den"], []
    if g.mixed:
        nums, dens, whole = [*nums, "mixed_num"], [*dens, "mixed_den"], ["mixed_whole"]
    if g.chinese:
        nums, dens, whole = [*nums, "percent", "zh_num"], [*dens, "zh_den"], [*whole, "zh_whole"]
    have = set(groups.columns)

    def fold(names: list[str]) -> pl.Expr:
        present = [n for n in names if n in have]
        return pl.coalesce(present) if present else pl.lit(None, pl.String)

    return groups.select(
        *keys,
        "unit",
        "sign",
        fold(nums).alias("numerator"),
        fold(dens).alias("denominator"),
        fold(whole).alias("whole"),
        f("mult") if "mult" in have else pl.lit(None, pl.String).alias("mult"),
        (f("percent").is_not_null() if "percent" in have else pl.lit(False)).alias("percent"),
    )


def _groups(g: Grammar, df: pl.DataFrame, keys: list[str], fractions: pl.DataFrame) -> pl.DataFrame:
    """``keys``, ``unit`` and the operands (:data:`_OPERANDS`) of the numbers ``num`` of
    ``df`` and of ``fractions`` (whose ``num`` all match :data:`_ASCII_FRACTION`; row order
    changes), read with the named groups of ``g.number_groups``. ASCII
    fractions (most of the rows here) are read by literal cuts (:func:`_ascii_fraction`), and
    texts that can hold no fraction with the plain number form only (both faster than the
    whole grammar's regex, and the same groups). Each part is folded into the operands before
    the parts are joined: fewer columns to copy."""
    f = pl.col
    num = f("num")
    kind = (
        pl.when(num.str.contains(_ASCII_FRACTION))
        .then(pl.lit(1, pl.Int8))
        .when(num.str.contains_any(_FRACTION_MARKS))
        .then(pl.lit(0, pl.Int8))
        .otherwise(pl.lit(2, pl.Int8))
    )
    df = df.with_columns(kind.alias("__kind"))
    columns = [*keys, "unit", "num"]
    parts = [df.filter(f("__kind") == k).select(columns) for k in range(3)]
    parts[1] = pl.concat([fractions.select(columns), parts[1]])
    out = [_ascii_fraction(parts[1]).select(*keys, "unit", *_OPERANDS)]
    if g.chinese:  # ASCII ``a分之b`` by cuts too, the regex run on the rows with a mark only
        zh = parts[0].select(num.str.contains(_ASCII_ZH_FRACTION)).to_series()
        if zh.any():
            out.append(_ascii_zh_fraction(parts[0].filter(zh)).select(*keys, "unit", *_OPERANDS))
            parts[0] = parts[0].filter(~zh)
    full = parts[0].with_columns(num.str.extract_groups(g.number_groups).alias("groups"))
    plain = parts[2].with_columns(num.str.extract_groups(g.plain_groups).alias("groups"))
    out += [_fold(g, full.unnest("groups"), keys), _fold(g, plain.unnest("groups"), keys)]
    return pl.concat(out)


@functools.cache
def _plain_units() -> list[str]:
    """Unit aliases that cannot continue a number form after ASCII digits (not ``万元``)."""
    aliases = [*unit_table().aliases, "%", "‰"]
    return sorted({a for a in aliases if not a.startswith(("万", "亿"))})


def _parse_part(g: Grammar, df: pl.DataFrame, *, validated: bool) -> pl.DataFrame:
    """:func:`parse_rows` with one grammar. The unit is split off
    first (a prefix match without capture groups); a number part in ASCII digits is then a
    cast, and only the rest goes through the capture-group regex."""
    f = pl.col
    keys = df.columns
    if not validated:
        df = df.filter(f("candidate").str.contains(g.whole))
    # A candidate that is an ASCII fraction is its number without a unit (no unit is written
    # with only digits, signs, ``.,eE/`` and white space, so it is never the cast below): it
    # skips the unit's split, straight to its cuts (:func:`_ascii_fraction`).
    whole_fraction = df.select(f("candidate").str.contains(_ASCII_FRACTION)).to_series()
    fractions = df.filter(whole_fraction).with_columns(
        pl.lit(None, pl.String).alias("unit"), f("candidate").alias("num")
    )
    df = df.filter(~whole_fraction)
    # An ASCII number followed by nothing but a known unit (most candidates) is a cast.
    df = df.with_columns(f("candidate").str.extract(_ASCII_PREFIX, 0).alias("num"))
    df = df.with_columns(
        f("candidate").str.strip_prefix(f("num")).str.strip_chars().alias("unit_text")
    )
    quick = (f("unit_text") == "") | f("unit_text").is_in(_plain_units())
    mask = df.select((f("num").is_not_null() & quick).fill_null(False)).to_series()
    ascii_unit = df.filter(mask).select(
        *keys,
        f("num").str.replace_all(",", "", literal=True).cast(pl.Float64).alias("value"),
        pl.when(f("unit_text") != "").then(f("unit_text")).alias("unit"),
    )
    df = df.filter(~mask).drop("num", "unit_text")
    # Eager frames do not share sub-expressions: each is computed once, then reused.
    df = df.with_columns(f("candidate").str.replace(g.number_prefix, "").alias("unit"))
    df = df.with_columns(
        f("candidate")
        .str.slice(0, f("candidate").str.len_chars() - f("unit").str.len_chars())
        .alias("num"),
        f("unit").str.strip_chars().replace("", None).alias("unit"),
    )
    bare = df.select(f("num").str.contains(BARE)).to_series()
    simple = df.filter(bare).with_columns(
        f("num").str.replace_all(",", "", literal=True).cast(pl.Float64).alias("value")
    )
    df = _groups(g, df.filter(~bare), keys, fractions)
    df = df.with_columns(
        f("denominator").is_not_null().alias("has_denominator"),
        f("whole").is_not_null().alias("has_whole"),
    )
    if df["whole"].null_count() < df.height:  # mixed numbers are rare: skip their column if none
        df = _operands(g, df, ["numerator", "denominator", "whole"])
    else:
        df = _operands(g, df, ["numerator", "denominator"]).with_columns(
            pl.lit(None, pl.Float64).alias("whole")
        )
    # Comparisons, not a hash lookup per row (``replace_strict``): most rows have neither.
    mult = pl.when(f("mult") == "万").then(1e4).when(f("mult") == "亿").then(1e8).otherwise(1.0)
    fraction = (
        pl.when(f("has_whole"))
        .then(f("whole") + f("numerator") / f("denominator"))
        .otherwise(f("numerator") / f("denominator"))
    )
    value = pl.when(f("has_denominator")).then(fraction).otherwise(f("numerator") * mult)
    negative = f("sign").is_in(["-", "负"]).fill_null(False)
    unit = pl.when(f("percent")).then(pl.lit("%")).otherwise(f("unit"))
    df = df.select(
        *keys, pl.when(negative).then(-value).otherwise(value).alias("value"), unit.alias("unit")
    )
    df = pl.concat([ascii_unit, simple.select(*keys, "value", "unit"), df])
    scale = pl.when(f("unit") == "%").then(0.01).when(f("unit") == "‰").then(0.001).otherwise(1.0)
    value = f("value") * scale
    return df.select(*keys, pl.when(value.is_finite()).then(value).alias("value"), "unit")
