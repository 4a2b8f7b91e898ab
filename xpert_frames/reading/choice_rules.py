"""Regular expressions of the choice-answer extraction cascade (data, not logic).

Written for the Rust ``regex`` engine behind Polars: no look-around and no backreferences.
Three traps shape them:

* ``\\b`` does not separate an option letter from Chinese text (CJK characters are word
  characters, so ``答案是C`` has no boundary before ``C``). Letters are delimited by explicit
  classes instead: ``[^A-Za-z]`` or the start/end of the text.
* Negation cannot be a look-behind, so negated spans (``不选A``, ``not A``, ``A是错误的``) are
  *rewritten* to :data:`GONE` before any rule looks for a letter.
* A rule takes the *last* statement in the text: every rule pattern starts with a greedy
  ``(?s)^.*``, so the engine settles on the rightmost position where the rest matches.

``{END}`` in these templates is the end-of-text anchor (``$`` in Rust); the test oracle fills
it with Python's ``\\Z``, so one set of templates serves both engines.
"""

from __future__ import annotations

from xpert_frames.reading.rules import Rule, rule_table
from xpert_frames.reading.vocabulary import (
    CHOICE_CONCLUSION_EN,
    CHOICE_CONCLUSION_ZH,
    ERASED,
    OR_ZH,
    either,
)

#: What a negated option letter is rewritten to (not a letter, so no rule can take it).
GONE = ERASED

OPEN = r"[\(\[【「\"“'‘\*`]*"
CLOSE = r"[\)\]】」\"”'’\*`]*"

#: Several options: ``ABD``, ``A,B,D``, ``A、C``, ``A和C``, ``A and C``, ``A/C``.
SEP = r"(?:\s*[,、/&和及与]\s*|\s*,?\s+and\s+)"
UP = rf"[A-Z](?:{SEP}?[A-Z])*"
#: Options of an answer statement, each possibly in brackets: ``(B) and (D)``, ``(A), (C)``.
UP_LISTED = rf"[A-Z](?:[\)\]]?{SEP}[\(\[]?[A-Z]|{SEP}?[A-Z])*"
#: After an upper-case option: anything but a Latin letter (``As``, ``Let's`` are words).
UP_END = r"(?:[^A-Za-z]|{END})"
#: A lower-case option is taken only when unambiguous: ``answer: d`` but not ``a dog``.
LOW_END = r"(?:\s*{END}|[^A-Za-z0-9\s\-+*/=^_<>·×÷]|\s+[^A-Za-z0-9\s\-+*/=^_<>·×÷])"

_CN_KW = (
    r"(?:(?:最终|正确|标准|参考|最佳)?答案(?:应该|应当|应|就|即|也|肯定|一定)?(?:是|为|选)?"
    r"|答\s*[:：]"
    r"|正确的?(?:选项|答案)(?:应该|应|就)?(?:是|为|有)?"
    r"|(?:故|应|应该|应当|所以|因此|因而|本题|只能|我|我会|可以|则|都)?选(?:择|定|项为|项是)?"
    r"|(?:所以|因此|故|即|则|而|我?认为|我?觉得|应该|应当)(?:是|为)"
    r"|结论(?:是|为)?|(?:^|[,，;；。])\s*是"
    # 排除后只剩（C） / 对应选项D / 对应的是C选项 / 判定：A
    r"|(?:只剩下?|仅剩下?|剩下)(?:的是|的就是)?|对应(?:的)?(?:是|为)?|(?:判定|裁定)\s*[:：])"
)
_EN_KW = (
    r"(?i:(?:the\s+|my\s+|our\s+)?(?:final\s+|correct\s+|right\s+|best\s+)?answers?"
    # an aside between the noun and the verb: "The answer, after careful thought, is"
    r"(?:\s*,[^,.;:\n]{1,60}?,)?"
    r"(?:\s+(?:is|are|would\s+be|should\s+be|will\s+be|must\s+be))?"
    r"(?:\s+(?:probably|likely|clearly|definitely))?"
    # a manner phrase before the letter: "is by process of elimination, (A)"
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
_FILL = rf"\s*[】\]]?\s*(?:是|为)?\s*[:：]?\s*(?:(?i:option|choice)\s*|选项\s*)?{OPEN}\s*"

#: Explicit answer statements (Chinese and English): upper-case ``upper`` or lower-case ``lower``.
STATEMENT = (
    rf"(?s)^.*(?:{_CN_KW}|{_EN_KW}){_FILL}"
    rf"(?:(?P<upper>{UP_LISTED}){UP_END}|(?P<lower>[a-z]){LOW_END})"
)
#: ``\boxed{B}``, ``\boxed{\text{B}}``.
BOXED = (
    r"(?s)^.*\\boxed\{\s*(?:\\text(?:bf)?\{)?\s*[\(\[]?\s*"
    rf"(?:(?P<upper>{UP})|(?P<lower>[a-z]))\s*[\)\]]?\s*\}}"
)
#: ``【B】``.
BRACKET = rf"(?s)^.*【\s*(?P<upper>{UP})\s*】"
#: Markdown bold holding only the option: ``**B**``, ``**(B)**``.
BOLD = rf"(?s)^.*\*\*\s*[\(\[]?\s*(?P<upper>{UP})\s*[\)\]]?\s*[\.:：]?\s*\*\*"

#: The last option committed to in a conclusion sentence.
CONCLUSION = (
    r"(?s)^.*(?:"
    # B选项正确 / D正确 / B是正确的 / C最合适
    rf"(?:^|[^A-Za-z])(?P<c1>{UP}){CLOSE}\s*(?:选项|项)?\s*(?:的说法|说法|的描述|描述|的内容)?"
    r"\s*(?:是|为|最|才是)?\s*(?:正确|对|符合题意|符合|最佳|最合适|最恰当|当选|答案)"
    # 只有D / 应为C
    rf"|(?:只有|仅有|唯有|只能是|应是|应为|当选)\s*(?:选项)?\s*{OPEN}(?P<c2>{UP}){UP_END}"
    # B is correct / Option C is the best answer
    rf"|(?:^|[^A-Za-z])(?i:option\s+|choice\s+)?{OPEN}(?P<c3>{UP}){CLOSE}"
    r"\s+(?i:is|are|seems|appears|would\s+be|must\s+be)\s+(?i:the\s+)?"
    r"(?i:correct|right|true|best|most\s+appropriate|answer)"
    # Therefore, B. / 综上，B
    rf"|(?:^|[^A-Za-z])(?i:{either(CHOICE_CONCLUSION_EN)})\s*,?\s*(?i:option\s+|choice\s+)?"
    rf"{OPEN}(?P<c4>{UP}){CLOSE}{UP_END}"
    rf"|(?:{either(CHOICE_CONCLUSION_ZH)})\s*[,，:：]?\s*(?:选项)?\s*{OPEN}(?P<c5>{UP}){CLOSE}{UP_END}"
    r")"
)
CONCLUSION_GROUPS = ("c1", "c2", "c3", "c4", "c5")

#: A list of verdicts, one line per option (``A. Incorrect.`` / ``B. Correct.``, ``- **C**:
#: True``), or a Markdown table (``| B | Yes |``): the option marked correct, when exactly one
#: is (the rule fires on a single match).
VERDICT_LINE = (
    r"(?s)^.*(?:(?m:^)[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?i:option[ \t]+)?[\(\[]?(?P<upper>[A-Z])"
    r"[\)\]]?(?:\*\*)?[ \t]*[.):：\-–—]?[ \t]*(?:\*\*)?[ \t]*(?i:correct|true|right)(?:\*\*)?"
    r"[ \t]*(?:[.!。:：,，\-–—(（]|\n|{END})"
    r"|\|[ \t]*[\(\[]?(?P<table>[A-Z])[\)\]]?[ \t]*\|(?:[^\n|]*\|)*?[ \t]*"
    r"(?:(?i:yes|correct|true)|[✓✔✅√])[ \t]*\|)"
)
#: Rows that can hold :data:`VERDICT_LINE`: an option marked correct at a line start, or a
#: table cell holding an option letter.
VERDICT_TRIGGER = (
    r"(?m:^)[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?i:option[ \t]+)?[\(\[]?[A-Z][\)\]]?(?:\*\*)?"
    r"[ \t]*[.):：\-–—]?[ \t]*(?:\*\*)?[ \t]*(?i:correct|true|right)"
    r"|\|[ \t]*[\(\[]?[A-Z][\)\]]?[ \t]*\|"
)
#: The whole text is the option(s): ``B``, ``(B).``, ``**B**``, ``ABD``, ``b``.
BARE = (
    rf"^\s*(?:选项|(?i:option)\s*)?{OPEN}\s*(?:(?P<upper>{UP})|(?P<lower>[a-z]))\s*{CLOSE}"
    r"\s*[\.。:：]?\s*{END}"
)
#: The text starts with one option label: ``B. 北京``, ``C) 7``, ``B选项``.
LEADING = (
    rf"^\s*(?:选项|(?i:option)\s*)?{OPEN}\s*(?P<upper>[A-Z]){CLOSE}"
    # not the first of a list of options (``选项A、B、C、D都是正确的``)
    r"(?:[^A-Za-z\s,、]|[,、]\s*(?:[^A-Za-z\s]|[A-Z][a-z]|[a-z])|\s*{END}|\s+[^a-z\s])"
)
#: Which is wrong: the others declared correct together (``选项A、B、C、D的描述都是正确的``),
#: then one option concluded wrong (``因此，选项E是错误的``): that option is the answer. Read
#: before the negations are erased (they would erase the declaration).
DECLARED_WRONG = (
    r"(?s)^.*[A-Z](?:\s*[,、和及与]\s*[A-Z])+\s*(?:选项|项)?\s*(?:的描述|的说法|说法|描述|的内容)?"
    r"\s*(?:都|均|全都|全)\s*(?:是|为)?[^。，,；;\n]{0,12}?(?:正确|对)"
    rf".*(?:{either(CHOICE_CONCLUSION_ZH)})\s*[,，:：]?\s*(?:选项\s*)?{OPEN}(?P<upper>[A-Z]){CLOSE}"
    r"\s*(?:选项|项)?\s*(?:的描述|的说法|说法|描述|的内容)?\s*(?:是|为)?\s*(?:错误|不正确|除外)"
)
#: Option labels anywhere (``A)``, ``B.``, ``C、``); LEADING fires only if there is one.
LABEL = r"(?:^|[^A-Za-z])[A-Z][\.\)、:：]"

# --------------------------------------------------------------------------- negation
_NEG_UP_CN = r"[A-Z](?:\s*[、和与及/]\s*[A-Z])*"
_NEG_WORD_CN = (
    r"(?:错误|不正确|不对|错的|错|不符合|不符|不成立|不恰当|不合适|不是正确答案|不是答案"
    r"|可以排除|应排除|排除|被排除)"
)
#: ``不选A``, ``排除B``, ``并非C``.
NEG_CN_BEFORE = (
    r"(?:不选|不是|不应选|不能选|不应该选|排除|而非|并非|不为|不应是)\s*(?:选项)?\s*"
    rf"{OPEN}{_NEG_UP_CN}{CLOSE}"
)
#: ``A是错误的``, ``B选项不正确``, ``A、B、C都错误``, ``A，B，C均错误``.
NEG_CN_AFTER = (
    rf"(?P<pre>^|[^A-Za-z]){OPEN}(?:{_NEG_UP_CN}{CLOSE}\s*(?:选项|项)?\s*"
    r"(?:的说法|说法|的描述|描述|的内容|内容)?\s*(?:都|均|全都|全部|全|也|明显|显然)?"
    rf"|[A-Z](?:\s*[,，、]\s*[A-Z])+{CLOSE}\s*(?:选项|项)?\s*(?:都|均|全都|全部|全))"
    rf"\s*(?:是|为)?\s*{_NEG_WORD_CN}"
)
_NEG_UP_EN = rf"[A-Z]{CLOSE}(?:\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|/)\s*{OPEN}[A-Z]{CLOSE})*"
#: ``not A``, ``isn't B``, ``rather than C``, ``rule out D``.
NEG_EN_BEFORE = (
    r"(?:(?P<pre>^|[^A-Za-z])(?i:not|rather\s+than|instead\s+of|rules?\s+out|ruled\s+out"
    r"|eliminate[sd]?|exclude[sd]?|excluding|reject(?:ed|s)?|discard(?:ed|s)?|dismissed"
    r"|not\s+(?:chosen|selected|picked))(?:\s+(?i:options?|choices?))?|n't)"
    rf"(?:\s*[:：]\s*|\s+)(?i:options?\s+|choices?\s+)?{OPEN}{_NEG_UP_EN}{CLOSE}"
    r"(?P<post>[^A-Za-z]|{END})"
)
#: ``A is incorrect``, ``Options A, B and C are wrong``.
NEG_EN_AFTER = (
    r"(?P<pre>^|[^A-Za-z])(?i:options?\s+|choices?\s+)?"
    rf"{OPEN}(?:[A-Z]{CLOSE}\s+(?i:is)|{_NEG_UP_EN}{CLOSE}\s+(?i:are))\s+"
    r"(?i:also\s+|clearly\s+|definitely\s+|obviously\s+)?"
    r"(?i:incorrect|wrong|false|not\s+correct|not\s+right|not\s+true"
    r"|not\s+the\s+(?:correct\s+)?answer|eliminated|ruled\s+out|a\s+distractor)"
)

#: An echoed format placeholder (``ANSWER: [LETTER]``, ``<answer>``, ``$LETTER``): no option.
PLACEHOLDER = (
    r"[\[<\{]\s*(?i:(?:the\s+|your\s+|correct\s+)*(?:letters?|answer|choice|option|x)"
    r"(?:\s*\(s\))?)\s*[\]>\}]|\$(?i:letter|answer|choice)"
)
#: An enumeration of three or more option labels on one line (an answer line repeating the
#: options, ``Answer: A) 5 B) 6 C) 7 D) 8``): no option is chosen by it. No sentence ends
#: between two labels but right before the next one (``A. Paris. B. Lyon.``): option labels in
#: prose (``Red (A), blue (B) … green (C) is not. Therefore, the answer is C.``) are no list.
ENUMERATION = (
    r"(?P<pre>^|[^A-Za-z])[\(\[]?[A-Z][\.\)\]、:：]"
    r"(?:(?:[^\n.!?。！？]|\.\S){0,40}?[.。;；,，]?[ \t][\(\[]?[A-Z][\.\)\]、:：]){2,}"
)
#: A hedge between two options (``A or B``, ``A或B``): neither is chosen.
HEDGE = (
    rf"(?P<pre>^|[^A-Za-z]){OPEN}[A-Z]{CLOSE}(?:\s+(?i:or)\s+|\s*(?:{either(OR_ZH)})\s*)"
    rf"{OPEN}[A-Z]{CLOSE}(?P<post>[^A-Za-z]|{{END}})"
)

#: Two options named with words between them (``A选项和C选项``, ``D (bridge) or E (…)``) written
#: as a plain pair (``A和C``, ``D or E``), so that the statement reads both (two answers: a set)
#: and an "or" between them is a hedge. ``D (bridge or boat)`` names one option.
JOIN_CN = (
    r"(?P<a>[A-Z])\s*(?:选项|项)\s*(?P<c>和|与|及|、|或者|或|还是)\s*(?:选项\s*)?"
    r"(?P<b>[A-Z])(?:\s*(?:选项|项))?"
)
JOIN_EN = (
    r"(?P<pre>^|[^A-Za-z])(?P<a>[A-Z])\s*\([^()\n]{1,60}\)\s*,?\s+(?P<c>(?i:or|and))\s+"
    r"(?P<b>\(?[A-Z]\)?)(?P<post>[^A-Za-z]|{END})"
)
#: (pattern, replacement, trigger) applied in order before the rules; a row is rewritten only
#: if it contains the trigger (a word every match of the pattern has), so most rows skip it.
NEGATIONS: tuple[tuple[str, str, str], ...] = (
    (JOIN_CN, "${a}${c}${b}", r"[A-Z]\s*(?:选项|项)\s*(?:和|与|及|、|或|还是)"),
    (JOIN_EN, "${pre}${a} ${c} ${b}${post}", r"[A-Z]\s*\([^()\n]{1,60}\)\s*,?\s+(?i:or|and)\s"),
    (NEG_CN_BEFORE, GONE, r"不|排除|而非|并非"),
    (NEG_CN_AFTER, "${pre}" + GONE, r"错|不|排除"),
    (
        NEG_EN_BEFORE,
        "${pre}" + GONE + "${post}",
        r"(?i)not|n't|rather|instead|rule|elimin|exclu|reject|discard|dismiss",
    ),
    (NEG_EN_AFTER, "${pre}" + GONE, r"(?i)incorrect|wrong|false|not|elimin|ruled|distractor"),
    (PLACEHOLDER, GONE, r"[\[<\{$]"),
    (ENUMERATION, "${pre}" + GONE, r"[A-Z][\.\)\]、:：].*[A-Z][\.\)\]、:：].*[A-Z][\.\)\]、:：]"),
    (HEDGE, "${pre}" + GONE + "${post}", r"(?i)\sor\s|或|还是"),
)

#: The choice rules: what wins when several find letters (the ``accuracy_rule`` values).
CHOICE_RULES: tuple[Rule, ...] = rule_table(
    Rule("boxed", 10, BOXED, ("upper", "lower")),
    Rule("statement", 20, STATEMENT, ("upper", "lower")),
    Rule("bracket", 30, BRACKET, ("upper",)),
    Rule("bold", 40, BOLD, ("upper",)),
    Rule("conclusion", 50, CONCLUSION, CONCLUSION_GROUPS),
    Rule(
        "verdicts",
        35,
        VERDICT_LINE,
        ("upper", "table"),
        single_match=True,
        trigger=VERDICT_TRIGGER,
    ),
    Rule("bare", 60, BARE, ("upper", "lower")),
    Rule("leading", 70, LEADING, ("upper",), single_label=True),
    Rule(
        "declared-wrong",
        45,
        DECLARED_WRONG,
        ("upper",),
        before_negations=True,
        trigger="错误|不正确|除外",
    ),
)
#: Name of the last rule: the prediction contains exactly one option's content.
CONTENT_RULE = "content"
#: The content rules, in order: one option's content in the conclusion sentence, then in the
#: first stated sentence (rejected options erased in both), then anywhere in the prediction.
CONTENT_RULES: tuple[str, ...] = ("content:conclusion", "content:statement", CONTENT_RULE)
NO_RULE = "none"


def fill(template: str, end: str) -> str:
    """A template with its end-of-text anchor filled in (``$`` for Rust, ``\\Z`` for Python)."""
    return template.replace("{END}", end)


# --------------------------------------------------------------------------- answered by content
#: A character of a sentence: not a stop (a full stop only before a space or the end).
_SENTENCE_CHAR = r"(?:[^。！？!?\n.]|\.\S)"
#: What marks a concluding sentence that may name an option by its content
#: (``所以，答案应该是秦艽``, ``So the best answer is a bridge``, ``…是除外的疾病``).
_CONCLUDING = (
    rf"{either(CHOICE_CONCLUSION_ZH)}|答案|最符合|最佳|除外"
    rf"|(?i:\b(?:{either(CHOICE_CONCLUSION_EN)}|answer|best)\b)"
)
#: The sentences holding a conclusion (the last one counts).
CONTENT_CONCLUSION = rf"{_SENTENCE_CHAR}*(?:{_CONCLUDING}){_SENTENCE_CHAR}*"
#: The sentences stating something with a copula (the first one counts).
CONTENT_STATEMENT = rf"{_SENTENCE_CHAR}*(?:是|为|(?i:\b(?:is|are|was|were)\b)){_SENTENCE_CHAR}*"
#: A clause that names options to reject them (``其他选项如X、Y并不能…``, ``排除X``, ``not X``):
#: erased from those sentences before their contents are looked for.
REJECTED_CLAUSE = (
    r"[^，,；;：:]*(?:不符|不是|并不|都不|并非|而非|排除|不能|不明显|不会|其他选项|其余选项"
    r"|(?i:\bnot\b|n't|rather\s+than|instead\s+of|\bexcept\b|other\s+options?))[^，,；;：:]*"
)
#: The parts of an option's content that must all be named (``任脉、冲脉`` in ``任脉和冲脉``).
CONTENT_PART = r"[^、，,和及与/]+"
