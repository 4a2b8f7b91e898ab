"""The optional C extension (Arrow string views straight to rapidfuzz's C scorer) and its
selection: bit-identical to its ``cpdist`` twin on any text (lengths across rapidfuzz's
thresholds, non-ASCII, emoji, empty, null); string views read as Arrow lays them out (strings of
up to 12 bytes inside the view, longer ones in any of several data buffers, sliced arrays,
several chunks); its UTF-8 decoding equals Python's (malformed bytes as ``surrogateescape``);
every view and row checked against its buffers; the environment variable chooses the path,
and a missing extension is said once."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from xpert_frames.distance import levenshtein, scorers

ROOT = Path(__file__).resolve().parents[1]
native: Any = scorers._NATIVE
needs_native = pytest.mark.skipif(
    native is None, reason="the C extension xpert_frames.distance._arrow_scorer is not built"
)

ALPHABETS = ["ab", "的人工智能", "😀🀄e", "aé的😀\x00\xff\u0100", "e\u0301\u200b"]


def text(max_size: int) -> st.SearchStrategy[str]:
    return st.sampled_from(ALPHABETS).flatmap(
        lambda alphabet: st.text(alphabet=alphabet, max_size=max_size)
    ) | st.text(max_size=max_size)


def both_paths(a: list[str | None], b: list[str | None]) -> tuple[list[Any], list[Any]]:
    sa, sb = pl.Series(a, dtype=pl.String), pl.Series(b, dtype=pl.String)
    got = levenshtein.levenshtein_similarity(sa, sb).to_list()
    saved = scorers._NATIVE
    scorers._NATIVE = None
    try:
        twin = levenshtein.levenshtein_similarity(sa, sb).to_list()
    finally:
        scorers._NATIVE = saved
    return got, twin


@needs_native
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.none() | text(300), st.none() | text(300)), min_size=1, max_size=20),
    st.sampled_from([0, 1, 63, 64, 65, 127, 128, 129, 1_000]),
)
def test_the_extension_equals_its_twin(pairs: list[tuple[Any, Any]], pad: int) -> None:
    # A long common prefix puts pairs across rapidfuzz's 64 and 128 code-point switches.
    a = [None if x is None else "前" * pad + x for x, _ in pairs]
    b = [None if y is None else "前" * pad + y for _, y in pairs]
    got, twin = both_paths(a, b)
    assert got == twin  # bit-identical floats, nulls in the same rows


def make_views(
    strings: list[bytes], *, buffers: int = 1, cut: int = 0
) -> tuple[bytes, tuple[bytes, ...], int]:
    """Arrow string views made by hand: ``cut`` padding views first (the array's offset), a
    string of up to 12 bytes inside its view, a longer one in data buffer ``i % buffers`` (its
    4-byte prefix in the view)."""
    data = [bytearray() for _ in range(buffers)]
    views = [struct.pack("<i12s", 3, b"pad") for _ in range(cut)]
    for i, x in enumerate(strings):
        if len(x) <= 12:
            views.append(struct.pack("<i12s", len(x), x))
        else:
            k = i % buffers
            data[k] += b"~"  # a gap byte: the strings are not simply consecutive
            views.append(struct.pack("<i4sii", len(x), x[:4], k, len(data[k])))
            data[k] += x
    return b"".join(views), tuple(bytes(d) for d in data), cut


def raw_score(
    a: list[bytes], b: list[bytes], max_cells: int = 10**10, *, buffers: int = 1, cut: int = 0
) -> list[float]:
    """The extension on hand-made string views (bytes that Polars would never hold)."""
    rows = np.arange(len(a), dtype=np.int64)
    out = np.empty(len(a))
    scorer = Levenshtein.normalized_similarity
    left = make_views(a, buffers=buffers, cut=cut)
    right = make_views(b, buffers=buffers + 1, cut=0)
    native.score(scorer, *left, *right, rows, out, max_cells)
    return out.tolist()


def python_score(x: bytes, y: bytes) -> float:
    return float(
        Levenshtein.normalized_similarity(
            x.decode("utf-8", "surrogateescape"), y.decode("utf-8", "surrogateescape")
        )
    )


@needs_native
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.binary(max_size=40), st.binary(max_size=40)), min_size=1),
    st.integers(1, 4),
    st.integers(0, 3),
)
def test_utf8_decoding_equals_python_surrogateescape(
    pairs: list[tuple[bytes, bytes]], buffers: int, cut: int
) -> None:
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    expected = [python_score(x, y) for x, y in pairs]
    assert raw_score(a, b, buffers=buffers, cut=cut) == expected


@needs_native
def test_inline_and_buffered_views_in_several_buffers() -> None:
    # Around the 12-byte inline limit, ASCII and not, in three data buffers, after an offset.
    a = [b"", b"abc", b"x" * 12, b"x" * 13, "的人工智".encode(), "的人工智能".encode(), b"y" * 300]
    b = [b"a", b"abd", b"x" * 13, b"x" * 12, "的人工智能".encode(), "人工智能".encode(), b"y" * 299]
    expected = [python_score(x, y) for x, y in zip(a, b, strict=True)]
    assert raw_score(a, b, buffers=3, cut=5) == expected
    assert raw_score(b, a, buffers=2) == [python_score(y, x) for x, y in zip(a, b, strict=True)]


def test_polars_series_views_as_the_extension_reads_them() -> None:
    # Polars' own views: long strings spread over several data buffers, a slice of them (an
    # array offset), nulls, strings inside their views.
    words = ["的人工智能发展" * (i % 7) + f"answer {i}" for i in range(40_000)]
    full = pl.Series([None if i % 1_000 == 7 else w for i, w in enumerate(words)])
    part = full.slice(1_234, 30_000)
    _views, data, first = scorers.string_views(part)
    assert len(data) > 1 and first == 1_234
    other = pl.Series([w[::-1] if i % 3 else w for i, w in enumerate(words)]).slice(0, 30_000)
    got, twin = both_paths(part.to_list(), other.to_list())
    assert got == twin
    assert got[:3] == [
        Levenshtein.normalized_similarity(x, y)
        for x, y in zip(part.to_list()[:3], other.to_list()[:3], strict=True)
    ]


@needs_native
def test_the_cell_cap_is_checked_without_overflow() -> None:
    assert raw_score([b"ab"], [b"cd"], max_cells=4) == [0.0]
    assert np.isnan(raw_score([b"abc"], [b"cd"], max_cells=5)[0])
    assert raw_score([b"same" * 10], [b"same" * 10], max_cells=1) == [1.0]  # equal: no call
    assert raw_score(["的的".encode()], [b"ab"], max_cells=4) == [0.0]  # code points, not bytes


@needs_native
def test_views_rows_and_buffers_are_checked() -> None:
    scorer = Levenshtein.normalized_similarity
    views, data, _ = make_views([b"ab", "的".encode(), b"", b"z" * 20])
    rows, out = np.arange(4, dtype=np.int64), np.empty(4)
    args = (views, data, 0, views, data, 0)
    assert native.score(scorer, *args, rows, out, 100) == 0
    assert out.tolist() == [1.0, 1.0, 1.0, 1.0]
    for bad in ([4], [-1], [2**62], [-(2**63)]):
        with pytest.raises(IndexError, match="outside the arrays"):
            native.score(scorer, *args, np.array(bad, dtype=np.int64), np.empty(1), 100)
    assert native.score(scorer, views, data, 4, views, data, 4, rows[:0], out[:0], 100) == 0
    with pytest.raises(IndexError, match="array offset"):
        native.score(scorer, views, data, 5, views, data, 0, rows[:1], out[:1], 100)
    with pytest.raises(IndexError, match="array offset"):
        native.score(scorer, views, data, -1, views, data, 0, rows[:1], out[:1], 100)
    one = np.zeros(1, dtype=np.int64)
    forged = [
        struct.pack("<i4sii", 20, b"zzzz", 1, 0),  # a data buffer that is not there
        struct.pack("<i4sii", 20, b"zzzz", -1, 0),
        struct.pack("<i4sii", 20, b"zzzz", 0, 2),  # one byte past the end (a gap byte, 20)
        struct.pack("<i4sii", 2**31 - 1, b"zzzz", 0, 2**31 - 1),  # no overflow in the check
        struct.pack("<i4sii", 20, b"zzzz", 0, -1),
        struct.pack("<i12s", -1, b""),
    ]
    for view in forged:
        with pytest.raises(IndexError, match="view outside the data buffers"):
            native.score(scorer, view, data, 0, views, data, 0, one, out[:1], 100)
    with pytest.raises(ValueError, match="16-byte string views"):
        native.score(scorer, b"\x00" * 15, data, 0, views, data, 0, rows[:1], out[:1], 100)
    with pytest.raises(TypeError, match="sequence of data buffers"):
        native.score(scorer, views, 3, 0, views, data, 0, rows[:1], out[:1], 100)
    with pytest.raises(TypeError):  # an item without the buffer protocol
        native.score(scorer, views, ["x"], 0, views, data, 0, rows[:1], out[:1], 100)
    with pytest.raises(ValueError, match="same length"):
        native.score(scorer, *args, rows, np.empty(3), 100)
    with pytest.raises(ValueError, match="max_cells must be positive"):
        native.score(scorer, *args, rows, out, 0)
    with pytest.raises(TypeError):  # a read-only out buffer
        native.score(scorer, *args, rows, bytes(32), 100)


@needs_native
def test_only_rapidfuzz_float_scorers_are_accepted() -> None:
    assert native.check(Levenshtein.normalized_similarity) == 3  # rapidfuzz's struct version
    views, data, _ = make_views([b"ab"])
    args = (views, data, 0, views, data, 0, np.zeros(1, dtype=np.int64), np.empty(1), 10)
    with pytest.raises(TypeError, match="_RF_Scorer"):
        native.score(len, *args)
    with pytest.raises(TypeError, match="float64"):
        native.score(Levenshtein.distance, *args)  # integer distances


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != scorers.ENV}
    environ.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-W", "default", "-c", code],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )


HIDE = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name == "xpert_frames.distance._arrow_scorer":
            raise ImportError("hidden by the test")
sys.meta_path.insert(0, Hide())
"""
PROBE = """
import xpert_frames as xf
from xpert_frames.distance import scorers
import polars as pl
df = pl.DataFrame({"answer": ["kitten", "的人工智能"], "prediction": ["sitting", "人工只能"]})
print(scorers.backend(), xf.score(df, "fuzzy")["fuzzy_score"].to_list())
"""


def test_the_environment_variable_selects_the_path() -> None:
    twin = run_python(PROBE, XPERT_FRAMES_NATIVE="0")
    assert twin.returncode == 0, twin.stderr
    assert twin.stdout.startswith("cpdist ") and "SlowPathWarning" not in twin.stderr
    default = run_python(PROBE)
    assert default.returncode == 0, default.stderr
    assert default.stdout.split(" ", 1)[1] == twin.stdout.split(" ", 1)[1]  # same scores
    built = scorers._load_native()[0] is not None  # this process may have chosen the twin
    assert default.stdout.startswith("native " if built else "cpdist ")
    wrong = run_python(PROBE, XPERT_FRAMES_NATIVE="yes")
    assert wrong.returncode != 0 and "XPERT_FRAMES_NATIVE must be 1" in wrong.stderr


def test_without_the_extension_the_twin_runs_and_says_so_once() -> None:
    hidden = run_python(HIDE + PROBE + PROBE.split("\n", 2)[2])
    assert hidden.returncode == 0, hidden.stderr
    assert hidden.stdout.count("cpdist [") == 2
    assert hidden.stderr.count("SlowPathWarning") == 1
    assert "slower rapidfuzz.process.cpdist path" in hidden.stderr
    required = run_python(HIDE + PROBE, XPERT_FRAMES_NATIVE="1")
    assert required.returncode != 0
    assert "XPERT_FRAMES_NATIVE=1 asks for the C extension" in required.stderr


@needs_native
def test_xpert_frames_native_1_uses_the_extension() -> None:
    forced = run_python(PROBE, XPERT_FRAMES_NATIVE="1")
    assert forced.returncode == 0 and forced.stdout.startswith("native ["), forced.stderr
