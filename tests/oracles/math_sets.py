"""Plain Python of set answers put in one form (does not import xpert_frames): the empty set
in words or symbols, and a set-builder reference against an interval prediction."""

from __future__ import annotations

import re

from tests.oracles import math_forms as mf

EMPTY = re.compile(
    r"\s*(?:\\emptyset|\\varnothing|∅|\\\{\s*\\\}|\{\s*\}|no\s+(?:real\s+)?solutions?"
    r"|无(?:实数)?解|不存在|空集)\s*[.。]?\s*",
    re.I,
)
STATED = re.compile(
    r"\\emptyset|\\varnothing|∅|\\\{\s*\\\}|\bno\s+(?:real\s+)?(?:solutions?|roots?)\b"
    r"|无(?:实数)?解|不存在|空集",
    re.I,
)
EXCEPT = re.compile(
    r"\bno\s+(?:real\s+)?(?:solutions?|roots?)\s+(?:other\s+than|besides|except|apart\s+from|but)\b"
    r"|除了?[^，。,]*?(?:之外|以外|外)",
    re.I,
)
BUILDER = re.compile(r"^\s*\\\{\s*[a-zA-Z]\s*(?:\\mid|\\vert|\||:)")
INTERVAL = re.compile(r"(?s)^\s*[\[(].*,.*[\])]\s*$|\\cup|∪|\\infty|∞")


def _last_sentence(text: str) -> str:
    return re.split(r"[。；;！!？?\n]|\.\s", text.rstrip(" \t\n\r.。"))[-1]


def _as_intervals(ref: str) -> str | None:
    m = re.match(r"^\\\{\s*([a-zA-Z])\s*(?:\\mid|\\vert|\||:)\s*(.*?)\s*\\\}$", ref.strip(), re.S)
    if m is None:
        return None
    orsep = r"\s*(?:,|\\text\s*\{\s*(?:or|或者|或)\s*\}|\\lor|\\vee|\bor\b|或)\s*"
    parts = [mf.as_interval(p) for p in mf.split_top(m[2], orsep) if p.strip()]
    if not parts or any(p is None for p in parts):
        return None
    return " \\cup ".join(p for p in parts if p is not None)


def _unwrapped(span: str) -> str:
    """The words of ``\\text{...}`` (``\\text{no solution}`` → ``no solution``)."""
    m = re.fullmatch(r"\s*\\text\s*\{([^{}]*)\}\s*[.。]?\s*", span)
    return m[1] if m else span


def fit_sets(prediction: str, pspan: str | None, rspan: str) -> tuple[str | None, str]:
    """(prediction span, reference span) with set answers in one form."""
    if EMPTY.fullmatch(_unwrapped(rspan)):
        boxed = "\\boxed" in prediction or "\\fbox" in prediction
        stated = (pspan is not None and EMPTY.fullmatch(_unwrapped(pspan)) is not None) or (
            not boxed
            and STATED.search(_last_sentence(prediction)) is not None
            and EXCEPT.search(_last_sentence(prediction)) is None
        )
        return ("\\emptyset" if stated else pspan), "\\emptyset"
    if (
        pspan is not None
        and BUILDER.match(rspan)
        and INTERVAL.search(pspan)
        and not re.search(r"[=<>≤≥]", pspan)
    ):
        return pspan, _as_intervals(rspan) or rspan
    return pspan, rspan
