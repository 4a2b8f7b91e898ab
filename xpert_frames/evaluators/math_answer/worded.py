"""References stated in words under the math evaluator: compared as text answers, never by a
number found in the prediction.

Olympiad sets give some answers in words: ``\\text{No}``, ``Yes``, ``\\text{YES}``, "There exist
no such field.", "It is impossible to select 16 such numbers.", ``\\text{No such } n \\text{
exists}``, ``Converges``, a name in ``\\text{}``. Taking the last number of the prediction
(``…exactly 10 buns of each type.``) scores them by accident. Here:

* :func:`worded_kind` reads a reference (once per distinct string): ``yes`` or ``no`` when it
  states a polarity (:data:`YES`, :data:`NO`: "yes", "true", "it is possible" / "no", "false",
  "impossible", "there is no", "no such … exists", "does not exist"), ``word:<phrase>`` when it
  is one to three words of letters only (a verdict or a name: ``converges``, ``Bob``; at
  least three letters, not a maths function nor English number words), else null (not
  worded: the other rules apply; so is "no solution", "no real solutions", "empty set": an
  empty set, read by the set rules);
* :func:`worded_answer` reads the prediction's answer text: its last ``\\boxed{}``, else what
  follows its last "answer is"/"answer:", else its last line, with ``\\text{}`` wrappers and
  ``$`` removed and lower-cased;
* :func:`worded_equal`: a polarity must be the same polarity (read from the start of the answer
  text); a phrase must appear as whole words in an answer text that holds no negation.
"""

from __future__ import annotations

import re

import polars as pl

_WRAPPER = re.compile(r"\\(?:text|textbf|textit|mathrm|mathbf|mbox|operatorname)\s*\{([^{}]*)\}")
_SPACES = re.compile(r"\\[ ,;:!]|~|\s+")
_EDGE = " \t\n.,;:!$*"
#: A reference or answer that says yes (at its start).
YES = re.compile(r"^(?:yes|true|it is possible|it's possible|possible|such \w+ exists?)\b")
#: A reference or answer that says no (at its start, or "no such … exist(s)" anywhere).
NO = re.compile(
    r"^(?:no|false|impossible|not possible|it is (?:not possible|impossible)|"
    r"there (?:is|are|exists?) no|none)\b|\bno such\b.*\bexists?\b|\b(?:does|do) not exist\b"
)
#: "No solution(s)", "no real solutions", "empty set": an empty set, read by the set rules.
EMPTY = re.compile(r"^(?:there (?:is|are) )?no (?:\w+ )?solutions?\b|\bempty set\b|^none$")
_WORDS = re.compile(r"^[a-z][a-z']{1,}(?: [a-z][a-z']*){0,2}$")
_NOT_WORDS = {
    "sin", "cos", "tan", "cot", "sec", "csc", "log", "ln", "exp", "max", "min", "lim", "sqrt",
    "pi", "inf", "infty", "frac", "and", "or", "all", "any", "the", "for", "none", "both",
}  # fmt: skip
#: English number words: a reference written with them is a number ("seven"), not words.
_NUMBER_WORDS = {
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    "hundred", "thousand", "million", "billion", "trillion", "half", "third", "quarter", "and",
    "a", "point", "minus", "negative",
}  # fmt: skip
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|cannot|can't|doesn't|don't|isn't)\b")
#: The last answer marker, as whole words (not "thus" in "enthusiastically").
_MARKER = re.compile(r"(?is).*\b(?:answer\s*(?:is\b|:)|(?:therefore|thus|hence)\b)\s*[:：]?")


def plain_words(text: str) -> str:
    """``\\text{}``-like wrappers opened, ``$``, ``\\(``/``\\)`` and spacing commands removed,
    lower case, spaces collapsed, edge punctuation stripped."""
    for _ in range(3):
        text = _WRAPPER.sub(r" \1 ", text)
    text = text.replace("\\(", " ").replace("\\)", " ").replace("\\[", " ").replace("\\]", " ")
    text = text.replace("{", " ").replace("}", " ").replace("\\boxed", " ")
    return _SPACES.sub(" ", text).strip(_EDGE).lower()


def last_box(text: str) -> str | None:
    """The content of the last ``\\boxed{…}``/``\\fbox{…}`` (balanced braces), else None."""
    start = max(text.rfind("\\boxed"), text.rfind("\\fbox"))
    if start < 0:
        return None
    brace = text.find("{", start)
    if brace < 0:
        return None
    depth = 0
    for i in range(brace, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[brace + 1 : i]
    return None


def _polarity(text: str) -> str | None:
    if NO.search(text):
        return "no"
    if YES.search(text):
        return "yes"
    return None


def worded_kind_of(reference: str) -> str | None:
    """``yes``, ``no``, ``word:<phrase>`` or None for one reference (module docs)."""
    box = last_box(reference)
    text = plain_words(box if box is not None else reference)
    if EMPTY.search(text):
        return None
    if not text or re.search(r"[0-9=<>^_\\]", text.replace("'", "")):
        # Digits or maths: only a stated polarity makes it worded ("impossible to select 16").
        polarity = _polarity(text) if text and re.match(r"^[a-z]", text) else None
        return polarity
    polarity = _polarity(text)
    if polarity is not None:
        return polarity
    if set(re.split(r"[\s-]+", text)) <= _NUMBER_WORDS:
        return None
    if _WORDS.match(text) and len(text) >= 3 and not set(text.split()) & _NOT_WORDS:
        return "word:" + text
    return None


def worded_answer_of(prediction: str) -> str:
    """The prediction's answer text (module docs)."""
    box = last_box(prediction)
    if box is not None:
        return plain_words(box)
    m = _MARKER.match(prediction)
    tail = prediction[m.end() :] if m else prediction
    lines = [line for line in tail.strip().splitlines() if line.strip()]
    return plain_words(lines[-1] if lines else tail)


def worded_equal_of(kind: str, answer: str) -> bool:
    """Whether the answer text states what the reference kind says."""
    if kind in ("yes", "no"):
        return _polarity(answer) == kind
    phrase = kind.removeprefix("word:")
    if _NEGATION.search(answer):
        return False
    return re.search(rf"(?:^|[^a-z']){re.escape(phrase)}(?:[^a-z']|$)", answer) is not None


def worded_kind(reference: pl.Expr) -> pl.Expr:
    """:func:`worded_kind_of` over a column, once per distinct string; a reference without two
    ASCII letters in a row, or (without a box) whose first character after spaces and edge
    punctuation is a digit, is never worded (not read)."""
    return reference.map_batches(_kinds, return_dtype=pl.String, is_elementwise=True)


#: A reference whose text (:func:`plain_words`) starts with a digit: never worded (a digit or
#: maths character admits only a polarity stated from the start). Exact where the reference has
#: no box: before its first digit only characters that :func:`plain_words` strips.
_DIGIT_FIRST = r"^[ \t\n.,;:!$*]*[0-9]"


def _kinds(values: pl.Series) -> pl.Series:
    # Read: two ASCII letters in a row, and not a number first ("12.5 kg") unless boxed.
    # The letters first; the other two tests only on the texts that have them.
    letters = values.str.contains(r"[A-Za-z]{2}").fill_null(False)
    out = pl.repeat(None, len(values), dtype=pl.String, eager=True).alias(values.name)
    if not letters.any():
        return out
    at, subset = letters.arg_true(), values.filter(letters)
    boxed = subset.str.contains_any(["\\boxed", "\\fbox"])
    screen = (boxed | ~subset.str.contains(_DIGIT_FIRST)).fill_null(False)
    if not screen.any():
        return out
    at, subset = at.filter(screen), subset.filter(screen)
    distinct = subset.unique()
    table = pl.DataFrame(
        {
            "value": distinct,
            "kind": pl.Series([worded_kind_of(v) for v in distinct], dtype=pl.String),
        }
    )
    kinds = subset.to_frame("value").join(table, on="value", how="left", maintain_order="left")[
        "kind"
    ]
    return out.scatter(at, kinds)


def worded_score(prediction: pl.Expr, kind: pl.Expr) -> pl.Expr:
    """Boolean: the prediction states what ``kind`` says (null where ``kind`` is null); each
    distinct (prediction, kind) pair read once."""
    pair = pl.struct(prediction.alias("prediction"), kind.alias("kind"))
    return pair.map_batches(_scores, return_dtype=pl.Boolean, is_elementwise=True)


def _scores(batch: pl.Series) -> pl.Series:
    df = batch.struct.unnest()
    out = pl.repeat(None, len(df), dtype=pl.Boolean, eager=True).alias(batch.name)
    on = df["kind"].is_not_null() & df["prediction"].is_not_null()
    if not on.any():
        return out
    at = on.arg_true()
    rows = df.filter(on)
    distinct = rows.unique()
    got = [worded_equal_of(k, worded_answer_of(p)) for p, k in distinct.iter_rows()]
    table = distinct.with_columns(pl.Series("matches", got, dtype=pl.Boolean))
    ok = rows.join(table, on=["prediction", "kind"], how="left", maintain_order="left")["matches"]
    return out.scatter(at, ok)
