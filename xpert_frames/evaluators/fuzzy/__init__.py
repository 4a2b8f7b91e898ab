"""The ``fuzzy`` evaluator (normalized Levenshtein: rapidfuzz's kernel, through
:mod:`xpert_frames.distance`) and the seed's ``FuzzyMatcher``."""

from xpert_frames.distance.levenshtein import MAX_PAIR_CELLS, LongPairWarning
from xpert_frames.evaluators.fuzzy.evaluator import FuzzyEvaluator, normalize, similarity
from xpert_frames.evaluators.fuzzy.matcher import (
    FuzzyMatcher,
    fuzzy_match_score,
    levenshtein_distance,
)

__all__ = [
    "MAX_PAIR_CELLS",
    "FuzzyEvaluator",
    "FuzzyMatcher",
    "LongPairWarning",
    "fuzzy_match_score",
    "levenshtein_distance",
    "normalize",
    "similarity",
]
