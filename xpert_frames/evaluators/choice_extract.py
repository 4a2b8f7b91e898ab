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

from xpert_frames import text
from xpert_frames._typing import IntoExpr
from xpert_frames.evaluators import choice_patterns as cp
from xpert_frames.exceptions import InvalidOptionError, OptionTypeError

ALPHABET = string.ascii_uppercase
DEFAULT_OPTIONS = "ABCD"
#: How many options the content fallback looks at (A-Z).
MAX_OPTIONS = len(ALPHABET)
RULE_NAMES: tuple[str, ...] = (*(r[0] for r in cp.RULES), cp.CONTENT_RULE, cp.NO_RULE)


def _pattern(template: str) -> str:
    return cp.fill(template, "$")


# --------------------------------------------------------------------------- letters
def letter_set(letters: IntoExpr) -> pl.Expr:
    """Upper-case Latin letters of a string as a canonical set: sorted, distinct (``"DBA B"`` ->
    ``"ABD"``); null when there are none."""
    up = text.to_expr(letters).str.to_uppercase()
    parts = [
        pl.when(up.str.contains(ch, literal=True)).then(pl.lit(ch)).otherwise(pl.lit(""))
        for ch in ALPHABET
    ]
    joined = pl.concat_str(parts)
    return pl.when(joined.str.len_bytes() > 0).then(joined).otherwise(None)


def reference_letters(answer: IntoExpr) -> pl.Expr:
    """A choice reference (``"B"``, ``"A,B,D"``, ``"（C）"``, ``"a"``) as a letter set; null when
    the reference is not made of option letters (e.g. ``"Beijing"``)."""
    ref = text.full_to_half(text.to_expr(answer)).str.strip_chars()
    letters_only = ref.str.replace_all(r"[\s,，、/&和及与\(\)\[\]【】\.。:：]", "")
    ok = letters_only.str.contains(r"^(?:[A-Z]+|[a-z])$")
    return pl.when(ok).then(letter_set(letters_only)).otherwise(None)


def option_letters(choices: IntoExpr | None = None, *, answer: IntoExpr | None = None) -> pl.Expr:
    """The option letters of each row as a string (``"ABCD"``).

    From the ids of ``choices`` (a ``List(Struct{id, content})`` column) when they are single
    letters; otherwise A-D, extended up to the highest letter of ``answer`` (a reference letter
    set, e.g. from :func:`reference_letters`) when that is beyond D.
    """
    default: pl.Expr = pl.lit(DEFAULT_OPTIONS)
    if answer is not None:
        top = text.to_expr(answer).str.slice(-1)
        index = top.replace_strict(
            list(ALPHABET), list(range(1, MAX_OPTIONS + 1)), default=None, return_dtype=pl.Int64
        )
        width = pl.max_horizontal(index.fill_null(4), pl.lit(4))
        default = pl.lit(ALPHABET).str.slice(0, width)
    if choices is None:
        return default
    ids = (
        text.to_expr(choices)
        .list.eval(
            pl.element()
            .struct.field("id")
            .str.strip_chars()
            .str.to_uppercase()
            .filter(pl.element().struct.field("id").str.strip_chars().str.contains(r"^[A-Za-z]$"))
        )
        .list.join("")
    )
    return pl.when(ids.str.len_bytes() > 0).then(letter_set(ids)).otherwise(default)


# --------------------------------------------------------------------------- cascade
def normalize_prediction(prediction: IntoExpr) -> pl.Expr:
    """Full-width letters, digits and brackets to half-width (``答案：（Ｃ）`` -> ``答案:(C)``)."""
    return text.full_to_half(text.to_expr(prediction))


def rewrite_negations(prediction: IntoExpr) -> pl.Expr:
    """Replace negated option mentions (``不选A``, ``not A``, ``A是错误的``, ``B is wrong``) by
    ``✗`` so that no later rule can take them."""
    expr = text.to_expr(prediction)
    for pattern, replacement in cp.NEGATIONS:
        expr = expr.str.replace_all(_pattern(pattern), replacement)
    return expr


def _rule_letters(source: pl.Expr, template: str, groups: tuple[str, ...]) -> pl.Expr:
    found = source.str.extract_groups(_pattern(template))
    return pl.coalesce([found.struct.field(g) for g in groups])


def _content_letter(normalized: pl.Expr, choices: pl.Expr, allowed: pl.Expr) -> pl.Expr:
    """The option whose content the prediction contains, when exactly one does."""
    pred = normalized.str.to_lowercase()
    hits: list[pl.Expr] = []
    for i in range(MAX_OPTIONS):
        item = choices.list.get(i, null_on_oob=True)
        content = text.full_to_half(item.struct.field("content")).str.strip_chars()
        letter = item.struct.field("id").str.strip_chars().str.to_uppercase()
        usable = (content.str.len_chars() > 0) & letter.str.contains(r"^[A-Z]$")
        hit = usable & pred.str.contains(content.str.to_lowercase(), literal=True)
        hits.append(pl.when(hit).then(letter).otherwise(None))
    count = pl.sum_horizontal([h.is_not_null().cast(pl.UInt8) for h in hits])
    one = pl.coalesce(hits)
    return pl.when((count == 1) & _allowed(one, allowed)).then(one).otherwise(None)


def _allowed(letters: pl.Expr, allowed: pl.Expr) -> pl.Expr:
    """Every letter of ``letters`` is one of ``allowed`` (per-row pattern; Polars caches it)."""
    return letters.str.contains(pl.concat_str([pl.lit("^["), allowed, pl.lit("]+$")]))


def extract_choice(
    prediction: IntoExpr,
    *,
    options: IntoExpr | None = None,
    choices: IntoExpr | None = None,
) -> pl.Expr:
    """Extract the chosen option(s) from a model's answer.

    ``options`` is a String column (or literal) of the row's option letters, e.g. ``"ABCD"``
    (default A-D; see :func:`option_letters`). ``choices`` (``List(Struct{id, content})``)
    enables the content fallback: a prediction containing exactly one option's content picks
    that option. Returns ``Struct{letters: String, rule: String}``.

    >>> df = pl.DataFrame({"p": ["综上所述，本题选D。", "不选A，选B", "As an AI, I cannot", "答案：（Ｃ）"]})
    >>> df.select(extract_choice("p").struct.unnest())["letters"].to_list()
    ['D', 'B', None, 'C']
    """
    allowed = _check_options(options)
    normalized = normalize_prediction(prediction)
    source = rewrite_negations(normalized)
    found: list[pl.Expr] = []
    for _name, template, groups in cp.RULES:
        letters = letter_set(_rule_letters(source, template, groups))
        if template is cp.LEADING:
            single = source.str.count_matches(_pattern(cp.LABEL)) <= 1
            letters = pl.when(single).then(letters).otherwise(None)
        found.append(pl.when(_allowed(letters, allowed)).then(letters).otherwise(None))
    names = [r[0] for r in cp.RULES]
    if choices is not None:
        # Only rows with no letter yet pay for the content scan.
        pending = pl.when(pl.coalesce(found).is_null()).then(normalized)
        found.append(_content_letter(pending, text.to_expr(choices), allowed))
        names.append(cp.CONTENT_RULE)
    rule: pl.Expr = pl.lit(cp.NO_RULE)
    for name, letters in reversed(list(zip(names, found, strict=True))):
        rule = pl.when(letters.is_not_null()).then(pl.lit(name)).otherwise(rule)
    return pl.struct(pl.coalesce(found).alias("letters"), rule.alias("rule"))


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
