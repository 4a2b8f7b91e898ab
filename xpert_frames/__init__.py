"""xpert_frames: dataframe-native scoring of LLM outputs against reference answers.

The public names below are imported on first use (PEP 562 ``__getattr__``): ``import
xpert_frames`` imports neither Polars nor the evaluators, ``xf.score`` (or ``from xpert_frames
import score``) imports what it needs. ``dir()``, ``__all__`` and type checkers (through the
``TYPE_CHECKING`` imports) see the same names as an eager package would.
"""

from __future__ import annotations

from xpert_frames.core.lazy import lazy_attributes

TYPE_CHECKING = False  # as typing.TYPE_CHECKING (type checkers read it so), without typing
if TYPE_CHECKING:
    from xpert_frames.api import (
        BatchScorer,
        html_report,
        load_sample,
        load_sample_plan,
        report,
        score,
    )
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
    from xpert_frames.plans import Plan, PlanEntry
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

#: Where each public name is defined; imported by :func:`__getattr__` on first use.
_SOURCES: dict[str, str] = {
    **dict.fromkeys(
        ("BatchScorer", "html_report", "load_sample", "load_sample_plan", "report", "score"),
        "xpert_frames.api",
    ),
    **dict.fromkeys(("Columns", "flatten_references", "from_records"), "xpert_frames.core.frames"),
    **dict.fromkeys(
        (
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
        ),
        "xpert_frames.evaluators",
    ),
    "write_scored": "xpert_frames.provenance",
    **dict.fromkeys(("Plan", "PlanEntry"), "xpert_frames.plans"),
    **dict.fromkeys(
        ("get_evaluator", "get_evaluators", "list_evaluators", "register_evaluator"),
        "xpert_frames.registry",
    ),
    "compare": "xpert_frames.reporting.compare",
    "to_seed_dict": "xpert_frames.reporting.report",
}

__all__ = [
    "AccuracyEvaluator",
    "BLEUEvaluator",
    "BaseEvaluator",
    "BatchScorer",
    "Columns",
    "FuzzyEvaluator",
    "FuzzyMatcher",
    "MathEvaluator",
    "Plan",
    "PlanEntry",
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
    "load_sample_plan",
    "register_evaluator",
    "report",
    "score",
    "to_seed_dict",
    "write_scored",
]


if not TYPE_CHECKING:  # type checkers see the names above, and an unknown name is an error
    __getattr__, __dir__ = lazy_attributes(__name__, _SOURCES, __all__, submodules=True)
