"""Plain Python of rules for :mod:`tests.oracles.math` (issue 14): a check or verification
after the answer does not supply it, a conclusion after the last box wins over the box, and
Chinese integers (with the colloquial omitted trailing unit, ``一万二`` = 12000)."""

from __future__ import annotations

import re
from collections.abc import Callable

DIG = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7}
DIG |= {"八": 8, "九": 9}
D = "[" + "".join(DIG) + "]"

CHECK = re.compile(
    r"(?i:(?:^|\n)[ \t#*>_-]*(?:check|checking|verify|verification|double[- ]check)\b"
    r"|\b(?:let['’]?s|let us|we can|now) (?:verify|check|double[- ]check)\b"
    r"|\b(?:check|checking|verify|verification)\s*[:：])"
    r"|验证|检验|验算|检查"
)
CONCLUSION = (
    r"(?:[.!?。:\n]\s*|,\s*)(?:[Ss]o|[Tt]herefore|[Tt]hus|[Hh]ence)\b"
    r"|\s(?:Therefore|Thus|Hence)\b"  # a run-on text whose line breaks were lost
)


ONWARD = re.compile(
    r"[=≈]|[0-9)]\s*[-+×*/÷−]\s*[0-9(]|\b(?:so|therefore|thus|hence|then|next|now|finally"
    r"|total|totals|altogether|in all|overall|answer|result|gives|makes|means)\b",
    re.I,
)
EXPRESSION = re.compile(r"[0-9][a-zA-Z(\\^]|[a-zA-Z)}]\s*[\^_]|[a-zA-Z]\s*[-+*/×−]\s*[0-9]")


def conclusion(
    n: str, c: bool, last: str, sentence_number: Callable[[str, bool], str | None]
) -> str | None:
    """The number of the last conclusion sentence when the sentences after it carry nothing
    on (no equation, arithmetic, step or answer word), else None."""
    found = list(re.finditer(CONCLUSION, n))
    if not found:
        return None
    tail = n[found[-1].end() :]
    cut = re.search(r"(?s)(?:[。；;！!？?\n]|\.(?:\s|\Z))", tail)
    sentence, rest = (tail[: cut.start()], tail[cut.start() :]) if cut else (tail, "")
    if ONWARD.search(rest) or EXPRESSION.search(sentence):
        return None
    return sentence_number(tail, c)


def cut_check(n: str, has_number: Callable[[str], bool], markers: str, cn_chars: str) -> str:
    """``n`` up to its first check, where a number comes before the check and neither a box
    nor an answer statement with a number after it."""
    check = CHECK.search(n)
    if check is None or not has_number(n[: check.start()]):
        return n
    after = rf"\\(?:boxed|fbox)|(?:{markers})[^。\n；;!?]*[0-9{cn_chars}]"
    return n if re.search(after, n[check.start() :]) else n[: check.start()]


def concluded(prediction: str, rule: str | None, markers: str) -> bool:
    """The statement rule read a conclusion after the last box (no answer statement there)."""
    if rule != "statement" or ("\\boxed" not in prediction and "\\fbox" not in prediction):
        return False
    after = re.sub(r"(?s)^.*\\(?:boxed|fbox)", "", prediction, count=1)
    return re.search(CONCLUSION, after) is not None and re.search(markers, after) is None


def cn_integer(s: str) -> float | None:
    if s and all(c in DIG for c in s):
        return float("".join(str(DIG[c]) for c in s))
    section = f"(?:({D})千)?零?(?:({D})百)?零?(?:({D})?(十))?零?({D})?"
    m = re.fullmatch(f"(?:{section}亿)?零?(?:{section}万)?零?{section}", s)
    if not s or m is None or not any(m.groups()):
        return None  # a numeral needs at least one digit or 十
    total = 0
    for k, scale in enumerate((10**8, 10**4, 1)):
        th, hu, te, ten, un = m.groups()[5 * k : 5 * k + 5]
        # colloquial: a last digit right after 百/千/万 takes the next lower unit
        last = {"百": 10, "千": 100, "万": 1000}.get(s[-2:-1], 1) if k == 2 and un else 1
        value = 0
        for digit, weight in ((th, 1000), (hu, 100), (un, last)):
            value += DIG[digit] * weight if digit else 0
        if ten:
            value += (DIG[te] if te else 1) * 10
        total += value * scale
    return float(total)
