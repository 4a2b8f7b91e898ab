"""Plain per-row Python of the newer math rules (does not import xpert_frames): number forms
rewritten before reading (fractions, mixed numbers, thousands, decimal commas, percent words,
approximations, English words) and the symbolic routing of answers that are not numbers."""

from __future__ import annotations

import re
from typing import Any

FORM_REPLACE = {
    "\\cfrac": "\\frac",
    "\\approx": "≈",
    "\\! ": "",
    "\\(": " ",
    "\\)": " ",
    "\\[": " ",
    "\\]": " ",
    "\\displaystyle": "",
}


def forms(s: str, decimal_comma: str = "auto") -> str:
    s = re.sub(r"\\frac\s*([0-9])\s*([0-9])", r"\\frac{\1}{\2}", s)
    s = re.sub(r"\\frac\s*([0-9])\s*\{", r"\\frac{\1}{", s)
    s = re.sub(r"\\frac\s*\{([^{}]*)\}\s*([0-9])", r"\\frac{\1}{\2}", s)
    s = re.sub(r"([0-9])\s*\\frac\s*\{\s*([0-9]+)\s*\}\s*\{\s*([0-9]+)\s*\}", r"\1 \2/\3", s)
    for _ in range(2):
        s = re.sub(r"([0-9]) ([0-9]{3})([^0-9]|\Z)", r"\1,\2\3", s)
    if decimal_comma == "auto":
        s = re.sub(r"(^|[^0-9,.(\[])([0-9]+),([0-9]{2})([^0-9,)\]]|\Z)", r"\1\2.\3\4", s)
    elif decimal_comma == "always":
        for _ in range(2):
            s = re.sub(r"([0-9]),([0-9])", r"\1.\2", s)
    s = re.sub(r"([0-9])\s*(?:percentage|percent|pct)([^A-Za-z]|\Z)", r"\1%\2", s)
    words = r"(?i:approximately|approx\.?|about|roughly)|约等于|约为|大约是|大约为|大约|约"
    approx_word = rf"([0-9}}])\s*[,，]?\s*[(（]?\s*(?:{words})\s*(?:[:：=]\s*)?([-+]?[0-9])"
    return repeating(re.sub(approx_word, r"\1 ≈ \2", digit_scales(s)))


def repeating(s: str) -> str:
    """Repeating decimals: the period (the groups named) written out 16 times."""
    period: list[tuple[str, tuple[int, ...]]] = [
        (r"([0-9]*\.[0-9]*)\\overline\s*\{([0-9]{1,6})\}", (2,)),
        (r"([0-9]*\.[0-9]*)\\dot\s*\{?([0-9])\}?([0-9]{0,4})\\dot\s*\{?([0-9])\}?", (2, 3, 4)),
        (r"([0-9]*\.[0-9]*)\\dot\s*\{?([0-9])\}?", (2,)),
        (r"([0-9]+\.[0-9]*)\(([0-9]{1,6})\)", (2,)),
        (r"([0-9]+\.[0-9]*?)(([0-9])\3+)(?:\.\.\.|…|\\[lc]?dots)", (3,)),
    ]
    for pattern, groups in period:

        def written(m: re.Match[str], g: tuple[int, ...] = groups) -> str:
            return str(m[1]) + "".join(m[k] for k in g) * 16

        s = re.sub(pattern, written, s)
    return s


SCALES = (("thousand", 3), ("million", 6), ("billion", 9))


def digit_scales(s: str) -> str:
    """``1.5 million`` → ``1.5e6``; ``3 thousand`` → ``3e3`` (after digits only)."""
    for word, power in SCALES:
        s = re.sub(rf"([0-9]) ?(?i:{word})([^A-Za-z]|\Z)", rf"\1e{power}\2", s)
    return s


def approx(s: str, candidate: str) -> tuple[str, str | None, str | None]:
    """(text without the approximation, exact, approximation) of the last ``a ≈ b``."""
    if "≈" not in s:
        return s, None, None
    m = re.match(rf"(?s)^.*?(?P<exact>{candidate})\s*≈\s*(?P<approx>{candidate})[^≈]*\Z", s)
    cut = re.sub(r"([0-9}])\s*≈\s*[-+]?[0-9][0-9.,]*", r"\1", s)
    return cut, (m.group("exact") if m else None), (m.group("approx") if m else None)


# ----------------------------------------------------------------------------- English
UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ENGLISH_WORD = re.compile("(?i)(?:" + "|".join([*UNITS, *TENS, "hundred"]) + ")")


def english(s: str) -> str:
    for value, word in sorted(enumerate(UNITS), key=lambda p: -len(p[1])):
        s = re.sub(rf"(?i)(^|[^A-Za-z])({word})([^A-Za-z]|\Z)", rf"\g<1>{value}\g<3>", s)
    for k, word in enumerate(TENS, start=2):
        s = re.sub(rf"(?i)(^|[^A-Za-z]){word}(?:-| − | )([1-9])([^0-9]|\Z)", rf"\g<1>{k}\2\3", s)
        s = re.sub(rf"(?i)(^|[^A-Za-z]){word}([^A-Za-z]|\Z)", rf"\g<1>{k}0\2", s)
    h = r"([1-9]) (?i:hundred)"
    s = re.sub(h + r"(?: (?i:and))? ([1-9][0-9])([^0-9]|\Z)", r"\1\2\3", s)
    s = re.sub(h + r"(?: (?i:and))? ([1-9])([^0-9]|\Z)", r"\g<1>0\2\3", s)
    s = re.sub(h + r"([^A-Za-z]|\Z)", r"\g<1>00\2", s)
    for word, power in SCALES:  # from the smallest; the rest is padded to the scale's digits
        for places in range(power, 0, -1):
            pattern = rf"([0-9]) (?i:{word})(?: (?i:and))? ([0-9]{{{places}}})([^0-9]|\Z)"
            s = re.sub(pattern, lambda m, z="0" * (power - places): m[1] + z + m[2] + m[3], s)
        s = re.sub(
            rf"([0-9]) (?i:{word})([^A-Za-z]|\Z)", lambda m, z="0" * power: m[1] + z + m[2], s
        )
    return s


# ----------------------------------------------------------------------------- symbolic
BOXED3 = re.compile(
    r"(?s).*\\(?:boxed|fbox)\s*\{((?:[^{}]|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*)\}"
)
MARKERS = "最终答案|答案是|答案为|答案[:：]|答[:：]|结果是|结果为|所以|因此|故"
MARKERS += r"|(?i:the answer is)|(?i:final answer)|(?i:answer\s*[:：])|####"
# A variable beside a number: a letter glued after a digit that is not a one-letter unit
# (A J K L N V W d g h m s t) nor the e of 5e-3; a single letter and a number joined by
# an operator. An assignment (x = 5) is none.
VARIABLE = "[BCDFGHIMOPQRSTUXYZabcfijklnopqruvwxyz]"
STRONG = re.compile(
    r"\\[a-zA-Z]+|[\^_√π∞≤≥≠±∪∩∈]|[(\[][^()\[\]]*,[^()\[\]]*[)\]]|[0-9]!"
    rf"|[0-9]{VARIABLE}(?:[^a-zA-Z]|\Z)"
    r"|(?:^|[^a-zA-Z\\])[a-zA-Z]\s*[-+*/×−]\s*[0-9(]|[0-9)]\s*[-+*/×−]\s*[a-zA-Z](?:[^a-zA-Z]|\Z)"
)
WEAK = re.compile(
    r"[=<>]|(?:^|[^a-zA-Z\\])[a-zA-Z](?:[^a-zA-Z]|\Z)|[0-9a-zA-Z)}]\s*,\s*[-+0-9a-zA-Z(\\{]"
    r"|[0-9a-zA-Z)}]\s*[-+*/×−]\s*[0-9a-zA-Z(\\{]"
)
PROSE = re.compile(r"[\u3400-\u9fff]|(?:^|[^a-zA-Z\\])[a-zA-Z]{3,}")


def strip_delims(s: str) -> str:
    space = " \t\n\r$"
    s = s.strip(space).removeprefix("\\(").removeprefix("\\[")
    s = s.rstrip(space + ".。").removesuffix("\\)").removesuffix("\\]")
    return s.strip(space)


def boxed(text: str) -> str | None:
    m = BOXED3.match(text)
    return m.group(1) if m else None


def reference_span(ref: str) -> str:
    b = boxed(ref)
    return strip_delims(ref if b is None else b)


def prediction_span(pred: str, rule: str | None) -> str | None:
    if rule == "statement":
        hint = r"[\\^_√π∞≤≥≠±∪∩∈(\[!（［！＾＿＼]|[0-9][a-zA-Z]|[a-zA-Z]\s*[-+*/×−－＋]"
        if not re.search(hint + r"|[-+*/×−－＋]\s*[a-zA-Z]", pred):
            return None  # nothing that can make the sentence symbolic
        tail = re.sub(rf"(?s)^.*(?:{MARKERS})", "", pred, count=1).lstrip(" \t:,，：")
        sentence = re.sub(r"(?s)(?:[。；;！!？?\n]|\.(?:\s|\Z)).*\Z", "", tail, count=1)
        return strip_delims(statement_math(sentence))
    b = boxed(pred)
    return None if b is None else strip_delims(b)


SEGMENT = re.compile(r"(?s)^.*(?:\$(?P<d>[^$]+)\$|\\\((?P<p>.*?)\\\)|\\\[(?P<b>.*?)\\\])")
PROSE_RUN = re.compile(r"[\u3400-\u9fff，。；：、！？]+|(^|[^A-Za-z\\])[A-Za-z]{2,}")
WRAPPER = re.compile(r"\\(?:text|textbf|mbox|mathrm)\s*\{([^{}]*)\}")
LAST_CHUNK = re.compile(r"([^\x01]*[^\x01\s.,;:$][^\x01]*)[\x01\s.,;:$]*\Z")


def prose_to_separators(s: str) -> str:
    s = WRAPPER.sub(lambda m: f" {m[1]} ", s)
    return PROSE_RUN.sub(lambda m: (m[1] or "") + "\x01", s)


def statement_math(sentence: str) -> str:
    """The last $…$ / \\(…\\) / \\[…\\] segment; else, in prose, the last chunk between
    words; else the sentence."""
    m = SEGMENT.match(sentence)
    if m:
        return next(g for g in (m["d"], m["p"], m["b"]) if g is not None)
    if PROSE.search(sentence):
        chunk = LAST_CHUNK.search(prose_to_separators(sentence))
        if chunk:
            return chunk[1]
    return sentence


GLUE_HINT = re.compile(r"[0-9][a-zA-Z(\\]|[a-zA-Z)}]\s*[\^_]|[a-zA-Z]\s*[-+*/×−]|[(\[]")
GLUE = re.compile(r"[A-Za-z(\[^_!√π∞]")


def glued_span(pred: str, rule: str | None, text: str | None, normalize: Any) -> str | None:
    """The expression ending the prediction when the last-number rule's number is part of it
    (``gives 2x``); ``normalize``: the fold + rewrite of the numbers oracle."""
    if rule != "last" or text is None:
        return None
    tail = pred[-160:]
    if not GLUE_HINT.search(tail):
        return None
    end = re.search(r"([^\x01]*)\Z", prose_to_separators(normalize(tail)))
    span = end[1].strip(" \t\n\r.,;:。") if end else ""
    return span if text in span and GLUE.search(span.replace(text, "")) else None


def sqrt_latex(s: str) -> str:
    s = re.sub(r"√\s*\(([^()]*)\)", lambda m: "\\sqrt{" + m[1] + "}", s)
    s = re.sub(r"√\s*\{", lambda m: "\\sqrt{", s)
    return re.sub(r"√\s*([0-9]+(?:\.[0-9]+)?|[A-Za-z])", lambda m: "\\sqrt{" + m[1] + "}", s)


def is_symbolic(span: str | None, strong_only: bool, normalize: Any, plain: Any) -> bool:
    """``normalize``: the fold + rewrite of the numbers oracle; ``plain``: whether a span
    reads as one number."""
    if span is None:
        return False
    form = normalize(span).replace("\\frac", "")
    looks = bool(STRONG.search(form)) or (
        not strong_only and bool(WEAK.search(form)) and not PROSE.search(form)
    )
    return looks and not plain(span)


def latex_form(s: str, normalize: Any) -> str:
    out = re.sub(r"\s+", "", normalize(s))
    return re.sub(r"\{(.)\}", r"\1", out).strip(".")


def verify(prediction: str, reference: str) -> str:
    """Math-Verify in this process (the oracle runs in the main thread)."""
    from math_verify import parse
    from math_verify import verify as mv_verify

    gold, target = parse(reference), parse(prediction)
    if not gold or not target:
        return "different"
    return "equal" if mv_verify(gold, target) else "different"
