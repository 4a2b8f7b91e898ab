"""xpert_frames: dataframe-native scoring of LLM outputs against reference answers."""

from xpert_frames.api import BatchScorer, html_report, load_sample, report, score
from xpert_frames.core.frames import Columns, flatten_references, from_records
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
    levenshtein_distance,
)
from xpert_frames.provenance import write_scored
from xpert_frames.registry import (
    get_evaluator,
    get_evaluators,
    list_evaluators,
    register_evaluator,
)
from xpert_frames.reporting.compare import compare
from xpert_frames.reporting.report import to_seed_dict

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
    "html_report",
    "levenshtein_distance",
    "list_evaluators",
    "load_sample",
    "register_evaluator",
    "report",
    "score",
    "to_seed_dict",
    "write_scored",
]
