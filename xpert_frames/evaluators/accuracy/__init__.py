"""The ``accuracy`` evaluator: choice, text, label, true/false and number answers, with answer
extraction."""

from xpert_frames.evaluators.accuracy.evaluator import (
    AccuracyEvaluator,
    choice_match,
    judge_match,
    normalize_text,
    number_match,
    text_match,
)
from xpert_frames.reading.choice import extract_choice

__all__ = [
    "AccuracyEvaluator",
    "choice_match",
    "extract_choice",
    "judge_match",
    "normalize_text",
    "number_match",
    "text_match",
]
