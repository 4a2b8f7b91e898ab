"""Plain Python of the words taken off a span before a symbolic pair is compared (does not
import xpert_frames; :mod:`tests.oracles.math_pair_forms` says where this step stands): a
leading ``\\text{The answer is}``, a trailing ``\\text{for all …}`` condition, a sentence
reduced to what it states, ``sqrt(…)`` and ``pi`` written as LaTeX. Spans are read by
scanning characters."""

from __future__ import annotations

from string import ascii_letters

__all__ = ["LETTERS", "skip_spaces", "words_off"]

LETTERS = set(ascii_letters)


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


def skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _first_brace(text: str, start: int) -> int:
    """The index of the first ``{`` or ``}`` at or after ``start``, else -1."""
    found = [k for k in (text.find("{", start), text.find("}", start)) if k >= 0]
    return min(found) if found else -1


# ------------------------------------------------------------------------------ 3. words off
def _leading_words_end(span: str) -> int:
    """The end of a leading ``\\text{The answer is}`` (and a colon and spaces after it), else 0."""
    i = skip_spaces(span, 0)
    if not span.startswith("\\text", i):
        return 0
    brace = skip_spaces(span, i + 5)
    close = _first_brace(span, brace + 1)
    if span[brace : brace + 1] != "{" or close < 0 or span[close] != "}":
        return 0
    if not _lead_in(span[brace + 1 : close].strip()):
        return 0
    end = skip_spaces(span, close + 1)
    end += span[end : end + 1] == ":"
    return skip_spaces(span, end)


def _lead_in(words: str) -> bool:
    """Words that lead to the answer: ASCII letters, spaces, commas and apostrophes that end
    with a colon or with the word "is", "are" or "be" (``The answer is``, ``The solutions
    are``, ``Answer:``; not ``Paris``, ``Square``, ``Cube``, which are answers)."""
    if words[:1] == "" or words[0] not in LETTERS:
        return False
    if words.endswith(":"):
        body = words[:-1]
    else:
        last = words.replace(",", " ").replace("'", " ").split(" ")[-1]
        if last not in ("is", "are", "be") or len(last) == len(words):
            return False
        body = words[: len(words) - len(last)]
    return set(body) <= LETTERS | set(" ,'")


def _condition_start(span: str) -> int:
    """Where a trailing ``\\text{for all …}`` (with spaces and one comma or semicolon before
    it) starts, else -1."""
    k = span.find("\\text")
    while k >= 0:
        brace = skip_spaces(span, k + 5)
        word = skip_spaces(span, brace + 1)
        if span[brace : brace + 1] == "{":
            for w in ("for", "where", "if", "when", "with", "whenever"):
                end = word + len(w)
                if not span.startswith(w, word) or (end < len(span) and _is_word(span[end])):
                    continue
                close = _first_brace(span, end)
                if close >= 0 and span[close] == "}":
                    start = k
                    while start > 0 and span[start - 1].isspace():
                        start -= 1
                    if start > 0 and span[start - 1] in ",;":
                        start -= 1
                        while start > 0 and span[start - 1].isspace():
                            start -= 1
                    return start
        k = span.find("\\text", k + 1)
    return -1


def _prose(span: str) -> bool:
    """Two ASCII words of two letters or more, the first a whole word, apart by spaces."""
    i = 0
    while i < len(span):
        if span[i] not in LETTERS:
            i += 1
            continue
        end = i
        while end < len(span) and span[end] in LETTERS:
            end += 1
        after = skip_spaces(span, end)
        second = span[after : after + 2]
        if end - i >= 2 and after > end and len(second) == 2 and set(second) <= LETTERS:
            return True
        i = end
    return False


def _fold(text: str) -> str:
    odd = {"ſ": "s", "İ": "i", "ı": "i"}
    return "".join(odd.get(c, c.lower() if len(c.lower()) == 1 else c) for c in text)


def _after_last_verb(span: str) -> str | None:
    """What a sentence states after its last "is"/"are"/"equals" (a whole word's start, any
    case) or "=", followed by a space: trailing dots and spaces off; None without one."""
    folded = _fold(span)
    for i in range(len(span) - 1, -1, -1):
        marker = next((w for w in ("is", "are", "equals") if folded.startswith(w, i)), None)
        if marker is not None and i > 0 and _is_word(span[i - 1]):
            marker = None
        if marker is None and span[i] == "=":
            marker = "="
        if marker is None:
            continue
        rest = span[i + len(marker) :]
        spaces = skip_spaces(rest, 0)
        if spaces == 0:
            continue
        stated = rest[spaces:]
        if stated:
            kept = len(stated.rstrip())
            while kept > 0 and (stated[kept - 1] == "." or stated[kept - 1].isspace()):
                kept -= 1
            return stated[: max(kept, 1)]
        if spaces >= 2:
            return rest[spaces - 1 : spaces]
    return None


def _plain_sqrt(span: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(span):
        free = i == 0 or (span[i - 1] != "\\" and span[i - 1] not in LETTERS)
        if free and span.startswith("sqrt", i):
            paren = skip_spaces(span, i + 4)
            ends = [k for k in (span.find("(", paren + 1), span.find(")", paren + 1)) if k >= 0]
            if span[paren : paren + 1] == "(" and ends and span[min(ends)] == ")":
                out.append("\\sqrt{" + span[paren + 1 : min(ends)] + "}")
                i = min(ends) + 1
                continue
        out.append(span[i])
        i += 1
    return "".join(out)


def _plain_pi(span: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(span):
        free = i == 0 or (span[i - 1] != "\\" and span[i - 1] not in LETTERS)
        if free and span.startswith("pi", i) and span[i + 2 : i + 3] not in LETTERS:
            out.append("\\pi")
            i += 2
        else:
            out.append(span[i])
            i += 1
    return "".join(out)


def words_off(span: str, *, conditions: bool) -> str:
    span = span[_leading_words_end(span) :]
    if conditions and "\\begin" not in span:
        start = _condition_start(span)
        span = span if start < 0 else span[:start]
    if "\\" not in span and _prose(span):
        stated = _after_last_verb(span)
        span = span if stated is None else stated
    return _plain_pi(_plain_sqrt(span)).strip().rstrip(".").strip()
