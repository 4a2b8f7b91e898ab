"""Numbers in model answers, as Polars expressions.

:func:`extract_number` finds the answer's number in free text and returns a struct
``{value: Float64, unit: String, rule: String}``; :func:`parse_number` reads a string that is
exactly a number (with an optional unit). Both run as Polars operations on whole batches
(``map_batches``, one call per batch; no Python per row or per string): regexes,
``extract_groups`` and arithmetic, Chinese numerals included
(:mod:`xpert_frames.numeric.chinese`). Inside a batch, a text that is one bare ASCII number is a
cast, each rule runs only on the rows that can match it, and repeated texts are read once.

Where the answer's number comes from (``rule``), in priority order:

``boxed``      the last ``\\boxed{...}``;
``statement``  after the last answer statement (答案是/答案为/答案：/答：/所以/因此/故/最终答案/
               结果是/结果为/the answer is/final answer/answer:/``####``): the last number of
               its clause (the text up to the next ``，``/``, `` or sentence end; after the
               clause's last ``=`` if it has one), else the last number of its sentence;
``equals``     ``= <number>`` ending the text;
``last``       the last number in the text;
``none``       nothing found (value null).

With ``mode="first"`` the rules are skipped and the first number is taken (``rule="first"``):
the seed's choice, read with the full grammar below.

Forms (``normalize=True``): integers, decimals, signs (``-``, ``负``, ``－``), full-width digits,
thousands separators (``1,250.5``), scientific notation (``2.5e3``, ``2.5×10^3``), fractions
``a/b``, ``a分之b`` (= b/a), ``\\frac{a}{b}``, ``$...$``, percent (``50%`` and ``百分之五十`` are
0.5, unit ``%``), Chinese numerals (``三点五``, ``一千零五十``, ``两千``), ``万``/``亿``
multipliers after digits (``2.5万`` = 25000), and a unit after the number (``kg``, ``m/s``,
``°C``, ``米``, ``千克`` ...; see :mod:`xpert_frames.numeric.units`).

``normalize=False`` reads only the ASCII number forms as written (the rules and the units stay):
no full-width folding, no Chinese numerals, ``负``, ``分之``, ``百分之`` or ``万``/``亿``
multipliers, no LaTeX clean-up (``$``, ``\\left``, ``\\dfrac``,
``{,}``, ``\\times 10^n``), no binary-minus detection (``7-2`` gives ``-2``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

import polars as pl

from xpert_frames.core.aliases import IntoExpr, MathExtract
from xpert_frames.core.exceptions import InvalidOptionError
from xpert_frames.core.options import check_bool, check_choice
from xpert_frames.core.text import to_expr
from xpert_frames.numeric.chinese import chinese_number
from xpert_frames.numeric.grammar import (
    REWRITE_TRIGGERS,
    Grammar,
    fold_text,
    grammar,
    normalize_text,
    rewrite_text,
)

ExtractMode = MathExtract
EXTRACT_MODES: tuple[str, ...] = ("last", "first")
RULES: tuple[str, ...] = ("boxed", "statement", "equals", "last", "first", "none")
NUMBER_DTYPE = pl.Struct({"value": pl.Float64, "unit": pl.String, "rule": pl.String})

__all__ = [
    "EXTRACT_MODES",
    "NUMBER_DTYPE",
    "RULES",
    "ExtractMode",
    "extract_number",
    "normalize_text",
    "parse_number",
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


# --------------------------------------------------------------------------- parsing
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
    need = pl.concat([df.select(f(n).alias("s")) for n in ops]).drop_nulls().unique()
    table = need.with_columns(chinese_number("s").alias("__v")).drop_nulls("__v")
    for n, v in ascii_values.items():
        df = df.join(table, left_on=n, right_on="s", how="left")
        df = df.with_columns(pl.coalesce(v, f("__v")).alias(n)).drop("__v")
    return pl.concat([plain, df]).drop("__cn")


_BARE = r"^[-+]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$"


def _parse_frame(g: Grammar, candidates: pl.Series, *, validated: bool) -> pl.DataFrame:
    """``{c, value, unit}`` for each distinct non-null candidate string ``c``.

    ``validated``: every ``c`` is a match of ``g.candidate`` (else non-matches give null). The
    unit is split off first (a prefix match without capture groups); a number part in ASCII
    digits is then a cast, and only the rest goes through the capture-group regex.
    """
    f = pl.col
    df = pl.DataFrame({"c": candidates.unique().drop_nulls()})
    if not validated:
        df = df.filter(f("c").str.contains(g.whole))
    rest = f("c").str.replace(g.number_prefix, "")
    df = df.with_columns(
        f("c").str.slice(0, f("c").str.len_chars() - rest.str.len_chars()).alias("num"),
        rest.str.strip_chars().replace("", None).alias("unit"),
    )
    bare = f("num").str.contains(_BARE)
    simple = df.filter(bare).with_columns(
        f("num").str.replace_all(",", "", literal=True).cast(pl.Float64).alias("value")
    )
    df = df.filter(~bare)
    df = df.with_columns(f("num").str.extract_groups(g.number_groups).alias("p")).unnest("p")
    # Each form has a numerator and maybe a denominator: fold them into two operand columns.
    nums, dens = ["fa", "sa", "x"], ["fb", "sb"]
    if g.chinese:
        nums, dens = [*nums, "pc", "db"], [*dens, "da"]
    df = df.select(
        "c",
        "sign",
        pl.coalesce(nums).alias("a"),
        pl.coalesce(dens).alias("b"),
        f("mult") if g.chinese else pl.lit(None, pl.String).alias("mult"),
        (f("pc").is_not_null() if g.chinese else pl.lit(False)).alias("pc"),
        f("unit"),
    )
    df = df.with_columns(pl.col("b").is_not_null().alias("has_b"))
    df = _operands(g, df, ["a", "b"])
    mult = f("mult").replace_strict({"万": 1e4, "亿": 1e8}, default=1.0, return_dtype=pl.Float64)
    value = pl.when(f("has_b")).then(f("a") / f("b")).otherwise(f("a") * mult)
    negative = f("sign").is_in(["-", "负"]).fill_null(False)
    unit = pl.when(f("pc")).then(pl.lit("%")).otherwise(f("unit"))
    df = df.select(
        "c", pl.when(negative).then(-value).otherwise(value).alias("value"), unit.alias("unit")
    )
    df = pl.concat([simple.select("c", "value", "unit"), df])
    scale = f("unit").replace_strict({"%": 0.01, "‰": 0.001}, default=1.0, return_dtype=pl.Float64)
    value = f("value") * scale
    return df.select("c", pl.when(value.is_finite()).then(value).alias("value"), "unit")


def _on_subset(
    df: pl.DataFrame,
    cond: pl.Expr,
    fn: Callable[[pl.DataFrame], pl.DataFrame],
    added: Mapping[str, pl.DataType] | None = None,
) -> pl.DataFrame:
    """``fn`` on the rows where ``cond`` holds; the other rows get null ``added`` columns.
    Row order changes (callers join on the distinct text afterwards)."""
    mask = df.select(cond.fill_null(False)).to_series()
    hit = fn(df.filter(mask))
    nulls = [pl.lit(None, dt).alias(k) for k, dt in (added or {}).items()]
    miss = df.filter(~mask).with_columns(nulls)
    return pl.concat([hit, miss.select(hit.columns)])


def _last_candidate(g: Grammar, text: pl.Expr) -> pl.Expr:
    return text.str.extract_all(g.candidate).list.last()


def _statement(g: Grammar, df: pl.DataFrame) -> pl.DataFrame:
    """Add ``statement``: the last number of the clause after the last answer statement (after
    the clause's last ``=``), else the last number of its sentence."""
    f = pl.col
    tail = f("n").str.replace(g.through_marker, "").str.strip_chars_start(" \t:,，：")
    out = df.with_columns(tail.str.replace(g.sentence_end, "").alias("sentence"))
    after_eq = f("sentence").str.replace(g.clause_end, "").str.replace(r"(?s)^.*=", "")
    out = out.with_columns(_last_candidate(g, after_eq).alias("statement"))
    out = _on_subset(
        out,
        f("statement").is_null(),
        lambda d: d.with_columns(_last_candidate(g, f("sentence")).alias("statement")),
    )
    return out.drop("sentence")


def _candidates(g: Grammar, df: pl.DataFrame, mode: str) -> pl.DataFrame:
    """Add ``cand`` (the answer's number as written) and ``rule`` to ``df`` (column ``n``).

    Text is cut with ``contains``/``replace`` (no capture groups: Rust's fast engines), and
    each rule runs only on the rows that can match it and that no earlier rule answered."""
    f = pl.col
    if mode == "first":
        cand = f("n").str.extract_all(g.candidate).list.first()
        return df.with_columns(
            cand.alias("cand"),
            pl.when(cand.is_not_null())
            .then(pl.lit("first"))
            .otherwise(pl.lit("none"))
            .alias("rule"),
        )
    boxed = _last_candidate(g, f("n").str.extract(g.boxed, 1)).alias("boxed")
    has_box = f("n").str.contains_any(["boxed", "fbox"])
    df = _on_subset(df, has_box, lambda d: d.with_columns(boxed), {"boxed": pl.String})
    has_marker = f("boxed").is_null() & f("n").str.contains(g.marker)
    df = _on_subset(df, has_marker, functools.partial(_statement, g), {"statement": pl.String})
    equals = f("n").str.extract(g.equals, 1).alias("equals")
    has_eq = pl.all_horizontal(f("boxed", "statement").is_null()) & f("n").str.contains(
        "=", literal=True
    )
    df = _on_subset(df, has_eq, lambda d: d.with_columns(equals), {"equals": pl.String})
    last = _last_candidate(g, f("n")).alias("last")
    rest = pl.all_horizontal(f("boxed", "statement", "equals").is_null())
    df = _on_subset(df, rest, lambda d: d.with_columns(last), {"last": pl.String})
    rule = pl.lit("none")
    for name in ("last", "equals", "statement", "boxed"):
        rule = pl.when(f(name).is_not_null()).then(pl.lit(name)).otherwise(rule)
    return df.with_columns(
        pl.coalesce("boxed", "statement", "equals", "last").alias("cand"), rule.alias("rule")
    )


def _read(df: pl.DataFrame, *, mode: str, normalize: bool) -> pl.DataFrame:
    """``df`` (non-null texts ``t`` and any key columns) plus ``value``, ``unit``, ``rule``,
    in the same row order. The work frame carries only a row key and the normalized text."""
    g = grammar(normalize)
    f = pl.col
    work = df.select(f("t").alias("n")).with_row_index("k")
    if normalize:
        # Plain ASCII without LaTeX has nothing to fold.
        work = _on_subset(
            work,
            f("n").str.contains(r"[^\x00-\x7F]|[\\$]|\{,\}"),
            lambda d: d.with_columns(fold_text(f("n")).alias("n")),
        )
        work = _on_subset(
            work,
            f("n").str.contains_any(list(REWRITE_TRIGGERS)),
            lambda d: d.with_columns(rewrite_text(f("n")).alias("n")),
        )
    work = _candidates(g, work, mode).select("k", "cand", "rule")
    parsed = _parse_frame(g, work["cand"], validated=True)
    work = work.join(parsed, left_on="cand", right_on="c", how="left").sort("k")
    return df.hstack(work.select("value", "unit", "rule"))


#: Read distinct texts only (then join back) when at most this share of them is distinct.
DEDUP_BELOW = 0.8
_BARE_TEXT = r"^\s*[-+]?[0-9]+(?:\.[0-9]+)?\s*$"


def _extract_series(texts: pl.Series, *, mode: str, normalize: bool) -> pl.Series:
    """The batch behind :func:`extract_number`.

    A text that is one bare ASCII number (most references) is a cast: every rule would find
    that number and nothing else. The other texts are read once per distinct text when the
    batch repeats texts (then joined back), else row by row; all as column operations.
    """
    f = pl.col
    df = pl.DataFrame({"t": texts.cast(pl.String)}).with_row_index("i")
    missing = df.filter(f("t").is_null()).with_columns(
        pl.lit(None, pl.Float64).alias("value"),
        pl.lit(None, pl.String).alias("unit"),
        pl.lit(None, pl.String).alias("rule"),
    )
    df = df.filter(f("t").is_not_null())
    bare = f("t").str.contains(_BARE_TEXT)
    simple = df.filter(bare).with_columns(
        f("t").str.strip_chars().cast(pl.Float64).alias("value"),
        pl.lit(None, pl.String).alias("unit"),
        pl.lit(mode).alias("rule"),
    )
    rest = df.filter(~bare)
    unique = rest["t"].unique()
    if len(unique) <= DEDUP_BELOW * rest.height:
        read = _read(pl.DataFrame({"t": unique}), mode=mode, normalize=normalize)
        rest = rest.join(read, on="t", how="left")
    else:
        rest = _read(rest, mode=mode, normalize=normalize)
    out = pl.concat([simple, rest.select(simple.columns), missing]).sort("i")
    struct = pl.struct("value", "unit", "rule")
    return out.select(pl.when(f("t").is_not_null()).then(struct).alias(texts.name)).to_series()


def _parse_series(texts: pl.Series, *, normalize: bool) -> pl.Series:
    """The batch behind :func:`parse_number_with_unit`."""
    g = grammar(normalize)
    texts = texts.cast(pl.String)
    df = pl.DataFrame({"t": texts.unique().drop_nulls()})
    n = normalize_text(pl.col("t")) if normalize else pl.col("t")
    df = df.with_columns(n.str.strip_chars().alias("n"))
    df = df.join(_parse_frame(g, df["n"], validated=False), left_on="n", right_on="c", how="left")
    out = pl.DataFrame({"t": texts}).join(
        df.select("t", "value", "unit"), on="t", how="left", maintain_order="left"
    )
    return out.select(pl.struct("value", "unit").alias(texts.name)).to_series()


# --------------------------------------------------------------------------- public
def extract_number(
    text: IntoExpr, *, mode: ExtractMode = "last", normalize: bool = True
) -> pl.Expr:
    """The answer's number in free text: struct ``{value, unit, rule}`` (see module docs).

    ``text`` is a column name or a String expression; null text gives a null struct. Runs as
    Polars expressions over each batch's distinct texts (no per-row Python).
    """
    mode = _check_mode(mode)  # type: ignore[assignment]
    normalize = check_bool("normalize", normalize)
    fn = functools.partial(_extract_series, mode=mode, normalize=normalize)
    return to_expr(text).map_batches(fn, return_dtype=NUMBER_DTYPE, is_elementwise=True)


def parse_number(text: IntoExpr, *, normalize: bool = True) -> pl.Expr:
    """Float64 value of a string that is exactly one number, with an optional unit and
    surrounding whitespace (``"1,250.5元"``, ``"二分之一"``, ``"-3e-2"``); otherwise null."""
    return parse_number_with_unit(text, normalize=normalize).struct.field("value")


def parse_number_with_unit(text: IntoExpr, *, normalize: bool = True) -> pl.Expr:
    """Struct ``{value, unit}`` of a string that is exactly one number (else both null)."""
    normalize = check_bool("normalize", normalize)
    fn = functools.partial(_parse_series, normalize=normalize)
    dtype = pl.Struct({"value": pl.Float64, "unit": pl.String})
    return to_expr(text).map_batches(fn, return_dtype=dtype, is_elementwise=True)
