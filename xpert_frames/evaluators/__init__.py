"""Evaluators: the contract (:mod:`.base`), the XpertEval surface (:mod:`.compat`) and one
package per evaluator, each holding its helpers. Finding evaluators by name is the registry's
job (:mod:`xpert_frames.registry`); this package never imports it."""

from xpert_frames.evaluators.accuracy import AccuracyEvaluator
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.evaluators.bleu import BLEUEvaluator
from xpert_frames.evaluators.compat import aggregate_scores
from xpert_frames.evaluators.fuzzy import (
    FuzzyEvaluator,
    FuzzyMatcher,
    fuzzy_match_score,
    levenshtein_distance,
)
from xpert_frames.evaluators.math_answer import MathEvaluator
from xpert_frames.evaluators.tcm import TcmDiagnosisEvaluator

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
    "levenshtein_distance",
]
