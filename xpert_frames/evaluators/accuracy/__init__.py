"""The ``accuracy`` evaluator: choice, text and number answers, with answer extraction."""

from xpert_frames.evaluators.accuracy.choice_extract import extract_choice
from xpert_frames.evaluators.accuracy.evaluator import (
    AccuracyEvaluator,
    choice_match,
    normalize_text,
    number_match,
    text_match,
)

__all__ = [
    "AccuracyEvaluator",
    "choice_match",
    "extract_choice",
    "normalize_text",
    "number_match",
    "text_match",
]
