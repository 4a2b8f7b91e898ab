"""Evaluators: the contract (:mod:`.base`), the XpertEval surface (:mod:`.compat`) and one
package per evaluator, each holding its helpers. Finding evaluators by name is the registry's
job (:mod:`xpert_frames.registry`); this package never imports it.

The names below are imported on first use (PEP 562), so importing one evaluator (or
:mod:`.base`) does not import the others and their pattern tables.
"""

from __future__ import annotations

from xpert_frames.core.lazy import lazy_attributes

TYPE_CHECKING = False  # as typing.TYPE_CHECKING (type checkers read it so), without typing
if TYPE_CHECKING:
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

#: Where each public name is defined; imported by ``__getattr__`` on first use.
_SOURCES: dict[str, str] = {
    "AccuracyEvaluator": "xpert_frames.evaluators.accuracy",
    "BaseEvaluator": "xpert_frames.evaluators.base",
    "BLEUEvaluator": "xpert_frames.evaluators.bleu",
    "aggregate_scores": "xpert_frames.evaluators.compat",
    "FuzzyEvaluator": "xpert_frames.evaluators.fuzzy",
    "FuzzyMatcher": "xpert_frames.evaluators.fuzzy",
    "fuzzy_match_score": "xpert_frames.evaluators.fuzzy",
    "levenshtein_distance": "xpert_frames.evaluators.fuzzy",
    "MathEvaluator": "xpert_frames.evaluators.math_answer",
    "TcmDiagnosisEvaluator": "xpert_frames.evaluators.tcm",
}

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

if not TYPE_CHECKING:  # type checkers see the names above, and an unknown name is an error
    __getattr__, __dir__ = lazy_attributes(__name__, _SOURCES, __all__)
