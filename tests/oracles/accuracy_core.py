"""Per-row Python oracle of the ``core`` rule of text answers (no package imports): the answer
clause, folding, reference forms and the whole-phrase match of
``xpert_frames.reading.core_answer`` written out again for Python's ``re``, one row at a time."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

SENT = r"(?:[^.。!?！？\n]|\.[^\s])"
COP = (
    r"(?:\s(?i:is|are|was|were)\s|(?:^|\s)(?i:it|that|this)(?:'s|’s)\s"
    r"|(?:^|[^但还于可若总只凡])是)"
)
HEADER = r"^\s*(?:[^\n:：.。?？]|\.\S){2,60}[:：][ \t]*(\S)"
RELATIVE = r"[,，]\s*(?i:which|who|whom|whose|where)\s[^.。!?！？\n]*|，(?:即)[^。！？\n]*"
MID_RELATIVE = (
    r"[,，]\s*(?i:which|who|whom|whose|where)\s[^,.。!?！？\n]*,(\s+(?i:is|are|was|were)\s)"
)
COPULA_LEAD = rf"^\s*{SENT}*?{COP}"
SUBORDINATE = (
    r"(?s)\s(?i:because|although|though|whereas|unlike|beating|defeating|followed\s+by"
    r"|ahead\s+of)\s.*\Z|[,，]?\s*(?:因为|由于|虽然|尽管|击败|战胜|其次是).*\Z"
)
ERASED_LEAD = (
    r"^(?:\s*✗\s*[;；,，:：.。—–]*\s*(?:(?i:but|rather|instead|it\s+is|it's)\s*[,，]?\s*"
    r"|而是|是)?)+"
)
LIST_OPEN = r"^\s*[:：]?[ \t]*\n"
LIST_ITEM = r"\n+[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]*"
SEPARATOR = r"\s[-–—]\s|[,，:：()（）\[\]【】|✗、]"
TITLES = {
    *[
        "the",
        "a",
        "an",
        "sir",
        "dame",
        "dr",
        "mr",
        "mrs",
        "ms",
        "miss",
        "lord",
        "lady",
        "king",
        "queen",
        "prince",
        "princess",
        "saint",
        "st",
    ],
    *[
        "president",
        "captain",
        "general",
        "professor",
        "prof",
        "pope",
        "emperor",
        "empress",
        "senator",
        "governor",
    ],
    *["judge", "and", "or", "by"],
}
# fmt: off
OPENERS = {
    "The", "This", "That", "These", "Those", "It", "He", "She", "They", "We", "I", "In", "On",
    "At", "A", "An", "His", "Her", "Its", "Their", "There", "However", "As", "For", "Some", "But",
    "And", "So", "If", "When", "After", "Before", "Although", "While",
}
# fmt: on
HEADS = {
    *[
        "city",
        "state",
        "island",
        "islands",
        "river",
        "mountain",
        "mountains",
        "club",
        "lake",
        "county",
        "airport",
    ],
    *[
        "province",
        "bay",
        "sea",
        "ocean",
        "valley",
        "university",
        "college",
        "district",
        "region",
        "street",
        "avenue",
    ],
    *["road", "park", "and", "or", "ad", "bc", "bce", "ce"],
    *["racecourse", "stadium", "station", "castle", "cathedral", "palace", "bridge", "square"],
    *["tower", "peninsula", "canal", "gulf", "strait", "estuary", "desert", "forest", "museum"],
    *["abbey", "harbour", "harbor"],
}
FUNCTION = set(
    ["the", "a", "an", "of", "in", "at", "on", "to", "and", "between", "by", "for", "from"]
)
ABBREVIATIONS = [
    ("avenue", "ave"), ("street", "st"), ("saint", "st"), ("mount", "mt"), ("road", "rd"),
    ("middle", "mid"),
]  # fmt: skip
DIMINUTIVES = [
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
]  # fmt: skip
SHORT = {name: forms for forms in DIMINUTIVES for name in forms}


def _cjk(c: str) -> bool:
    o = ord(c)
    return (
        0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF
        or 0xF900 <= o <= 0xFAFF
    )  # fmt: skip


def answer_clause(
    plain: str, rule: str | None, raw: str | None, strip_marks: Callable[[str], str]
) -> str:
    headed = re.sub(HEADER, r"\1", plain[:600], count=1)
    own = re.sub(RELATIVE, "", re.sub(MID_RELATIVE, r"\1", headed))
    if rule is None or (rule == "copula" and re.search(COPULA_LEAD, headed)):
        clause = strip_marks(re.sub(COPULA_LEAD, "", own, count=1))
    else:
        clause = strip_marks(re.sub(RELATIVE, "", (raw or "")[:600]))
    clause = re.sub(SUBORDINATE, "", clause, count=1)
    clause = re.sub(ERASED_LEAD, "", clause, count=1)
    if re.search(LIST_OPEN, clause):
        clause = re.sub(LIST_ITEM, ", ", clause)
    return clause


def fold(v: str, cs: bool) -> str:
    v = re.sub(r"([\u3400-\u9fff])\s*[,，]", r"\1。", v)
    v = re.sub(
        r"\b([A-HJ-UWYZ]|Mr|Mrs|Ms|Dr|St|Mt)\.(?=(\s+)(\w+))",
        lambda m: (
            m.group(0) if not m.group(3)[0].isupper() or m.group(3) in OPENERS else m.group(1)
        ),
        v,
    )
    v = re.sub(r"[。!?！？;；\n]|\.[\"”’']*(?:\s|\Z)", " ¶ ", v)
    v = re.sub(SEPARATOR, " | ", v).replace("&", " and ")
    v = "".join(c if c.isalnum() or c in "¶|" else " " for c in v)
    v = re.sub(r"\s+", " ", v).strip(" ")
    if not cs:
        v = v.lower()
    for word, short in ABBREVIATIONS:
        v = re.sub(rf"(?i)\b{word}\b", short, v)
    return re.sub(r"(?i)\b(early|mid|late) (?:of )?(?:the )?(\d{3}0s)\b", r"\1 \2", v)


def reference_forms(reference: str) -> list[str]:
    ref = reference.strip()
    out = [ref]
    parens = re.compile(r"\s*[(（][^()（）]*[)）]\s*")
    if parens.search(ref):
        out.append(" ".join(parens.sub(" ", ref).split()))
        out.append(" ".join(re.sub(r"[()（）]", " ", ref).split()))
    nick = re.match(r"^(\S+)\s+[\"“'‘]([^\"”'’\s]+)[\"”'’]\s+(.+)$", ref)
    if nick:
        out += [f"{nick.group(2)} {nick.group(3)}", f"{nick.group(1)} {nick.group(3)}"]
    place = re.match(r"^(?:(?:at|in)\s+)?([^,]+),\s+(?:in|at)\s+\S", ref)
    if place:
        out.append(place.group(1).strip())
    lead = re.match(r"^(?:\.\.\.|…)\s*([^.!?]+)", ref)
    if lead:
        out.append(lead.group(1).strip())
    month = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
    flat = " ".join(ref.split())
    dmy = re.match(rf"^(?:on\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+({month}),?\s+(\d{{4}})$", flat)
    mdy = re.match(rf"^(?:on\s+)?({month})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})$", flat)
    if dmy:
        out.append(f"{dmy.group(2)} {dmy.group(1)}, {dmy.group(3)}")
    elif mdy:
        out.append(f"{mdy.group(2)} {mdy.group(1)} {mdy.group(3)}")
    if re.match(r"^[\u3400-\u9fff]{2,}$", ref):
        # a Chinese term with and without its head (盗窃 / 盗窃罪)
        if ref.endswith("罪"):
            out += [ref[:-1]] if len(ref) > 2 else []
        else:
            out.append(ref + "罪")
    for form in list(out):
        if re.match(r"^[A-Z][a-z]+(?: [A-Z][a-z]+){1,2}$", form):
            words = form.split()
            forms = SHORT.get(words[0].lower())
            if forms is not None:
                out += [f"{words[0]} {words[-1]}"] if len(words) == 3 else []
                out += [f"{f.capitalize()} {words[-1]}" for f in forms if f != words[0].lower()]
    return [f for f in dict.fromkeys(out) if f]


def _upper(word: str | None) -> bool:
    return bool(word) and unicodedata.category(word[0]) == "Lu"  # type: ignore[index]


QUOTED_TITLE = (
    r'"[^"\n]{1,60}"|“[^”\n]{1,60}”|《[^》\n]{1,60}》|「[^」\n]{1,60}」|『[^』\n]{1,60}』'
)
TEXT_HEDGE = r"可能|也许|或许|大概|(?i:maybe|perhaps|possibly|might|could)"
OR_AFTER = r"^(?:\S+ ){0,3}(?:or|either)(?: |\Z)|^\S{0,6}(?:或者|或|还是)"
OR_BEFORE = r"(?:^| )(?:or|either)(?: \S+){0,3} ?\Z|(?:或者|或|还是)\S{0,6} ?\Z"


def core_match(clause: str, ref: str, cs: bool) -> bool:
    first = re.sub(r"(?s)(?:[。!?！？\n]|\.(?:\s|\Z)).*\Z", "", clause, count=1)
    if re.search(TEXT_HEDGE, re.sub(QUOTED_TITLE, "“…”", first)):
        return False
    cased = fold(clause, True)
    norm = cased if cs else cased.lower()
    sentence = norm.split("¶")[0]
    for form in (fold(f, cs) for f in reference_forms(ref)):
        if not form:
            continue
        ls = form[0].isalnum() and not _cjk(form[0])
        le = form[-1].isalnum() and not _cjk(form[-1])
        key = (" " if ls else "") + form + (" " if le else "")
        hay, hay_cased = f" {norm} ", f" {cased} "
        parts = hay.split(key)
        prefix = parts[0]
        start = len(prefix)
        after, before = hay_cased[start + len(key) :], hay_cased[:start]
        b1 = re.search(r"(\S+)\s*\Z", before)
        a1 = re.match(r"\s*(\S+)", after)
        w_before, w_after = (b1.group(1) if b1 else None), (a1.group(1) if a1 else None)
        longer = (ls and _upper(w_before) and w_before.lower() not in TITLES) or (  # type: ignore[union-attr]
            le and _upper(w_after) and w_after.lower() not in HEADS  # type: ignore[union-attr]
        )
        before2, after2 = re.sub(r"[\s|]+\Z", "", before), re.sub(r"^[\s|]+", "", after)
        two = re.search(OR_AFTER, after2.lower()) or re.search(OR_BEFORE, before2.lower())
        glued = len(re.search(r"(\S*)\Z", before).group(1)) + len(  # type: ignore[union-attr]
            re.match(r"(\S*)", after).group(1)  # type: ignore[union-attr]
        )
        other = not ls and not le and 1 <= glued <= 2
        # followed in its run by the head 罪: part of a longer term (the headed form decides)
        run_after = re.match(r"(\S*)", after).group(1)  # type: ignore[union-attr]
        other = other or (not le and not form.endswith("罪") and "罪" in run_after)
        if len(parts) > 1 and "¶" not in prefix and not longer and not two and not other:
            return True
        words = form.split(" ")
        content = set(words) - FUNCTION - {"|", "¶", ""}
        if set(words) & FUNCTION and 1 <= len(content) <= 4 and content <= set(sentence.split(" ")):
            return True
    span = re.match(r"^\s*(\d{3,4})\s*[–-]\s*(\d{3,4})\s*\Z", ref)
    if span:
        low, high = int(span.group(1)), int(span.group(2))
        return any(low <= int(y) <= high for y in re.findall(r"\b\d{3,4}\b", sentence))
    return False


def answer_subject(plain: str, rule: str | None, raw: str | None) -> str | None:
    """The first sentence's subject when its copula's predicate describes it."""
    headed = re.sub(HEADER, r"\1", plain[:600], count=1)
    m = re.match(r"^\s*((?:[^.。!?！？\n]|\.\S){1,80}?)\s(?i:is|are|was|were)\s", headed)
    describes = re.match(
        r"^\s*(?i:the|a|an|one\s+of)\s|^\s*(?i:[a-z]+(?:ed|en|wn)|born|made|built|held|led"
        r"|won|sung|sold)\s",
        raw or "",
    )
    if rule != "copula" or m is None or not describes or not re.search(COPULA_LEAD, headed):
        return None
    if re.search(r"[,，]\s*(?i:which|who|whom|whose|where)\s", m.group(1)):
        return None
    return m.group(1)


def subject_match(subject: str | None, ref: str, cs: bool) -> bool:
    """A form of the reference ends the subject, not as the tail of a longer name."""
    if subject is None:
        return False
    cased = fold(subject, True).strip(" |¶")
    norm = cased if cs else cased.lower()
    for form in (fold(f, cs) for f in reference_forms(ref)):
        if form and f" {norm}".endswith(f" {form}"):
            b1 = re.search(r"(\S+)\s*\Z", cased[: len(norm) - len(form)])
            word = b1.group(1) if b1 else None
            if not (_upper(word) and word.lower() not in TITLES):  # type: ignore[union-attr]
                return True
    return False
