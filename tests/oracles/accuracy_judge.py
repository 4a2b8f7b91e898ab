"""Per-row Python oracle of true/false (judge) scoring (no package imports): the judge rules of
``xpert_frames.reading.text_rules`` for Python's ``re``, the decision in plain
loops over one row at a time. Spans and trimming come from :mod:`tests.oracles.accuracy_text`.
"""

from __future__ import annotations

import re

from tests.oracles.accuracy_text import (
    BOLD,
    BOXED,
    CONCLUSION,
    HAN,
    STATEMENT,
    cut,
    prepare,
    raw_span,
    strip_marks,
    tidy,
)

HEDGE = re.compile(
    r"(?i:whether|cannot\s+(?:be\s+)?determine|can't\s+(?:be\s+)?determine|unclear"
    r"|not\s+sure|uncertain|depend|maybe|might|could\s+be|perhaps|possibly|partially|partly"
    r"|not\s+(?:entirely|completely|fully|quite|necessarily)"
    r"|(?:is|are|remains?)\s+(?:currently\s+)?(?:not\s+(?:known|clear|certain)|unknown)"
    r"|no\s+(?:definitive|clear|definite)\s+answer|(?:difficult|hard|impossible)\s+to\s+say)"
    r"|无法判断|无法确定|不确定|不一定|取决于|可能|或许|也许|不完全|不全|一定道理|很难说|难以判断"
)
NO_EVIDENCE = (
    r"(?:没有|并无|尚无|缺乏|无)(?:任何)?(?:科学)?(?:依据|证据|根据)(?:证明|表明|显示|说明|支持)?"
    r"|(?i:no\s+(?:scientific\s+|solid\s+|clear\s+)?(?:evidence|proof)\s+(?:that|to\s+suggest))"
)
NO_EVIDENCE_AGAINST = (
    r"(?:没有|并无|尚无|缺乏|无)(?:任何)?(?:科学)?(?:依据|证据|根据)(?:可以|能够|能)?"
    r"(?:反驳|否认|否定|推翻|驳斥|质疑)"
    r"|(?i:no\s+(?:scientific\s+|solid\s+|clear\s+)?(?:evidence|proof)\s+(?:against|to\s+the"
    r"\s+contrary|contradicting|refuting|disproving))"
)
NO_DOUBT = r"(?i:no\s+doubt|without\s+(?:a\s+)?doubt)|毫无疑问|毋庸置疑"
JUDGE_WORDS = [
    (rf"(?:{NO_EVIDENCE_AGAINST})[^,，.;!?。；！？\n]*", True),
    (rf"(?:{NO_EVIDENCE})[^,，.;!?。；！？\n]*", False),
    (NO_DOUBT, True),
    (
        r"没有错|没错|不错|并非错误|不是错误|(?i:not\s+(?:false|wrong|incorrect)"
        r"|isn't\s+(?:false|wrong|incorrect))",
        True,
    ),
    (
        r"不正确|不对|不准确|不成立|不是真的|不是正确|不是对|不真|(?i:not\s+(?:true|correct|right"
        r"|accurate|valid|the\s+case)|isn't\s+(?:true|correct|right|accurate))",
        False,
    ),
    (
        rf"错误|错(?:的|了)?(?:[^{HAN}]|\Z)|[×✗✘]|否|(?:是|为)假|假的(?:[^{HAN}]|\Z)"
        r"|(?i:false|incorrect|wrong|inaccurate)"
        r"|(?:^|[^A-Za-z])(?i:no)(?:[^A-Za-z]|\Z)",
        False,
    ),
    (
        rf"正确|对(?:的|了)?(?:[^{HAN}]|\Z)|[√✓✔]|成立|是的|(?:是|为)真|真的(?:[^{HAN}]|\Z)"
        r"|(?i:true|correct|accurate)"
        r"|(?:^|[^A-Za-z])(?i:yes|right)(?:[^A-Za-z]|\Z)",
        True,
    ),
]
ALONE_TRUE = {"是", "是的", "对", "真", "t", "y", "yes"}
ALONE_FALSE = {"不是", "否", "错", "假", "f", "n", "no"}
JUDGE_WORD = (
    rf"{NO_EVIDENCE_AGAINST}|{NO_EVIDENCE}|{NO_DOUBT}|正确|错误|对|错|真|假|[×✗✘√✓✔]|否|成立"
    r"|(?i:true|false|correct|incorrect|right|wrong|yes|no|accurate|inaccurate)"
)
VERDICT_HEAD = re.compile(
    r"(?s)^.*(?:[,，;；.。]\s*(?i:and\s+)?(?i:so|therefore|thus|hence|overall|all\s+in\s+all"
    r"|on\s+balance)[^A-Za-z]|所以|因此|因而|总体来说|总的来说|总体上|总体而言|整体来看|综上所述"
    r"|综上|总之)"
)
JUDGE_LEADING = re.compile(
    r"^[\s\*\"“'‘「【\(]*(?P<s>正确|错误|不正确|不对|对|错|是的|不是|是|否|[×✗✘√✓✔]"
    r"|(?i:true|false|correct|incorrect|right|wrong|yes|no|t|f))[\s\*\"”'’」】\)]*"
    r"(?:[,，。.!！:：;；\n—–-]|\Z)"
)
JUDGE_SENTENCE = re.compile(
    rf"(?s)^.*(?:^|[.。!?！？\n])(?P<s>[^.。!?！？\n]*(?:{JUDGE_WORD})[^.。!?！？\n]*)"
)
JUDGE_RULES = [
    ("boxed", BOXED),
    ("statement", STATEMENT),
    ("bold", BOLD),
    ("leading", JUDGE_LEADING),
    ("conclusion", CONCLUSION),
    ("sentence", JUDGE_SENTENCE),
]


def judge_value(s: str | None) -> str | None:
    if s is None:
        return None
    low = s.lower()
    for pattern, truth in JUDGE_WORDS:
        low = re.sub(pattern, "⊤" if truth else "⊥", low)
    alone = tidy(s.lower())
    yes = "⊤" in low or alone in ALONE_TRUE
    no = "⊥" in low or alone in ALONE_FALSE
    if yes and no:
        return "hedge"
    return "true" if yes else "false" if no else None


def judge_reference(ref: str) -> str | None:
    value = judge_value(strip_marks(prepare(ref)))
    return value if value in ("true", "false") else None


def verdict(plain: str) -> str:
    """What follows the last final-verdict marker, when it holds a judge word."""
    m = VERDICT_HEAD.match(plain)
    tail = plain[m.end() :] if m else ""
    return tail if m and re.search(JUDGE_WORD, tail) else plain


def judge_stated(pred: str) -> tuple[str | None, str | None]:
    src = prepare(pred)
    # ends in an unterminated sentence of more than 400 characters: cut off in a runaway
    runaway = re.search(r"[^.。!?！？\n]{401,}\s*\Z", src) is not None
    for name, pattern in JUDGE_RULES:
        raw = raw_span(name, pattern, src)
        if raw is None:
            continue
        if name == "sentence" and runaway:
            continue  # cut off inside a runaway sentence: its sentences conclude nothing
        plain = verdict(strip_marks(raw))
        value = judge_value(cut(plain))
        if value is not None:
            return ("hedge" if HEDGE.search(plain) else value), name
    plain = verdict(strip_marks(src))
    value = None if runaway else judge_value(plain)
    if value is not None:
        return ("hedge" if HEDGE.search(plain) else value), "whole"
    return None, None


def judge_row(pred: str, ref: str) -> tuple[float, str | None, str]:
    want = judge_reference(ref)
    value, rule = judge_stated(pred)
    score = 1.0 if value is not None and value == want else 0.0
    if want is None:
        return score, (None if value == "hedge" else value), "reference"
    if value == "hedge":
        return 0.0, None, "hedge"
    return score, value, rule or "none"
