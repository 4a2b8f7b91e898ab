"""Chinese tokenization: exactly ``jieba.lcut`` (default dictionary, accurate mode, HMM on).

``jieba.lcut(text)`` splits ``text`` with ``re_han_default`` (:data:`BLOCK_CHAR`) into *blocks*
(maximal runs of CJK U+4E00–U+9FD5, ASCII letters, digits and ``+#&._%-``) and the characters
between them. Each block is segmented on its own (``__cut_DAG``, which reads nothing but the
block); every other character is a token by itself, except ``"\\r\\n"``, which is one token
(``re_skip_default`` = ``(\\r\\n|\\s)``). So

    jieba.lcut(text) == concat(jieba.lcut(p) if p is a block else [p] for p in pieces(text))

where ``pieces`` is the leftmost-first matching of :data:`PIECE`. Blocks recur far more than
whole strings, so :mod:`xpert_frames.tokens.columns` splits a whole column into pieces with
Polars and segments each unique block once, here.

Blocks are segmented by ``rjieba`` (jieba-rs, the same dictionary and HMM in Rust, ~13x faster)
where its segmentation is proven identical to jieba's, and by jieba itself elsewhere. rjieba
differs on ASCII runs joined by ``_``, ``-`` or ``.`` (it keeps ``a_1``, ``4-2``, ``6.2.3`` as
one token), so blocks containing one of those characters go to jieba (:func:`needs_jieba`),
except the ``.`` of plain decimals between Chinese characters or the block's ends
(``答案是0.75``), common in Chinese text and segmented alike by both.
Identity of this routing with ``jieba.lcut`` is checked on 2,000,000 strings by
``benchmarks/verify_segmenter.py``. Both segmenters are private instances with the default
dictionary (a user's ``jieba.add_word`` on the global instance does not change the tokens).

Both libraries are imported lazily; jieba (whose dictionary takes ~0.7 s to load from its cache
in a writable per-user directory) only when a block needs it.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any

import polars as pl

#: One block character of jieba's ``re_han_default`` (Rust regex syntax).
BLOCK_CHAR = r"[\x{4E00}-\x{9FD5}a-zA-Z0-9+#&._%\-]"
#: The pieces of a text, in order: blocks, ``\r\n``, single characters.
PIECE = r"(?s)" + BLOCK_CHAR + r"+|\r\n|."
#: Blocks containing one of these characters are segmented by jieba, not rjieba ...
JIEBA_ONLY = r"[_.\-]"
#: ... unless the character is the point of a decimal between Chinese characters or the ends.
SAFE_DECIMAL = r"(^|[\x{4E00}-\x{9FD5}])[0-9]+\.[0-9]+($|[\x{4E00}-\x{9FD5}])"

#: rjieba versions whose routed blocks were proven identical to jieba (others are not used).
PROVEN_RJIEBA = ("0.2.2",)

_jieba: Any = None
_rjieba: Any = None
_rjieba_missing = False


def cache_dir() -> Path:
    """Per-user writable directory for jieba's dictionary cache."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    path = Path(base) / "xpert_frames" / "jieba"
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):  # writable? (a unique name: processes race)
            pass
    except OSError:
        path = Path(tempfile.gettempdir()) / f"xpert_frames-{os.getuid()}" / "jieba"
        path.mkdir(parents=True, exist_ok=True)
    return path


def _get() -> Any:
    """A private, initialized ``jieba.Tokenizer`` with the default dictionary."""
    global _jieba
    if _jieba is None:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        logging.getLogger("jieba").setLevel(logging.WARNING)
        tokenizer = jieba.Tokenizer()
        tokenizer.tmp_dir = str(cache_dir())
        tokenizer.initialize()
        _jieba = tokenizer
    return _jieba


def _get_rjieba() -> Any:
    """A private ``rjieba.Jieba`` (default dictionary), or None when rjieba is not installed
    or not of a :data:`PROVEN_RJIEBA` version."""
    global _rjieba, _rjieba_missing
    if _rjieba is None and not _rjieba_missing:
        if _dist("rjieba") not in PROVEN_RJIEBA:
            _rjieba_missing = True
            return None
        try:
            import rjieba
        except ImportError:
            _rjieba_missing = True
        else:
            _rjieba = rjieba.Jieba()
    return _rjieba


def jieba_tokenizer() -> Any:
    """The private ``jieba.Tokenizer`` used here (its ``FREQ`` is the default dictionary)."""
    return _get()


def tokenize(text: str) -> list[str]:
    """``jieba.lcut(text)`` (by jieba itself)."""
    return _get().lcut(text)


def tokenize_many(texts: Sequence[str]) -> list[list[str]]:
    """:func:`tokenize` over a batch (by jieba itself)."""
    lcut = _get().lcut
    return [lcut(t) for t in texts]


def needs_jieba(block: pl.Expr) -> pl.Expr:
    """True for the blocks rjieba is not proven to segment like jieba: those with a
    :data:`JIEBA_ONLY` character other than the point of a :data:`SAFE_DECIMAL`."""
    # Two passes: a decimal whose left neighbour was taken by the previous match.
    for _ in range(2):
        block = block.str.replace_all(SAFE_DECIMAL, "${1}0${2}")
    return block.str.contains(JIEBA_ONLY)


def rjieba_many(blocks: Sequence[str]) -> list[list[str]] | None:
    """rjieba's segmentation of each block, or None when rjieba is not installed. Valid as
    ``jieba.lcut`` only for blocks where :func:`needs_jieba` is False."""
    rj = _get_rjieba()
    if rj is None:
        return None
    cut = rj.cut
    return [cut(b) for b in blocks]


def _dist(name: str) -> str:
    try:
        return dist_version(name)
    except PackageNotFoundError:
        return "unknown"


def version() -> str:
    return f"jieba-{_dist('jieba')}"


def segmenter() -> str:
    """Which segmenter produces the Chinese tokens, for signatures (no library is imported)."""
    name = f"jieba-{_dist('jieba')}:lcut"
    rj = _dist("rjieba")
    if rj not in PROVEN_RJIEBA or _rjieba_missing:
        return name
    return f"{name}(rjieba-{rj}:blocks-without-_.-except-decimals)"
