"""The ``math`` evaluator: numbers, units, fractions, Chinese numerals, with tolerance."""

from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator

__all__ = ["MathEvaluator"]
