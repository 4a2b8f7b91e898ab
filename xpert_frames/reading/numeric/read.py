"""The batch readers behind :mod:`xpert_frames.reading.numeric.parse`: a batch of texts is
normalized (folds, rewrites, number forms, each on the rows that need it, screened once by
:mod:`xpert_frames.reading.numeric.screens`), its candidates found by the number rules
(:mod:`xpert_frames.reading.numeric.rules`) and their values read
(:mod:`xpert_frames.reading.numeric.values`). A text that is one bare ASCII number is a cast,
and repeated texts are read once (:func:`xpert_frames.core.distinct.first_occurrences`).
"""

from __future__ import annotations

import functools

import polars as pl

from xpert_frames.core.distinct import first_occurrences
from xpert_frames.reading.numeric import screens
from xpert_frames.reading.numeric.forms import (
    APPROX_CUT,
    ENGLISH_WORD,
    RARE_TRIGGER,
    approx_pair,
    english_numbers,
    form_stages,
    rewrite_forms,
    rewrite_rare_forms,
)
from xpert_frames.reading.numeric.grammar import (
    MIXED_TRIGGER,
    REWRITE_STEPS,
    Grammar,
    fold_text,
    grammar,
    normalize_text,
    powers_of_ten,
    rewrite_rows,
)
from xpert_frames.reading.numeric.rules import candidates, rewrite_stages
from xpert_frames.reading.numeric.scales import digit_scales
from xpert_frames.reading.numeric.values import BARE, parse_frame, parse_rows
from xpert_frames.reading.subsets import on_subset


def _normalized(work: pl.DataFrame, g: Grammar, decimal_comma: str) -> pl.DataFrame:
    """Normalize ``normalized_text`` (fold every text; rewrites and number forms on the rows
    that need them), and add the last ``exact ≈ approximation`` pair (``exact``, ``approx``)
    before cutting it out. The folded texts are screened once (``screen_bits``,
    :mod:`xpert_frames.reading.numeric.screens`); each gate is a bit test, and each step that
    rewrites a text screens it again."""
    f = pl.col
    # Every text folded (a text without a key of the table comes out as it went in): one
    # pass costs less than a screen of it and a second screen of the rows it changed.
    work = screens.rescreen(work.with_columns(fold_text(f("normalized_text"))))
    # The rewrites of folded text, then digits between Chinese scales (1万2千), each on the
    # rows of its screen only; then a new screen of the rows whose text they changed.
    screened = (*screens.REWRITE_SCREENS, screens.SCALE)
    gates = work.select(screens.has(b).alias(str(k)) for k, b in enumerate(screened))
    steps = zip(gates.get_columns(), (*REWRITE_STEPS, digit_scales), strict=True)
    text, changed = rewrite_rows(work["normalized_text"], list(steps))
    work = screens.rescreen_rows(work.with_columns(text), changed)
    stages = form_stages(decimal_comma)
    # One regex over every text: a literal screen of the stages (a letter or two digits
    # beside each other) would cost more than it.
    trigger = "|".join(t for t, _ in stages)
    any_stage = work.select(f("normalized_text").str.contains(trigger)).to_series()
    stage = screens.after_in_place(functools.partial(rewrite_stages, stages))
    work = on_subset(work, any_stage, stage)
    work = on_subset(
        work,
        screens.matches(work, screens.RARE, RARE_TRIGGER),
        screens.after_in_place(
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


def extract_series(
    texts: pl.Series, *, mode: str, normalize: bool, decimal_comma: str, detail: bool
) -> pl.Series:
    """The batch behind :func:`~xpert_frames.reading.numeric.parse.extract_number`
    (``detail``: :func:`~xpert_frames.reading.numeric.parse.extract_number_detail`).

    A text that is one bare ASCII number (most references) is a cast: every rule would find
    that number and nothing else. The other texts are read once per distinct text when the
    batch repeats texts (then joined back), else row by row; all as column operations.
    """
    f = pl.col
    df = pl.DataFrame({"source_text": texts.cast(pl.String).rechunk()}).with_row_index("row")
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
    # One chunk first: a gather across chunks costs ten times a gather in one. Only the
    # columns the output holds, and the approximations only when some text has one.
    kept = columns[:4] if detail else columns[:3]
    approx = detail and done["approx_value"].null_count() < done.height
    kept += ["approx_value"] if approx else []
    results = pl.concat(
        [simple.select(kept), done.select(kept), simple.clear(1).select(kept)], rechunk=True
    )
    null_row = results.height - 1
    index = pl.repeat(null_row, len(texts), dtype=pl.UInt32, eager=True)
    index = index.scatter(simple["row"], pl.int_range(offset, dtype=pl.UInt32, eager=True))
    out = results[index.scatter(keys, rows)]
    if detail and not approx:
        out = out.with_columns(pl.lit(None, pl.Float64).alias("approx_value"))
    fields: list[str | pl.Expr] = ["value", "unit", "rule"]
    if detail:
        fields += ["text", f("approx_value").alias("approx")]
    struct = pl.struct(fields)
    if texts.null_count():
        struct = pl.when(pl.lit(texts.is_not_null())).then(struct)
    return out.select(struct.alias(texts.name)).to_series()


def parse_series(
    texts: pl.Series, *, normalize: bool, decimal_comma: str, detail: bool = False
) -> pl.Series:
    """The batch behind :func:`~xpert_frames.reading.numeric.parse.parse_number_with_unit`
    (``detail``: also ``text``, the string as normalized, of the rows that are a number:
    :func:`~xpert_frames.reading.numeric.parse.parse_number_detail`)."""
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
