"""Regular expressions that find the stated answer of text, true/false and label answers (data,
not logic; the logic is :mod:`xpert_frames.reading.text`).

Written for the Rust ``regex`` engine behind Polars (no look-around, no backreferences); ``$``
is the end of the text. A pattern that takes the *last* statement starts with a greedy
``(?s)^.*``; the span is always the named group ``s``. Negated spans are rewritten to
:data:`GONE` before any span rule runs (``不是杜甫，而是李白`` -> ``✗，而是李白``).
"""

from __future__ import annotations

from xpert_frames.reading.rules import Rule, rule_table
from xpert_frames.reading.vocabulary import (
    BOX_CONTENT_SHALLOW,
    CONCESSIVE_EN,
    CONCESSIVE_VERB_EN,
    CONCESSIVE_WHO_EN,
    CONCESSIVE_ZH,
    DENIAL_ZH,
    ERASED,
    GUESS_EN,
    GUESS_ZH,
    GUESSED_EN,
    GUESSED_ZH,
    JUDGE_VERDICT_EN,
    JUDGE_VERDICT_ZH,
    MISCONCEPTION_EN,
    MISCONCEPTION_ZH,
    MISTAKEN_EN,
    NO_DOUBT,
    NO_EVIDENCE,
    NO_EVIDENCE_AGAINST,
    POPULAR_VERB_ZH,
    POPULAR_WHO_ZH,
    REMARK_NOUNS_EN,
    REMARK_NOUNS_ZH,
    TEXT_CONCLUSION_EN,
    TEXT_CONCLUSION_ZH,
    TURN_EN,
    TURN_ZH,
    UNSURE_EN,
    UNSURE_ZH,
    either,
)

#: What a negated span is rewritten to (stripped from every span afterwards).
GONE = ERASED

_CN_STATEMENT = (
    r"(?:(?:最终|正确|标准|参考)?答案(?:应该|应当|应|就|即|也)?(?:是|为)"
    r"|答案\s*[:：]|【答案】|答\s*[:：]|而是|判断\s*[:：]|结论\s*(?:是|为|[:：]))"
)
_EN_ANSWER = r"(?:the\s+|my\s+|our\s+)?(?:final\s+|correct\s+|right\s+|best\s+)?answer"
_EN_VERB = r"(?:is|would\s+be|should\s+be|will\s+be|must\s+be)"
_EN_STATEMENT = (
    rf"(?:^|[^A-Za-z])(?i:{_EN_ANSWER}\s*(?:{_EN_VERB}\s*)?[:：]|{_EN_ANSWER}\s+{_EN_VERB}"
    r"|I\s+think\s+it(?:'s|\s+is)|conclusion\s*[:：])"
)
#: The last answer statement; ``s`` is the rest of its line (or the next line).
STATEMENT = rf"(?s)^.*(?:{_CN_STATEMENT}|{_EN_STATEMENT})\s*[:：]?\s*(?P<s>[^\n]*)"
#: The last ``\boxed{...}`` (one level of nested braces).
BOXED = rf"(?s)^.*\\boxed\{{(?P<s>{BOX_CONTENT_SHALLOW})\}}"
#: The last bold span that is not a heading (``**Answer:**`` is not an answer).
BOLD = r"(?s)^.*\*\*\s*(?P<s>[^*\n]*[^*\n:：\s])\s*\*\*"
_SENTENCE = r"(?:[^.。!?！？\n]|\.[^\s])"
_COPULA = (
    r"(?:\s(?i:is|are|was|were)\s|(?:^|\s)(?i:it|that|this)(?:'s|’s)\s"
    r"|(?:^|[^但还于可若总只凡])是)"
)
#: A character of a sentence, and a copula (the pieces the ``core`` rule cuts a sentence with).
SENTENCE_CHAR = _SENTENCE
COPULA_WORDS = _COPULA
#: The last sentence that concludes (``所以…是X``, ``Therefore, … is X``).
CONCLUSION = (
    rf"(?s)^.*(?:(?:^|[^A-Za-z])(?i:{either(TEXT_CONCLUSION_EN)})[^A-Za-z]"
    rf"|{either(TEXT_CONCLUSION_ZH)})"
    rf"[^.。!?！？\n]*?(?:{_COPULA}|为)(?P<s>{_SENTENCE}*)"
)
#: The first sentence holding a copula (``The capital of Australia is Canberra.``).
COPULA = rf"(?:^|[。!?！？\n]|\.\s)[^.。!?！？\n]*?{_COPULA}(?P<s>{_SENTENCE}*)"
#: :data:`COPULA` without its group (found by the fast capture-free scan), and the head that
#: is cut from the found sentence to leave the span.
COPULA_FIND = rf"(?:^|[。!?！？\n]|\.\s)[^.。!?！？\n]*?{_COPULA}{_SENTENCE}*"
COPULA_HEAD = rf"^(?:[。!?！？\n]|\.\s)?[^.。!?！？\n]*?{_COPULA}"
#: The answer named before "is the answer" (``Berlin is the correct answer``, ``鲁迅是正确答案``).
ANSWER_IS = (
    r"(?:^|[。!?！？\n]|\.\s)\s*(?P<s>[^.。!?！？\n]*?)\s*(?:\s(?i:is|would\s+be|should\s+be"
    r"|must\s+be|seems\s+to\s+be)\s+(?i:the\s+)?(?i:correct\s+|right\s+|final\s+|best\s+)?"
    r"(?i:answer)|(?:应该|应)?(?:是|为)(?:正确|最终|标准)?答案)"
)
#: Rows that can hold :data:`ANSWER_IS` (the rule runs on them only).
ANSWER_IS_TRIGGER = r"(?i)answer|答案"
#: The first sentence (``Paris. It is the capital of France.`` -> ``Paris``).
#: A first sentence that asks (``Sydney? No — Canberra.``) states nothing.
FIRST_SENTENCE = rf"^\s*(?P<s>{_SENTENCE}*)(?:[.。!！\n]|$)"
#: The subject of the first sentence holding a copula (``Paris is the capital of France.``).
COPULA_SUBJECT = r"(?:^|[。!?！？\n]|\.\s)\s*(?P<s>[^.。!?！？\n]*?)(?:\s(?i:is|are|was|were)\s|是)"
#: A quoted term that ends the text (``这个字应读作“xíng”。``).
QUOTED_END = r"(?s)^.*[“\"「『](?P<s>[^”\"」』\n]{1,40})[”\"」』][\s.。!！]*$"
#: The last non-empty line (found by splitting, not by this pattern).
LINE = r"(?P<s>[^\n]*[^\s][^\n]*)\s*$"
#: Trailing sentence ends, and everything up to the last sentence boundary: removed in turn,
#: they leave what :data:`LAST_SENTENCE` captures (capture-free).
SENTENCE_ENDS = r"[.。!?！？\s]+$"
BEFORE_LAST_SENTENCE = r"(?s)^.*(?:[。!?！？]|\.\s)\s*"
#: The last sentence of a line (``Let's think step by step. Paris`` -> ``Paris``).
LAST_SENTENCE = (
    r"(?s)^.*(?:^|[。!?！？]|\.\s)\s*(?P<s>[^。!?！？]*?[^。!?！？\s.][^。!?！？]*?)[.。!?！？\s]*$"
)
#: Lines up to this many characters count as a stated answer.
SHORT_LINE = 60
#: A final answer line after reasoning (``…\nJupiter``; after a question restatement, which
#: erasure turns into a leading :data:`GONE`, also the last sentence: ``We need to find …. …
#: Shakespeare.``) up to this many characters wins over an earlier copula; found by splitting
#: the text (like :data:`LINE`), not by this pattern.
FINAL_LINE = r"(?P<s>[^\n]*)\s*$"
FINAL_SHORT = 30
#: A final line that is no answer: a copula, a question, a heading.
FINAL_EXCLUDE = rf"{_COPULA}|[?？:：]"

#: The text span rules, in evidence order (the ``accuracy_rule`` values of text and label
#: answers). ``line`` only fires on a short line; ``bold`` reads the text with its bold marks.
TEXT_RULES: tuple[Rule, ...] = rule_table(
    Rule("boxed", 10, BOXED),
    Rule("statement", 20, STATEMENT),
    Rule("answer_is", 30, ANSWER_IS),
    Rule("bold", 40, BOLD, reads_marks=True),
    Rule("conclusion", 50, CONCLUSION),
    Rule("final", 60, FINAL_LINE),
    Rule("copula", 70, COPULA),
    Rule("quoted", 80, QUOTED_END),
    Rule("line", 90, LINE),
)
#: The label rules: the text span rules, then the whole text (no pattern: a label named
#: anywhere in it).
LABEL_RULES: tuple[Rule, ...] = rule_table(*TEXT_RULES, Rule("whole", 100))

# --------------------------------------------------------------------------- negation
#: A sentence (up to a comma) restating the question.
RESTATEMENT = (
    r"(?:题目|问题|本题)(?:问的是|问|要求|是问|求的是|要求的是)[^，,;；。！？!?\n]*"
    r"|(?i:the\s+question\s+(?:asks|is\s+asking)|we\s+(?:need|have|are\s+asked)\s+to"
    r"\s+(?:find|determine|identify|name)|the\s+task\s+is\s+to)[^,;.!?\n]*"
    r"|(?:你|您)问的是[^，,;；。！？!?\n]*"
    r"|(?i:you\s+(?:asked|are\s+asking|'re\s+asking)|your\s+question\s+(?:is|asks))[^.!?\n]*"
    r"|(?i:if\s+(?:you|we)(?:'re|\s+are)?\s+(?:referring\s+to|mean|meant|talking\s+about"
    r"|asking\s+about))\s[^,;.!?\n]*|(?:如果|假如)(?:你|您)(?:指的是|说的是|问的是)[^，,;；。！？!?\n]*"
)
#: (A conditional restatement too: ``if you are referring to X``, ``如果你指的是X``.)
#: An opening remark about the question, a whole sentence (``That's a great question about
#: geography.``, ``This is a tricky one.``, ``这是一个很好的问题。``): it states no answer
#: (erased, so the copula rule reads the next sentence). A clause of a longer sentence is no
#: remark (``这是一道数学题，答案是5。``).
OPENING_REMARK = (
    r"(?P<pre>^\s*|[.!?。！？\n]\s*)(?:(?i:this|that|it)(?:'s|’s|\s+is|\s+was|\s+sounds\s+like)"
    r"\s+(?i:a|an|quite\s+a|such\s+a)\s+(?:[A-Za-z-]+\s+){0,3}?"
    rf"(?i:{either(REMARK_NOUNS_EN)})"
    r"(?:\s+(?i:about|on|regarding|of|in|from|concerning)\s[^.!?\n]{1,60})?\s*[.!?]"
    rf"|这(?:是|个|道)[^。！？!?\n，,]{{0,12}}?(?:{either(REMARK_NOUNS_ZH)})"
    r"[^。！？!?\n，,]{0,20}[。！？!?])"
)
#: Doubt, then a guess (``I'm not sure, but I think it's Canberra``, ``我不确定，但我认为是北京``):
#: rewritten to a guess word, so the answer after it is a hedge.
UNSURE_GUESS = (
    rf"(?:(?i:I'm\s+|I\s+am\s+)|我)?(?:(?i:{either(UNSURE_EN)})|{either(UNSURE_ZH)})"
    r"[^.!?。！？\n]{0,40}?"
    rf"(?:(?i:{either(GUESSED_EN)})|{either(GUESSED_ZH)})\s*"
)
#: Rows that can hold :data:`UNSURE_GUESS`.
UNSURE_TRIGGER = rf"(?i:{either(UNSURE_EN)})|{either(UNSURE_ZH)}"
#: Bold marks around a negation word (``The answer is **not** Sydney``) dropped before the
#: negations are read.
BOLD_NEGATION = r"\*\*((?i:not|no|never|neither)|不是|并非|而非)\*\*"
#: Rows that can hold :data:`OPENING_REMARK` (the rewrite runs on them only).
OPENING_REMARK_TRIGGER = (
    r"(?i:(?:this|that|it)(?:'s|’s|\s+is|\s+was|\s+sounds\s+like)\s+(?:a|an|quite|such)\s)"
    r"|这[是个道]"
)
#: One screen for the four rewrites above (a bold negation, doubt then a guess, an opening
#: remark, a rejected table row): consecutive stages with the same trigger are screened once.
ASIDES_TRIGGER = rf"\*\*|\||{UNSURE_TRIGGER}|{OPENING_REMARK_TRIGGER}"
#: A Markdown table row whose last cell rejects it (``| Lyon | no |``, ``| 上海 | 否 |``): the
#: row's entry is not the answer (erased whole).
REJECTED_ROW = (
    r"(?m)^[ \t]*\|[^\n]*\|[ \t]*(?:(?i:no|not|false|incorrect|wrong)|✗|×|❌|否|不是|错误"
    r"|不符合?|不正确)[ \t]*\|[ \t]*$"
)
#: A quoted title or name (``"Call Me Maybe"``, ``《可能否》``): its words are not the text's
#: own (no hedge, no negation inside it).
QUOTED_TITLE = (
    r"\"[^\"\n]{1,60}\"|“[^”\n]{1,60}”|《[^》\n]{1,60}》|「[^」\n]{1,60}」|『[^』\n]{1,60}』"
)
#: The characters that open a quoted title (rows without one skip the masking).
TITLE_OPENERS = r"[\"“《「『]"
#: What a quoted title is masked to before the hedge checks.
TITLE_MASK = "“…”"
#: What many people think, set aside by the ``but`` after it (``Many people credit Edison,
#: but …``, ``虽然很多人以为是悉尼，但…``), and a claim called a misconception (``It is a common
#: misconception that X …``).
CONCESSION = (
    rf"(?i:{either(CONCESSIVE_EN)})\s+(?:(?i:{either(CONCESSIVE_WHO_EN)})\s+)?"
    rf"(?i:{either(CONCESSIVE_VERB_EN)})\s[^.;!?\n]*?(?:,\s*(?i:but)\s+"
    rf"|[.;]\s*(?i:{either(TURN_EN)})[,\s]\s*)"
    r"|[^.;!?\n]*\s(?i:is|are|was|were)\s+(?i:often|commonly|frequently|sometimes|widely)\s+"
    rf"(?i:{either(MISTAKEN_EN)})[^.;!?\n]*"
    r"|(?i:it\s+is|it's|it’s|it\s+was)\s+(?i:a)\s+(?:(?i:common|popular|widespread)\s+)?"
    rf"(?i:{either(MISCONCEPTION_EN)})\s+(?i:that)\s[^.;!?\n]*"
    rf"|(?:常见|普遍)?的?(?:{either(MISCONCEPTION_ZH)})(?:是|认为)[^。；;！!？?\n]*"
    rf"|(?:{either(CONCESSIVE_ZH)})[^。；;！!？?\n]*?[，,]\s*但(?:是)?"
    rf"|(?:(?:{either(POPULAR_WHO_ZH)})人|人们)(?:常|通常|往往|一般|都)?(?:{either(POPULAR_VERB_ZH)})"
    rf"[^。；;！!？?\n]*?[，,。]\s*(?:{either(TURN_ZH)})"
)
#: Rows that can hold :data:`CONCESSION`.
CONCESSION_TRIGGER = (
    rf"(?i:but|{either(TURN_EN)}|{either(MISTAKEN_EN)}|{either(MISCONCEPTION_EN)})|但"
    rf"|{either(TURN_ZH)}|{either(MISCONCEPTION_ZH)}"
)
# Negations in English skip quoted titles (``"Can't Hold a Candle"`` is no negation): a title
# is matched first and kept, a negated span is marked ``\x02…\x03``, then the marks are resolved.
_KEEP_TITLE = rf"(?P<q>{QUOTED_TITLE})|"
#: An unquoted title in title case holding a contraction (``Ain't Living Long Like This``,
#: ``Don't Stop Believin'``) is kept like a quoted one.
_KEEP_CASED_TITLE = rf"(?P<q>{QUOTED_TITLE}|\b[A-Z][a-z]*n't(?:\s+[A-Z][A-Za-z']*){{2,}})|"
_RESOLVE = (("\x02\x03", "", "\x02"), ("\x02[^\x03]*\x03", GONE, "\x02"))
#: (pattern, replacement, trigger): negated spans of text and label answers, erased.
TEXT_NEGATIONS: tuple[tuple[str, str, str], ...] = (
    (BOLD_NEGATION, "${1}", ASIDES_TRIGGER),
    (UNSURE_GUESS, f"{GUESS_EN[0]} ", ASIDES_TRIGGER),
    (OPENING_REMARK, "${pre}" + GONE, ASIDES_TRIGGER),
    (REJECTED_ROW, GONE, ASIDES_TRIGGER),
    (CONCESSION, GONE + " ", CONCESSION_TRIGGER),
    # ``not X but Y``: the negation ends at ``but`` (``It was not Lyon but Marseille.``).
    (r"((?i:not)\s[^,.;:!?\n]*?)\s+((?i:but))\s", "${1}, ${2} ", r"(?i)but"),
    (rf"(?:{either(DENIAL_ZH)})[^，,。；;！!？?\n—–]*", GONE, r"不是|并非|而非"),
    # A restatement of the question is no answer: ``题目问的是…``, ``The question asks for …``.
    (
        RESTATEMENT,
        GONE,
        r"题目|问题|本题|你问|您问|指的是|说的是|(?i)question|need|asked|asking|task|refer|mean|talking",
    ),
    (
        _KEEP_TITLE + r"(?P<pre>^|[^A-Za-z])(?P<neg>(?i:not|no|neither|rather\s+than|instead\s+of"
        r"|other\s+than)\s+[^,.;:!?\n()—–]*)",
        "${q}${pre}\x02${neg}\x03",
        r"(?i)not|no\s|neither|rather|instead|other",
    ),
    *_RESOLVE,
    (_KEEP_CASED_TITLE + r"(?P<neg>(?i:n't)\s+[^,.;:!?\n()—–]*)", "${q}\x02${neg}\x03", r"(?i)n't"),
    *_RESOLVE,
)

#: A label that negation erasure would destroy (``not guilty``, ``不是垃圾邮件``): such labels
#: are looked up in the text before erasure.
NEGATED_LABEL = r"(?:^|[^A-Za-z])(?i:not|no|neither)\s|(?i:n't)\s|不是|并非|而非|并不是"

# --------------------------------------------------------------------------- cleaning
#: ``\text{X}`` -> ``X``.
TEX_TEXT = r"\\(?:text|textbf|mathrm|mbox)\{([^{}]*)\}"
#: Markdown and TeX marks dropped from a span.
MARKS = r"[\$`]|\*\*|__"
#: Parenthetical remarks dropped from a span.
PARENTHESES = r"(?P<pre>[^\s(（])\s*(?:\([^()]*\)|（[^（）]*）)"
#: Opening brackets and quotes at the start of a span (``(Paris).`` -> ``Paris).``).
OPENERS = (
    r"^[\s\(（\[【「\"“'‘]+|^(?i:most\s+likely|likely|probably|definitely|clearly|certainly"
    r"|indeed|simply|actually|obviously)\s+"
)
#: Erased (negated) clauses at the start of a span and the correction word after them
#: (``✗; it is Mars`` -> ``Mars``, ``✗，而是李白`` -> ``李白``).
ERASED_LEAD = (
    rf"^(?:\s*{GONE}\s*[;；,，:：.。—–]*\s*"
    r"(?:(?i:but|rather|instead|it\s+is|it's)\s*[,，]?\s*|而是|是)?)+"
)
_BOUNDARY = (
    r"[。；;！!？?\n，,\(（]|\.(?:\s|$)"
    r"|\s(?i:because|since|which|as|but|although|though|while|whereas)\s|因为|由于"
)
#: A span ends at the first clause boundary: ``s`` is the span up to it.
CLAUSE = rf"^\s*(?P<s>.*?)\s*(?:{_BOUNDARY}|$)"
#: The same cut as a capture-free pattern: the first boundary and all after it (removed).
CLAUSE_TAIL = rf"\s*(?:{_BOUNDARY})(?s:.*)$"
#: Whitespace, punctuation and erased spans at either end.
ENDS = rf"^[\s\p{{P}}{GONE}]+|[\s\p{{P}}{GONE}]+$"
#: English leading articles.
ARTICLE = r"^(?i:the|a|an)\s+"
#: A verb after an English subject (``George Orwell wrote 1984``: the answer opens the first
#: sentence as its subject).
SUBJECT_VERB = (
    r"^(?:[a-z]+ed|[a-z]+[^s]s|wrote|won|made|built|led|ran|took|became|began|gave|found|held"
    r"|drew|sang|told|said|came|went|got|had|did|does|has|leads|holds)(?:[^a-z]|$)"
)
#: Chinese sentence-final particles (``巴黎吧`` -> ``巴黎``).
PARTICLES = r"[吧呢啊呀嘛哦]+$"
#: A text answer offered as a guess (``可能是北京``, ``maybe Paris``): no answer.
TEXT_HEDGE = rf"{either(GUESS_ZH)}|(?i:{either(GUESS_EN)})"
#: Everything up to the last clause break (what is left is the last clause).
BEFORE_LAST_CLAUSE = r"(?s)^.*[,，;；]"
#: An alternative offered after the stated answer (``北京，不过也有可能是上海``, ``Mars, but it
#: might also be Venus``, ``Jupiter, also possibly Saturn``): a hedge. ``X, not Y`` is none.
TEXT_ALTERNATIVE = (
    r"[,，;；]\s*(?:(?:不过|但是?|可是|然而)\s*)?(?:也|还)?(?:有)?(?:可能|也许|或许)(?:是|为|属于)"
    r"|[,，;；]\s*(?:或者|或|也许|还可能)是"
    r"|(?i:[,;]\s*(?:but\s+|or\s+)?(?:it\s+|that\s+)?(?:might|could|may)\s+also\s+be\s"
    r"|[,;]\s*(?:but\s+|or\s+)?(?:also\s+)?(?:possibly|perhaps|maybe)\s)"
)

# --------------------------------------------------------------------------- judge
#: Hedges: a judgement that states doubt is no judgement (``the answer is not known``, ``很难说``).
HEDGE = (
    r"(?i:whether|cannot\s+(?:be\s+)?determine|can't\s+(?:be\s+)?determine|unclear"
    r"|not\s+sure|uncertain|depend|maybe|might|could\s+be|perhaps|possibly|partially|partly"
    r"|not\s+(?:entirely|completely|fully|quite|necessarily)"
    r"|(?:is|are|remains?)\s+(?:currently\s+)?(?:not\s+(?:known|clear|certain)|unknown)"
    r"|no\s+(?:definitive|clear|definite)\s+answer|(?:difficult|hard|impossible)\s+to\s+say)"
    r"|无法判断|无法确定|不确定|不一定|取决于|可能|或许|也许|不完全|不全|一定道理|很难说|难以判断"
)
#: The rest of a clause (the claim after "no evidence that").
_CLAIM = r"[^,，.;!?。；！？\n]*"
TRUE_MARK = "⊤"
FALSE_MARK = "⊥"
#: (pattern, mark) in order: negated negatives, negated positives, then plain words.
JUDGE_WORDS: tuple[tuple[str, str], ...] = (
    # The claim after "no evidence (against) that" is the question's, not a judgement: its
    # words (``… that it is true``) are read with it.
    (f"(?:{NO_EVIDENCE_AGAINST}){_CLAIM}", TRUE_MARK),  # 没有证据反驳X, no evidence against X: yes
    (f"(?:{NO_EVIDENCE}){_CLAIM}", FALSE_MARK),  # 目前没有科学依据证明X: no
    (NO_DOUBT, TRUE_MARK),  # there is no doubt that X: yes
    (
        r"没有错|没错|不错|并非错误|不是错误|(?i:not\s+(?:false|wrong|incorrect)"
        r"|isn't\s+(?:false|wrong|incorrect))",
        TRUE_MARK,
    ),
    (
        r"不正确|不对|不准确|不成立|不是真的|不是正确|不是对|不真|(?i:not\s+(?:true|correct|right"
        r"|accurate|valid|the\s+case)|isn't\s+(?:true|correct|right|accurate))",
        FALSE_MARK,
    ),
    (
        r"错误|错(?:的|了)?(?:[^一-鿿]|$)|[×✗✘]|否|(?:是|为)假|假的(?:[^一-鿿]|$)"
        r"|(?i:false|incorrect|wrong|inaccurate)"
        r"|(?:^|[^A-Za-z])(?i:no)(?:[^A-Za-z]|$)",
        FALSE_MARK,
    ),
    (
        r"正确|对(?:的|了)?(?:[^一-鿿]|$)|[√✓✔]|成立|是的|(?:是|为)真|真的(?:[^一-鿿]|$)"
        r"|(?i:true|correct|accurate)"
        r"|(?:^|[^A-Za-z])(?i:yes|right)(?:[^A-Za-z]|$)",
        TRUE_MARK,
    ),
)
#: A span that is one of these short words alone (after cleaning) is that value.
JUDGE_ALONE_TRUE = r"^(?:是|是的|对|真|t|y|yes)$"
JUDGE_ALONE_FALSE = r"^(?:不是|否|错|假|f|n|no)$"
#: Everything up to a final verdict marker (``…, so I'd say false``, ``…但总体来说是错误的``):
#: when a judge word follows the last marker, only what follows it is judged (the hedge
#: before the verdict does not count).
VERDICT_HEAD = (
    rf"(?s)^.*(?:[,，;；.。]\s*(?i:and\s+)?(?i:{either(JUDGE_VERDICT_EN)})[^A-Za-z]"
    rf"|{either(JUDGE_VERDICT_ZH)})"
)
#: A judge word, for the sentence rules.
JUDGE_WORD = (
    rf"{NO_EVIDENCE_AGAINST}|{NO_EVIDENCE}|{NO_DOUBT}|正确|错误|对|错|真|假|[×✗✘√✓✔]|否|成立"
    r"|(?i:true|false|correct|incorrect|right|wrong|yes|no|accurate|inaccurate)"
)
#: The text starts with a judgement: ``True.``, ``不对。…``, ``**False**``, ``No, …``.
JUDGE_LEADING = (
    r"^[\s\*\"“'‘「【\(]*(?P<s>正确|错误|不正确|不对|对|错|是的|不是|是|否|[×✗✘√✓✔]"
    r"|(?i:true|false|correct|incorrect|right|wrong|yes|no|t|f))[\s\*\"”'’」】\)]*"
    r"(?:[,，。.!！:：;；\n—–-]|$)"
)
_JUDGE_SENTENCE = rf"(?P<s>[^.。!?！？\n]*(?:{JUDGE_WORD})[^.。!?！？\n]*)"
#: The last sentence holding a judge word.
JUDGE_SENTENCE = rf"(?s)^.*(?:^|[.。!?！？\n]){_JUDGE_SENTENCE}"
#: A text that ends in an unterminated sentence longer than 400 characters was cut off inside
#: a runaway (a loop: ``A = not not False = not not False = …``): neither its last judge
#: sentence nor the whole text is a verdict (an answer statement still is).
RUNAWAY = r"[^.。!?！？\n]{401,}\s*$"
#: :data:`JUDGE_SENTENCE` for the capture-free scan (its last match, boundary stripped).
JUDGE_SENTENCE_FIND = rf"(?:^|[.。!?！？\n])[^.。!?！？\n]*(?:{JUDGE_WORD})[^.。!?！？\n]*"

#: The true/false span rules, in evidence order (the conclusion rule of text spans runs before
#: ``sentence``).
JUDGE_RULES: tuple[Rule, ...] = rule_table(
    Rule("boxed", 10, BOXED),
    Rule("statement", 20, STATEMENT),
    Rule("bold", 30, BOLD, reads_marks=True),
    Rule("leading", 40, JUDGE_LEADING),
    Rule("conclusion", 50, CONCLUSION),
    Rule("sentence", 60, JUDGE_SENTENCE),
)
