"""Choice-answer extraction as one vectorized cascade of Polars string rules.

:func:`extract_choice` returns a struct ``{letters, rule}``: ``letters`` is the extracted
option set as sorted, distinct upper-case letters (``"B"``, ``"ABD"``) or null, ``rule`` names the
rule that fired (see :data:`RULE_NAMES`) or ``"none"``. Rules run strongest evidence first; a
rule whose letters are not all options of the row does not fire, and the next one is tried.
The patterns live in :mod:`xpert_frames.evaluators.choice_patterns`.
"""

from __future__ import annotations

import string

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.exceptions import InvalidOptionError, OptionTypeError
from xpert_frames.reading import choice_rules as cp
from xpert_frames.reading.choice_content import (
    CONCLUSION_COLUMN,
    SEVERAL_COLUMN,
    STATEMENT_COLUMN,
    content_in_sentences,
)

ALPHABET = string.ascii_uppercase
DEFAULT_OPTIONS = "ABCD"

MAX_OPTIONS = len(ALPHABET)  #: options run A-Z at most
_RULE_ORDER: tuple[str, ...] = (*(r.name for r in cp.CHOICE_RULES), *cp.CONTENT_RULES)
#: One character per rule in :func:`pick`'s output (a code, then the letters: a lower-case code
#: never mixes with upper-case letters).
_CODES = "abcdefghijklmnopqrstuvwxyz"
#: Every value of the ``rule`` field, in cascade order.
RULE_NAMES: tuple[str, ...] = (*_RULE_ORDER, cp.NO_RULE)
EXTRACT_DTYPE = pl.Struct({"letters": pl.String, "rule": pl.String})
_LAST = "(?s)^.*"  # the greedy prefix that makes a rule take the last match


def _pattern(template: str) -> str:
    return cp.fill(template, "$")


# --------------------------------------------------------------------------- letters
def letter_set(letters: IntoExpr) -> pl.Expr:
    """Latin letters of a string, upper-cased, as a canonical set: sorted, distinct
    (``"d,b,A B"`` -> ``"ABD"``); null when there are none."""
    found = text.to_expr(letters).str.to_uppercase().str.extract_all("[A-Z]")
    return found.list.unique().list.sort().list.join("").str.extract("^(.+)$", 1)


def _quick_letter_set(letters: pl.Expr) -> pl.Expr:
    """:func:`letter_set` of upper-case letters, skipping the list work for single letters."""
    single = letters.str.len_bytes() == 1
    return pl.coalesce(pl.when(single).then(letters), letter_set(pl.when(~single).then(letters)))


def reference_letters(answer: IntoExpr) -> pl.Expr:
    """A choice reference (``"B"``, ``"A,B,D"``, ``"（C）"``, ``"a"``) as a letter set; null when
    the reference is not made of option letters (e.g. ``"Beijing"``)."""
    ref = text.full_to_half(text.to_expr(answer)).str.strip_chars()
    letters_only = ref.str.replace_all(r"[\s,，、/&和及与\(\)\[\]【】\.。:：]", "")
    ok = letters_only.str.contains(r"^(?:[A-Z]+|[a-z])$")
    return _quick_letter_set(pl.when(ok).then(letters_only.str.to_uppercase()))


def option_letters(choices: IntoExpr | None = None, *, answer: IntoExpr | None = None) -> pl.Expr:
    """The option letters of each row as a string (``"ABCD"``).

    From the ids of ``choices`` (a ``List(Struct{id, content})`` column) when every id is a
    single letter (after stripping and upper-casing); otherwise A-D, extended up to the highest
    letter of ``answer`` (a reference letter set, e.g. from :func:`reference_letters`) when
    that is beyond D.
    """
    if choices is None:
        return _default_options(None if answer is None else text.to_expr(answer))
    fields = [text.to_expr(choices).alias("choices")]
    if answer is not None:
        fields.append(text.to_expr(answer).alias("answer"))
    return pl.struct(fields).map_batches(
        _options_batch, return_dtype=pl.String, is_elementwise=True
    )


def _default_options(answer: pl.Expr | None) -> pl.Expr:
    """A-D, or A up to the highest letter of ``answer`` when that is beyond D."""
    if answer is None:
        return pl.lit(DEFAULT_OPTIONS)
    index = answer.str.slice(-1).replace_strict(
        list(ALPHABET), list(range(1, MAX_OPTIONS + 1)), default=None, return_dtype=pl.Int64
    )
    return pl.lit(ALPHABET).str.slice(0, pl.max_horizontal(index.fill_null(4), pl.lit(4)))


def _options_batch(batch: pl.Series) -> pl.Series:
    df = batch.struct.unnest()
    ids = pl.col("choices").list.eval(
        pl.element().struct.field("id").str.strip_chars().str.to_uppercase()
    )
    df = df.with_columns(
        ids.list.join("").alias("joined_ids"), pl.col("choices").list.len().alias("option_count")
    )
    # Every id a single letter (as many letters as options), else the default.
    ok = pl.col("joined_ids").str.contains("^[A-Z]+$") & (
        pl.col("joined_ids").str.len_chars() == pl.col("option_count")
    )
    df = df.with_columns(pl.when(ok).then(pl.col("joined_ids")).alias("option_letters"))
    # Ids are nearly always "A", "B", ... in order: only other orders pay for the sort.
    usual = pl.col("option_letters").is_in([ALPHABET[:k] for k in range(1, MAX_OPTIONS + 1)])
    canonical = pl.coalesce(
        pl.when(usual).then("option_letters"), letter_set(pl.when(~usual).then("option_letters"))
    )
    default = _default_options(pl.col("answer") if "answer" in df.columns else None)
    return df.select(pl.coalesce(canonical, default).alias(batch.name)).to_series()


# --------------------------------------------------------------------------- cascade
def normalize_prediction(prediction: IntoExpr) -> pl.Expr:
    """Full-width letters, digits and brackets to half-width (``答案：（Ｃ）`` -> ``答案:(C)``)."""
    return text.full_to_half(text.to_expr(prediction))


def rewrite_negations(prediction: IntoExpr) -> pl.Expr:
    """Replace negated option mentions (``不选A``, ``not A``, ``A是错误的``, ``B is wrong``) by
    ``✗`` so that no later rule can take them."""
    expr = text.to_expr(prediction)
    for pattern, replacement, _trigger in cp.NEGATIONS:
        expr = expr.str.replace_all(_pattern(pattern), replacement)
    return expr


def _rule_letters(source: pl.Expr, template: str, groups: tuple[str, ...]) -> pl.Expr:
    """Letters one rule finds, without separators: ``"A and C"`` -> ``"AC"``, ``"b"`` -> ``"B"``."""
    if template.startswith(_LAST):
        # The last non-overlapping match (a fast, capture-free scan), then its groups.
        body = template.removeprefix(_LAST)
        last = source.str.extract_all(_pattern(body)).list.last()
        found = last.str.extract_groups(_pattern(f"^(?:{body})"))
    else:
        found = source.str.extract_groups(_pattern(template))
    fields = [found.struct.field(g) for g in groups]
    # Upper-case groups keep only their letters ("A and C" -> "AC"); the lower-case one is
    # a single letter.
    letters = pl.coalesce(
        [f.str.to_uppercase() if g == "lower" else f for g, f in zip(groups, fields, strict=True)]
    )
    return letters.str.replace_all("[^A-Z]", "")


def rule_candidates(source: IntoExpr, before: IntoExpr | None = None) -> list[pl.Expr]:
    """The letters each rule of the cascade finds in ``source`` (a prediction already through
    :func:`normalize_prediction` and :func:`rewrite_negations`), in :data:`RULE_NAMES` order,
    before the options check; null where a rule does not fire. Rules that read the text
    before the negations are erased read ``before`` (``source`` when not given)."""
    src = text.to_expr(source)
    raw = src if before is None else text.to_expr(before)
    out: list[pl.Expr] = []
    for rule in cp.CHOICE_RULES:
        read = raw if rule.before_negations else src
        if rule.trigger:
            read = pl.when(read.str.contains(rule.trigger)).then(read)
        letters = _rule_letters(read, rule.pattern, rule.groups)
        if rule.single_label:
            single = src.str.count_matches(_pattern(cp.LABEL)) <= 1
            letters = pl.when(single).then(letters)
        if rule.single_match:
            body = rule.pattern.removeprefix(_LAST)
            letters = pl.when(read.str.count_matches(_pattern(body)) == 1).then(letters)
        out.append(letters)
    return out


def pick(candidates: list[pl.Expr], options: pl.Expr, *, first_rule: int = 0) -> pl.Expr:
    """``"<rule code><letters>"`` of the first candidate whose letters are all options (its
    letters stripped of the option letters leave nothing); null if none fits."""

    def fits(c: pl.Expr) -> pl.Expr:
        return (c.str.len_bytes() > 0) & (c.str.strip_chars(options) == "")

    return pl.coalesce(
        [
            pl.when(fits(c)).then(pl.concat_str([pl.lit(_CODES[first_rule + i]), c]))
            for i, c in enumerate(candidates)
        ]
    )


def finish(chosen: IntoExpr) -> pl.Expr:
    """``Struct{letters, rule}`` from the output of :func:`pick`."""
    picked = text.to_expr(chosen)
    codes = list(_CODES[: len(_RULE_ORDER)])
    rule = picked.str.slice(0, 1).replace_strict(codes, list(_RULE_ORDER), default=cp.NO_RULE)
    letters = _quick_letter_set(picked.str.slice(1))
    return pl.struct(letters.alias("letters"), rule.alias("rule"))


def content_hits(prediction: IntoExpr, choices: IntoExpr, width: int) -> pl.Expr:
    """The option whose content the prediction contains, when exactly one of the first
    ``width`` options' does (case-insensitive, full-width folded); null otherwise."""
    pred = normalize_prediction(prediction).str.to_lowercase()
    hits: list[pl.Expr] = []
    for i in range(width):
        item = text.to_expr(choices).list.get(i, null_on_oob=True)
        content = text.full_to_half(item.struct.field("content")).str.strip_chars()
        letter = item.struct.field("id").str.strip_chars().str.to_uppercase()
        usable = letter.str.contains(r"^[A-Z]$") & (content.str.len_chars() > 0)
        hit = usable & pred.str.contains(content.str.to_lowercase(), literal=True)
        hits.append(pl.when(hit).then(letter))
    if not hits:
        return pl.lit(None, pl.String)
    count = pl.sum_horizontal([h.is_not_null().cast(pl.UInt8) for h in hits])
    return pl.when(count == 1).then(pl.coalesce(hits))


def content_letter(prediction: IntoExpr, choices: IntoExpr) -> pl.Expr:
    """The option whose content the prediction contains, when exactly one option's does
    (case-insensitive, full-width folded): ``我选北京`` -> ``B`` when B is 北京."""
    pair = pl.struct(
        text.to_expr(prediction).alias("prediction"), text.to_expr(choices).alias("choices")
    )
    return pair.map_batches(_content_batch, return_dtype=pl.String, is_elementwise=True)


def _content_batch(batch: pl.Series) -> pl.Series:
    df = batch.struct.unnest()
    width = df.select(pl.col("choices").list.len().max()).item() or 0
    return df.select(
        content_hits("prediction", "choices", min(int(width), MAX_OPTIONS))
    ).to_series()


def extract_frame(
    df: pl.DataFrame, prediction: str, options: str, choices: str | None = None
) -> pl.Series:
    """The cascade over a DataFrame, in stages (each intermediate column computed once):
    ``Struct{letters, rule}`` per row of ``df``."""
    tmp = "__xf_choice_"
    norm = pl.col(f"{tmp}norm")
    df = df.with_columns(normalize_prediction(prediction).alias(f"{tmp}norm"))
    # Each rewrite runs only on the rows holding its trigger word.
    src = pl.col(f"{tmp}src")
    df = df.with_columns(norm.alias(f"{tmp}src"))
    for pattern, replacement, trigger in cp.NEGATIONS:
        hit = pl.when(src.str.contains(trigger)).then(src)
        rewritten = hit.str.replace_all(_pattern(pattern), replacement)
        df = df.with_columns(pl.coalesce(rewritten, src).alias(f"{tmp}src"))
    found = rule_candidates(f"{tmp}src", f"{tmp}norm")
    cands = [c.alias(f"{tmp}{i}") for i, c in enumerate(found)]
    df = df.with_columns(cands)
    names = [f"{tmp}{i}" for i in range(len(cands))]
    df = df.with_columns(pick([pl.col(n) for n in names], pl.col(options)).alias(f"{tmp}pick"))
    chosen = pl.col(f"{tmp}pick")
    if choices is not None:
        # Only rows without a letter (and with options) pay for the content scan: gathered,
        # scanned, scattered back.
        todo = (
            chosen.is_null() & (pl.col(choices).list.len() > 0) & pl.col(prediction).is_not_null()
        )
        index = df.select(pl.arg_where(todo)).to_series()
        if index.len():
            sub = df.select(prediction, choices, options)[index]
            longest = sub.select(pl.col(choices).list.len().max()).item()
            width = min(int(longest or 0), MAX_OPTIONS)
            stated = content_in_sentences(sub, prediction, choices)
            content = content_hits(prediction, choices, width)
            sub = sub.with_columns(stated)
            # A conclusion naming several options is two answers: no later content rule.
            one = ~pl.col(SEVERAL_COLUMN)
            cands = [
                pl.col(CONCLUSION_COLUMN),
                pl.when(one).then(pl.col(STATEMENT_COLUMN)),
                pl.when(one).then(content),
            ]
            got = sub.select(pick(cands, pl.col(options), first_rule=len(cp.CHOICE_RULES)))
            picked = df[f"{tmp}pick"].scatter(index, got.to_series())
            df = df.with_columns(picked)
    return df.select(finish(chosen)).to_series()


def _extract_batch(batch: pl.Series) -> pl.Series:
    df = batch.struct.unnest()
    return extract_frame(
        df, "prediction", "allowed", "choices" if "choices" in df.columns else None
    ).alias(batch.name)


def extract_choice(
    prediction: IntoExpr,
    *,
    options: str | pl.Expr | None = None,
    choices: IntoExpr | None = None,
) -> pl.Expr:
    """Extract the chosen option(s) from a model's answer.

    ``options``: the row's option letters, a literal such as ``"ABCDE"`` or a String expression
    (default ``"ABCD"``; see :func:`option_letters`). ``choices`` (``List(Struct{id, content})``)
    enables the content fallback (:func:`content_letter`). Returns
    ``Struct{letters: String, rule: String}``: sorted distinct letters (null if none) and the
    name of the rule that fired (:data:`RULE_NAMES`, ``"none"`` if none did). Runs as Polars
    batches (:func:`extract_frame`), so each stage of the cascade is computed once.

    >>> df = pl.DataFrame({"p": ["综上所述，本题选D。", "不选A，选B", "As an AI, I", "答：（Ｃ）"]})
    >>> df.select(extract_choice("p").struct.unnest())["letters"].to_list()
    ['D', 'B', None, 'C']
    """
    allowed = _check_options(options)
    fields = [
        text.to_expr(prediction).cast(pl.String).alias("prediction"),
        allowed.alias("allowed"),
    ]
    if choices is not None:
        fields.append(text.to_expr(choices).alias("choices"))
    return pl.struct(fields).map_batches(
        _extract_batch, return_dtype=EXTRACT_DTYPE, is_elementwise=True
    )


def _check_options(options: IntoExpr | None) -> pl.Expr:
    if options is None:
        return pl.lit(DEFAULT_OPTIONS)
    if isinstance(options, pl.Expr):
        return options
    if not isinstance(options, str):
        raise OptionTypeError(
            f"option 'options' must be a string of option letters such as 'ABCD' or a Polars "
            f"expression, got {options!r} ({type(options).__name__})"
        )
    if not options or not set(options) <= set(ALPHABET):
        raise InvalidOptionError(
            f"option 'options' must be upper-case letters A-Z such as 'ABCDE', got {options!r}"
        )
    return pl.lit(options)
