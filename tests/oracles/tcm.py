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
) -> tuple[float | None, list[str] | None, list[str] | None]:
    """(score, matched, missing) of one valid row."""
    kind = "syndrome" if kind is None else kind
    opts = (exact_match, partial_credit, keywords_weight)

    def fuzzy(a: str, b: str) -> float:
        s = levenshtein_similarity(a, b)
        if exact_match:
            return 1.0 if s == 1.0 else 0.0
        return s if s >= match_threshold else 0.0

    if kind == "syndrome":
        p = syndrome_terms(prediction, table, normalize_tcm_terms)
        r = syndrome_terms(reference, table, normalize_tcm_terms)
        if not r:
            return fuzzy(reference, prediction), [], []
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
