"""The ``fuzzy`` evaluator (normalized Levenshtein, rapidfuzz) and the seed's ``FuzzyMatcher``."""

from xpert_frames.evaluators.fuzzy.evaluator import FuzzyEvaluator, normalize, similarity
from xpert_frames.evaluators.fuzzy.matcher import (
    FuzzyMatcher,
    fuzzy_match_score,
    levenshtein_distance,
)

__all__ = [
    "FuzzyEvaluator",
    "FuzzyMatcher",
    "fuzzy_match_score",
    "levenshtein_distance",
    "normalize",
    "similarity",
]
