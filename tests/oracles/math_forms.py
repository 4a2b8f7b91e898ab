"""Plain per-row Python of the newer math rules (does not import xpert_frames): number forms
rewritten before reading (fractions, mixed numbers, thousands, decimal commas, percent words,
approximations, English words) and the symbolic routing of answers that are not numbers."""

from __future__ import annotations

import re
from typing import Any

from tests.oracles.math_written import cn_digit_scales, text_joined, vector

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


def powers_of_ten(s: str) -> str:
    """A bare power of ten (``10^{6}``, ``10^{-3}``; not ``x10^n``) as its value: digits up to
    ``10^308``, else (and with a sign or leading zero) E notation."""

    def value(m: re.Match[str]) -> str:
        exp = m[2] if m[2] is not None else m[3]
        written = exp.isdigit() and str(int(exp)) == exp and int(exp) <= 308
        return m[1] + ("1" + "0" * int(exp) if written else "1e" + exp)

    power = r"(^|[^0-9A-Za-z.^_])10\s*\^\s*(?:\{\s*([-+]?[0-9]+)\s*\}|([-+]?[0-9]+))"
    return re.sub(power, value, s)


def forms(s: str, decimal_comma: str = "auto") -> str:
    s = cn_digit_scales(powers_of_ten(s))
    # Digits glued after the letters that start a word (a code word, CO2, cm2) are not a number.
    s = re.sub(r"(^|[^0-9A-Za-z\\])([A-Za-z]+)[0-9]+(?:[.,][0-9]+)*", r"\1\2", s)
    s = re.sub(r"\\frac\s*([0-9])\s*([0-9])", r"\\frac{\1}{\2}", s)
    s = re.sub(r"\\frac\s*([0-9])\s*\{", r"\\frac{\1}{", s)
    s = re.sub(r"\\frac\s*\{([^{}]*)\}\s*([0-9])", r"\\frac{\1}{\2}", s)
    s = re.sub(r"([0-9])\s*\\frac\s*\{\s*([0-9]+)\s*\}\s*\{\s*([0-9]+)\s*\}", r"\1 \2/\3", s)
    for _ in range(2):
        s = re.sub(r"([0-9]) ([0-9]{3})([^0-9]|\Z)", r"\1,\2\3", s)
    if decimal_comma == "auto":
        s = re.sub(r"(^|[^0-9,.(\[])([0-9]+),([0-9]{2})([^0-9,)\]]|\Z)", r"\1\2.\3\4", s)
        s = re.sub(r"(^|[^0-9,.(\[])0,([0-9]{3})([^0-9,)\]]|\Z)", r"\g<1>0.\2\3", s)
    elif decimal_comma == "always":
        for _ in range(2):
            s = re.sub(r"([0-9]),([0-9])", r"\1.\2", s)
    s = re.sub(r"([0-9])\s*(?:percentage|percent|pct)([^A-Za-z]|\Z)", r"\1%\2", s)
    words = r"(?i:approximately|approx\.?|about|roughly)|约等于|约为|大约是|大约为|大约|约"
    approx_word = rf"([0-9}}])\s*[,，]?\s*[(（]?\s*(?:{words})\s*(?:[:：=]\s*)?([-+]?[0-9])"
    return repeating(mixed_you(re.sub(approx_word, r"\1 ≈ \2", digit_scales(s))))


def mixed_you(s: str) -> str:
    """``1又1/2``, ``2 又 \\frac{3}{4}`` → ``1 1/2``; 又 before a whole number stays."""
    s = re.sub(r"([0-9])\s*又\s*([0-9]+)\s*/\s*([0-9]+)", r"\1 \2/\3", s)
    frac = r"\\frac\s*\{\s*([0-9]+)\s*\}\s*\{\s*([0-9]+)\s*\}"
    return re.sub(r"([0-9])\s*又\s*" + frac, r"\1 \2/\3", s)


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


def last_box_match(regex: re.Pattern[str], text: str) -> re.Match[str] | None:
    """``regex`` (greedy through a box) matched on ``text`` only when the box it read is the
    last one: a later box opener means the last box is not well formed, and then no box
    counts (never an earlier one)."""
    m = regex.match(text)
    if m is None or re.search(r"\\(?:boxed|fbox)", text[m.end() :]):
        return None
    return m


def closes(box: str) -> bool:
    """Whether ``box`` (a text starting with ``\\boxed``/``\\fbox``) opens a brace that closes."""
    m = re.match(r"\\(?:boxed|fbox)\s*\{", box)
    if m is None:
        return False
    depth = 0
    for ch in box[m.end() - 1 :]:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return True
    return False


def boxed(text: str) -> str | None:
    m = last_box_match(BOXED3, text)
    return m.group(1) if m else None


def reference_span(ref: str) -> str:
    b = boxed(ref)
    span = strip_delims(ref if b is None else b)
    return listed_roots(span) or span


def angle_as_tuple(span: str) -> str:
    """``\\langle 1, 2 \\rangle`` (with ``\\left``/``\\right``) → ``(1, 2)``."""
    m = re.fullmatch(
        r"\s*(?:\\left\s*)?\\langle(?![a-zA-Z])(.*?)(?:\\right\s*)?\\rangle\s*", span, re.S
    )
    if m is None or "\\langle" in m[1] or re.search(r"[0-9],[0-9]{3}(?![0-9])", m[1]):
        return span
    parts = [p.strip() for p in split_top(m[1], r"\s*,\s*")]
    return "(" + ", ".join(parts) + ")" if len(parts) >= 2 and all(parts) else span


def listed_roots(span: str) -> str | None:
    """Roots of one unknown listed with or/或/commas (``x=2或x=3``) → ``2, 3``."""
    sep = r"\s*(?:,|，|\\text\s*\{\s*(?:or|或者|或)\s*\}|\\lor|\\vee|\bor\b|或)\s*"
    parts = [p for p in split_top(span, sep) if p.strip()]
    if len(parts) < 2 or not same_unknown(parts):
        return None
    values = [re.fullmatch(r"\s*[a-zA-Z](?:_\{?[0-9a-zA-Z]+\}?)?\s*=\s*([^=]+)", p) for p in parts]
    return ", ".join(m[1].strip() for m in values if m) if all(values) else None


def prediction_span(pred: str, rule: str | None) -> str | None:
    m = last_box_match(BOXED3, pred) if ("\\boxed" in pred or "\\fbox" in pred) else None
    if m is not None:
        # A concluding sentence with maths after the last box (which held a step) wins, also
        # where the statement rule read that conclusion.
        end = re.split(r"[。；;！!？?\n]|\.\s", pred[m.end() :].rstrip(" \t\n\r.。"))[-1]
        conclusion = r"^\s*(?:(?i:so|therefore|thus|hence|finally)\b|所以|因此|故|综上)"
        if re.search(conclusion, end) and re.search(r"\$|\\[(\[]", end):
            return strip_delims(statement_math(end))
    if rule == "statement":
        hint = r"[\\^_√π∞≤≥≠±∪∩∈(\[!（［！＾＿＼<>=]|[0-9][a-zA-Z]|[a-zA-Z]\s*[-+*/×−－＋]"
        listed = (
            r"|[0-9)}]\s*,\s+[-+0-9(]|[0-9)}]\s+(?:or|and)\s+[-+0-9(]"
            r"|[0-9)}]\s*[或和]\s*[-+0-9(]|[0-9]\s*\(?(?:repeating|recurring)"
        )
        if not re.search(hint + r"|[-+*/×−－＋]\s*[a-zA-Z]" + listed, pred):
            return None  # nothing that can make the sentence symbolic
        tail = re.sub(rf"(?s)^.*(?:{MARKERS})", "", pred, count=1).lstrip(" \t:,，：")
        sentence = re.sub(r"(?s)(?:[。；;！!？?\n]|\.(?:\s|\Z)).*\Z", "", tail, count=1)
        return strip_delims(statement_math(sentence))
    if "\\boxed" in pred or "\\fbox" in pred:
        return None if m is None else strip_delims(m.group(1))
    # A short bare expression (no segments, no prose): the whole prediction.
    prose = r"[\u3400-\u9fff]|(?:^|[^a-zA-Z\\{])[a-zA-Z]{2,}"
    maths = r"[\\^_√π∞≤≥≠±∪∩∈(\[!（［！＾＿＼]|[a-df-zA-DF-Z]"
    if (
        len(pred.encode()) <= 200
        and re.search(maths, pred)
        and not re.search(r"\$|\\[(\[]|" + prose, pred)
    ):
        return strip_delims(pred)
    # No statement, no box: the last sentence when it holds maths segments or joined values.
    strong = r"[\\^_√π∞≤≥≠±∪∩∈(\[!（［！＾＿＼]"
    # A displayed formula whose period ends the sentence (``$$x = 2.$$ Therefore …``).
    displayed = re.sub(r"(\.\s*(?:\$\$|\\\]))[ \t]+([A-Z])", "\\1\n\\2", pred)
    last = re.split(r"[。；;！!？?\n]|\.\s", displayed.rstrip(" \t\n\r.。"))[-1]
    or_inequalities = r"[<>][^<>]*(?:\bor\b|或)[^<>]*[<>]"
    roots = (
        r"(?:^|[^a-zA-Z\\])([a-zA-Z])\s*=\s*[-+]?[0-9.]+\$?\s*(?:,|\band\b|\bor\b|或|和)"
        r"\s*\$?\s*\1\s*="
    )
    if not re.search(strong + "|" + or_inequalities + "|" + roots, last) or not (
        re.search(r"\$|\\[(\[]", last) or JOINED.search(last) or re.search(roots, last)
    ):
        return None
    return strip_delims(statement_math(last))


SEGMENT = re.compile(r"(?s)^.*(?:\$(?P<d>[^$]+)\$|\\\((?P<p>.*?)\\\)|\\\[(?P<b>.*?)\\\])")
PROSE_RUN = re.compile(r"[\u3400-\u9fff，。；：、！？]+|(^|[^A-Za-z\\])[A-Za-z]{2,}")
WRAPPER = re.compile(r"\\(?:text|textbf|mbox|mathrm)\s*\{([^{}]*)\}")
LAST_CHUNK = re.compile(r"([^\x01]*[^\x01\s.,;:$][^\x01]*)[\x01\s.,;:$]*\Z")


def prose_to_separators(s: str) -> str:
    s = WRAPPER.sub(lambda m: f" {m[1]} ", s)
    return PROSE_RUN.sub(lambda m: (m[1] or "") + "\x01", s)


ASIDE = re.compile(
    r"(?s)^(.*?(?:\$|\\\)|\\\]|[0-9]).*?)(?:[,，;；]\s*|\s+)(?:(?i:which|where|when|whenever"
    r"|since|because|if|attained|achieved)(?:[^A-Za-z]|\Z)|此时|这时|当|因为|由于|其中|取得).*\Z"
)
REJECTED = re.compile(
    r"(?s)^(.*?(?:\$|\\\)|\\\]|[0-9]).*?)(?:[,，;；]\s*(?i:not|rather\s+than|instead\s+of)\s"
    r"|\s*(?:而不是|而非)).*\Z"
)
OTHER_QUANTITY = re.compile(
    r"(?s)^(.*?(?:\$|\\\)|\\\]|[0-9]).*?)[,，;；]\s*(?:(?i:and|while|but)\s+)?(?:[\u3400-\u9fff]+"
    r"|(?:(?i:the)\s+)?[A-Za-z]{2,}(?:\s+[A-Za-z]{2,}){0,3})\s*(?:为|是|(?i:is|equals)\s|=).*\Z"
)
SEGMENTS = re.compile(r"\$\$(.+?)\$\$|\$([^$]+)\$|\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
JOINER = re.compile(r"(?i)\s*(?:[,，、]\s*)?(?:(?:or|and|或者|或|和|以及|及)\s*)?")
JOINED = re.compile(
    r"([0-9a-zA-Z})\]])(?:\s+(?:or|and)\s+|\s*(?:或者|或|和)\s*)([-0-9a-zA-Z\\(\[{])"
)
INEQ = re.compile(r"[<>≤≥]|\\(?:le|ge|lt|gt|leq|geq|leqslant|geqslant)(?![a-zA-Z])")


def plain_math(s: str) -> str:
    """Plain-text maths in LaTeX: sqrt(x)/sqrt 3, pi, a decimal said to repeat (marked)."""
    if not any(w in s for w in ("sqrt", "pi", "repeating", "recurring")):
        return s
    s = re.sub(r"(?<![A-Za-z\\])sqrt\s*\(([^()]*)\)", lambda m: "\\sqrt{" + m[1] + "}", s)
    s = re.sub(r"(?<![A-Za-z\\])sqrt\s*([0-9]+)", lambda m: "\\sqrt{" + m[1] + "}", s)
    s = re.sub(r"(?<![A-Za-z\\])pi(?![A-Za-z])", lambda m: "\\pi ", s)
    said = r"(?:repeating|recurring|\((?:repeating|recurring)\))"
    return re.sub(r"([0-9])\s*" + said, lambda m: m[1] + "\\repeating", s)


def statement_math(sentence: str) -> str:
    """The sentence without an aside after its maths; then the last group of $…$ / \\(…\\) /
    \\[…\\] segments joined by commas or or/and (not and between inequalities), their contents
    comma-joined; else, in prose, the last chunk between words; else the sentence."""
    sentence = plain_math(sentence)
    sentence = ASIDE.sub(r"\1", sentence, count=1)
    sentence = REJECTED.sub(r"\1", sentence, count=1)
    sentence = OTHER_QUANTITY.sub(r"\1", sentence, count=1)
    segs = list(SEGMENTS.finditer(sentence))
    if segs:
        k = len(segs) - 1
        while k > 0:
            gap = sentence[segs[k - 1].end() : segs[k].start()]
            both = segs[k - 1].group(0) + segs[k].group(0)
            if not JOINER.fullmatch(gap) or (
                re.search(r"(?i)\band\b|和|及", gap) and INEQ.search(both)
            ):
                break
            k -= 1
        parts = [next(g for g in m.groups() if g is not None).strip() for m in segs[k:]]
        return ", ".join(parts) if same_unknown(parts) else parts[-1]
    plain, joined = last_chunk(sentence), last_chunk(JOINED.sub(r"\1, \2", sentence))
    return joined if joined != plain and same_unknown(joined.split(",")) else plain


def last_chunk(sentence: str) -> str:
    if PROSE.search(sentence):
        chunk = LAST_CHUNK.search(prose_to_separators(sentence))
        if chunk:
            return chunk[1]
    return sentence


def same_unknown(parts: list[str]) -> bool:
    """All plain values, or all stated for one unknown letter (x = 2, x_2 = 3)."""
    lhs = r"^\s*([a-zA-Z])(?:_\{?[0-9a-zA-Z]+\}?)?\s*"
    lhs += r"(?:=|<|>|≤|≥|\\(?:le|ge|lt|gt|leq|geq)(?![a-zA-Z]))"
    relation = r"=|[<>≤≥≠]|\\(?:le|ge|lt|gt|leq|geq|neq|ne|in|subset)(?![a-zA-Z])"
    seen = set()
    for part in parts:
        m = re.match(lhs, part)
        seen.add(m[1] if m else ("?" if re.search(relation, part) else ""))
    return len(seen) == 1 and "?" not in seen


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
    end = re.search(r"([^\x01]*)\Z", prose_to_separators(plain_math(normalize(tail))))
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
    listed = re.search(
        r"[0-9a-zA-Z)}]\s*,\s+(?:[-+0-9(\\{]|[a-zA-Z]\s*=)|[0-9)}]\s+(?:or|and)\s+[-+0-9(\\{]", form
    )
    looks = (
        bool(STRONG.search(form))
        or listed is not None
        or (not strong_only and bool(WEAK.search(form)) and not PROSE.search(form))
    )
    return looks and not plain(span)


def latex_form(s: str, normalize: Any) -> str:
    out = re.sub(r"\s+", "", normalize(s))
    return re.sub(r"\{(.)\}", r"\1", out).strip(".")


def verify(prediction: str, reference: str) -> str:
    """Math-Verify in this process (the oracle runs in the main thread)."""
    from math_verify import parse
    from math_verify import verify as mv_verify

    from tests.oracles.math_words import exact_differ

    # A last box that never closes: from it on (an earlier box is never read).
    start = max(prediction.rfind("\\boxed"), prediction.rfind("\\fbox"))
    if start >= 0 and not closes(prediction[start:]):
        prediction = prediction[start:]
    gold, target = parse(reference), parse(prediction)
    if not gold or not target:
        return "different"
    equal = mv_verify(gold, target) and not exact_differ(gold, target)
    return "equal" if equal else "different"


# ------------------------------------------------------------------ prediction in the
# reference's form: last right-hand side, inequality → interval
def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at the regex ``sep`` outside ()[]{} (``\\{`` counts as ``{``)."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(text):
        m = re.compile(sep).match(text, i) if depth == 0 else None
        if m and m.end() > i and text[i] not in "([{)]}":
            out.append(cur)
            cur, i = "", m.end()
            continue
        depth += 1 if text[i] in "([{" else (-1 if text[i] in ")]}" and depth else 0)
        cur += text[i]
        i += 1
    return [*out, cur]


def as_interval(part: str) -> str | None:
    part = part.strip()
    m = re.match(r"^[a-zA-Z]\s*(?:\\in|∈)\s*(.+)$", part, re.S)
    if m:
        return m[1].strip()
    for pat, rep in ((r"\\leqslant|\\leq|\\le(?![a-zA-Z])|≤|<=", "≤"),
                     (r"\\geqslant|\\geq|\\ge(?![a-zA-Z])|≥|>=", "≥"),
                     (r"\\lt(?![a-zA-Z])", "<"), (r"\\gt(?![a-zA-Z])", ">")):  # fmt: skip
        part = re.sub(pat, rep, part)
    bits = [b.strip() for b in re.split(r"([<>≤≥])", part)]
    var = re.compile(r"^[a-zA-Z](?:_\{?[0-9a-zA-Z]\}?)?$")
    up = {"<": ("(-\\infty, ", ")"), "≤": ("(-\\infty, ", "]"), ">": ("(", ", +\\infty)")}
    up["≥"] = ("[", ", +\\infty)")
    mirror = {"<": ">", ">": "<", "≤": "≥", "≥": "≤"}
    if len(bits) == 3:
        a, op, b = bits
        if not var.match(a) and var.match(b) and a and b not in a:
            a, op, b = b, mirror[op], a
        if var.match(a) and b and a not in b:
            left, right = up[op]
            return f"{left}{b}{right}"
        return None
    if len(bits) == 5 and var.match(bits[2]) and bits[0] and bits[4]:
        lo, o1, _, o2, hi = bits
        if o1 in ">≥" and o2 in ">≥":
            lo, o1, o2, hi = hi, mirror[o2], mirror[o1], lo
        if o1 in "<≤" and o2 in "<≤":
            return ("[" if o1 == "≤" else "(") + f"{lo}, {hi}" + ("]" if o2 == "≤" else ")")
    return None


def fit_to_reference(span: str | None, ref: str) -> str | None:
    hint = r"[=<>≤≥∈]|\\(?:le|ge|lt|gt|in|\{)|matrix"
    span = None if span is None else angle_as_tuple(span)
    if span is None or not (re.search(hint, span) or "matrix" in ref):
        return span
    relation = r"=|[<>≤≥≠]|\\(?:le|ge|lt|gt|leq|geq|neq|ne|in|subset)(?![a-zA-Z])"
    related = re.search(relation, ref) is not None
    builder = re.match(
        r"^\\\{\s*([a-zA-Z])\s*(?:\\mid|\\vert|\||:)\s*(.*?)\s*\\\}$", span.strip(), re.S
    )
    interval_ref = re.search(r"(?s)^\s*[\[(].*,.*[\])]\s*$|\\cup|∪|\\infty|∞", ref)
    ineq = INEQ.search(span) or builder or re.match(r"^[a-zA-Z]\s*(?:\\in|∈)", span)
    if interval_ref and not related and ineq:
        body = builder[2] if builder else span
        orsep = r"\s*(?:,|\\text\s*\{\s*(?:or|或者|或)\s*\}|\\lor|\\vee|\bor\b|或)\s*"
        parts = [as_interval(p) for p in split_top(body, orsep) if p.strip()]
        if parts and all(p is not None for p in parts):
            return " \\cup ".join(p for p in parts if p is not None)
    if "=" in span and not related:
        joined = text_joined(span)
        if joined is not None and same_unknown(split_top(joined, r"\s*,\s*")):
            span = joined
        sides = []
        for part in split_top(span, r"\s*,\s*"):
            rhs = split_top(part, r"(?<![<>!:\\])=(?!=)")
            sides.append(rhs[-1].strip() if len(rhs) > 1 and rhs[-1].strip() else part.strip())
        span = ", ".join(sides)
    return angle_as_tuple(vector(span, ref) or span)
