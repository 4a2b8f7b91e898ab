"""Chinese tokenization with jieba (``jieba.lcut``, default mode: accurate, HMM on).

jieba is imported lazily and initialized once per process, with its log lines silenced and its
dictionary cache in a writable per-user directory. Spaces are kept as tokens (they count in
BLEU, as in the seed).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_jieba: Any = None


def cache_dir() -> Path:
    """Per-user writable directory for jieba's dictionary cache."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    path = Path(base) / "xpert_frames" / "jieba"
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".probe"
        probe.touch()
        probe.unlink()
    except OSError:
        path = Path(tempfile.gettempdir()) / f"xpert_frames-{os.getuid()}" / "jieba"
        path.mkdir(parents=True, exist_ok=True)
    return path


def _get() -> Any:
    global _jieba
    if _jieba is None:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        logging.getLogger("jieba").setLevel(logging.WARNING)
        jieba.dt.tmp_dir = str(cache_dir())
        jieba.initialize()
        _jieba = jieba
    return _jieba


def tokenize(text: str) -> list[str]:
    """``jieba.lcut(text)``."""
    return _get().lcut(text)


def tokenize_many(texts: Sequence[str]) -> list[list[str]]:
    """:func:`tokenize` over a batch."""
    lcut = _get().lcut
    return [lcut(t) for t in texts]


def version() -> str:
    return f"jieba-{_get().__version__}"
