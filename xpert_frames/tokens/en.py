"""English tokenization with NLTK's ``NLTKWordTokenizer`` (the reference for the fast path).

Plain ``word_tokenize`` first splits sentences with the ``punkt`` model, which must be
downloaded and is not available offline; ``word_tokenize(text, preserve_line=True)`` skips that
step and is exactly ``NLTKWordTokenizer().tokenize(text)``, which is what is used here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_tokenizer: Any = None


def _get() -> Any:
    global _tokenizer
    if _tokenizer is None:
        from nltk.tokenize import NLTKWordTokenizer

        _tokenizer = NLTKWordTokenizer()
    return _tokenizer


def tokenize(text: str) -> list[str]:
    """``nltk.word_tokenize(text, preserve_line=True)``, without needing ``punkt``."""
    return _get().tokenize(text)


def tokenize_many(texts: Sequence[str]) -> list[list[str]]:
    """:func:`tokenize` over a batch (one tokenizer lookup for the batch)."""
    fn = _get().tokenize
    return [fn(t) for t in texts]


def version() -> str:
    import nltk

    return f"nltk-{nltk.__version__}"
