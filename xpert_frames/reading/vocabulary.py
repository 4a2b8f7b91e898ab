"""Every marker the readers look for, in Chinese and English, defined once and classified once.

Readers build their patterns from these pieces (:mod:`.numeric.grammar`, :mod:`.choice_rules`,
:mod:`.text_rules`, :mod:`.boxes`); a word added here reaches every reader that uses its class.
Patterns are written for the Rust ``regex`` engine behind Polars: no look-around, no
back-references.
"""

from __future__ import annotations

# --------------------------------------------------------------------------- boxes
#: What opens a final box.
BOX_OPENERS: tuple[str, ...] = ("\\boxed", "\\fbox")
#: A box's content with one level of nested braces (text answers).
BOX_CONTENT_SHALLOW = r"(?:[^{}]|\{[^{}]*\})*"
#: A box's content with three levels of nested braces (numbers).
BOX_CONTENT = r"(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*"
#: A box's content with four levels of nested braces (math spans).
BOX_CONTENT_DEEP = r"(?:[^{}]|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*"


def either(words: tuple[str, ...] | list[str]) -> str:
    """The words (regex pieces) as one alternation, in the order given (list a word before any
    word it is a prefix of: the engine takes the first alternative that leads to a match)."""
    return "|".join(words)


def capitalized(words: tuple[str, ...]) -> str:
    """ASCII words whose first letter may be upper case (``[Ss]o|[Tt]herefore``)."""
    return "|".join(f"[{w[0].upper()}{w[0]}]{w[1:]}" for w in words)


# --------------------------------------------------------------------------- erasure
#: What a negated (or otherwise excluded) span is rewritten to before any rule looks at the
#: text: not a letter, digit or word, so no rule can take it.
ERASED = "✗"

# --------------------------------------------------------------------------- conclusions
#: English words that open a conclusion (``So …``, ``Therefore …``).
CONCLUSION_EN: tuple[str, ...] = ("so", "therefore", "thus", "hence")
#: Chinese words that open a conclusion (所以/因此/故).
CONCLUSION_ZH: tuple[str, ...] = ("所以", "因此", "故")
#: Less common conclusion words: ``consequently``, 因而, and ``finally`` (a last step).
CONCLUSION_EN_MORE: tuple[str, ...] = ("consequently",)
CONCLUSION_ZH_MORE: tuple[str, ...] = ("因而",)
FINALLY_EN: tuple[str, ...] = ("finally",)
#: A summing-up (longer before shorter: 综上所述 before 综上).
SUMMARY_EN: tuple[str, ...] = ("overall", r"in\s+conclusion")
SUMMARY_ZH: tuple[str, ...] = ("综上所述", "综上")
IN_SHORT_ZH: tuple[str, ...] = ("总之",)
#: An overall verdict after weighing (``all in all``, 总体来说 …): ends a hedged judgement.
VERDICT_EN: tuple[str, ...] = (r"all\s+in\s+all", r"on\s+balance")
VERDICT_ZH: tuple[str, ...] = ("总体来说", "总的来说", "总体上", "总体而言", "整体来看")

#: Conclusion words each reader takes, chosen from the classes above.
CHOICE_CONCLUSION_EN = CONCLUSION_EN + CONCLUSION_EN_MORE
CHOICE_CONCLUSION_ZH = SUMMARY_ZH + CONCLUSION_ZH + CONCLUSION_ZH_MORE
TEXT_CONCLUSION_EN = CONCLUSION_EN + SUMMARY_EN
TEXT_CONCLUSION_ZH = SUMMARY_ZH + CONCLUSION_ZH + CONCLUSION_ZH_MORE + IN_SHORT_ZH + ("综合来看",)
JUDGE_VERDICT_EN = CONCLUSION_EN + SUMMARY_EN[:1] + VERDICT_EN
JUDGE_VERDICT_ZH = CONCLUSION_ZH[:2] + CONCLUSION_ZH_MORE + VERDICT_ZH + SUMMARY_ZH + IN_SHORT_ZH

#: A conclusion word at a sentence or clause start, in English (the number reader: ``So …``).
CLAUSE_CONCLUSION = rf"(?:[.!?。:\n]\s*|,\s*)(?:{capitalized(CONCLUSION_EN)})\b"
#: A sentence that opens with a conclusion word (after a box that held a step).
_SENTENCE_CONCLUSION_ZH = (*CONCLUSION_ZH, SUMMARY_ZH[1])
SENTENCE_CONCLUSION = (
    rf"^\s*(?:(?i:{either(CONCLUSION_EN + FINALLY_EN)})\b|{either(_SENTENCE_CONCLUSION_ZH)})"
)
#: Its words anywhere (no anchor, no word boundary): a text without a match has no part
#: that :data:`SENTENCE_CONCLUSION` matches (a cheap screen before cutting sentences out).
SENTENCE_CONCLUSION_SCREEN = (
    rf"(?i:{either(CONCLUSION_EN + FINALLY_EN)})|{either(_SENTENCE_CONCLUSION_ZH)}"
)

# --------------------------------------------------------------------------- answer statements
#: Chinese statements of a number answer (the text after the last one holds it); the number
#: reader also reads a Chinese conclusion word (:data:`CONCLUSION_ZH`) as a statement.
NUMBER_STATEMENT_ZH: tuple[str, ...] = (
    "最终答案", "答案是", "答案为", "答案:", "答:", "结果是", "结果为",
)  # fmt: skip
NUMBER_STATEMENT_EN: tuple[str, ...] = (
    "(?i:the answer is)", "(?i:final answer)", "(?i:answer\\s*:)",
)  # fmt: skip
#: GSM8K's answer line.
ANSWER_LINE = "####"
#: Every answer statement of the number reader, in its order.
NUMBER_STATEMENTS: tuple[str, ...] = (
    *NUMBER_STATEMENT_ZH, *CONCLUSION_ZH, *NUMBER_STATEMENT_EN, ANSWER_LINE,
)  # fmt: skip

# --------------------------------------------------------------------------- connectives
#: "or" between two alternatives (a hedge between options).
OR_ZH: tuple[str, ...] = ("或者", "或", "还是")
OR_EN: tuple[str, ...] = ("or",)

# --------------------------------------------------------------------------- negation
#: Chinese words that deny the span after them (``不是杜甫``, ``并非C``).
DENIAL_ZH: tuple[str, ...] = ("并不是", "不是", "并非", "而非", "而不是")

# --------------------------------------------------------------------------- hedges
#: A guess: the text answer after it is not committed to.
GUESS_ZH: tuple[str, ...] = ("可能", "也许", "或许", "大概")
GUESS_EN: tuple[str, ...] = ("maybe", "perhaps", "possibly", "might", "could")

#: Doubt stated before an answer (``I'm not sure, but I think it's X``, ``我不确定，但我认为是X``):
#: the answer after it is a guess.
UNSURE_EN: tuple[str, ...] = (
    r"not\s+(?:entirely\s+|completely\s+|100%\s+)?(?:sure|certain)",
    "unsure",
)
UNSURE_ZH: tuple[str, ...] = ("不太确定", "不确定", "不敢肯定", "没有把握", "不太清楚")
#: What states the guess after the doubt (``I think it's``, ``我认为是``).
GUESSED_EN: tuple[str, ...] = (
    r"I\s+(?:think|believe|guess|would\s+say|'d\s+say)(?:\s+(?:it(?:'s|\s+is|\s+was)"
    r"|the\s+answer\s+is|that))?",
)
GUESSED_ZH: tuple[str, ...] = (
    r"我?(?:认为|觉得|猜)(?:应该)?(?:是)?",
    r"答案(?:应该|大概)?(?:是|为)",
)

# --------------------------------------------------------------------------- rejection
#: Words of a sentence that rejects or sets aside what it names (``其他选项如X、Y并不是…``,
#: ``排除X``, ``B选项X…不符``): the diagnosis named there is not the answer.
REJECTION_ZH: tuple[str, ...] = (
    "不符", "不是", "并非", "不属于", "排除", "不适用", "不适合", "不正确", "不完全", "并不",
    "不能", "不应", "不太", "均不", "都不", "而非", "并未", "未见", "未描述", "没有",
    "其他选项", "其余选项", "其它选项", "其他的选项", "其余的选项",
)  # fmt: skip

# --------------------------------------------------------------------------- diagnoses
#: Words that state a diagnosis or the chosen option (``辨证为…``, ``证属…``, ``因此选E``).
DIAGNOSIS_STATEMENT_ZH: tuple[str, ...] = (
    "答案", "诊断为", "辨证为", "辨为", "证属", "属于", "应为", "应该是", "判断为", "考虑为",
    "称为", "选择", "选",
)  # fmt: skip
#: A diagnosis conclusion: a conclusion word, a summing-up, or a diagnosis statement.
DIAGNOSIS_CONCLUSION_ZH: tuple[str, ...] = (
    *CONCLUSION_ZH, SUMMARY_ZH[1], *IN_SHORT_ZH, *DIAGNOSIS_STATEMENT_ZH,
)  # fmt: skip

# ------------------------------------------------------------ markup and continuations
#: Sentinel tokens of prompt formats: markup that ends an answer, never content (``<eoa>``).
SENTINELS: tuple[str, ...] = (
    "<eoa>", "<eoe>", "</s>", "<s>", "<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end|>",
)  # fmt: skip
#: Words of a bracket tag that opens the answer (``[答案]李白``, ``【类别】婚姻家庭``).
ANSWER_TAGS_ZH: tuple[str, ...] = (
    "最终答案", "正确答案", "答案", "类别", "罪名", "金额", "判断", "结果", "刑期", "选项", "回答",
)  # fmt: skip
ANSWER_TAGS_EN: tuple[str, ...] = ("answer", "final answer", "category", "label")
#: What introduces a format example echoed from the prompt (``例如[答案]北京<eoa>``).
EXAMPLE_ZH: tuple[str, ...] = ("例如", "比如", "譬如", "示例", "格式如")
EXAMPLE_EN: tuple[str, ...] = (r"e\.g\.", "for example", "for instance")
#: A line that opens an invented further turn (``Q:``, ``问题：``, ``### Human:``): after a
#: first answer, the text from it on is a continuation the model made up, not its answer.
CONTINUATION_HEADS: tuple[str, ...] = (
    "Q", "Question", "问题", "题目", "咨询", "Text", "Passage",
)  # fmt: skip
#: A first line up to this many characters, followed by a further question, is the answer
#: (a longer first line is reasoning, not an answer).
FIRST_ANSWER_CHARS = 60
CONTINUATION_TURNS: tuple[str, ...] = (
    r"#{2,3}\s*(?:Human|User|Instruction)\b", r"\[\|Human\|\]", r"<\|im_start\|>\s*user",
    r"<\|start_header_id\|>\s*user", r"(?:Human|User)\s*[:：]",
)  # fmt: skip

# ------------------------------------------------------------ no evidence (a true/false answer)
#: "There is no evidence that X" answers no to "X?" (``目前没有科学依据证明X``, ``尚无证据表明X``).
NO_EVIDENCE_ZH = (
    r"(?:没有|并无|尚无|缺乏|无)(?:任何)?(?:科学)?(?:依据|证据|根据)"
    r"(?:证明|表明|显示|说明|支持)?"
)
NO_EVIDENCE_EN = (
    r"(?i:no\s+(?:scientific\s+|solid\s+|clear\s+)?(?:evidence|proof)\s+(?:that|to\s+suggest))"
)
NO_EVIDENCE = f"{NO_EVIDENCE_ZH}|{NO_EVIDENCE_EN}"
#: "There is no evidence against X" does not deny X: it stands by it (``没有证据反驳X``, ``no
#: evidence to the contrary``); read before :data:`NO_EVIDENCE`, which it would otherwise match.
NO_EVIDENCE_AGAINST_ZH = (
    r"(?:没有|并无|尚无|缺乏|无)(?:任何)?(?:科学)?(?:依据|证据|根据)(?:可以|能够|能)?"
    r"(?:反驳|否认|否定|推翻|驳斥|质疑)"
)
NO_EVIDENCE_AGAINST_EN = (
    r"(?i:no\s+(?:scientific\s+|solid\s+|clear\s+)?(?:evidence|proof)\s+(?:against|to\s+the"
    r"\s+contrary|contradicting|refuting|disproving))"
)
NO_EVIDENCE_AGAINST = f"{NO_EVIDENCE_AGAINST_ZH}|{NO_EVIDENCE_AGAINST_EN}"

# ------------------------------------------------------------ concession, then the committed answer
#: Words that concede what follows them is not the answer (``A and B both look plausible``,
#: ``表面上像X``, ``It could be read as X``): before a "but", the answer is after it.
CONCEDING_ZH: tuple[str, ...] = (
    "都", "像", "似乎", "看起来", "看似", "可能", "也许", "虽然", "尽管", "表面上", "有人", "有些",
    "起初", "一开始",
)  # fmt: skip
CONCEDING_EN: tuple[str, ...] = (
    "some", "both", "could", "might", "seems?", "looks?", "although", "though",
    "plausible", "at first", "initially",
)  # fmt: skip
#: "but" between a concession and the committed answer.
BUT_ZH: tuple[str, ...] = ("但是", "但", "不过", "然而", "可是")
BUT_EN: tuple[str, ...] = ("but", "however")
#: What commits after the "but" (a copula or a verdict).
COMMITTING_ZH: tuple[str, ...] = ("是", "为", "属于", "实质", "实际", "应")
COMMITTING_EN: tuple[str, ...] = ("is", "are", "was", "were", "should", "belongs")

# ------------------------------------------------------------ undecided conclusions
#: A conditional branch (``if you mean X …``, ``如果…``) and a conclusion that leaves the
#: choice open (``so it depends``, ``取决于``): no answer is committed to.
BRANCH_ZH: tuple[str, ...] = ("如果", "若", "假如", "要是")
BRANCH_EN: tuple[str, ...] = (r"if\s+you\s+mean", r"if\s+it\s+is", r"if\s+we", "if")
UNDECIDED_ZH: tuple[str, ...] = ("取决于", "要看", "视情况", "因人而异", "看情况", "不一定")
UNDECIDED_EN: tuple[str, ...] = (r"it\s+depends", r"depends\s+on", r"depending\s+on")
#: Clause separators of a reference stated in several clauses (dictation of two lines).
CLAUSE_BREAKS = r"[\s\p{P}]+"
#: "There is no doubt that X" answers yes (its "no" is not a no).
NO_DOUBT = r"(?i:no\s+doubt|without\s+(?:a\s+)?doubt)|毫无疑问|毋庸置疑"
#: What shows a first answer was committed to before an invented continuation: an answer
#: statement, a conclusion, a heading of a label, a closed tag or a sentinel.
COMMITTED_MARKS: tuple[str, ...] = (
    "答案", "答[:：]", "类别", "罪名", "金额", "所以", "因此", "综上", "】", r"\]", "<eoa>",
    "<eoe>", "</s>", r"<\|im_end\|>", r"<\|eot_id\|>",
    r"(?i:\banswer|\btherefore\b|\bso\b|\bthus\b)", r"(?i:\b(?:category|topic|label)\s*:)",
)  # fmt: skip

# ------------------------------------------------------------ opening remarks (no answer)
#: What an opening remark calls the question (``That's a great question about geography.``,
#: ``This is a tricky one.``, ``这是一个很好的问题。``): the sentence states no answer, the
#: answer comes in a later one.
REMARK_NOUNS_EN: tuple[str, ...] = (
    "question", "one", "topic", "problem", "misconception", "puzzle", "riddle", "myth",
    "subject", r"long\s+time\s+ago",
)  # fmt: skip
REMARK_NOUNS_ZH: tuple[str, ...] = ("问题", "题目", "误解", "话题", "谜题", "误区")

# --------------------------------------------------------------------------- text answers: core
# (the ``core`` rule of open-domain text answers, :mod:`xpert_frames.reading.core_answer`)
#: Relative pronouns that open a relative clause after a comma (never the answer clause).
RELATIVE_EN: tuple[str, ...] = ("which", "who", "whom", "whose", "where")
#: Chinese "that is" after a comma (``，即…``): an aside, never the answer clause.
RELATIVE_ZH: tuple[str, ...] = ("即",)
#: Words that may stand right before a name without making it a longer name.
NAME_TITLES: tuple[str, ...] = (
    "the", "a", "an", "sir", "dame", "dr", "mr", "mrs", "ms", "miss", "lord", "lady", "king",
    "queen", "prince", "princess", "saint", "st", "president", "captain", "general", "professor",
    "prof", "pope", "emperor", "empress", "senator", "governor", "judge", "and", "or", "by",
)  # fmt: skip
#: Generic heads that may follow a name without making it a longer name (``Kit Kat Club``,
#: ``Aintree Racecourse``), and
#: era words after a year (``793 AD``).
NAME_HEADS: tuple[str, ...] = (
    "city", "state", "island", "islands", "river", "mountain", "mountains", "club", "lake",
    "county", "airport", "province", "bay", "sea", "ocean", "valley", "university", "college",
    "district", "region", "street", "avenue", "road", "park", "racecourse", "stadium",
    "station", "castle", "cathedral", "palace", "bridge", "square", "tower", "peninsula",
    "canal", "gulf", "strait", "estuary", "desert", "forest", "museum", "abbey", "harbour",
    "harbor", "and", "or", "ad", "bc", "bce", "ce",
)  # fmt: skip
#: Month names (and their short forms): before a number they make a date, not a longer name
#: (``2 September 1945`` states ``1945``).
MONTHS: tuple[str, ...] = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec",
)  # fmt: skip
#: Subordinators of reason and concession: what follows them is not the answer clause
#: (``since`` and ``while`` are left out: they also mean time, ``president since 2010``).
SUBORDINATE_EN: tuple[str, ...] = ("because", "although", "though", "whereas", "unlike")
SUBORDINATE_ZH: tuple[str, ...] = ("因为", "由于", "虽然", "尽管")
#: Words that name a competitor beside the answer (``England won, beating West Germany``,
#: ``Jupiter, followed by Saturn``, ``中国队击败日本队``): what follows them is not the answer
#: clause either.
COMPETING_EN: tuple[str, ...] = ("beating", "defeating", r"followed\s+by", r"ahead\s+of")
COMPETING_ZH: tuple[str, ...] = ("击败", "战胜", "其次是")
#: Concessive openers: what many people think is set aside by the ``but`` that follows.
CONCESSIVE_EN: tuple[str, ...] = ("many", "some", "most")
CONCESSIVE_WHO_EN: tuple[str, ...] = ("people", "sources", "historians", "fans", "scholars")
CONCESSIVE_VERB_EN: tuple[str, ...] = (
    "think", "thinks", "believe", "believes", "credit", "credits", "say", "says", "assume",
    "claim", "claims", "attribute",
)  # fmt: skip
#: ``虽然…以为是X，但…``: the clause before 但 is set aside.
CONCESSIVE_ZH: tuple[str, ...] = ("虽然", "尽管", "虽")
#: What many people think, in Chinese (``很多人认为是上海，但…``, ``有人以为…，其实…``).
POPULAR_WHO_ZH: tuple[str, ...] = ("很多", "许多", "不少", "有些", "一些", "有")
POPULAR_VERB_ZH: tuple[str, ...] = ("误以为", "认为", "以为", "觉得")
#: What turns from a popular belief to the answer (``…, 但…``, ``… However, …``).
TURN_ZH: tuple[str, ...] = ("但是", "但", "然而", "其实", "实际上")
TURN_EN: tuple[str, ...] = ("however", "but", "actually", r"in\s+fact")
#: A name "often mistaken for" the answer (``Sydney is often mistaken for the capital``).
#: A claim called a misconception is rejected (``It is a common misconception that X …``,
#: ``一个常见的误解是X``).
MISCONCEPTION_EN: tuple[str, ...] = ("misconception", "myth", "misbelief")
MISCONCEPTION_ZH: tuple[str, ...] = ("误解", "误区")
MISTAKEN_EN: tuple[str, ...] = (
    "mistaken", "confused", "thought", "believed", "assumed", "credited",
)  # fmt: skip
#: Function words dropped when a reference is compared by its content words
#: (``between 1881 and 1885``, ``David & Victoria Beckham``, ``in the east``).
FUNCTION_WORDS: tuple[str, ...] = (
    "the", "a", "an", "of", "in", "at", "on", "to", "and", "between", "by", "for", "from",
)  # fmt: skip
#: Abbreviations read as the word (both sides): (word, abbreviation).
ABBREVIATIONS: tuple[tuple[str, str], ...] = (
    ("avenue", "ave"), ("street", "st"), ("saint", "st"), ("mount", "mt"), ("road", "rd"),
    ("middle", "mid"),
)  # fmt: skip
#: Heads of a Chinese term that the term may be written with or without (``盗窃罪`` is the
#: charge ``盗窃``): a reference is stated in either form, and a reference glued inside a
#: longer term that ends in the head names another term (``聚众妨害公务秩序罪`` is not
#: ``妨害公务``).
TERM_HEADS_ZH: tuple[str, ...] = ("罪",)
#: First names and their short forms (both directions count): person-name variants.
DIMINUTIVES: tuple[tuple[str, ...], ...] = (
    ("john", "johnny", "jack"), ("james", "jamie", "jim", "jimmy"),
    ("william", "bill", "billy", "will", "willie"), ("robert", "bob", "bobby", "rob", "robbie"),
    ("richard", "dick", "rick", "ricky"), ("michael", "mike", "mikey"),
    ("thomas", "tom", "tommy"), ("charles", "charlie", "chuck"), ("edward", "ed", "eddie", "ted"),
    ("joseph", "joe", "joey"), ("david", "dave"), ("daniel", "dan", "danny"),
    ("anthony", "tony"), ("christopher", "chris"), ("nicholas", "nick"),
    ("elizabeth", "liz", "beth", "betty"), ("margaret", "maggie", "peggy"),
    ("katherine", "kate", "kathy"), ("catherine", "cathy", "kate"), ("susan", "sue"),
    ("jennifer", "jenny"), ("patricia", "pat", "patty"), ("samuel", "sam"),
    ("benjamin", "ben"), ("alexander", "alex"), ("matthew", "matt"), ("stephen", "steve"),
    ("steven", "steve"), ("peter", "pete"), ("henry", "harry", "hank"),
)  # fmt: skip
