"""The seed's pure-Python fuzzy matching API: ``levenshtein_distance``, ``fuzzy_match_score``
and ``FuzzyMatcher``, kept for users of the XpertEval design and as the readable reference of
the columnar path (:func:`xpert_frames.evaluators.fuzzy.evaluator.similarity`)."""

from __future__ import annotations

from typing import Any

from xpert_frames.core.options import check_fraction


def levenshtein_distance(s1: str, s2: str) -> int:
    """Edit distance by characters (the seed's two-row dynamic programme)."""
    if len(s1) < len(s2):
        s1, s2 = s2, s1
    if not s2:
        return len(s1)
    prev_row = list(range(len(s2) + 1))
    for i, c1 in enumerate(s1, 1):
        curr_row = [i]
        for j, c2 in enumerate(s2, 1):
            insert_cost = curr_row[j - 1] + 1
            delete_cost = prev_row[j] + 1
            replace_cost = prev_row[j - 1] + (c1 != c2)
            curr_row.append(min(insert_cost, delete_cost, replace_cost))
        prev_row = curr_row
    return prev_row[-1]


def fuzzy_match_score(reference: str, output: str) -> float:
    """``1 - distance / max(len)``; both empty gives 1.0, exactly one empty gives 0.0."""
    if not reference and not output:
        return 1.0
    if not reference or not output:
        return 0.0
    dist = levenshtein_distance(reference, output)
    return 1.0 - dist / max(len(reference), len(output))


class FuzzyMatcher:
    """The seed's matcher: ``is_match`` and ``evaluate`` for one pair at a time."""

    def __init__(self, threshold: float = 0.6) -> None:
        self.threshold = check_fraction("threshold", threshold)

    def is_match(self, reference: str, output: str) -> bool:
        return fuzzy_match_score(reference, output) >= self.threshold

    def evaluate(self, reference: str, output: str) -> dict[str, Any]:
        score = fuzzy_match_score(reference, output)
        return {
            "reference": reference,
            "output": output,
            "similarity": round(score, 4),
            "threshold": self.threshold,
            "is_match": score >= self.threshold,
        }


# --------------------------------------------------------------------------- expressions
