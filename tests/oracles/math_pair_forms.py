"""Plain Python of the forms a symbolic pair is put in before it is verified (does not import
xpert_frames), written apart from ``xpert_frames.evaluators.math_answer.pair_forms``: spans are
read by scanning characters; only the repeating decimals are found with patterns.

Both spans are rewritten the same way, then compared written without spaces:

1. cleaned: edge spaces and ``$`` off, ``\\dfrac``/``\\tfrac`` as ``\\frac``, upright ``e`` and
   ``i`` (``\\mathrm{e}``, ``\\rm i``) as plain letters, ``\\left``/``\\right``, ``\\,``-like
   spacing (not after a backslash) and ``\\quad``/``\\qquad`` as spaces, spaces collapsed, braces
   around the whole span (holding no comma) taken off;
2. repeating decimals as their exact fractions (``0.1\\overline{6}``, ``0.1\\dot{6}``,
   ``0.\\dot{1}\\dot{8}``, ``0.1(6)``, ``0.1666\\repeating``, ``0.1666...``);
3. words off (:mod:`tests.oracles.math_pair_words`): a leading ``\\text{…}`` ending with the
   word is/are/be or a colon; trailing ``\\text{for|where|if|when|with|whenever …}`` and all
   after it (only for the comparison, and not in a ``\\begin``); a span of prose without
   backslashes reduced to what follows its last "is"/"are"/"equals"/"="; ``sqrt(…)`` as
   ``\\sqrt{…}`` and a standalone ``pi`` as ``\\pi``; a final dot off;
4. a whole-span mixed number ``88 \\frac{2}{3}`` as one fraction;
5. the prediction's multiple-choice label (``(C)``, ``\\text{(C)}``) off, where the
   reference's value has none;
6. ``\\log`` as ``\\ln`` on a side without ``\\ln`` when the other has one;
7. ``\\pm`` in tuples expanded, on a side with it when the other has none (each item's first
   ``\\pm``: ``a \\pm b`` as ``a + b`` and ``a - b``, a sign ``\\pm b`` as ``b`` and ``-b``);
8. the prediction's function variable renamed to the reference's (``f(y)=2y`` / ``f(x)=…``),
   unless the new name is already used in its body.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

from tests.oracles.math_pair_words import LETTERS, skip_spaces, words_off

__all__ = ["fit_pair_of"]


def _command_at(text: str, i: int, name: str, *, also_not: str = "") -> bool:
    """``\\name`` at ``i`` and not followed by an ASCII letter (nor one of ``also_not``)."""
    end = i + 1 + len(name)
    return text.startswith("\\" + name, i) and (
        end == len(text) or (text[end] not in LETTERS and text[end] not in also_not)
    )


# ------------------------------------------------------------------------------ 1. cleaned
def _upright_constants(span: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(span):
        name = next((n for n in ("mathrm", "rm") if span.startswith("\\" + n, i)), None)
        if name is not None:
            after = i + 1 + len(name)
            j = skip_spaces(span, after)
            if span[j : j + 1] == "{":
                k = skip_spaces(span, j + 1)
                close = skip_spaces(span, k + 1)
                if span[k : k + 1] in ("e", "i") and span[close : close + 1] == "}":
                    out.append(span[k])
                    i = close + 1
                    continue
            elif j > after and span[j : j + 1] in ("e", "i") and span[j + 1 : j + 2] not in LETTERS:
                out.append(span[j])
                i = j + 1
                continue
        out.append(span[i])
        i += 1
    return "".join(out)


def _spacing_off(span: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(span):
        width = 0
        for name in ("left", "right", "quad", "qquad"):
            if _command_at(span, i, name):
                width = 1 + len(name)
        escaped = i > 0 and span[i - 1] == "\\"
        if span[i] == "\\" and span[i + 1 : i + 2] in (",", ";", ":", "!", " ") and not escaped:
            width = 2
        if width:
            out.append(" ")
            i += width
        else:
            out.append(span[i])
            i += 1
    return "".join(out)


def _outer_braces_off(span: str) -> str:
    while span[:1] == "{" and span[-1:] == "}" and "," not in span:
        depth = 0
        for c in span[:-1]:
            depth += (c == "{") - (c == "}")
            if depth == 0:
                return span  # the first brace closes before the end: ``{a}+{b}``
        span = span[1:-1].strip()
    return span


def _cleaned(span: str) -> str:
    span = span.strip().strip("$").strip()
    span = span.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    span = _spacing_off(_upright_constants(span))
    return _outer_braces_off(" ".join(span.split()))


# ------------------------------------------------------------------------------ 2. repeating
_NUMBER = r"(?P<whole>[0-9]*)\.(?P<fixed>[0-9]*)"


def _dot(group: str) -> str:
    """A digit under ``\\dot`` (braces optional on either side)."""
    return r"\\dot\s*\{?(?P<" + group + r">[0-9])\}?"


_MARKED = [  # (pattern, how its repeating block is given)
    (re.compile(_NUMBER + r"\\overline\s*\{(?P<block>[0-9]{1,12})\}"), "written"),
    (
        re.compile(_NUMBER + _dot("first") + "(?:(?P<middle>[0-9]{0,10})" + _dot("last") + ")?"),
        "dotted",
    ),
    (re.compile(r"(?<![0-9.])" + _NUMBER + r"\((?P<block>[0-9]{1,12})\)"), "in brackets"),
    (re.compile(_NUMBER + r"\\repeating(?![a-zA-Z])"), "said"),
    (re.compile(_NUMBER + r"(?:\.\.\.|…|\\(?:l|c)?dots(?![a-zA-Z]))"), "dots"),
]


def _repeated_block(digits: str, *, said: bool) -> int:
    """How many of the last digits repeat: the shortest block written twice at the end; one
    digit when the decimal is said to repeat; 0 when neither."""
    for size in range(1, len(digits) // 2 + 1):
        if digits[len(digits) - 2 * size : len(digits) - size] == digits[len(digits) - size :]:
            return size
    return 1 if said and digits != "" else 0


def _as_fraction(m: re.Match[str], how: str) -> str:
    whole, fixed = m["whole"], m["fixed"]
    if how == "dotted":
        block = m["first"] + (m["middle"] or "") + (m["last"] or "")
    elif how in ("said", "dots"):
        size = _repeated_block(fixed, said=how == "said")
        if size == 0:
            return m[0]
        fixed, block = fixed[: len(fixed) - size], fixed[len(fixed) - size :]
    else:
        block = m["block"]
        if how == "in brackets" and whole == "" and fixed == "":
            return m[0]  # ".(6)"
    shift = 10 ** len(fixed)
    value = Fraction(int(whole + fixed or "0"), shift) + Fraction(
        int(block), shift * (10 ** len(block) - 1)
    )
    return f"\\frac{{{value.numerator}}}{{{value.denominator}}}"


def _repeating_as_fractions(span: str) -> str:
    for pattern, how in _MARKED:
        span = pattern.sub(lambda m, how=how: _as_fraction(m, how), span)  # type: ignore[misc]
    return span


# ------------------------------------------------------------------------------ 4.-8.
def _digits_end(span: str, i: int) -> int:
    while i < len(span) and span[i] in "0123456789":
        i += 1
    return i


def _mixed_number(span: str) -> str:
    """``88 \\frac{2}{3}`` (the whole span, a proper fraction) as ``\\frac{266}{3}``."""
    whole_end = _digits_end(span, 0)
    i = skip_spaces(span, whole_end)
    if whole_end == 0 or not span.startswith("\\frac", i):
        return span
    parts, i = [], i + 5
    for _ in range(2):
        i = skip_spaces(span, i)
        end = _digits_end(span, i + 1)
        if span[i : i + 1] != "{" or end == i + 1 or span[end : end + 1] != "}":
            return span
        parts.append(int(span[i + 1 : end]))
        i = end + 1
    (num, den), whole = parts, int(span[:whole_end])
    if i != len(span) or den == 0 or num >= den:
        return span
    return f"\\frac{{{whole * den + num}}}{{{den}}}"


def _choice_label_end(span: str) -> int:
    """The end of a leading ``(C)``/``\\text{(C)}``/``\\textbf{(C)}`` and the spaces after it,
    when something follows; else 0."""
    i = skip_spaces(span, 0)
    for command in ("\\textbf", "\\text"):
        if span.startswith(command, i):
            j = skip_spaces(span, i + len(command))
            if span[j : j + 1] == "{":
                j = skip_spaces(span, j + 1)
                if span[j : j + 1] == "(" and span[j + 1 : j + 2] in tuple("ABCDE"):
                    close = skip_spaces(span, j + 3)
                    if span[j + 2 : j + 3] == ")" and span[close : close + 1] == "}":
                        end = skip_spaces(span, close + 1)
                        return end if end < len(span) else 0
    if (
        span[i : i + 1] == "("
        and span[i + 1 : i + 2] in tuple("ABCDE")
        and span[i + 2 : i + 3] == ")"
    ):
        end = skip_spaces(span, i + 3)
        return end if end < len(span) else 0
    return 0


def _has(span: str, name: str) -> bool:
    return any(_command_at(span, i, name) for i in range(len(span)))


def _log_as_ln(span: str) -> str:
    out, i = [], 0
    while i < len(span):
        if _command_at(span, i, "log", also_not="_"):
            out.append("\\ln")
            i += 4
        else:
            out.append(span[i])
            i += 1
    return "".join(out)


def _plus_form(head: str, tail: str) -> str:
    """The ``+`` reading of ``head \\pm tail``: the ``\\pm`` left out where it is a sign
    (nothing or an operator before it: ``\\pm 2`` is ``2``), a ``+`` where it follows a term
    (``2 \\pm \\sqrt{3}`` is ``2 + \\sqrt{3}``, not ``2 \\sqrt{3}``)."""
    before = head.rstrip()
    if before == "" or before[-1] in "=<>+-*/[{:":
        return (head + tail).strip()
    return (head + "+" + tail).strip()


def _tuple_with_pm_expanded(items: str) -> str:
    choices = []
    for item in items.split(","):
        at = next((i for i in range(len(item)) if _command_at(item, i, "pm")), -1)
        if at < 0:
            choices.append([item.strip()])
        else:
            head, tail = item[:at], item[at + 3 :]
            choices.append([_plus_form(head, tail), (head + "-" + tail).strip()])
    return ", ".join("(" + ", ".join(c) + ")" for c in itertools.product(*choices))


def _pm_expanded(span: str) -> str:
    """Each parenthesis holding no parenthesis, with its items' first ``\\pm`` expanded."""
    out, i = [], 0
    while i < len(span):
        if span[i] == "(":
            close = next((k for k in range(i + 1, len(span)) if span[k] in "()"), -1)
            if close >= 0 and span[close] == ")":
                out.append(_tuple_with_pm_expanded(span[i + 1 : close]))
                i = close + 1
                continue
        out.append(span[i])
        i += 1
    return "".join(out)


def _function(span: str) -> tuple[str, str, str] | None:
    """(name, variable, body) of ``f(x) = body`` (one letter each), else None."""
    i = skip_spaces(span, 0)
    if span[i : i + 1] not in LETTERS:
        return None
    name, i = span[i], skip_spaces(span, i + 1)
    if span[i : i + 1] != "(":
        return None
    i = skip_spaces(span, i + 1)
    variable = span[i : i + 1]
    i = skip_spaces(span, i + 1)
    if variable not in LETTERS or span[i : i + 1] != ")":
        return None
    i = skip_spaces(span, i + 1)
    if span[i : i + 1] != "=" or i + 1 == len(span):
        return None
    return name, variable, span[i + 1 :]


def _standalone(body: str, letter: str) -> list[int]:
    """Where ``letter`` stands alone in ``body`` (not after a backslash or letter, not before
    a letter)."""
    return [
        i
        for i, c in enumerate(body)
        if c == letter
        and (i == 0 or (body[i - 1] != "\\" and body[i - 1] not in LETTERS))
        and body[i + 1 : i + 2] not in LETTERS
    ]


def _renamed(pred: str, ref: str) -> str:
    p, r = _function(pred), _function(ref)
    if p is None or r is None or p[0] != r[0] or p[1] == r[1]:
        return pred
    name, old, body = p
    new = r[1]
    if _standalone(body, new):
        return pred
    at = set(_standalone(body, old))
    body = "".join(new if i in at else c for i, c in enumerate(body))
    return f"{name}({new}) ={body}"


def _fitted(pred: str, ref: str, *, conditions: bool) -> tuple[str, str]:
    sides = [
        words_off(_repeating_as_fractions(_cleaned(s)), conditions=conditions) for s in (pred, ref)
    ]
    p, r = (_mixed_number(s) for s in sides)
    if _choice_label_end(r) == 0:
        p = p[_choice_label_end(p) :]
    if _has(p, "ln") != _has(r, "ln"):
        p, r = (s if _has(s, "ln") else _log_as_ln(s) for s in (p, r))
    if _has(p, "pm") != _has(r, "pm"):
        p, r = (_pm_expanded(s) if _has(s, "pm") else s for s in (p, r))
    return _renamed(p, r), r


def _written_alike(p: str, r: str) -> bool:
    return p != "" and "".join(p.split()) == "".join(r.split())


def fit_pair_of(pred: str, ref: str) -> tuple[str, str, bool]:
    """(prediction span, reference span, written identically) in the forms above; trailing
    conditions are left out only to find the two written identically."""
    kept = _fitted(pred, ref, conditions=False)
    dropped = _fitted(pred, ref, conditions=True)
    return kept[0], kept[1], _written_alike(*dropped) or _written_alike(*kept)
