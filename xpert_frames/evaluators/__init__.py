"""Evaluators and the registry (the seed's ``xperteval.evaluators`` names)."""

from xpert_frames.evaluators.accuracy import AccuracyEvaluator
from xpert_frames.evaluators.base import BaseEvaluator, aggregate_scores
from xpert_frames.evaluators.bleu import BLEUEvaluator
from xpert_frames.evaluators.fuzzy import (
    FuzzyEvaluator,
    FuzzyMatcher,
    fuzzy_match_score,
    levenshtein_distance,
)
from xpert_frames.evaluators.math_answer import MathEvaluator
from xpert_frames.evaluators.tcm_diagnosis import TcmDiagnosisEvaluator
from xpert_frames.registry import (
    get_evaluator,
    get_evaluators,
    list_evaluators,
    register_evaluator,
)

__all__ = [
    "AccuracyEvaluator",
    "BLEUEvaluator",
    "BaseEvaluator",
    "FuzzyEvaluator",
    "FuzzyMatcher",
    "MathEvaluator",
    "TcmDiagnosisEvaluator",
    "aggregate_scores",
    "fuzzy_match_score",
    "get_evaluator",
    "get_evaluators",
    "levenshtein_distance",
    "list_evaluators",
    "register_evaluator",
]
