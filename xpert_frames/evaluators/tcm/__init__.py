"""The ``tcm_diagnosis`` evaluator: syndrome, disease and treatment, with synonym tables."""

from xpert_frames.evaluators.tcm.evaluator import TcmDiagnosisEvaluator
from xpert_frames.evaluators.tcm.terms import TermTable, load_terms

__all__ = ["TcmDiagnosisEvaluator", "TermTable", "load_terms"]
