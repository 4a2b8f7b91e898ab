"""Plain Python of references stated in words under the math evaluator (does not import
xpert_frames), written apart from ``xpert_frames.evaluators.math_answer.worded``: texts are
read by scanning characters and comparing words, not with regular expressions.

The rules, as documented there:

- The *plain words* of a text: ``\\text{…}``-like wrappers opened (innermost first, three
  levels), ``\\(`` ``\\)`` ``\\[`` ``\\]``, braces and ``\\boxed`` as spaces, then every run of
  spaces, ``\\,``-like spacing commands and ``~`` as one space each, then the edge characters
  `` .,;:!$*`` (and tab, newline) stripped, lower case.
- A reference's *kind* (its last box, else the whole text, in plain words): none for an empty
  set ("no solution(s)", "no real solutions", "empty set", "none"); with a digit or maths
  character only a polarity stated from its first letter; else ``yes``/``no`` when it states a
  polarity, none for English number words, ``word:<phrase>`` for one to three words of
  letters (and apostrophes), at least three characters, none of them a maths word.
- A prediction's *answer text*: its last box, else its last non-blank line after the last
  "answer is" / "answer:" / "therefore" / "thus" / "hence" (any case, whole words), in plain
  words.
- The verdict: the same polarity, or the phrase as whole words (between characters that are
  not ASCII letters nor apostrophes) in an answer text with no negation word.

Where the package uses Python's ``re``, "a word character" is what ``\\w`` is (``isalnum`` or
``_``), "white space" what ``\\s`` is (``isspace``), and case is ignored the way ``re``
ignores it (``ſ`` is an ``s``, ``İ`` and ``ı`` are ``i``).
"""

from __future__ import annotations

from string import ascii_lowercase

from tests.oracles.math_times import last_box

__all__ = ["last_box", "plain_words", "worded_answer_of", "worded_equal_of", "worded_kind_of"]

_WRAPPER_NAMES = {"text", "textbf", "textit", "mathrm", "mathbf", "mbox", "operatorname"}
_ASCII_LETTERS = set(ascii_lowercase + ascii_lowercase.upper())
_EDGES = " \t\n.,;:!$*"

_SAYS_NO = [
    "no", "false", "impossible", "not possible", "it is not possible", "it is impossible",
    "there is no", "there are no", "there exist no", "there exists no", "none",
]  # fmt: skip
_SAYS_YES = ["yes", "true", "it is possible", "it's possible", "possible"]
_NEGATIONS = [
    "not", "no", "never", "neither", "nor", "cannot", "can't", "doesn't", "don't", "isn't",
]  # fmt: skip
_MATHS_WORDS = {
    "sin", "cos", "tan", "cot", "sec", "csc", "log", "ln", "exp", "max", "min", "lim", "sqrt",
    "pi", "inf", "infty", "frac", "and", "or", "all", "any", "the", "for", "none", "both",
}  # fmt: skip
_NUMBER_WORDS = {
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    "hundred", "thousand", "million", "billion", "trillion", "half", "third", "quarter", "and",
    "a", "point", "minus", "negative",
}  # fmt: skip
_MATHS_CHARACTERS = set("0123456789=<>^_\\")
_WORD_LETTERS = set(ascii_lowercase + "'")
_ODD_CASES = {"ſ": "s", "İ": "i", "ı": "i"}


# ------------------------------------------------------------------------------ characters
def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


def _fold(text: str) -> str:
    """One character for each of ``text``'s, in lower case the way ``re`` ignores case."""
    out = []
    for c in text:
        low = c.lower()
        out.append(_ODD_CASES.get(c, low if len(low) == 1 else c))
    return "".join(out)


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _whole_word_at(text: str, i: int, phrase: str) -> bool:
    """``phrase`` (word characters at both ends) starts at ``i`` and is not part of a longer
    word."""
    end = i + len(phrase)
    return (
        text.startswith(phrase, i)
        and (i == 0 or not _is_word(text[i - 1]))
        and (end == len(text) or not _is_word(text[end]))
    )


def _whole_word_from(text: str, phrase: str, start: int = 0) -> int:
    """Where ``phrase`` first occurs as whole words at or after ``start``, else -1."""
    i = text.find(phrase, start)
    while i >= 0:
        if _whole_word_at(text, i, phrase):
            return i
        i = text.find(phrase, i + 1)
    return -1


def _opens_with(text: str, phrase: str) -> bool:
    return _whole_word_at(text, 0, phrase)


# ------------------------------------------------------------------------------ plain words
def _open_wrappers(text: str) -> str:
    """Each ``\\text{…}``-like wrapper whose braces hold no brace, as its content between
    spaces."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\":
            j = i + 1
            while j < len(text) and text[j] in _ASCII_LETTERS:
                j += 1
            brace = _skip_spaces(text, j)
            if text[i + 1 : j] in _WRAPPER_NAMES and text[brace : brace + 1] == "{":
                ends = [k for k in (text.find("{", brace + 1), text.find("}", brace + 1)) if k >= 0]
                if ends and text[min(ends)] == "}":
                    out.append(" " + text[brace + 1 : min(ends)] + " ")
                    i = min(ends) + 1
                    continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _marks_as_spaces(text: str) -> str:
    """``\\(`` ``\\)`` ``\\[`` ``\\]`` ``\\boxed`` and braces as one space each."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1 : i + 2] in ("(", ")", "[", "]"):
            out.append(" ")
            i += 2
        elif text.startswith("\\boxed", i):
            out.append(" ")
            i += len("\\boxed")
        else:
            out.append(" " if text[i] in "{}" else text[i])
            i += 1
    return "".join(out)


def _spacing_as_spaces(text: str) -> str:
    """A run of white space, a spacing command (``\\ `` ``\\,`` ``\\;`` ``\\:`` ``\\!``) or a
    ``~``: one space each."""
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1 : i + 2] in (" ", ",", ";", ":", "!"):
            out.append(" ")
            i += 2
        elif c.isspace():
            out.append(" ")
            i = _skip_spaces(text, i)
        else:
            out.append(" " if c == "~" else c)
            i += 1
    return "".join(out)


def plain_words(text: str) -> str:
    """The plain words of a text (module docs)."""
    for _ in range(3):
        text = _open_wrappers(text)
    return _spacing_as_spaces(_marks_as_spaces(text)).strip(_EDGES).lower()


# ------------------------------------------------------------------------------ polarity
def _says_no(text: str) -> bool:
    if any(_opens_with(text, phrase) for phrase in _SAYS_NO):
        return True
    for line in text.split("\n"):  # "no such … exist(s)": on one line
        at = _whole_word_from(line, "no such")
        if at >= 0 and any(_whole_word_from(line, w, at + 7) >= 0 for w in ("exist", "exists")):
            return True
    return any(_whole_word_from(text, f"{w} not exist") >= 0 for w in ("does", "do"))


def _says_yes(text: str) -> bool:
    if any(_opens_with(text, phrase) for phrase in _SAYS_YES):
        return True
    if not text.startswith("such "):  # "such <word> exist(s)"
        return False
    end = 5
    while end < len(text) and _is_word(text[end]):
        end += 1
    return (
        end > 5
        and any(_whole_word_at(text, end + 1, w) for w in ("exist", "exists"))
        and (text[end : end + 1] == " ")
    )


def _polarity(text: str) -> str | None:
    if _says_no(text):
        return "no"
    return "yes" if _says_yes(text) else None


# ------------------------------------------------------------------------------ the kinds
def _solution_word_at(text: str, i: int) -> bool:
    return _whole_word_at(text, i, "solution") or _whole_word_at(text, i, "solutions")


def _an_empty_set(text: str) -> bool:
    """An empty set: "(there is/are) no [one word] solution(s)", "… empty set …", "none"."""
    if text == "none" or _whole_word_from(text, "empty set") >= 0:
        return True
    for opening in ("there is no ", "there are no ", "no "):
        if text.startswith(opening):
            i = len(opening)
            if _solution_word_at(text, i):
                return True
            j = i
            while j < len(text) and _is_word(text[j]):
                j += 1
            return j > i and text[j : j + 1] == " " and _solution_word_at(text, j + 1)
    return False


def _number_words_only(text: str) -> bool:
    words = set(text.replace("-", " ").split())
    if text[0] == "-" or text[-1] == "-" or text[-1].isspace():
        words.add("")  # a separator at an end leaves an empty piece
    return words <= _NUMBER_WORDS


def _a_short_phrase(text: str) -> bool:
    """One to three words of ASCII letters and apostrophes, one space apart, each starting
    with a letter, the first of two characters or more; three characters at least; no maths
    word."""
    words = text.split(" ")
    return (
        len(text) >= 3
        and len(words) <= 3
        and len(words[0]) >= 2
        and all(w[:1] != "" and w[0] in ascii_lowercase and set(w) <= _WORD_LETTERS for w in words)
        and not set(words) & _MATHS_WORDS
    )


def worded_kind_of(reference: str) -> str | None:
    """``yes``, ``no``, ``word:<phrase>`` or None (module docs)."""
    box = last_box(reference)
    text = plain_words(reference if box is None else box)
    if _an_empty_set(text):
        return None
    if text == "" or set(text) & _MATHS_CHARACTERS:
        return _polarity(text) if text[:1] and text[0] in ascii_lowercase else None
    said = _polarity(text)
    if said is not None:
        return said
    if _number_words_only(text):
        return None
    return "word:" + text if _a_short_phrase(text) else None


# ------------------------------------------------------------------------------ predictions
def _marker_word_at(text: str, i: int, word: str) -> bool:
    """A marker word is a whole word: "thus" is not read in "enthusiastically", nor "answer
    is" in "the answer isn't"."""
    return _whole_word_at(text, i, word)


def _after_last_marker(text: str) -> int:
    """Where the answer starts after the last "answer is"/"answer:"/"therefore"/"thus"/"hence"
    (and a colon after it), else 0."""
    folded = _fold(text)
    for i in range(len(folded) - 1, -1, -1):
        end = -1
        if _marker_word_at(folded, i, "answer"):
            j = _skip_spaces(folded, i + 6)
            if _marker_word_at(folded, j, "is"):
                end = j + 2
            elif folded.startswith(":", j):
                end = j + 1
        for word in ("therefore", "thus", "hence"):
            if _marker_word_at(folded, i, word):
                end = i + len(word)
        if end >= 0:
            end = _skip_spaces(folded, end)
            return end + 1 if folded[end : end + 1] in (":", "：") else end
    return 0


def worded_answer_of(prediction: str) -> str:
    """The prediction's answer text (module docs)."""
    box = last_box(prediction)
    if box is not None:
        return plain_words(box)
    tail = prediction[_after_last_marker(prediction) :]
    lines = [line for line in tail.strip().splitlines() if line.strip()]
    return plain_words(lines[-1]) if lines else ""


def _phrase_in(answer: str, phrase: str) -> bool:
    """``phrase`` in ``answer`` between characters that are not ASCII letters nor ``'``."""
    inner = set(ascii_lowercase + "'")
    for i in range(len(answer) - len(phrase) + 1):
        end = i + len(phrase)
        if (
            answer.startswith(phrase, i)
            and (i == 0 or answer[i - 1] not in inner)
            and (end == len(answer) or answer[end] not in inner)
        ):
            return True
    return False


def worded_equal_of(kind: str, answer: str) -> bool:
    """Whether the answer text states what the reference's kind says (module docs)."""
    if kind in ("yes", "no"):
        return _polarity(answer) == kind
    if any(_whole_word_from(answer, w) >= 0 for w in _NEGATIONS):
        return False
    return _phrase_in(answer, kind.removeprefix("word:"))
