"""Oracle for BLEU: the seed's per-row path, plainly (no import of xpert_frames' implementation).

Language from the prediction (CJK share > 20%), jieba.lcut or NLTKWordTokenizer (=
``word_tokenize(text, preserve_line=True)``), then ``nltk.translate.bleu_score.sentence_bleu``.
"""

from __future__ import annotations

import logging
import re
import warnings
from collections.abc import Sequence

import jieba
from nltk.tokenize import NLTKWordTokenizer
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

from xpert_frames.tokens.zh import cache_dir

jieba.setLogLevel(logging.WARNING)
# jieba's own default is the temporary directory (also in the benchmarks' child processes).
jieba.dt.tmp_dir = str(cache_dir())
_EN = NLTKWordTokenizer()


def detect_language(text: str) -> str:
    chinese = len(re.findall(r"[\u4e00-\u9fff]", text))
    if len(text) > 0 and chinese / len(text) > 0.2:
        return "zh"
    return "en"


def tokenize(text: str, language: str) -> list[str]:
    return jieba.lcut(text) if language == "zh" else _EN.tokenize(text)


def row_tokens(prediction: str, references: Sequence[str], language: str = "auto") -> tuple:
    lang = detect_language(prediction) if language == "auto" else language
    return tokenize(prediction, lang), [tokenize(r, lang) for r in references]


def bleu(
    prediction: str,
    references: str | Sequence[str],
    *,
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    smoothing: bool = True,
    language: str = "auto",
) -> float:
    """One row, as the seed computes it (an empty prediction is 0.0)."""
    refs = [references] if isinstance(references, str) else [r for r in references if r is not None]
    if not prediction:
        return 0.0
    hyp, ref_tokens = row_tokens(prediction, refs, language)
    smooth = SmoothingFunction().method1 if smoothing else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(sentence_bleu(ref_tokens, hyp, weights=weights, smoothing_function=smooth))


def corpus(
    predictions: Sequence[str],
    references: Sequence[str | Sequence[str]],
    *,
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    smoothing: bool = True,
    language: str = "auto",
) -> float:
    """NLTK's corpus BLEU on the same tokens."""
    hyps, refs = [], []
    for p, r in zip(predictions, references, strict=True):
        rs = [r] if isinstance(r, str) else [x for x in r if x is not None]
        h, t = row_tokens(p, rs, language)
        hyps.append(h)
        refs.append(t)
    smooth = SmoothingFunction().method1 if smoothing else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(corpus_bleu(refs, hyps, weights=weights, smoothing_function=smooth))
