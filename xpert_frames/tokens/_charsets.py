"""Characters on which Python's regex engines and Polars' Rust regex could disagree.

The English fast path (:mod:`xpert_frames.tokens.en_fast`) runs NLTK's substitutions with
Polars' Rust regex. They are identical to NLTK's (which compiles most patterns with the
third-party ``regex`` module and the contractions with the standard ``re`` module) as long as
the engines agree on every character of the string for ``\\w``, ``\\s``, ``\\d``, case-insensitive
letters and ``str.split``'s whitespace. This module computes, once per process and over all of
Unicode, the set of code points where they do not agree; strings containing one go to NLTK.
It is computed from the installed engines (not a table that could drift with their Unicode
versions): four substitutions over one string of all code points, about 0.5 s, done once per
set of engine versions: the class is kept in a file of the per-user cache directory, named by
the versions of Python (``re``, ``str.split``, its Unicode database), ``regex`` and Polars.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import unicodedata
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np
import polars as pl

#: Sentinel used by the fast path to mark apostrophes; strings containing it go to NLTK.
SENTINEL = "\ue000"
_MARK = "\x01"
_FOLDED_LETTERS = "acdegilmnorstvwy"  # every letter of NLTK's case-insensitive patterns
_class: str | None = None


def _all_code_points() -> tuple[np.ndarray, str]:
    cps = np.concatenate([np.arange(0, 0xD800), np.arange(0xE000, 0x110000)]).astype(np.uint32)
    return cps, cps.tobytes().decode("utf-32-le")


def _mask(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32) == ord(_MARK)


def unsafe_mask() -> tuple[np.ndarray, np.ndarray]:
    """``(code points, mask)``: ``mask`` is True where some engine disagrees."""
    import regex

    cps, every = _all_code_points()
    rust = pl.Series([every])

    def py(pattern: str) -> tuple[np.ndarray, np.ndarray]:
        return (
            _mask(re.sub(pattern, _MARK, every)),
            _mask(regex.sub(pattern, _MARK, every)),
        )

    def rs(pattern: str) -> np.ndarray:
        return _mask(rust.str.replace_all(pattern, _MARK).item())

    bad = np.zeros(len(cps), dtype=bool)
    for pattern in (r"\w", r"\s", r"\d"):
        std, third = py(pattern)
        bad |= (std != third) | (third != rs(pattern))
    # str.split() splits on str.isspace() characters.
    spaces = np.fromiter(map(str.isspace, every), dtype=bool, count=len(every))
    bad |= spaces != rs(r"\s")
    # Case-insensitive letters: anything but the ASCII pair itself is routed to NLTK.
    pattern = f"(?i)[{_FOLDED_LETTERS}]"
    std, third = py(pattern)
    hits = std | third | rs(pattern)
    for letter in _FOLDED_LETTERS:
        hits[[ord(letter), ord(letter.upper())]] = False
    bad |= hits
    bad[ord(_MARK)] = True
    bad[np.searchsorted(cps, ord(SENTINEL))] = True
    return cps, bad


def _cache_file() -> Path:
    from xpert_frames.tokens.zh import cache_dir

    try:
        regex_version = version("regex")
    except PackageNotFoundError:
        regex_version = "unknown"
    key = "|".join(
        (sys.version, unicodedata.unidata_version, regex_version, pl.__version__, _FOLDED_LETTERS)
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_dir().parent / f"unsafe-class-{digest}.txt"


def _compute() -> str:
    cps, bad = unsafe_mask()
    u = cps[bad]
    breaks = np.flatnonzero(np.diff(u) != 1)
    starts = np.r_[u[0], u[breaks + 1]]
    ends = np.r_[u[breaks], u[-1]]
    return "".join(f"\\x{{{s:x}}}-\\x{{{e:x}}}" for s, e in zip(starts, ends, strict=True))


def unsafe_class() -> str:
    """A Rust regex character class body (no brackets) of the unsafe code points."""
    global _class
    if _class is None:
        path = _cache_file()
        try:
            _class = path.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError):
            _class = None
        if _class is None or not re.fullmatch(r"(\\x\{[0-9a-f]+\}-\\x\{[0-9a-f]+\})+", _class):
            _class = _compute()
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            try:
                tmp.write_text(_class, encoding="ascii")
                tmp.replace(path)
            except OSError:  # a read-only cache: compute again next time
                pass
    return _class
