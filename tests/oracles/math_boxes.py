"""Plain-Python oracle of the several-boxes rule (one answer stated in several boxes at the end of
a text), written apart from ``xpert_frames.evaluators.math_answer.several_boxes``: the boxes are
found by one left-to-right brace count over the text, and the gap between two neighbouring boxes
is consumed connector by connector (longest first), not matched by one regex.

The rule: the boxes (``\\boxed{…}``, ``\\fbox{…}``) that end the chain of boxes at the end of the
text, where only connectors (spacing, ``$``/``\\(``/``\\[`` delimiters, commas, "and"/"or",
``\\text{ and }``, a label ``y_2 =`` or ``(b)``, a word before a comma, "and" or "or"; at most 60
characters) stand between two of them, become one box of their distinct contents joined by
``", "``; two boxes or none: the text as is.
"""

from __future__ import annotations

import re

_START = ("\\boxed", "\\fbox")
#: Connectors, each tried at the current position of a gap (first match wins).
_PIECES = [
    re.compile(p)
    for p in (
        r"\s+",
        r"\$+",
        r"\\[()\[\]]",
        r"\\q?quad(?![a-zA-Z])",
        r"\\[,;:! ]",
        r"~",
        r"[,;，、]",
        r"\\\\",
        r"(?:and|or)\b",
        r"和|或",
        r"\\text(?:rm|bf)?\s*\{[^{}]{0,40}?(?:\band|\bor|,)\s*\}",
        r"\\text(?:rm|bf)?\s*\{\s*\}",
        r"\([a-z]\)",
        r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=",
        r"[A-Za-z]{2,}(?=\s*(?:,|\b(?:and|or)\b))",  # a unit word before a connector
    )
]


def _find_boxes(text: str) -> list[tuple[int, int, int]]:
    """(start, content start, end after the closing brace) of each complete box, left to right."""
    found = []
    i = 0
    while i < len(text):
        name = next((s for s in _START if text.startswith(s, i)), None)
        if name is None:
            i += 1
            continue
        j = i + len(name)
        while j < len(text) and text[j].isspace():
            j += 1
        if j >= len(text) or text[j] != "{":
            i += 1
            continue
        depth, k = 0, j
        while k < len(text):
            depth += 1 if text[k] == "{" else -1 if text[k] == "}" else 0
            k += 1
            if depth == 0:
                break
        if depth == 0:
            found.append((i, j + 1, k))
        i += 1
    return found


def _only_connectors(gap: str, *, starts_word: bool) -> bool:
    """Whether ``gap`` is connectors only (``starts_word``: a letter before the gap, so "and"
    glued to it is part of a word)."""
    if len(gap) > 60:
        return False
    pos = 0
    while pos < len(gap):
        for piece in _PIECES:
            m = piece.match(gap, pos)
            if m and m.end() > pos:
                word = piece.pattern.startswith("(?:and")
                if word and ((pos > 0 and gap[pos - 1].isalnum()) or (pos == 0 and starts_word)):
                    continue
                pos = m.end()
                break
        else:
            return False
    return True


def join_boxes(text: str) -> str:
    """``text`` with its closing chain of boxes as one box (see the module docstring)."""
    boxes = _find_boxes(text)
    first = len(boxes) - 1  # the chain is boxes[first:]
    while first > 0:
        left, right = boxes[first - 1], boxes[first]
        if left[2] > right[0]:  # nested: the inner box ends inside the next one
            break
        glued = left[2] > 0 and text[left[2] - 1].isalnum()
        if not _only_connectors(text[left[2] : right[0]], starts_word=glued):
            break
        first -= 1
    chain = boxes[first:]
    if len(chain) < 2:
        return text
    inner = (text[start : end - 1].strip() for _, start, end in chain)
    contents = list(dict.fromkeys(c for c in inner if c))
    head, tail = text[: chain[0][0]], text[chain[-1][2] :]
    return f"{head}\\boxed{{{', '.join(contents)}}}{tail}"
