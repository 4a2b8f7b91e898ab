"""Numbers in model answers, as Polars expressions.

:func:`extract_number` finds the answer's number in free text and returns a struct
``{value: Float64, unit: String, rule: String}``; :func:`parse_number` reads a string that is
exactly a number (with an optional unit). Both run as Polars operations on whole batches
(``map_batches``, one call per batch; no Python per row or per string): regexes,
``extract_groups`` and arithmetic, Chinese numerals included
(:mod:`xpert_frames.reading.numbers.chinese`). Inside a batch, a text that is one bare ASCII number
is a
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
``°C``, ``米``, ``千克`` ...; see :mod:`xpert_frames.reading.numbers.units`).

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
from xpert_frames.core.distinct import first_occurrences
from xpert_frames.core.exceptions import InvalidOptionError
from xpert_frames.core.options import check_bool, check_choice
from xpert_frames.core.text import to_expr
from xpert_frames.reading.numbers import screens
from xpert_frames.reading.numbers.forms import (
    APPROX_CUT,
    DECIMAL_COMMAS,
    ENGLISH_WORD,
    RARE_TRIGGER,
    approx_pair,
    english_numbers,
    form_stages,
    rewrite_forms,
    rewrite_rare_forms,
)
from xpert_frames.reading.numbers.grammar import (
    MIXED_TRIGGER,
    Grammar,
    fold_text,
    grammar,
    normalize_text,
    powers_of_ten,
    rewrite_text,
)
from xpert_frames.reading.numbers.infinity import with_infinity as _with_infinity
from xpert_frames.reading.numbers.rules import RULE_COLUMNS, candidates, rewrite_stages
from xpert_frames.reading.numbers.scales import digit_scales
from xpert_frames.reading.numbers.values import BARE, parse_frame, parse_rows
from xpert_frames.reading.subsets import on_subset

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


# --------------------------------------------------------------------------- parsing


def _rewritten(text: pl.Expr) -> pl.Expr:
    """The regex rewrites of folded text, powers of ten in E notation and digits between
    Chinese scales (``1万2千``)."""
    return digit_scales(powers_of_ten(rewrite_text(text)))


def _normalized(work: pl.DataFrame, g: Grammar, decimal_comma: str) -> pl.DataFrame:
    """Normalize ``normalized_text`` (fold, rewrites, number forms) on the rows that need it, and
    add the
    last ``exact ≈ approximation`` pair (``exact``, ``approx``) before cutting it out. The
    texts are screened once (``screen_bits``, :mod:`xpert_frames.reading.numbers.screens`); each
    gate is a bit
    test, and each step that rewrites a text screens it again."""
    f = pl.col
    work = screens.rescreen(work)
    fold = screens.after(
        lambda d: d.with_columns(fold_text(f("normalized_text")).alias("normalized_text"))
    )
    work = on_subset(work, screens.has(screens.FOLD), fold)  # the others have nothing to fold
    work = on_subset(  # with digits between Chinese scales (1万2千) in the same pass
        work,
        screens.has(screens.REWRITE),
        screens.after(
            lambda d: d.with_columns(_rewritten(f("normalized_text")).alias("normalized_text"))
        ),
    )
    stages = form_stages(decimal_comma)
    any_stage = screens.matches(work, screens.STAGES, "|".join(t for t, _ in stages))
    work = on_subset(work, any_stage, screens.after(functools.partial(rewrite_stages, stages)))
    work = on_subset(
        work,
        screens.matches(work, screens.RARE, RARE_TRIGGER),
        screens.after(
            lambda d: d.with_columns(
                rewrite_rare_forms(f("normalized_text")).alias("normalized_text")
            )
        ),
    )

    def approx(d: pl.DataFrame) -> pl.DataFrame:
        pair = f("normalized_text").str.extract_groups(approx_pair(g.candidate)).alias("__pair")
        cut = f("normalized_text").str.replace_all(*APPROX_CUT).alias("normalized_text")
        return screens.rescreen(d.with_columns(pair).unnest("__pair").with_columns(cut))

    added = {"exact": pl.String(), "approx": pl.String()}
    return on_subset(work, screens.has(screens.APPROX), approx, added)


def _candidates(work: pl.DataFrame, normalize: bool, mode: str) -> pl.DataFrame:
    """``{k, cand, rule}``: the rows that can hold a mixed number with the full grammar, the
    others with the faster one without that form (the same matches: the form cannot match).
    ``work`` has the texts ``normalized_text`` and, except in mode ``first``, their screen
    ``screen_bits``."""
    fast = grammar(normalize, mixed=False)
    mask = screens.matches(work, screens.DIGIT_SPACE | screens.SLASH, MIXED_TRIGGER)
    if not mask.any():
        return candidates(fast, work, mode).select("row_key", "cand", "rule")
    full = candidates(grammar(normalize), work.filter(mask), mode).select("row_key", "cand", "rule")
    if mask.all():
        return full
    rest = candidates(fast, work.filter(~mask), mode).select("row_key", "cand", "rule")
    return pl.concat([full, rest])


def _read(
    df: pl.DataFrame, key: str, *, mode: str, normalize: bool, decimal_comma: str
) -> pl.DataFrame:
    """Column ``key`` of ``df`` (non-null texts ``source_text``) and ``value``, ``unit``, ``rule``,
    ``text`` (the number as written) and ``approx`` (an approximation written right after
    it), in another row order. The work frame carries only a row key and the text."""
    g = grammar(normalize)
    f = pl.col
    work = df.select(f("source_text").alias("normalized_text")).with_row_index("row_key")
    pairs = None
    if normalize:
        work = _normalized(work, g, decimal_comma)
        # The rare ``exact ≈ approximation`` pairs wait aside (no copies through the rules).
        pairs = work.filter(f("exact").is_not_null()).select("row_key", "exact", "approx")
        work = work.drop("exact", "approx")
    else:
        work = screens.rescreen(work)
    work = _candidates(work, normalize, mode)
    if pairs is not None and pairs.height:
        work = work.join(pairs, on="row_key", how="left")
        approx = pl.when(f("exact") == f("cand")).then(f("approx"))
        work = work.select("row_key", "cand", "rule", approx.alias("approx"))
    else:
        work = work.with_columns(pl.lit(None, pl.String).alias("approx"))
    has_approx = work["approx"].null_count() < work.height
    # Most answers are bare ASCII numbers: a cast.
    bare = work.select(f("cand").str.contains(BARE).fill_null(False)).to_series()
    quick = work.filter(bare).with_columns(
        f("cand").str.replace_all(",", "", literal=True).cast(pl.Float64).alias("value"),
        pl.lit(None, pl.String).alias("unit"),
    )
    quick = quick.with_columns(pl.when(f("value").is_finite()).then(f("value")).alias("value"))
    work = work.filter(~bare)
    # The others row by row (texts here are distinct, and so mostly are their numbers: a
    # read per distinct candidate would cost a join back).
    found = f("cand").is_not_null()
    parsed = parse_rows(normalize, work.filter(found).rename({"cand": "candidate"}), validated=True)
    none = work.filter(~found).with_columns(
        pl.lit(None, pl.Float64).alias("value"), pl.lit(None, pl.String).alias("unit")
    )
    work = pl.concat([quick, parsed.rename({"candidate": "cand"}).select(quick.columns), none])
    if has_approx:
        values = parse_frame(normalize, work["approx"], validated=True)
        values = values.select("candidate", f("value").alias("approx_value"))
        work = work.join(values, left_on="approx", right_on="candidate", how="left")
    else:
        work = work.with_columns(pl.lit(None, pl.Float64).alias("approx_value"))
    return work.select(
        df[key].gather(work["row_key"]),
        "value",
        "unit",
        "rule",
        f("cand").alias("text"),
        "approx_value",
    )


#: Read distinct texts only (then gather back) when at most this share of them is distinct
#: (finding them costs about a fifteenth of reading them).
DEDUP_BELOW = 0.9
_BARE_TEXT = r"^\s*[-+]?[0-9]+(?:\.[0-9]+)?\s*$"


def _extract_series(
    texts: pl.Series, *, mode: str, normalize: bool, decimal_comma: str, detail: bool
) -> pl.Series:
    """The batch behind :func:`extract_number` (``detail``: :func:`extract_number_detail`).

    A text that is one bare ASCII number (most references) is a cast: every rule would find
    that number and nothing else. The other texts are read once per distinct text when the
    batch repeats texts (then joined back), else row by row; all as column operations.
    """
    f = pl.col
    df = pl.DataFrame({"source_text": texts.cast(pl.String)}).with_row_index("row")
    columns = ["value", "unit", "rule", "text", "approx_value"]
    df = df.filter(f("source_text").is_not_null())
    # Eager frames do not share sub-expressions: a mask used twice is computed once here.
    bare = df.select(f("source_text").str.contains(_BARE_TEXT)).to_series()
    simple = df.filter(bare).with_columns(f("source_text").str.strip_chars().alias("text"))
    simple = simple.select(
        "row",
        f("text").cast(pl.Float64).alias("value"),
        pl.lit(None, pl.String).alias("unit"),
        pl.lit(mode).alias("rule"),
        "text",
        pl.lit(None, pl.Float64).alias("approx_value"),
    )
    rest = df.filter(~bare)
    read = functools.partial(_read, mode=mode, normalize=normalize, decimal_comma=decimal_comma)
    rep = first_occurrences(rest["source_text"], distinct_below=DEDUP_BELOW)
    offset = simple.height
    if rep is None:
        done = read(rest, "row")
        rows = pl.int_range(offset, offset + done.height, dtype=pl.UInt32, eager=True)
        keys = done["row"]
    else:  # each distinct text read once, its result gathered for every row that has it
        position = pl.int_range(pl.len(), dtype=pl.UInt32)
        keyed = rest.select("source_text", position.alias("position"))
        done = read(keyed.filter(rep == keyed["position"]), "position")
        # The row of ``done`` that holds each representative, then each text's.
        where = pl.repeat(0, rest.height, dtype=pl.UInt32, eager=True).scatter(
            done["position"],
            pl.int_range(offset, offset + done.height, dtype=pl.UInt32, eager=True),
        )
        rows, keys = where.gather(rep), rest["row"]
    # One gather puts every result in row order (nulls: one null row at the end); only the
    # results travel, never the texts.
    # One chunk first: a gather across chunks costs ten times a gather in one.
    results = pl.concat(
        [simple.select(columns), done.select(columns), simple.clear(1).select(columns)],
        rechunk=True,
    )
    null_row = results.height - 1
    index = pl.repeat(null_row, len(texts), dtype=pl.UInt32, eager=True)
    index = index.scatter(simple["row"], pl.int_range(offset, dtype=pl.UInt32, eager=True))
    out = results[index.scatter(keys, rows)]
    fields: list[str | pl.Expr] = ["value", "unit", "rule"]
    if detail:
        fields += ["text", f("approx_value").alias("approx")]
    struct = pl.struct(fields)
    if texts.null_count():
        struct = pl.when(pl.lit(texts.is_not_null())).then(struct)
    return out.select(struct.alias(texts.name)).to_series()


def _parse_series(
    texts: pl.Series, *, normalize: bool, decimal_comma: str, detail: bool = False
) -> pl.Series:
    """The batch behind :func:`parse_number_with_unit` (``detail``: also ``text``, the string
    as normalized, of the rows that are a number: :func:`parse_number_detail`)."""
    texts = texts.cast(pl.String)
    df = pl.DataFrame({"source_text": texts.unique().drop_nulls()})
    if normalize:
        n = pl.col("normalized_text")
        scaled = digit_scales(powers_of_ten(normalize_text(pl.col("source_text"))))  # 1万2千, 3万5
        df = df.with_columns(rewrite_forms(scaled, decimal_comma).alias("normalized_text"))
        rare = n.str.contains(RARE_TRIGGER)
        df = on_subset(
            df, rare, lambda d: d.with_columns(rewrite_rare_forms(n).alias("normalized_text"))
        )
        df = df.with_columns(n.str.replace_all(*APPROX_CUT).str.strip_chars())
        words = pl.col("normalized_text").str.contains(ENGLISH_WORD) & ~pl.col(
            "normalized_text"
        ).str.contains("[0-9]")
        df = on_subset(
            df, words, lambda d: d.with_columns(english_numbers(pl.col("normalized_text")))
        )
    else:
        df = df.with_columns(pl.col("source_text").str.strip_chars().alias("normalized_text"))
    parsed = parse_frame(normalize, df["normalized_text"], validated=False)
    df = df.join(parsed, left_on="normalized_text", right_on="candidate", how="left")
    fields = ["value", "unit"]
    if detail:  # the text of the rows that are a number (beyond Float64: value null)
        number = pl.col("value").is_not_null() | pl.col("unit").is_not_null()
        number = number | pl.col("normalized_text").str.contains(BARE)
        df = df.with_columns(pl.when(number).then(pl.col("normalized_text")).alias("text"))
        fields.append("text")
    out = pl.DataFrame({"source_text": texts}).join(
        df.select("source_text", *fields), on="source_text", how="left", maintain_order="left"
    )
    return out.select(pl.struct(fields).alias(texts.name)).to_series()


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
    """:func:`_extract_series` with its options checked once, when the expression is built."""
    return functools.partial(
        _extract_series,
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
    :func:`~xpert_frames.reading.numbers.exact.integer_key` reads."""
    return _parse(text, normalize, decimal_comma, detail=True)


def _parse(text: IntoExpr, normalize: object, decimal_comma: object, *, detail: bool) -> pl.Expr:
    fn = functools.partial(
        _parse_series,
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
