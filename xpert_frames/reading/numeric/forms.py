"""Number forms that need a rewrite before :mod:`xpert_frames.reading.numeric.grammar` reads them.

All are Polars string expressions (Rust ``regex``: no look-around, so a boundary character is
captured and written back):

* LaTeX fraction shorthands: ``\\frac13``, ``\\frac3{4}``, ``\\frac{3}4`` → ``\\frac{a}{b}``;
  a mixed number ``12\\frac{3}{5}`` → ``12 3/5`` (read as 12 + 3/5 by the grammar);
* thousands written with single spaces (``1 000``, ``11 111 100``; LaTeX ``\\!``, ``\\,`` and
  ``{,}`` are folded earlier) → commas;
* decimal commas (:data:`DECIMAL_COMMAS`): ``auto`` reads ``2,74`` and ``1000,99`` (two digits
  after a lone comma) and ``0,111`` (a lone zero before it: no thousands group starts with 0)
  as decimals and keeps ``1,000`` one thousand; ``always`` reads every
  comma between digits as a decimal point; ``never`` only as thousands;
* repeating decimals (:data:`REPEATING_DECIMALS`): ``0.\\overline{3}``, ``0.\\dot{3}``,
  ``0.(3)``, ``0.333...`` → the period repeated (the value of 1/3);
* percent words: ``33.5 percent``, ``8 pct``, ``12 percentage`` → ``%``;
* an approximation after an exact value (``1/3 ≈ 0.33``; in words ``1/3 (approximately
  0.33)``, ``1/3, about 0.33``, ``1/3，约为0.33`` become ``≈``) is cut from the text (the
  exact value is the answer); :func:`approx_pair` finds the pair so the approximation can be
  compared too;
* scale words after digits (:data:`SCALE_TRIGGER`): ``3 thousand``, ``1.5 million``,
  ``2.25 billion`` (up to three decimals) → digits;
* English number words (:func:`english_numbers`): ``seven``, ``twenty-one``, ``one hundred``,
  compounds (``one thousand two hundred``, ``three hundred and five``, ``two million five
  hundred thousand``); used only where a span has no digits (words such as "one" are common).
"""

from __future__ import annotations

import polars as pl

DECIMAL_COMMAS: tuple[str, ...] = ("auto", "always", "never")

#: Fold-table additions (exact substrings, longest first in the fold pass).
LATEX_FORMS: dict[str, str] = {
    "\\cfrac": "\\frac",
    "\\approx": "≈",
    "\\! ": "",
    "\\(": " ",
    "\\)": " ",
    "\\[": " ",
    "\\]": " ",
    "\\displaystyle": "",
}

_FRAC = [
    (r"\\frac\s*([0-9])\s*([0-9])", r"\frac{${1}}{${2}}"),
    (r"\\frac\s*([0-9])\s*\{", r"\frac{${1}}{"),
    (r"\\frac\s*\{([^{}]*)\}\s*([0-9])", r"\frac{${1}}{${2}}"),
    (r"([0-9])\s*\\frac\s*\{\s*([0-9]+)\s*\}\s*\{\s*([0-9]+)\s*\}", "${1} ${2}/${3}"),
]
#: Every match of a :data:`_FRAC` rule holds a match of this (``\\frac{3}{4}``, the form they
#: write, none).
_FRAC_TRIGGER = r"\\frac\s*(?:[0-9]|\{[^{}]*\}\s*[0-9])|[0-9]\s*\\frac"
_SPACE_THOUSANDS = (r"([0-9]) ([0-9]{3})([^0-9]|$)", "${1},${2}${3}")
_DECIMAL_AUTO = (r"(^|[^0-9,.(\[])([0-9]+),([0-9]{2})([^0-9,)\]]|$)", "${1}${2}.${3}${4}")
_DECIMAL_ZERO = (r"(^|[^0-9,.(\[])0,([0-9]{3})([^0-9,)\]]|$)", "${1}0.${2}${3}")
#: Every match of :data:`_DECIMAL_AUTO` or :data:`_DECIMAL_ZERO` holds a match of this (thousands
#: groups such as ``1,234,000`` none).
_DECIMAL_AUTO_TRIGGER = r"[0-9],[0-9]{2}(?:[^0-9]|$)|(?:^|[^0-9,.(\[])0,[0-9]{3}"
_DECIMAL_ALWAYS = (r"([0-9]),([0-9])", "${1}.${2}")
_PERCENT = (r"([0-9])\s*(?:percentage|percent|pct)([^A-Za-z]|$)", "${1}%${2}")
#: An approximation in words right after an exact value (``1/3 (approximately 0.33)``,
#: ``1/3, about 0.33``, ``1/3，约为0.33``) → ``≈`` (then read as the ``≈`` pair below).
APPROX_WORDS = r"(?i:approximately|approx\.?|about|roughly)|约等于|约为|大约是|大约为|大约|约"
_APPROX_WORD = (
    rf"([0-9}}])\s*[,，]?\s*[(（]?\s*(?:{APPROX_WORDS})\s*(?:[:：=]\s*)?([-+]?[0-9])",
    "${1} ≈ ${2}",
)
#: Repeating decimals → the period written out to 16 repetitions (read as the fraction's
#: value): ``0.\\overline{3}``, ``0.1\\overline{6}``, ``0.\\dot{3}``, ``0.\\dot{1}\\dot{2}``
#: (dots over the period's first and last digits), ``0.(3)``, and ``0.333...`` (a repeated
#: single digit before an ellipsis).
_REPEAT = 16
_ONE_DIGIT_RUN = "|".join(f"({d}){d}+" for d in range(10))
REPEATING_DECIMALS: list[tuple[str, str]] = [
    (r"([0-9]*\.[0-9]*)\\overline\s*\{([0-9]{1,6})\}", "${1}" + "${2}" * _REPEAT),
    (
        r"([0-9]*\.[0-9]*)\\dot\s*\{?([0-9])\}?([0-9]{0,4})\\dot\s*\{?([0-9])\}?",
        "${1}" + "${2}${3}${4}" * _REPEAT,
    ),
    (r"([0-9]*\.[0-9]*)\\dot\s*\{?([0-9])\}?", "${1}" + "${2}" * _REPEAT),
    (r"([0-9]+\.[0-9]*)\(([0-9]{1,6})\)", "${1}" + "${2}" * _REPEAT),
    (
        rf"([0-9]+\.[0-9]*?)(?:{_ONE_DIGIT_RUN})(?:\.\.\.|…|\\[lc]?dots)",
        "${1}" + "".join(f"${{{k}}}" for k in range(2, 12)) * _REPEAT,
    ),
]
#: A text holds a repeating decimal only if it matches this.
REPEATING_TRIGGER = r"\\overline|\\dot|[0-9]\.[0-9]*\([0-9]|[0-9](?:\.\.\.|…|\\[lc]?dots)"
#: A mixed number joined by 又 to an ASCII or LaTeX fraction (``1又1/2``, ``2 又 \\frac{3}{4}``)
#: → ``1 1/2`` (read as a mixed number); 又 before a whole number stays a conjunction.
_YOU_FRACTION = r"([0-9])\s*又\s*"
MIXED_YOU: list[tuple[str, str]] = [
    (_YOU_FRACTION + r"([0-9]+)\s*/\s*([0-9]+)", "${1} ${2}/${3}"),
    (_YOU_FRACTION + r"\\frac\s*\{\s*([0-9]+)\s*\}\s*\{\s*([0-9]+)\s*\}", "${1} ${2}/${3}"),
]
#: A text needs :func:`rewrite_rare_forms` only if it matches this.
RARE_TRIGGER = rf"[0-9}}][\s,，(（]*(?:{APPROX_WORDS})|{REPEATING_TRIGGER}|[0-9]\s*又"


def rewrite_rare_forms(text: pl.Expr) -> pl.Expr:
    """An approximation in words after an exact value → ``≈``, mixed numbers with 又
    (:data:`MIXED_YOU`) and repeating decimals written out (module docs); after
    :func:`rewrite_forms`, on the rows that match :data:`RARE_TRIGGER` (rare forms: their
    regexes stay off the other rows)."""
    out = text.str.replace_all(*_APPROX_WORD)
    for pattern, repl in [*MIXED_YOU, *REPEATING_DECIMALS]:
        out = out.str.replace_all(pattern, repl)
    return out


#: ``exact ≈ approximation``; group 1 the exact value's last character, group 2 the
#: approximation (digits, sign, point, comma, slash; a unit after it stays).
APPROX_CUT = (r"([0-9}])\s*≈\s*[-+]?[0-9][0-9.,]*", "${1}")


#: Powers of ten named by scale words.
SCALES: tuple[tuple[str, int], ...] = (("thousand", 3), ("million", 6), ("billion", 9))
#: A number in digits followed by a scale word (a text needs the scale rewrite).
SCALE_TRIGGER = r"[0-9] ?(?i:thousand|million|billion)(?:[^A-Za-z]|$)"


#: ``1.5 million`` → ``1.5e6``, ``3 thousand`` → ``3e3`` (read as scientific notation).
DIGIT_SCALE_RULES: list[tuple[str, str]] = [
    (rf"([0-9]) ?(?i:{word})([^A-Za-z]|$)", f"${{1}}e{power}${{2}}") for word, power in SCALES
]


#: A number glued after the letters that start a word (``AZYUK2A``, ``CO2``, ``15 cm2``, ``x1``;
#: not a LaTeX command's ``\\frac12``, nor the exponent of ``1e5``, whose letters follow a digit)
#: is part of that word, not a stated number: its digits are dropped.
GLUED_TRIGGER = "[A-Za-z][0-9]"
_GLUED_TO_WORD = (r"(^|[^0-9A-Za-z\\])([A-Za-z]+)[0-9]+(?:[.,][0-9]+)*", "${1}${2}")


def form_stages(decimal_comma: str = "auto") -> list[tuple[str, list[tuple[str, str]]]]:
    """The rewrites of :func:`rewrite_forms` in order, in stages ``(trigger, rules)``: a text
    that does not match a stage's trigger (a regex) is left as it is by that stage's rules,
    so a frame can run each stage on the rows that match its trigger only."""
    decimal = {"auto": [_DECIMAL_AUTO, _DECIMAL_ZERO], "always": [_DECIMAL_ALWAYS] * 2}.get(
        decimal_comma, []
    )
    # Each pass of the thousands rule joins every other group: 2 passes reach 10^12.
    stages = [
        (GLUED_TRIGGER, [_GLUED_TO_WORD]),
        (_FRAC_TRIGGER, _FRAC),
        ("[0-9] [0-9]", [_SPACE_THOUSANDS] * 2),
        (_DECIMAL_AUTO_TRIGGER if decimal_comma == "auto" else "[0-9],[0-9]", decimal),
        ("percent|pct", [_PERCENT]),
        (SCALE_TRIGGER, DIGIT_SCALE_RULES),
    ]
    return [(trigger, rules) for trigger, rules in stages if rules]


def rewrite_forms(text: pl.Expr, decimal_comma: str = "auto") -> pl.Expr:
    """Fraction shorthands, mixed numbers, space thousands, decimal commas, percent words,
    scale words after digits (see module docs), on folded text."""
    out = text
    for _, rules in form_stages(decimal_comma):
        for pattern, repl in rules:
            out = out.str.replace_all(pattern, repl)
    return out


def approx_pair(candidate: str) -> str:
    """Regex with the last ``<candidate> ≈ <candidate>`` of a text as named groups ``exact``
    and ``approx`` (run before :data:`APPROX_CUT` removes the approximation)."""
    return rf"(?s)^.*?(?P<exact>{candidate})\s*≈\s*(?P<approx>{candidate})[^≈]*$"


# --------------------------------------------------------------------------- English words
_UNITS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
]  # fmt: skip
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
#: Any English number word (case-insensitive), to pick the rows worth rewriting.
ENGLISH_WORD = "(?i)(?:" + "|".join([*_UNITS, *_TENS, "hundred"]) + ")"


def _english_rules() -> list[tuple[str, str]]:
    rules: list[tuple[str, str]] = []
    for value, word in sorted(enumerate(_UNITS), key=lambda p: -len(p[1])):
        rules.append((rf"(?i)(^|[^A-Za-z])({word})([^A-Za-z]|$)", f"${{1}}{value}${{3}}"))
    for k, word in enumerate(_TENS, start=2):
        rules.append(
            (rf"(?i)(^|[^A-Za-z]){word}(?:-| − | )([1-9])([^0-9]|$)", f"${{1}}{k}${{2}}${{3}}")
        )
        rules.append((rf"(?i)(^|[^A-Za-z]){word}([^A-Za-z]|$)", f"${{1}}{k}0${{2}}"))
    hundred = r"([1-9]) (?i:hundred)"
    rules += [
        (hundred + r"(?: (?i:and))? ([1-9][0-9])([^0-9]|$)", "${1}${2}${3}"),
        (hundred + r"(?: (?i:and))? ([1-9])([^0-9]|$)", "${1}0${2}${3}"),
        (hundred + r"([^A-Za-z]|$)", "${1}00${2}"),
    ]
    # Scales from the smallest: ``1 thousand 200`` → ``1200``, then ``2 million 500000`` →
    # ``2500000`` (the rest after a scale word is padded to the scale's digits).
    for word, power in SCALES:
        for places in range(power, 0, -1):
            rules.append(
                (
                    rf"([0-9]) (?i:{word})(?: (?i:and))? ([0-9]{{{places}}})([^0-9]|$)",
                    "${1}" + "0" * (power - places) + "${2}${3}",
                )
            )
        rules.append((rf"([0-9]) (?i:{word})([^A-Za-z]|$)", "${1}" + "0" * power + "${2}"))
    return rules


ENGLISH_RULES: list[tuple[str, str]] = _english_rules()


def english_numbers(text: pl.Expr) -> pl.Expr:
    """English number words to digits (``twenty-one`` → ``21``, ``one hundred`` → ``100``)."""
    out = text
    for pattern, repl in ENGLISH_RULES:
        out = out.str.replace_all(pattern, repl)
    return out
