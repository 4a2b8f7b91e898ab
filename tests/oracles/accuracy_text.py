"""Per-row Python oracle of text, label and true/false (judge) scoring (no package imports).

The span rules of ``xpert_frames.reading.text_rules`` written out again for
Python's ``re`` (``\\Z`` for the end of text, ``\\g<name>`` in replacements); everything
else (trimming, label search, longest label first, the judge decision) is plain loops over one
row at a time.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from tests.oracles import accuracy_core as core

GONE = "✗"
HAN = "一-鿿"
WHITE = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)
}

_CN = (
    r"(?:(?:最终|正确|标准|参考)?答案(?:应该|应当|应|就|即|也)?(?:是|为)"
    r"|答案\s*[:：]|【答案】|答\s*[:：]|而是|判断\s*[:：]|结论\s*(?:是|为|[:：]))"
)
_ANS = r"(?:the\s+|my\s+|our\s+)?(?:final\s+|correct\s+|right\s+|best\s+)?answer"
_VERB = r"(?:is|would\s+be|should\s+be|will\s+be|must\s+be)"
_EN = (
    rf"(?:^|[^A-Za-z])(?i:{_ANS}\s*(?:{_VERB}\s*)?[:：]|{_ANS}\s+{_VERB}"
    r"|I\s+think\s+it(?:'s|\s+is)|conclusion\s*[:：])"
)
SENT = r"(?:[^.。!?！？\n]|\.[^\s])"
COP = (
    r"(?:\s(?i:is|are|was|were)\s|(?:^|\s)(?i:it|that|this)(?:'s|’s)\s"
    r"|(?:^|[^但还于可若总只凡])是)"
)
STATEMENT = re.compile(rf"(?s)^.*(?:{_CN}|{_EN})\s*[:：]?\s*(?P<s>[^\n]*)")
BOXED = re.compile(r"(?s)^.*\\boxed\{(?P<s>(?:[^{}]|\{[^{}]*\})*)\}")
BOLD = re.compile(r"(?s)^.*\*\*\s*(?P<s>[^*\n]*[^*\n:：\s])\s*\*\*")
CONCLUSION = re.compile(
    r"(?s)^.*(?:(?:^|[^A-Za-z])(?i:so|therefore|thus|hence|overall|in\s+conclusion)[^A-Za-z]"
    r"|综上所述|综上|所以|因此|因而|故|总之|综合来看)"
    rf"[^.。!?！？\n]*?(?:{COP}|为)(?P<s>{SENT}*)"
)
COPULA = re.compile(rf"(?:^|[。!?！？\n]|\.\s)[^.。!?！？\n]*?{COP}(?P<s>{SENT}*)")
ANSWER_IS = re.compile(
    r"(?:^|[。!?！？\n]|\.\s)\s*(?P<s>[^.。!?！？\n]*?)\s*(?:\s(?i:is|would\s+be|should\s+be"
    r"|must\s+be|seems\s+to\s+be)\s+(?i:the\s+)?(?i:correct\s+|right\s+|final\s+|best\s+)?"
    r"(?i:answer)|(?:应该|应)?(?:是|为)(?:正确|最终|标准)?答案)"
)
FIRST_SENTENCE = re.compile(rf"^\s*(?P<s>{SENT}*)(?:[.。!！\n]|\Z)")
QUOTED_END = re.compile(r"(?s)^.*[“\"「『](?P<s>[^”\"」』\n]{1,40})[”\"」』][\s.。!！]*\Z")
LINE = re.compile(r"(?P<s>[^\n]*[^\s][^\n]*)\s*\Z")
LAST_SENTENCE = re.compile(
    r"(?s)^.*(?:^|[。!?！？]|\.\s)\s*(?P<s>[^。!?！？]*?[^。!?！？\s.][^。!?！？]*?)[.。!?！？\s]*\Z"
)
SUBJECT = re.compile(
    r"(?:^|[。!?！？\n]|\.\s)\s*(?P<s>[^.。!?！？\n]*?)(?:\s(?i:is|are|was|were)\s|是)"
)
TEXT_RULES: list[tuple[str, re.Pattern[str] | None]] = [
    ("boxed", BOXED),
    ("statement", STATEMENT),
    ("answer_is", ANSWER_IS),
    ("bold", BOLD),
    ("conclusion", CONCLUSION),
    ("final", None),
    ("copula", COPULA),
    ("quoted", QUOTED_END),
    ("line", LINE),
]
QUOTED_TITLE = (
    r'"[^"\n]{1,60}"|“[^”\n]{1,60}”|《[^》\n]{1,60}》|「[^」\n]{1,60}」|『[^』\n]{1,60}』'
)
CONCESSION = (
    r"(?i:many|some|most)\s+(?:(?i:people|sources|historians|fans|scholars)\s+)?"
    r"(?i:think|thinks|believe|believes|credit|credits|say|says|assume|claim|claims|attribute)"
    r"\s[^.;!?\n]*?(?:,\s*(?i:but)\s+|[.;]\s*(?i:however|but|actually|in\s+fact)[,\s]\s*)"
    r"|[^.;!?\n]*\s(?i:is|are|was|were)\s+(?i:often|commonly|frequently|sometimes|widely)\s+"
    r"(?i:mistaken|confused|thought|believed|assumed|credited)[^.;!?\n]*"
    r"|(?i:it\s+is|it's|it’s|it\s+was)\s+(?i:a)\s+(?:(?i:common|popular|widespread)\s+)?"
    r"(?i:misconception|myth|misbelief)\s+(?i:that)\s[^.;!?\n]*"
    r"|(?:常见|普遍)?的?(?:误解|误区)(?:是|认为)[^。；;！!？?\n]*"
    r"|(?:虽然|尽管|虽)[^。；;！!？?\n]*?[，,]\s*但(?:是)?"
    r"|(?:(?:很多|许多|不少|有些|一些|有)人|人们)(?:常|通常|往往|一般|都)?(?:误以为|认为|以为|觉得)"
    r"[^。；;！!？?\n]*?[，,。]\s*(?:但是|但|然而|其实|实际上)"
)
NEGATIONS: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(r"\*\*((?i:not|no|never|neither)|不是|并非|而非)\*\*"), r"\1"),
    (
        re.compile(
            r"(?:(?i:I'm\s+|I\s+am\s+)|我)?(?:(?i:not\s+(?:entirely\s+|completely\s+|100%\s+)?"
            r"(?:sure|certain)|unsure)|不太确定|不确定|不敢肯定|没有把握|不太清楚)"
            r"[^.!?。！？\n]{0,40}?(?:(?i:I\s+(?:think|believe|guess|would\s+say|'d\s+say)"
            r"(?:\s+(?:it(?:'s|\s+is|\s+was)|the\s+answer\s+is|that))?)"
            r"|我?(?:认为|觉得|猜)(?:应该)?(?:是)?|答案(?:应该|大概)?(?:是|为))\s*"
        ),
        "maybe ",
    ),
    (
        re.compile(
            r"(?P<pre>^\s*|[.!?。！？\n]\s*)(?:(?i:this|that|it)(?:'s|’s|\s+is|\s+was"
            r"|\s+sounds\s+like)\s+(?i:a|an|quite\s+a|such\s+a)\s+(?:[A-Za-z-]+\s+){0,3}?"
            r"(?i:question|one|topic|problem|misconception|puzzle|riddle|myth|subject"
            r"|long\s+time\s+ago)(?:\s+(?i:about|on|regarding|of|in|from|concerning)\s"
            r"[^.!?\n]{1,60})?\s*[.!?]|这(?:是|个|道)[^。！？!?\n，,]{0,12}?"
            r"(?:问题|题目|误解|话题|谜题|误区)[^。！？!?\n，,]{0,20}[。！？!?])"
        ),
        lambda m: m.group("pre") + GONE,
    ),
    (
        re.compile(
            r"(?m)^[ \t]*\|[^\n]*\|[ \t]*(?:(?i:no|not|false|incorrect|wrong)|✗|×|❌|否|不是"
            r"|错误|不符合?|不正确)[ \t]*\|[ \t]*$"
        ),
        GONE,
    ),
    (re.compile(CONCESSION), GONE + " "),
    (re.compile(r"((?i:not)\s[^,.;:!?\n]*?)\s+((?i:but))\s"), r"\1, \2 "),
    (re.compile(r"(?:并不是|不是|并非|而非|而不是)[^，,。；;！!？?\n—–]*"), GONE),
    (
        re.compile(
            r"(?:题目|问题|本题)(?:问的是|问|要求|是问|求的是|要求的是)[^，,;；。！？!?\n]*"
            r"|(?i:the\s+question\s+(?:asks|is\s+asking)|we\s+(?:need|have|are\s+asked)\s+to"
            r"\s+(?:find|determine|identify|name)|the\s+task\s+is\s+to)[^,;.!?\n]*"
            r"|(?:你|您)问的是[^，,;；。！？!?\n]*"
            r"|(?i:you\s+(?:asked|are\s+asking|'re\s+asking)|your\s+question\s+(?:is|asks))[^.!?\n]*"
            r"|(?i:if\s+(?:you|we)(?:'re|\s+are)?\s+(?:referring\s+to|mean|meant|talking\s+about"
            r"|asking\s+about))\s[^,;.!?\n]*|(?:如果|假如)(?:你|您)(?:指的是|说的是|问的是)[^，,;；。！？!?\n]*"
        ),
        GONE,
    ),
    (
        re.compile(
            rf"(?P<q>{QUOTED_TITLE})|"
            r"(?P<pre>^|[^A-Za-z])(?i:not|no|neither|rather\s+than|instead\s+of|other\s+than)\s+"
            r"[^,.;:!?\n()—–]*"
        ),
        lambda m: m.group("q") if m.group("q") is not None else m.group("pre") + GONE,
    ),
    (
        re.compile(
            rf"(?P<q>{QUOTED_TITLE}|\b[A-Z][a-z]*n't(?:\s+[A-Z][A-Za-z']*){{2,}})"
            r"|(?i:n't)\s+[^,.;:!?\n()—–]*"
        ),
        lambda m: m.group("q") if m.group("q") is not None else GONE,
    ),
]
CITATIONS = [
    (r"[ \t]*(?:\[\^?\d{1,2}\^?\]|\[doc\d{1,2}\]|【\d{1,2}】)+", ""),
    (r"([A-Za-z]{3,})\^\d{1,2}([\s.,;:!?。，；]|\Z)", r"\1\2"),
    (r"([a-z])number ?(\d+)([a-z])", r"\1 \2 \3"),
    (r"\b(on|in|by|at|to|from)([A-Z][a-z]{2,})", r"\1 \2"),
    (r"([A-Z][a-z]{2,8}\.? \d{1,2}, (?:1[0-9]|20)\d\d)\d{1,2}([.,;:!?。，；]|\s*\Z)", r"\1\2"),
    (r"\b([a-z]{2,})(\d{1,4})([a-z]{2,})\b", r"\1 \2 \3"),
    (r"([A-Za-z][a-z]{2,}|\d{4}s)\d{1,2}([.,;:!?。，；]|\s*\Z)", r"\1\2"),
    (r"([A-Z][a-z]+)(?: \d){2,}[ \t]*([.。]|\Z)", r"\1\2"),
]
TEX = re.compile(r"\\(?:text|textbf|mathrm|mbox)\{([^{}]*)\}")
MARKS = re.compile(r"[\$`]|\*\*|__")
PARENS = re.compile(r"(?P<pre>[^\s(（])\s*(?:\([^()]*\)|（[^（）]*）)")
OPENERS = re.compile(
    r"^[\s\(（\[【「\"“'‘]+|^(?i:most\s+likely|likely|probably|definitely|clearly|certainly"
    r"|indeed|simply|actually|obviously)\s+"
)
PARTICLES = re.compile(r"[吧呢啊呀嘛哦]+\Z")
SUBJECT_VERB = re.compile(
    r"^(?:[a-z]+ed|[a-z]+[^s]s|wrote|won|made|built|led|ran|took|became|began|gave|found|held"
    r"|drew|sang|told|said|came|went|got|had|did|does|has|leads|holds)(?:[^a-z]|\Z)"
)
TEXT_HEDGE = r"可能|也许|或许|大概|(?i:maybe|perhaps|possibly|might|could)"
TEXT_ALTERNATIVE = re.compile(
    r"[,，;；]\s*(?:(?:不过|但是?|可是|然而)\s*)?(?:也|还)?(?:有)?(?:可能|也许|或许)(?:是|为|属于)"
    r"|[,，;；]\s*(?:或者|或|也许|还可能)是"
    r"|(?i:[,;]\s*(?:but\s+|or\s+)?(?:it\s+|that\s+)?(?:might|could|may)\s+also\s+be\s"
    r"|[,;]\s*(?:but\s+|or\s+)?(?:also\s+)?(?:possibly|perhaps|maybe)\s)"
)
LEAD = re.compile(
    rf"^(?:\s*{GONE}\s*[;；,，:：.。—–]*\s*(?:(?i:but|rather|instead|it\s+is|it's)\s*[,，]?\s*"
    r"|而是|是)?)+"
)
CLAUSE = re.compile(
    r"^\s*(?P<s>.*?)\s*(?:[。；;！!？?\n，,\(（]|\.(?:\s|\Z)"
    r"|\s(?i:because|since|which|as|but|although|though|while|whereas)\s|因为|由于|\Z)"
)
ARTICLE = re.compile(r"^(?i:the|a|an)\s+")
NEGATED_LABEL = re.compile(r"(?:^|[^A-Za-z])(?i:not|no|neither)\s|(?i:n't)\s|不是|并非|而非|并不是")


# --------------------------------------------------------------------------- helpers
def prepare(s: str) -> str:
    s = unicodedata.normalize("NFC", s)
    return "".join(
        chr(ord(c) - 0xFEE0) if 0xFF01 <= ord(c) <= 0xFF5E else " " if c == "\u3000" else c
        for c in s
    )


def _junk(c: str, gone: bool) -> bool:
    return c in WHITE or unicodedata.category(c).startswith("P") or (gone and c == GONE)


def strip_ends(s: str, gone: bool = True) -> str:
    start, end = 0, len(s)
    while start < end and _junk(s[start], gone):
        start += 1
    while end > start and _junk(s[end - 1], gone):
        end -= 1
    return s[start:end]


def normalize_text(s: str, case_sensitive: bool) -> str:
    s = strip_ends(prepare(s), gone=False)
    return s if case_sensitive else s.lower()


def tidy(s: str | None, case_sensitive: bool = False) -> str | None:
    if s is None:
        return None
    s = strip_ends(PARTICLES.sub("", ARTICLE.sub("", strip_ends(s), count=1), count=1))
    s = s if case_sensitive else s.lower()
    return s or None


def strip_marks(s: str) -> str:
    return PARENS.sub(r"\g<pre>", MARKS.sub("", TEX.sub(r"\1", s)))


def cut(s: str | None, case_sensitive: bool = False) -> str | None:
    if s is None:
        return None
    s = OPENERS.sub("", LEAD.sub("", strip_marks(s), count=1), count=1)
    m = CLAUSE.match(s)
    return tidy(m.group("s") if m else None, case_sensitive)


def without_citations(s: str, ref: str) -> str:
    if re.search(r"[\[\]^【】]|[A-Za-z]\d", ref):
        return s
    for pattern, repl in CITATIONS:
        s = re.sub(pattern, repl, s)
    return s


def erase(s: str) -> str:
    for pattern, repl in NEGATIONS:
        s = pattern.sub(repl, s)
    return s


def final_line(source: str) -> str | None:
    """The last sentence of the last line, when the text has several lines and that line is
    short, or the text opens with an erased restatement and that sentence is short; not a
    line holding a copula, a question mark or a colon."""
    body = source.rstrip("".join(WHITE))
    line = body.split("\n")[-1]
    m = LAST_SENTENCE.match(line)
    last = m.group("s") if m else ""
    multi = "\n" in body and len(line) <= 30
    restated = re.match(rf"\s*{GONE}", source) is not None and len(last) <= 30
    if not (multi or restated) or re.search(rf"{COP}|[?？:：]", line if multi else last):
        return None
    return last or None


def raw_span(name: str, pattern: re.Pattern[str] | None, src: str) -> str | None:
    source = src if name == "bold" else re.sub(r"\*\*|__", "", src)
    if name == "final":
        return final_line(source)
    assert pattern is not None
    if name == "line":
        # The last non-empty line: the text without trailing white space, after its last \n.
        found = source.rstrip("".join(WHITE)).split("\n")[-1]
        if len(found) > 60:
            return None
        last = LAST_SENTENCE.match(found)
        return last.group("s") if last else None
    if name == "answer_is" and not re.search(r"(?i)answer|答案", source):
        return None
    m = pattern.match(source) if pattern.pattern.startswith(("(?s)^", "^")) else None
    if m is None and not pattern.pattern.startswith(("(?s)^", "^")):
        m = pattern.search(source)
    if m is None:
        return None
    found = m.group("s")
    if name == "line":
        if len(found) > 60:
            return None
        last = LAST_SENTENCE.match(found)
        return last.group("s") if last else None
    return found


# --------------------------------------------------------------------------- text
def stated_text(erased: str, cs: bool) -> dict[str, Any]:
    """span, rule, full (uncut span), subject (copula), lead (first sentence), hedge."""
    out: dict[str, Any] = dict.fromkeys(("span", "rule", "full", "subject", "lead"))
    plain = re.sub(r"\*\*|__", "", erased)
    for name, pattern in TEXT_RULES:
        raw = raw_span(name, pattern, erased)
        value = cut(raw, cs)
        if value is not None and raw is not None:
            out["span"], out["rule"], out["raw"] = value, name, raw
            out["full"] = tidy(LEAD.sub("", strip_marks(raw), count=1), cs)
            masked = re.sub(QUOTED_TITLE, "“…”", raw)
            out["full_masked"] = tidy(LEAD.sub("", strip_marks(masked), count=1), cs)
            break
    masked_subject = None
    if out["rule"] == "copula":
        m = SUBJECT.search(plain)
        out["subject"] = cut(m.group("s") if m else None, cs)
        masked_subject = cut(re.sub(QUOTED_TITLE, "“…”", m.group("s")) if m else None, cs)
        # The clause right before the copula hedges too.
        if m:
            before = re.sub(r"(?s)^.*[,，;；]", "", re.sub(QUOTED_TITLE, "“…”", m.group("s")))
            masked_subject = (masked_subject or "") + " " + before
    if out["rule"] in ("copula", "quoted", "line"):
        m = FIRST_SENTENCE.match(plain)
        out["lead"] = cut(m.group("s") if m else None, cs)
    guess = out["rule"] == "copula" and masked_subject is not None
    said = out.get("full_masked")
    out["hedge"] = bool(
        (guess and re.search(TEXT_HEDGE, masked_subject or ""))
        or (said is not None and re.match(f"(?:{TEXT_HEDGE})", said))
        or (said is not None and TEXT_ALTERNATIVE.search(said))
    )
    return out


def labels_of(choices: list[Any] | None, case_sensitive: bool) -> list[str]:
    out = []
    for c in choices or []:
        raw = c.get("content") if c.get("content") is not None else c.get("id")
        if raw is None:
            continue
        label = tidy(prepare(raw), case_sensitive)
        if label is not None and label not in out:
            out.append(label)
    return out


def _alnum(c: str) -> bool:
    return c.isascii() and (c.islower() or c.isdigit())


def _stated_in(text: str, label: str) -> bool:
    """``label`` occurs in ``text`` and, where the label begins or ends with a Latin letter or
    digit, no Latin letter or digit is right before or after it."""
    start = text.find(label)
    while start >= 0:
        end = start + len(label)
        before_ok = not _alnum(label[0]) or start == 0 or not _alnum(text[start - 1])
        after_ok = not _alnum(label[-1]) or end == len(text) or not _alnum(text[end])
        if before_ok and after_ok:
            return True
        start = text.find(label, start + 1)
    return False


def label_count(text: str, labels: list[str]) -> tuple[str | None, int]:
    hits = [lab for lab in labels if _stated_in(text, lab)]
    kept = [h for h in hits if not any(len(o) > len(h) and h in o for o in hits)]
    distinct = list(dict.fromkeys(kept))
    return (distinct[0] if len(distinct) == 1 else None), len(distinct)


def stated_label(erased: str, labels: list[str], cs: bool) -> tuple[str | None, str | None]:
    source = erased if cs else erased.lower()
    raws = [(n, raw_span(n, p, source)) for n, p in TEXT_RULES] + [("whole", source)]
    for name, raw in raws:
        if raw is None:
            continue
        short = cut(raw, cs)
        label, count = label_count(short, labels) if short is not None else (None, 0)
        if count == 0:
            plain = strip_marks(raw)
            label, count = label_count(plain if cs else plain.lower(), labels)
        if count == 1:
            return label, name
        if count > 1:
            return None, "hedge"
    return None, None


def label_variant(span: str, label: str) -> bool:
    """``span`` is a Chinese label of 4+ characters with one character inserted inside it, or
    with its two halves swapped."""
    if len(label) < 4 or not re.fullmatch(r"[\u4e00-\u9fff]+", label):
        return False
    inserted = len(span) == len(label) + 1 and any(
        span[:k] + span[k + 1 :] == label for k in range(1, len(span) - 1)
    )
    half = len(label) // 2
    swapped = len(label) % 2 == 0 and span == label[half:] + label[:half]
    return inserted or swapped


def text_row(
    pred: str,
    ref: str,
    choices: list[Any] | None = None,
    *,
    exact_match: bool = True,
    case_sensitive: bool = False,
    allow_partial: bool = False,
    extract_text: bool = True,
) -> tuple[float, str | None, str]:
    """(score, extracted, rule) of one text row."""
    cs = case_sensitive
    src, tref = prepare(pred), normalize_text(ref, cs)
    whole = normalize_text(src, cs)
    if not extract_text:
        if not whole or not tref:
            return 0.0, whole, "empty"
        if exact_match and whole == tref:
            return 1.0, whole, "exact"
        if allow_partial and (tref in whole or whole in tref):
            return 1.0, whole, "partial"
        return 0.0, whole, "none"
    erased = erase(without_citations(src, prepare(ref)))
    labels = labels_of(choices, cs)
    said = stated_text(erased, cs)
    if tref in labels:
        label, rule = stated_label(erased, labels, cs)
        negated = [lab for lab in labels if NEGATED_LABEL.search(lab)]
        found, count = label_count(src if cs else src.lower(), negated)
        if found is not None and count == 1 and (label is None or label in found):
            label, rule = found, "negation"
        if label is None and said["full"] is not None and len(said["full"]) <= 16:
            tail = re.sub(r"^.*[:：]\s*", "", said["full"])
            fits = [
                lab
                for lab in labels
                if label_variant(said["full"], lab) or label_variant(tail, lab)
            ]
            if len(fits) == 1:
                label, rule = fits[0], "variant"
        if said["hedge"]:
            label, rule = None, "hedge"
        shown = "hedge" if rule == "hedge" else "none" if rule is None else f"label:{rule}"
        return (1.0 if label == tref else 0.0), label, shown
    ew = tidy(erased, cs) or ""
    value, rule = said["span"], said["rule"]
    shown_value = value if value is not None else whole
    if not whole or not tref:
        return 0.0, shown_value, "empty"
    if exact_match and whole == tref:
        return 1.0, whole, "exact"
    if said["hedge"]:
        return 0.0, shown_value, "hedge"
    lead = said["lead"] if rule in ("copula", "quoted", "line") else None
    opens = None
    if lead is not None and lead.startswith(tref + " "):
        opens = tref if SUBJECT_VERB.match(lead[len(tref) + 1 :]) else None
    for candidate in (value, said["full"], said["subject"], lead, opens):
        if exact_match and candidate is not None and candidate == tref:
            return 1.0, candidate, str(rule)
    plain = re.sub(r"\*\*|__", "", erased)
    clause = core.answer_clause(plain, rule, said.get("raw"), strip_marks)
    subject = core.answer_subject(plain, rule, said.get("raw"))
    if exact_match and (
        core.core_match(clause, prepare(ref), cs) or core.subject_match(subject, prepare(ref), cs)
    ):
        return 1.0, shown_value, f"core:{rule or 'sentence'}"
    if allow_partial and value is not None and (tref in value or value in tref):
        return 1.0, value, f"{rule}:partial"
    if allow_partial and ew and (tref in ew or ew in tref):
        return 1.0, shown_value, "partial"
    # A wrong answer names the rule that read it (``none``: nothing was read).
    return 0.0, shown_value, str(rule) if rule is not None else "none"
