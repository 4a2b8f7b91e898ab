"""The optional C extension (Arrow string buffers straight to rapidfuzz's C scorer) and its
selection: bit-identical to its ``cpdist`` twin on any text (lengths across rapidfuzz's
thresholds, non-ASCII, emoji, empty, null); its UTF-8 decoding equals Python's (malformed bytes
as ``surrogateescape``); every offset and row checked against its buffer; the environment
variable chooses the path, and a missing extension is said once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
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


def raw_score(a: list[bytes], b: list[bytes], max_cells: int = 10**10) -> list[float]:
    """The extension on raw large_string buffers (bytes that Polars would never hold)."""
    arrays = [pa.array(x, type=pa.large_binary()) for x in (a, b)]
    bufs = [(arr.buffers()[1], arr.buffers()[2] or pa.py_buffer(b""), 0) for arr in arrays]
    rows = np.arange(len(a), dtype=np.int64)
    out = np.empty(len(a))
    scorer = Levenshtein.normalized_similarity
    native.score(scorer, *bufs[0], *bufs[1], rows, out, max_cells)
    return out.tolist()


@needs_native
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.binary(max_size=40), st.binary(max_size=40)), min_size=1))
def test_utf8_decoding_equals_python_surrogateescape(pairs: list[tuple[bytes, bytes]]) -> None:
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    expected = [
        Levenshtein.normalized_similarity(
            x.decode("utf-8", "surrogateescape"), y.decode("utf-8", "surrogateescape")
        )
        for x, y in pairs
    ]
    assert raw_score(a, b) == expected


@needs_native
def test_the_cell_cap_is_checked_without_overflow() -> None:
    assert raw_score([b"ab"], [b"cd"], max_cells=4) == [0.0]
    assert np.isnan(raw_score([b"abc"], [b"cd"], max_cells=5)[0])
    assert raw_score([b"same" * 10], [b"same" * 10], max_cells=1) == [1.0]  # equal: no call
    assert raw_score(["的的".encode()], [b"ab"], max_cells=4) == [0.0]  # code points, not bytes


@needs_native
def test_offsets_rows_and_buffers_are_checked() -> None:
    scorer = Levenshtein.normalized_similarity
    arr = pa.array(["ab", "的", None, ""], type=pa.large_string())
    _, offsets, data = arr.buffers()
    rows, out = np.arange(4, dtype=np.int64), np.empty(4)
    args = (offsets, data, 0, offsets, data, 0)
    assert native.score(scorer, *args, rows, out, 100) == 0
    assert out.tolist() == [1.0, 1.0, 1.0, 1.0]
    for bad in ([4], [-1], [2**62], [-(2**63)]):
        with pytest.raises(IndexError, match="outside the arrays"):
            native.score(scorer, *args, np.array(bad, dtype=np.int64), np.empty(1), 100)
    with pytest.raises(IndexError, match="array offset"):
        native.score(scorer, offsets, data, 5, offsets, data, 0, rows[:1], out[:1], 100)
    with pytest.raises(IndexError, match="array offset"):
        native.score(scorer, offsets, data, -1, offsets, data, 0, rows[:1], out[:1], 100)
    forged = np.array([0, 2, 2**62], dtype=np.int64)  # an offset far past the data
    with pytest.raises(IndexError, match="offsets outside the data"):
        native.score(
            scorer, forged, data, 0, forged, data, 0, np.array([1], dtype=np.int64), out[:1], 100
        )
    backwards = np.array([3, 1], dtype=np.int64)
    with pytest.raises(IndexError):
        native.score(scorer, backwards, data, 0, backwards, data, 0, rows[:1], out[:1], 100)
    with pytest.raises(ValueError, match="int64 offsets"):
        native.score(scorer, b"\x00" * 7, data, 0, offsets, data, 0, rows[:1], out[:1], 100)
    with pytest.raises(ValueError, match="same length"):
        native.score(scorer, *args, rows, np.empty(3), 100)
    with pytest.raises(ValueError, match="max_cells must be positive"):
        native.score(scorer, *args, rows, out, 0)
    with pytest.raises(TypeError):  # a read-only out buffer
        native.score(scorer, *args, rows, bytes(32), 100)


@needs_native
def test_only_rapidfuzz_float_scorers_are_accepted() -> None:
    assert native.check(Levenshtein.normalized_similarity) == 3  # rapidfuzz's struct version
    arr = pa.array(["ab"], type=pa.large_string())
    _, offsets, data = arr.buffers()
    args = (offsets, data, 0, offsets, data, 0, np.zeros(1, dtype=np.int64), np.empty(1), 10)
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
    assert default.stdout.startswith(f"{scorers.backend()} ")
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
