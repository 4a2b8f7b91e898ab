"""xpert_frames: dataframe-native scoring of LLM outputs against reference answers."""

from xpert_frames.compare import compare
from xpert_frames.evaluators import (
    AccuracyEvaluator,
    BaseEvaluator,
    BLEUEvaluator,
    FuzzyEvaluator,
    FuzzyMatcher,
    MathEvaluator,
    TcmDiagnosisEvaluator,
    aggregate_scores,
    fuzzy_match_score,
    get_evaluator,
    get_evaluators,
    levenshtein_distance,
    list_evaluators,
    register_evaluator,
)
from xpert_frames.frames import Columns, flatten_references, from_records
from xpert_frames.io import load_sample
from xpert_frames.provenance import write_scored
from xpert_frames.report import report, to_seed_dict
from xpert_frames.scoring import BatchScorer, score

__version__ = "0.1.0"

__all__ = [
    "AccuracyEvaluator",
    "BLEUEvaluator",
    "BaseEvaluator",
    "BatchScorer",
    "Columns",
    "FuzzyEvaluator",
    "FuzzyMatcher",
    "MathEvaluator",
    "TcmDiagnosisEvaluator",
    "__version__",
    "aggregate_scores",
    "compare",
    "flatten_references",
    "from_records",
    "fuzzy_match_score",
    "get_evaluator",
    "get_evaluators",
    "levenshtein_distance",
    "list_evaluators",
    "load_sample",
    "register_evaluator",
    "report",
    "score",
    "to_seed_dict",
    "write_scored",
]
