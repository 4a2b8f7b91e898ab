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

MAX_OPTIONS = len(ALPHABET)  #: options run A-Z at most
_RULE_ORDER: tuple[str, ...] = (*(r[0] for r in cp.RULES), cp.CONTENT_RULE)
#: Every value of the ``rule`` field, in cascade order.
RULE_NAMES: tuple[str, ...] = (*_RULE_ORDER, cp.NO_RULE)
_SEP = "\x1f"  # joins an option id to its content inside a list element


def _pattern(template: str) -> str:
    return cp.fill(template, "$")


# --------------------------------------------------------------------------- letters
def letter_set(letters: IntoExpr) -> pl.Expr:
    """Latin letters of a string, upper-cased, as a canonical set: sorted, distinct
    (``"d,b,A B"`` -> ``"ABD"``); null when there are none."""
    found = text.to_expr(letters).str.to_uppercase().str.extract_all("[A-Z]")
    return found.list.unique().list.sort().list.join("").str.extract("^(.+)$", 1)


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
    """Letters one rule finds, without separators: ``"A and C"`` -> ``"AC"``, ``"b"`` -> ``"B"``."""
    found = source.str.extract_groups(_pattern(template))
    fields = [found.struct.field(g) for g in groups]
    # Upper-case groups keep only their letters ("A and C" -> "AC"); the lower-case one is
    # a single letter.
    letters = pl.coalesce(
        [f.str.to_uppercase() if g == "l" else f for g, f in zip(groups, fields, strict=True)]
    )
    return letters.str.replace_all("[^A-Z]", "")


def content_letter(prediction: IntoExpr, choices: IntoExpr) -> pl.Expr:
    """The option whose content the prediction contains, when exactly one option's does
    (case-insensitive, full-width folded): ``我选北京`` -> ``B`` when B is 北京."""
    el = pl.element()
    ids = el.struct.field("id").str.strip_chars().str.to_uppercase()
    content = text.full_to_half(el.struct.field("content")).str.strip_chars().str.to_lowercase()
    usable = ids.str.contains(r"^[A-Z]$") & (content.str.len_chars() > 0)
    tagged = text.to_expr(choices).list.eval(
        pl.when(usable).then(pl.concat_str([ids, pl.lit(_SEP), content]))
    )
    pred = normalize_prediction(prediction).str.to_lowercase()
    # The prediction rides along as the last list element, so one list pass sees both.
    packed = pl.concat_list([tagged, pred])
    body = el.str.replace(f"^[^{_SEP}]*{_SEP}", "")
    is_option = pl.int_range(pl.len()) < pl.len() - 1
    hit = el.filter(is_option & el.last().str.contains(body, literal=True).fill_null(False))
    one = packed.list.eval(pl.when(hit.len() == 1).then(hit.first().str.slice(0, 1)))
    return pl.when(pred.is_not_null()).then(one.list.first())


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
    name of the rule that fired (:data:`RULE_NAMES`, ``"none"`` if none did).

    >>> df = pl.DataFrame({"p": ["综上所述，本题选D。", "不选A，选B", "As an AI, I", "答：（Ｃ）"]})
    >>> df.select(extract_choice("p").struct.unnest())["letters"].to_list()
    ['D', 'B', None, 'C']
    """
    allowed = _check_options(options)
    source = rewrite_negations(normalize_prediction(prediction))
    tagged: list[pl.Expr] = []
    for code, (_name, template, groups) in enumerate(cp.RULES):
        letters = _rule_letters(source, template, groups)
        if template is cp.LEADING:
            single = source.str.count_matches(_pattern(cp.LABEL)) <= 1
            letters = pl.when(single).then(letters)
        tagged.append(pl.concat_str([pl.lit(str(code)), letters]))
    if choices is not None:
        letter = content_letter(prediction, choices)
        tagged.append(pl.concat_str([pl.lit(str(len(cp.RULES))), letter]))
    # Candidates tagged with their rule's digit, the row's options last: the first candidate
    # whose letters are all options wins (one list pass; the per-row pattern is cached).
    el = pl.element()
    fits = el.str.contains(pl.concat_str([pl.lit(r"^\d["), el.last().str.slice(1), pl.lit("]+$")]))
    packed = pl.concat_list([*tagged, pl.concat_str([pl.lit("#"), allowed])])
    chosen = packed.list.eval(el.filter(fits).first()).list.first()
    codes = [str(i) for i in range(len(_RULE_ORDER))]
    rule = chosen.str.slice(0, 1).replace_strict(codes, list(_RULE_ORDER), default=cp.NO_RULE)
    return pl.struct(letter_set(chosen.str.slice(1)).alias("letters"), rule.alias("rule"))


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
