"""Plain-Python oracle of the TCM diagnosis rules, one row at a time.

Obviously correct and slow on purpose; it does not import xpert_frames. Tables are read with
the ``csv`` module from the shipped files (data, not code).
"""

from __future__ import annotations

import csv
import re
import unicodedata
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "xpert_frames" / "data"
SEPARATORS = "，,、；;。.／/\\s"
NAME_SUFFIX_KEPT = (
    "糖尿病",
    "心脏病",
    "冠心病",
    "白血病",
    "肺心病",
    "帕金森病",
    "阿尔茨海默病",
    "克罗恩病",
    "艾滋病",
    "狂犬病",
)


class Table:
    """synonym -> canonical, canonical -> category."""

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        self.mapping: dict[str, str] = {}
        self.category: dict[str, str] = {}
        for canonical, synonym, category in rows:
            self.mapping[canonical] = canonical
            self.mapping[synonym] = canonical
            self.category[canonical] = category


def read_table(name: str) -> Table:
    with open(DATA / f"tcm_terms_{name}.csv", encoding="utf-8", newline="") as f:
        return Table([(r["canonical"], r["synonym"], r["category"]) for r in csv.DictReader(f)])


# --------------------------------------------------------------------------- the seed function
def calculate_set_similarity(
    pred_set: set[str],
    ref_set: set[str],
    exact_match: bool = False,
    partial_credit: bool = True,
    keywords_weight: float = 0.6,
) -> float:
    """The seed's ``_calculate_set_similarity``, verbatim."""
    if not pred_set and not ref_set:
        return 1.0
    if not pred_set or not ref_set:
        return 0.0
    intersection = pred_set.intersection(ref_set)
    union = pred_set.union(ref_set)
    jaccard = len(intersection) / len(union) if union else 0.0
    recall = len(intersection) / len(ref_set) if ref_set else 0.0
    precision = len(intersection) / len(pred_set) if pred_set else 0.0
    if exact_match:
        return 1.0 if pred_set == ref_set else 0.0
    if partial_credit:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        return keywords_weight * f1 + (1 - keywords_weight) * jaccard
    return jaccard


# --------------------------------------------------------------------------- text
def scan(text: str, mapping: dict[str, str]) -> list[tuple[str, str | None]]:
    """Leftmost-longest tokenization: (piece, canonical or None for plain characters)."""
    out: list[tuple[str, str | None]] = []
    lengths = sorted({len(k) for k in mapping}, reverse=True)
    i = 0
    while i < len(text):
        for n in lengths:
            piece = text[i : i + n]
            if len(piece) == n and piece in mapping:
                out.append((piece, mapping[piece]))
                i += n
                break
        else:
            out.append((text[i], None))
            i += 1
    return out


def normalize(text: str, mapping: dict[str, str]) -> str:
    return "".join(piece if canon is None else canon for piece, canon in scan(text, mapping))


def syndrome_terms(text: str, table: Table, normalize_terms: bool = True) -> list[str]:
    mapping = table.mapping if normalize_terms else {c: c for c in table.category}
    # Control characters \x02/\x03 (the evaluator's markers) are plain unmatched characters.
    found: list[str] = []
    for _, canon in scan(text, mapping):
        if canon is not None and table.category[canon] != "treatment" and canon not in found:
            found.append(canon)
    return found


def full_to_half(text: str) -> str:
    return "".join(
        " " if ch == "\u3000" else chr(ord(ch) - 0xFEE0) if 0xFF01 <= ord(ch) <= 0xFF5E else ch
        for ch in text
    )


def disease_text(text: str, strip_suffix: bool = True) -> str:
    text = full_to_half(text)
    text = "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in text)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] not in "PS")
    text = "".join(ch for ch in text if not ch.isspace())
    if (
        strip_suffix
        and text[-1:] in ("证", "病")
        and len(text) >= 3
        and not any(text.endswith(n) for n in NAME_SUFFIX_KEPT)
    ):
        text = text[:-1]
    return text


def treatment_keywords(reference: str, table: Table, normalize_terms: bool = True) -> list[str]:
    if normalize_terms:
        reference = normalize(reference, table.mapping)
    out: list[str] = []
    for piece in re.findall(f"[^{SEPARATORS}]+", reference):
        if piece not in out:
            out.append(piece)
    return out


def levenshtein_similarity(a: str, b: str) -> float:
    if not a and not b:
        return 1.0
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(cur[j - 1] + 1, prev[j] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return 1.0 - prev[-1] / max(len(a), len(b))


# --------------------------------------------------------------------------- the conclusion
REJECT = (
    "不符",
    "不是",
    "并非",
    "不属于",
    "排除",
    "不适用",
    "不适合",
    "不正确",
    "不完全",
    "并不",
    "不能",
    "不应",
    "不太",
    "均不",
    "都不",
    "而非",
    "并未",
    "未见",
    "未描述",
    "没有",
    "其他选项",
    "其余选项",
    "其它选项",
    "其他的选项",
    "其余的选项",
)
CONCLUSION = (
    "因此",
    "所以",
    "故",
    "综上",
    "总之",
    "答案",
    "诊断为",
    "辨证为",
    "辨为",
    "证属",
    "属于",
    "应为",
    "应该是",
    "判断为",
    "考虑为",
    "称为",
    "选择",
    "选",
)
SENTENCE_ENDS = "。；;！!？?\n"


def sentences(text: str) -> list[str]:
    """Split after runs of 。；;！？ and line breaks, and after a full stop before a space or
    the end (a full stop before another character is not an end: ``C.痞满``, ``3.5``)."""
    out, cur, i = [], "", 0
    while i < len(text):
        ch = text[i]
        if ch in SENTENCE_ENDS:
            while i < len(text) and text[i] in SENTENCE_ENDS:
                cur += text[i]
                i += 1
            out.append(cur)
            cur = ""
            continue
        if ch == "." and (i + 1 == len(text) or text[i + 1].isspace()):
            cur += ch
            i += 1
            while i < len(text) and text[i].isspace() and text[i] != "\n":
                cur += text[i]
                i += 1
            out.append(cur)
            cur = ""
            continue
        cur += ch
        i += 1
    if cur:
        out.append(cur)
    return out


def clauses(sentence: str) -> list[str]:
    return [c for c in re.findall(r"[^，,]+[，,]*", sentence)]


def rejects(text: str) -> bool:
    return any(w in text for w in REJECT)


def committed(text: str) -> str:
    kept = []
    for s in sentences(text):
        if not rejects(s):
            kept.append(s)
        else:
            kept.extend(c for c in clauses(s) if not rejects(c) and any(w in c for w in CONCLUSION))
    out = "".join(kept)
    return out if out.strip() else text


def stem(value: str) -> str:
    value = stem_text(value)
    for suffix in ("证型", "证候", "证", "型"):
        if value.endswith(suffix) and len(value) - len(suffix) >= 2:
            return value[: -len(suffix)]
    return value


LETTERS = "ABCDEFGHIJ"
AFTER = re.compile(
    r"(?:选择|应选|故选|可选|选(?:定)?|答案(?:应该|应当|应|就|即)?(?:是|为|选)|答案\s*[:：]|"
    r"(?i:answer\s*(?:is|:)|option\s*is|choice\s*is)|(?i:answer)\s*[:：]?)\s*(?:选项)?\s*[（(]?\s*"
    r"([A-J](?:\s*(?:和|或|与|及|、|,|，|or|and)\s*(?:选项)?\s*[A-J])*)(?:[^A-Za-z]|$)"
)
BEFORE = re.compile(
    r"(?:^|[^A-Za-z])(?:选项\s*)?([A-J])\s*(?:选项|项)?[^。；;，,\n不未非没]{0,16}?"
    r"(?:最符合|最正确|最准确|最佳|最合适|最恰当|最为符合|是正确|正确的|符合题意|为正确)"
)


def option_pick(prediction: str, choices: list[dict[str, str]]) -> str | None:
    """The option chosen: the last letter stated in a clause that rejects nothing (the last
    match of the last such clause), else the options that the last non-rejecting sentence
    naming any names ("?" for two); a later conclusion naming another option than the
    letter: "?"."""
    letter: tuple[int, list[str]] | None = None
    contents: list[tuple[int, set[str], bool]] = []
    options = [(o["id"], stem(o["content"] or "")) for o in choices]
    options = [(i, st) for i, st in options if len(st) >= 2]
    for k, sentence in enumerate(sentences(prediction)):
        for clause in clauses(sentence):
            if rejects(clause):
                continue
            found = [
                (m.start(), [ch for ch in m.group(1) if ch in LETTERS])
                for m in AFTER.finditer(clause)
            ]
            found += [(m.start(), [m.group(1)]) for m in BEFORE.finditer(clause)]
            if found:
                letter = (k, max(found, key=lambda x: x[0])[1])
        if rejects(sentence):
            continue
        text = stem_text(sentence)
        named = {(i, st) for i, st in options if st in text}
        ids = {i for i, st in named if not any(st != o and st in o for _, o in named)}
        if ids:
            contents.append((k, ids, any(w in sentence for w in CONCLUSION)))
    if letter is not None:
        k, chosen = letter
        if len(set(chosen)) != 1:
            return "?"
        if any(ck > k and concl and ids != {chosen[0]} for ck, ids, concl in contents):
            return "?"
        return chosen[0]
    if contents:
        ids = contents[-1][1]
        return next(iter(ids)) if len(ids) == 1 else "?"
    return None


def stem_text(value: str) -> str:
    return "".join(
        ch.lower() for ch in value if unicodedata.category(ch)[0] not in "PSZ" and not ch.isspace()
    )


def whole(reference: str, table: Table, normalize_terms: bool) -> bool:
    """Whether the reference holds more than its known terms (joiners and 证/型 aside)."""
    mapping = table.mapping if normalize_terms else {c: c for c in table.category}
    rest = "".join(piece for piece, canon in scan(reference, mapping) if canon is None)
    for word in ("证候", "证", "型", "兼", "夹", "和", "及", "并", "伴", "或", "与"):
        rest = rest.replace(word, "")
    return bool(stem_text(rest))


# --------------------------------------------------------------------------- one row
def score_row(
    prediction: str,
    reference: str,
    kind: str | None,
    table: Table,
    *,
    match_threshold: float = 0.7,
    exact_match: bool = False,
    partial_credit: bool = True,
    keywords_weight: float = 0.6,
    normalize_tcm_terms: bool = True,
    choices: list[dict[str, str]] | None = None,
) -> tuple[float | None, list[str] | None, list[str] | None]:
    """(score, matched, missing) of one valid row."""
    kind = "syndrome" if kind is None else kind
    opts = (exact_match, partial_credit, keywords_weight)
    if kind in ("syndrome", "disease", "treatment") and choices:
        ref_id = next(
            (
                o["id"]
                for o in choices
                if stem(o["content"] or "") == stem(reference) and stem(reference)
            ),
            None,
        )
        pick = option_pick(prediction, choices) if ref_id is not None else None
        if pick is not None:
            return (1.0, [reference], []) if pick == ref_id else (0.0, [], [reference])
    prediction = committed(prediction)

    def fuzzy(a: str, b: str) -> float:
        s = levenshtein_similarity(a, b)
        if exact_match:
            return 1.0 if s == 1.0 else 0.0
        return s if s >= match_threshold else 0.0

    if kind == "syndrome":
        p = syndrome_terms(prediction, table, normalize_tcm_terms)
        r = syndrome_terms(reference, table, normalize_tcm_terms)
        if not r or whole(reference, table, normalize_tcm_terms):
            name, said = stem(reference), stem(prediction)
            if name and (said == name if exact_match else name in said):
                return 1.0, [name], []
            return fuzzy(reference, prediction), [], [name] if r else []
        score = calculate_set_similarity(set(p), set(r), *opts)
        return score, [t for t in p if t in r], [t for t in r if t not in p]
    if kind == "disease":
        pd = disease_text(prediction, strip_suffix=False)  # a sentence: see the fuzzy rule
        rd = disease_text(reference)
        if rd and (disease_text(prediction) == rd or rd in pd):
            return 1.0, [rd], []
        score = fuzzy(rd, disease_text(prediction)) if partial_credit and not exact_match else 0.0
        return score, [], [rd]
    if kind == "treatment":
        keywords = treatment_keywords(reference, table, normalize_tcm_terms)
        pred = normalize(prediction, table.mapping) if normalize_tcm_terms else prediction
        found = [k for k in keywords if k in pred]
        score = calculate_set_similarity(set(found), set(keywords), *opts)
        return score, found, [k for k in keywords if k not in found]
    return None, None, None
