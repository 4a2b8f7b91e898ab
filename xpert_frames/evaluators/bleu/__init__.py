"""The ``bleu`` evaluator: NLTK-identical sentence BLEU, corpus BLEU from summed statistics."""

from xpert_frames.evaluators.bleu.evaluator import BLEUEvaluator, bleu_signature

__all__ = ["BLEUEvaluator", "bleu_signature"]
