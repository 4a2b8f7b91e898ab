"""Per-row Python oracle of the accuracy evaluator (no package imports).

The same rules as ``xpert_frames.evaluators.choice_patterns``, written out again for Python's
``re`` (``\\Z`` for the end of text, ``\\g<name>`` in replacements), applied one row at a time
with plain loops, sets and ``str`` methods. Also the per-row baseline of the benchmark.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from tests.oracles import accuracy_judge, accuracy_text

GONE = "✗"
OPEN = r"[\(\[【「\"“'‘\*`]*"
CLOSE = r"[\)\]】」\"”'’\*`]*"
SEP = r"(?:\s*[,、/&和及与]\s*|\s*,?\s+and\s+)"
UP = rf"[A-Z](?:{SEP}?[A-Z])*"
#: Options of an answer statement, each possibly in brackets: ``(B) and (D)``, ``(A), (C)``.
UP_LISTED = rf"[A-Z](?:[\)\]]?{SEP}[\(\[]?[A-Z]|{SEP}?[A-Z])*"
UP_END = r"(?:[^A-Za-z]|\Z)"
LOW_END = r"(?:\s*\Z|[^A-Za-z0-9\s\-+*/=^_<>·×÷]|\s+[^A-Za-z0-9\s\-+*/=^_<>·×÷])"
CN_KW = (
    r"(?:(?:最终|正确|标准|参考|最佳)?答案(?:应该|应当|应|就|即|也|肯定|一定)?(?:是|为|选)?"
    r"|答\s*[:：]"
    r"|正确的?(?:选项|答案)(?:应该|应|就)?(?:是|为|有)?"
    r"|(?:故|应|应该|应当|所以|因此|因而|本题|只能|我|我会|可以|则|都)?选(?:择|定|项为|项是)?"
    r"|(?:所以|因此|故|即|则|而|我?认为|我?觉得|应该|应当)(?:是|为)"
    r"|结论(?:是|为)?|(?:^|[,，;；。])\s*是"
    # 排除后只剩（C） / 对应选项D / 对应的是C选项 / 判定：A
    r"|(?:只剩下?|仅剩下?|剩下)(?:的是|的就是)?|对应(?:的)?(?:是|为)?|(?:判定|裁定)\s*[:：])"
)
EN_KW = (
    r"(?i:(?:the\s+|my\s+|our\s+)?(?:final\s+|correct\s+|right\s+|best\s+)?answers?"
    r"(?:\s*,[^,.;:\n]{1,60}?,)?"
    r"(?:\s+(?:is|are|would\s+be|should\s+be|will\s+be|must\s+be))?"
    r"(?:\s+(?:probably|likely|clearly|definitely))?"
    r"(?:\s*,?\s+(?:by|through|via|using|after|from|based\s+on|according\s+to)\s[^,.;:\n]{1,60}?,)?"
    r"|(?:my|our)\s+(?:final\s+)?(?:choice|selection|pick)(?:\s+(?:is|would\s+be|will\s+be))?"
    r"|conclusion"
    r"|I(?:\s+would|\s+will|'d|'ll|'m|\s+am)?\s+(?:choose|select|pick|go\s+with|going\s+with)"
    r"|(?:^|[^A-Za-z])(?:we|I)(?:\s+are|'re|\s+am|'m)?\s+(?:left|stuck)\s+with"
    # a heading verdict: "Verdict: (C).", "Decision: D", "Pick: B"
    r"|(?:^|[^A-Za-z])(?:final\s+)?(?:verdict|decision|pick|choice|selection)\s*[:：]"
    r"|(?:^|[^A-Za-z])it(?:'s|\s+is|\s+must\s+be|\s+should\s+be|\s+would\s+be)"
    r"|(?:the\s+)?(?:correct|right|best)\s+(?:option|choice|one)(?:\s+is)?"
    # the option a which-is-false / which-is-NOT question asks for: "the statement that is
    # false is C", "the one which does not fit is B"
    r"|the\s+(?:one|option|choice|statement)\s+(?:that|which)\s[^,.;:\n]{1,50}?\s+is)"
)
FILL = rf"\s*[】\]]?\s*(?:是|为)?\s*[:：]?\s*(?:(?i:option|choice)\s*|选项\s*)?{OPEN}\s*"

RULES: list[tuple[str, re.Pattern[str]]] = [
    (
        "boxed",
        re.compile(
            r"\\boxed\{\s*(?:\\text(?:bf)?\{)?\s*[\(\[]?\s*"
            rf"(?:(?P<u>{UP})|(?P<l>[a-z]))\s*[\)\]]?\s*\}}"
        ),
    ),
    (
        "statement",
        re.compile(
            rf"(?:{CN_KW}|{EN_KW}){FILL}(?:(?P<u>{UP_LISTED}){UP_END}|(?P<l>[a-z]){LOW_END})"
        ),
    ),
    ("bracket", re.compile(rf"【\s*(?P<u>{UP})\s*】")),
    ("bold", re.compile(rf"\*\*\s*[\(\[]?\s*(?P<u>{UP})\s*[\)\]]?\s*[\.:：]?\s*\*\*")),
    (
        "conclusion",
        re.compile(
            rf"(?:^|[^A-Za-z])(?P<c1>{UP}){CLOSE}\s*(?:选项|项)?\s*"
            r"(?:的说法|说法|的描述|描述|的内容)?"
            r"\s*(?:是|为|最|才是)?\s*(?:正确|对|符合题意|符合|最佳|最合适|最恰当|当选|答案)"
            rf"|(?:只有|仅有|唯有|只能是|应是|应为|当选)\s*(?:选项)?\s*{OPEN}(?P<c2>{UP}){UP_END}"
            rf"|(?:^|[^A-Za-z])(?i:option\s+|choice\s+)?{OPEN}(?P<c3>{UP}){CLOSE}"
            r"\s+(?i:is|are|seems|appears|would\s+be|must\s+be)\s+(?i:the\s+)?"
            r"(?i:correct|right|true|best|most\s+appropriate|answer)"
            r"|(?:^|[^A-Za-z])(?i:therefore|thus|hence|so|consequently)\s*,?\s*"
            rf"(?i:option\s+|choice\s+)?{OPEN}(?P<c4>{UP}){CLOSE}{UP_END}"
            rf"|(?:综上所述|综上|因此|所以|故|因而)\s*[,，:：]?\s*(?:选项)?\s*{OPEN}(?P<c5>{UP})"
            rf"{CLOSE}{UP_END}"
        ),
    ),
    (
        "bare",
        re.compile(
            rf"^\s*(?:选项|(?i:option)\s*)?{OPEN}\s*(?:(?P<u>{UP})|(?P<l>[a-z]))\s*{CLOSE}"
            r"\s*[\.。:：]?\s*\Z"
        ),
    ),
    (
        "leading",
        re.compile(
            rf"^\s*(?:选项|(?i:option)\s*)?{OPEN}\s*(?P<u>[A-Z]){CLOSE}"
            r"(?:[^A-Za-z\s,、]|[,、]\s*(?:[^A-Za-z\s]|[A-Z][a-z]|[a-z])|\s*\Z|\s+[^a-z\s])"
        ),
    ),
]
LABEL = re.compile(r"(?:^|[^A-Za-z])[A-Z][\.\)、:：]")
# Which is wrong: the others declared correct together, then one concluded wrong (read before
# the negations are erased), between "bold" and "conclusion".
DECLARED_WRONG = re.compile(
    r"[A-Z](?:\s*[,、和及与]\s*[A-Z])+\s*(?:选项|项)?\s*(?:的描述|的说法|说法|描述|的内容)?"
    r"\s*(?:都|均|全都|全)\s*(?:是|为)?[^。，,；;\n]{0,12}?(?:正确|对)"
    rf"(?s:.*)(?:综上所述|综上|所以|因此|故|因而)\s*[,，:：]?\s*(?:选项\s*)?{OPEN}(?P<u>[A-Z]){CLOSE}"
    r"\s*(?:选项|项)?\s*(?:的描述|的说法|说法|描述|的内容)?\s*(?:是|为)?\s*(?:错误|不正确|除外)"
)
RULES.insert(4, ("declared-wrong", DECLARED_WRONG))
# One option marked correct in a list of verdicts or a table (only when exactly one is).
VERDICTS = re.compile(
    r"(?m:^)[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?i:option[ \t]+)?[\(\[]?(?P<u>[A-Z])"
    r"[\)\]]?(?:\*\*)?[ \t]*[.):：\-–—]?[ \t]*(?:\*\*)?[ \t]*(?i:correct|true|right)(?:\*\*)?"
    r"[ \t]*(?:[.!。:：,，\-–—(（]|\n|\Z)"
    r"|\|[ \t]*[\(\[]?(?P<t>[A-Z])[\)\]]?[ \t]*\|(?:[^\n|]*\|)*?[ \t]*"
    r"(?:(?i:yes|correct|true)|[✓✔✅√])[ \t]*\|"
)
RULES.insert(3, ("verdicts", VERDICTS))
# Two options with words between them, written as a plain pair (before the negations).
JOINS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"(?P<a>[A-Z])\s*(?:选项|项)\s*(?P<c>和|与|及|、|或者|或|还是)\s*(?:选项\s*)?"
            r"(?P<b>[A-Z])(?:\s*(?:选项|项))?"
        ),
        r"\g<a>\g<c>\g<b>",
    ),
    (
        re.compile(
            r"(?P<pre>^|[^A-Za-z])(?P<a>[A-Z])\s*\([^()\n]{1,60}\)\s*,?\s+(?P<c>(?i:or|and))\s+"
            r"(?P<b>\(?[A-Z]\)?)(?P<post>[^A-Za-z]|\Z)"
        ),
        r"\g<pre>\g<a> \g<c> \g<b>\g<post>",
    ),
]

_NEG_UP_CN = r"[A-Z](?:\s*[、和与及/]\s*[A-Z])*"
_NEG_WORD_CN = (
    r"(?:错误|不正确|不对|错的|错|不符合|不符|不成立|不恰当|不合适|不是正确答案|不是答案"
    r"|可以排除|应排除|排除|被排除)"
)
_NEG_UP_EN = rf"[A-Z]{CLOSE}(?:\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|/)\s*{OPEN}[A-Z]{CLOSE})*"
NEGATIONS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"(?:不选|不是|不应选|不能选|不应该选|排除|而非|并非|不为|不应是)\s*(?:选项)?\s*"
            rf"{OPEN}{_NEG_UP_CN}{CLOSE}"
        ),
        GONE,
    ),
    (
        re.compile(
            rf"(?P<pre>^|[^A-Za-z]){OPEN}(?:{_NEG_UP_CN}{CLOSE}\s*(?:选项|项)?\s*"
            r"(?:的说法|说法|的描述|描述|的内容|内容)?\s*(?:都|均|全都|全部|全|也|明显|显然)?"
            rf"|[A-Z](?:\s*[,，、]\s*[A-Z])+{CLOSE}\s*(?:选项|项)?\s*(?:都|均|全都|全部|全))"
            rf"\s*(?:是|为)?\s*{_NEG_WORD_CN}"
        ),
        r"\g<pre>" + GONE,
    ),
    (
        re.compile(
            r"(?:(?P<pre>^|[^A-Za-z])(?i:not|rather\s+than|instead\s+of|rules?\s+out"
            r"|ruled\s+out|eliminate[sd]?|exclude[sd]?|excluding|reject(?:ed|s)?|discard(?:ed|s)?"
            r"|dismissed|not\s+(?:chosen|selected|picked))(?:\s+(?i:options?|choices?))?|n't)"
            rf"(?:\s*[:：]\s*|\s+)(?i:options?\s+|choices?\s+)?{OPEN}{_NEG_UP_EN}{CLOSE}"
            r"(?P<post>[^A-Za-z]|\Z)"
        ),
        r"\g<pre>" + GONE + r"\g<post>",
    ),
    (
        re.compile(
            r"(?P<pre>^|[^A-Za-z])(?i:options?\s+|choices?\s+)?"
            rf"{OPEN}(?:[A-Z]{CLOSE}\s+(?i:is)|{_NEG_UP_EN}{CLOSE}\s+(?i:are))\s+"
            r"(?i:also\s+|clearly\s+|definitely\s+|obviously\s+)?"
            r"(?i:incorrect|wrong|false|not\s+correct|not\s+right|not\s+true"
            r"|not\s+the\s+(?:correct\s+)?answer|eliminated|ruled\s+out|a\s+distractor)"
        ),
        r"\g<pre>" + GONE,
    ),
    (
        re.compile(
            r"[\[<\{]\s*(?i:(?:the\s+|your\s+|correct\s+)*(?:letters?|answer|choice|option|x)"
            r"(?:\s*\(s\))?)\s*[\]>\}]|\$(?i:letter|answer|choice)"
        ),
        GONE,
    ),
    (
        re.compile(
            r"(?P<pre>^|[^A-Za-z])[\(\[]?[A-Z][\.\)\]、:：]"
            r"(?:(?:[^\n.!?。！？]|\.\S){0,40}?[.。;；,，]?[ \t][\(\[]?[A-Z][\.\)\]、:：]){2,}"
        ),
        r"\g<pre>" + GONE,
    ),
    (
        re.compile(
            rf"(?P<pre>^|[^A-Za-z]){OPEN}[A-Z]{CLOSE}(?:\s+(?i:or)\s+|\s*(?:或者|或|还是)\s*)"
            rf"{OPEN}[A-Z]{CLOSE}(?P<post>[^A-Za-z]|\Z)"
        ),
        r"\g<pre>" + GONE + r"\g<post>",
    ),
]

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Unicode White_Space (what Rust's \s means); Python's str.isspace() also takes \x1c-\x1f.
WHITE = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)
}


def full_to_half(s: str) -> str:
    return "".join(
        chr(ord(c) - 0xFEE0) if 0xFF01 <= ord(c) <= 0xFF5E else " " if c == "\u3000" else c
        for c in s
    )


def letter_set(s: str | None) -> str | None:
    if s is None:
        return None
    letters = sorted({c for c in s.upper() if c in ALPHABET})
    return "".join(letters) or None


def last_match(pattern: re.Pattern[str], s: str) -> re.Match[str] | None:
    """The last of the non-overlapping matches, its groups read by matching the pattern again
    on the matched text alone."""
    found = list(pattern.finditer(s))
    return pattern.match(found[-1].group(0)) if found else None


def rewrite_negations(s: str) -> str:
    for pattern, repl in [*JOINS, *NEGATIONS]:
        s = pattern.sub(repl, s)
    return s


def content_letter(pred: str, choices: list[dict[str, Any]] | None) -> str | None:
    if not choices:
        return None
    low = full_to_half(pred).lower()
    hits = []
    for c in choices:
        cid = (c.get("id") or "").strip("".join(WHITE)).upper()
        content = full_to_half(c.get("content") or "").strip("".join(WHITE)).lower()
        if len(cid) == 1 and cid in ALPHABET and content and content in low:
            hits.append(cid)
    return hits[0] if len(hits) == 1 else None


_SENTENCE = r"(?:[^。！？!?\n.]|\.\S)"
_CONCLUDING = re.compile(
    rf"{_SENTENCE}*(?:综上所述|综上|所以|因此|故|因而|答案|最符合|最佳|除外"
    rf"|(?i:\b(?:so|therefore|thus|hence|consequently|answer|best)\b)){_SENTENCE}*"
)
_STATING = re.compile(rf"{_SENTENCE}*(?:是|为|(?i:\b(?:is|are|was|were)\b)){_SENTENCE}*")
_REJECTED = re.compile(
    r"[^，,；;：:]*(?:不符|不是|并不|都不|并非|而非|排除|不能|不明显|不会|其他选项|其余选项"
    r"|(?i:\bnot\b|n't|rather\s+than|instead\s+of|\bexcept\b|other\s+options?))[^，,；;：:]*"
)


def sentence_content(
    pred: str, choices: list[dict[str, Any]] | None, which: str
) -> tuple[str | None, bool]:
    """The option every part of whose content the conclusion (last concluding sentence) or
    the statement (first sentence with a copula) names, rejected clauses erased; and whether
    several options are named."""
    if not choices:
        return None, False
    low = full_to_half(pred).lower()
    found = (_CONCLUDING if which == "conclusion" else _STATING).findall(low)
    if not found:
        return None, False
    sentence = _REJECTED.sub(GONE, found[-1] if which == "conclusion" else found[0])
    hits = []
    for c in choices:
        cid = (c.get("id") or "").strip("".join(WHITE)).upper()
        content = full_to_half(c.get("content") or "").strip("".join(WHITE)).lower()
        parts = [p.strip("".join(WHITE)) for p in re.findall(r"[^、，,和及与/]+", content)]
        parts = [p for p in parts if p]
        if len(cid) == 1 and cid in ALPHABET and parts and all(p in sentence for p in parts):
            hits.append(cid)
    return (hits[0] if len(hits) == 1 else None), len(hits) > 1


def extract_choice(
    pred: str,
    options: str = "ABCD",
    choices: list[dict[str, Any]] | None = None,
) -> tuple[str | None, str]:
    raw = full_to_half(pred)
    source = rewrite_negations(raw)
    for name, pattern in RULES:
        anchored = name in ("bare", "leading")
        text = raw if name == "declared-wrong" else source
        m = pattern.match(text) if anchored else last_match(pattern, text)
        if m is None:
            continue
        if name == "verdicts" and len(list(pattern.finditer(text))) != 1:
            continue
        named = [(k, v) for k, v in m.groupdict().items() if v is not None]
        if not named:
            continue
        group, raw = named[0]
        raw = raw.upper() if group == "l" else raw
        if name == "leading" and len(LABEL.findall(source)) > 1:
            continue
        letters = "".join(c for c in raw if c in ALPHABET)
        if letters and all(c in options for c in letters):
            return letter_set(letters), name
    concluded, several = sentence_content(pred, choices, "conclusion")
    if concluded is not None and concluded in options:
        return concluded, "content:conclusion"
    if several:
        return None, "none"
    stated, _ = sentence_content(pred, choices, "statement")
    if stated is not None and stated in options:
        return stated, "content:statement"
    letter = content_letter(pred, choices)
    if letter is not None and letter in options:
        return letter, "content"
    return None, "none"


def reference_letters(ref: str) -> str | None:
    s = full_to_half(ref).strip("".join(WHITE))
    s = "".join(c for c in s if c not in WHITE and c not in ",，、/&和及与()[]【】.。:：")
    if re.fullmatch(r"[A-Z]+|[a-z]", s):
        return letter_set(s)
    return None


def option_letters(choices: list[dict[str, Any]] | None, ref: str | None) -> str:
    ids = [c.get("id") for c in choices or []]
    upper = [i.strip("".join(WHITE)).upper() for i in ids if i is not None]
    joined = "".join(upper)
    if ids and re.fullmatch("[A-Z]+", joined) and len(joined) == len(ids):
        return "".join(sorted(set(joined)))
    top = ALPHABET.index(ref[-1]) + 1 if ref else 4
    return ALPHABET[: max(4, top)]


def normalize_text(s: str, case_sensitive: bool) -> str:
    s = full_to_half(s)
    junk = [c in WHITE or unicodedata.category(c).startswith("P") for c in s]
    start = next((i for i, j in enumerate(junk) if not j), len(s))
    end = next((i for i in range(len(s), 0, -1) if not junk[i - 1]), 0)
    s = s[start:end] if start < end else ""
    return s if case_sensitive else s.lower()


NUM = r"[-+−]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
CANDIDATE_NUM = re.compile(rf"{NUM}(?:\s*/\s*{NUM})?")
WHOLE_NUM = re.compile(rf"\s*(?P<num>{NUM})(?:\s*/\s*(?P<den>{NUM}))?\s*\Z")


def _value(m: re.Match[str] | None) -> float | None:
    if m is None:
        return None

    def num(g: str | None) -> float | None:
        if g is None:
            return None
        try:
            return float(g.replace(",", "").replace("−", "-"))
        except ValueError:  # pragma: no cover - the pattern only matches numbers
            return None

    n, d = num(m.group("num")), num(m.group("den"))
    if d is None:
        return n
    return None if d == 0 or n is None else n / d


SENTINELS = (
    "<eoa>",
    "<eoe>",
    "</s>",
    "<s>",
    "<|im_end|>",
    "<|endoftext|>",
    "<|eot_id|>",
    "<|end|>",
)
_TAG_WORDS = (
    r"(?:最终答案|正确答案|答案|类别|罪名|金额|判断|结果|刑期|选项|回答"
    r"|(?i:answer|final answer|category|label))"
)
_TAG = rf"(?:\[\s*{_TAG_WORDS}\s*\]|【\s*{_TAG_WORDS}\s*】)"
_SENT = "|".join(re.escape(t) for t in SENTINELS)
_TURN = (
    r"(?:(?:Q|Question|问题|题目|咨询|Text|Passage)\s*[:：]|#{2,3}\s*(?:Human|User|Instruction)\b"
    r"|\[\|Human\|\]|<\|im_start\|>\s*user|<\|start_header_id\|>\s*user|(?:Human|User)\s*[:：])"
)


def clean_prediction(pred: str) -> str:
    """Cut at the first invented further turn after some content; format examples, sentinels
    and bracket tags rewritten (``[类别]X<eoa>`` -> ``答案：X``)."""
    committed_marks = (
        r"答案|答[:：]|类别|罪名|金额|所以|因此|综上|】|\]|<eoa>|<eoe>|</s>|<\|im_end\|>|<\|eot_id\|>"
        r"|(?i:\banswer|\btherefore\b|\bso\b|\bthus\b)|(?i:\b(?:category|topic|label)\s*:)"
    )
    # A short first line, then an invented question and a short answer to it.
    question = (
        r"\s*([^\n:：?？]{1,60}?)\s*\n[ \t>*#]*[^\n]{2,200}?[?？][ \t]*\n"
        r"\s*[^\s][^\n]{0,60}(?:\n|\Z)"
    )
    m = (
        re.match(rf"\s*([^\n:：]{{1,200}}?)\s*\n[ \t>*#]*{_TURN}", pred)
        or re.match(question, pred)
        or re.match(rf"(?s)(.*?(?:{committed_marks}).*?)\n[ \t>*#]*{_TURN}", pred)
    )
    if m:
        pred = m.group(1).rstrip()
    if re.search(r"[<\[【]", pred):
        pred = strip_markup(pred)
    return erase_examples(pred)


_EXAMPLE_WORD = r"(?:例如|比如|譬如|示例|格式如|(?i:e\.g\.|for example|for instance))"


def erase_examples(pred: str) -> str:
    if not re.search(_EXAMPLE_WORD, pred):
        return pred
    statement = (
        rf"{_EXAMPLE_WORD}\s*[,，:：]?\s*[\"“'‘]?\s*"
        r"(?:答案\s*[是为:：]|(?i:(?:the\s+)?(?:final\s+)?answer\s*(?:is\b|:)))"
        r"(?:[^\n。<\"”’.]|\.\S){0,40}[\"”’]?"
    )
    return re.sub(statement, " ", pred)


def strip_markup(pred: str) -> str:
    example = (
        r"(?:例如|比如|譬如|示例|格式如|(?i:e\.g\.|for example|for instance))\s*[,，:：]?\s*"
        rf"[\"“'‘]?\s*{_TAG}[^\n。<]*(?:{_SENT})?"
    )
    pred = re.sub(example, " ", pred)
    pred = re.sub(rf"{_TAG}\s*(?:和|与|及|(?i:and))\s*(?:{_SENT})", " ", pred)
    pred = re.sub(_SENT, "\n", pred)
    # a colon written after the tag is the tag's (``【答案】: D``)
    return re.sub(rf"{_TAG}[ \t]*[:：]?", "答案：", pred).rstrip()


_CONCESSION = re.compile(
    r"[^。！？!?\n(（)）]*(?:都|像|似乎|看起来|看似|可能|也许|虽然|尽管|表面上|有人|有些|起初|一开始"
    r"|(?i:\b(?:some|both|could|might|seems?|looks?|although|though|plausible|at first"
    r"|initially)\b))[^。！？!?\n(（)）]*?(?P<but>(?:[,，;；]\s*(?:但是|但|不过|然而|可是)"
    r"|(?i:,?\s*\b(?:but|however)\b)))(?P<after>[^。！？!?\n]*(?:是|为|属于|实质|实际|应"
    r"|(?i:\b(?:is|are|was|were|should|belongs)\b)))"
)


def committed(pred: str) -> str:
    """Conceded parts before a committed "but" erased (text and label rows)."""
    if not re.search(r"但是|但|不过|然而|可是|(?i:\b(?:but|however)\b)", pred):
        return pred
    return _CONCESSION.sub(lambda m: GONE + m.group("but") + m.group("after"), pred)


def _breaks(c: str) -> bool:
    return c in WHITE or unicodedata.category(c).startswith("P")


def fold(s: str) -> str:
    out, gap = [], False
    for c in full_to_half(s).lower():
        if _breaks(c):
            gap = True
            continue
        if gap and out:
            out.append(" ")
        gap = False
        out.append(c)
    return " " + "".join(out) + " "


def several_clauses(ref: str) -> bool:
    inner = ref.strip("".join(WHITE))
    start = next((i for i, c in enumerate(inner) if not _breaks(c)), len(inner))
    end = next((i for i in range(len(inner), 0, -1) if not _breaks(inner[i - 1])), 0)
    inner = inner[start:end] if start < end else ""
    han = "[\u3400-\u4dbf\u4e00-\u9fff]"
    return bool(
        re.search(r"\w\w\s*[,;:，；。！？!?、]+\s*\w\w", inner)
        or re.search(rf"{han}{{2}}\s+{han}{{2}}", inner)
    )


def clauses_match(pred: str, ref: str) -> bool:
    if not several_clauses(ref):
        return False
    if re.search("[A-Za-z0-9]", ref):
        return fold(ref) in fold(pred)
    return fold(ref).strip(" ") in fold(pred)


def undecided(pred: str) -> bool:
    branch = r"如果|若|假如|要是|(?i:\b(?:if\s+you\s+mean|if\s+it\s+is|if\s+we|if)\b)"
    if not re.search(branch, pred):
        return False
    last = re.match(r"(?s)^(?:.*(?:[。；;！!？?\n]|\.\s))?(.*)$", pred.rstrip(" \t\n\r.。"))
    words = (
        r"取决于|要看|视情况|因人而异|看情况|不一定"
        r"|(?i:\b(?:it\s+depends|depends\s+on|depending\s+on)\b)"
    )
    return bool(last and re.search(words, last.group(1)))


def settled(
    pred: str, ref: str, score: float, extracted: str | None, rule: str
) -> tuple[float, str | None, str]:
    """A several-clause reference stated clause by clause scores 1 (``clauses``); branches
    closed by an undecided conclusion score 0 (``hedge``)."""
    if score < 1 and clauses_match(pred, ref):
        score, rule = 1.0, "clauses"
    if score > 0 and undecided(pred):
        score, rule = 0.0, "hedge"
    if ref.strip() and not any(c.isalnum() for c in ref):
        # A reference of symbols only (``} ) }``): the last answer statement's line must
        # state the same symbols (whitespace collapsed, a closing full stop dropped).
        said = accuracy_text.STATEMENT.match(pred)
        line = re.sub(r"\s*[.。]\s*$", "", said.group("s")) if said else None
        stated = line is not None and " ".join(line.split()) == " ".join(ref.split())
        if stated != (score == 1):
            score, rule = (1.0 if stated else 0.0), "symbols"
    return score, extracted, rule


def score_row(
    pred: str,
    ref: str,
    kind: str | None,
    choices: list[dict[str, Any]] | None = None,
    *,
    exact_match: bool = True,
    case_sensitive: bool = False,
    allow_partial: bool = False,
    numeric_tolerance: float = 1e-4,
    extract_text: bool = True,
) -> tuple[float, str | None, str]:
    """(score, extracted, rule) of one valid row (text and judge rows: the text oracle)."""
    kind = (kind or "text").strip("".join(WHITE)).lower()
    pred = clean_prediction(pred)
    if kind == "judge":
        return accuracy_judge.judge_row(pred, ref)
    if kind == "choice":
        want = reference_letters(ref)
        got, rule = extract_choice(pred, option_letters(choices, want), choices)
        return (1.0 if got is not None and got == want else 0.0), got, rule
    if kind == "number":
        # A minimal parser (last plain number, a/b): simpler than
        # xpert_frames.reading.numeric.parse, so the
        # tests check number rows against that module instead; the benchmark's loop uses this.
        found = CANDIDATE_NUM.findall(full_to_half(pred))
        value = _value(WHOLE_NUM.match(found[-1])) if found else None
        target = _value(WHOLE_NUM.match(full_to_half(ref)))
        hit = value is not None and target is not None and abs(value - target) <= numeric_tolerance
        return (
            (1.0 if hit else 0.0),
            None if value is None else repr(value),
            ("none" if value is None else "last"),
        )
    pred = committed(pred)
    found = accuracy_text.text_row(
        pred,
        ref,
        choices,
        exact_match=exact_match,
        case_sensitive=case_sensitive,
        allow_partial=allow_partial,
        extract_text=extract_text,
    )
    return settled(pred, ref, *found) if extract_text else found
