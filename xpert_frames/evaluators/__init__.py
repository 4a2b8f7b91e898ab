"""Evaluators and the registry (the seed's ``xperteval.evaluators`` names)."""

from xpert_frames.evaluators.base import BaseEvaluator, aggregate_scores
from xpert_frames.evaluators.fuzzy import (
    FuzzyEvaluator,
    FuzzyMatcher,
    fuzzy_match_score,
    levenshtein_distance,
)
from xpert_frames.registry import (
    get_evaluator,
    get_evaluators,
    list_evaluators,
    register_evaluator,
)

__all__ = [
    "BaseEvaluator",
    "FuzzyEvaluator",
    "FuzzyMatcher",
    "aggregate_scores",
    "fuzzy_match_score",
    "get_evaluator",
    "get_evaluators",
    "levenshtein_distance",
    "list_evaluators",
    "register_evaluator",
]
