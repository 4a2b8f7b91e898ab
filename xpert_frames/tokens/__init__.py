"""Tokenizers: tiny named callables, their libraries imported on first use.

* :func:`tokenize_en` — NLTK's ``NLTKWordTokenizer``
  (= ``word_tokenize(text, preserve_line=True)``).
* :func:`tokenize_zh` — ``jieba.lcut`` (default mode; spaces are tokens).
* :func:`tokenize_series` — a whole String Series per language, each unique string once, as a
  ``List(String)`` Series (English through the Polars fast path where proven identical).
"""

from __future__ import annotations

from xpert_frames.tokens.columns import is_chinese, tokenize_series
from xpert_frames.tokens.en import tokenize as tokenize_en
from xpert_frames.tokens.zh import tokenize as tokenize_zh

__all__ = ["is_chinese", "tokenize_en", "tokenize_series", "tokenize_zh"]
