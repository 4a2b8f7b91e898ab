"""The C kernel (``xpert_frames.evaluators.fuzzy._levenshtein``) on Arrow buffers: equal to the
plain dynamic programme and to rapidfuzz on Python str, across the one-word / multi-word
boundaries (64, 128 code points) and beyond 1,000, on non-ASCII text, nulls, slices, 32- and
64-bit offsets, several threads; and malformed buffers raise ValueError."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from tests.oracles import fuzzy as oracle
from xpert_frames.core.arrow import arrow_strings
from xpert_frames.evaluators.fuzzy import _levenshtein
from xpert_frames.evaluators.fuzzy.kernel import levenshtein_similarity

# Small alphabets make long strings share many code points (distances neither 0 nor maximal):
# ASCII, CJK, astral emoji, combining marks, Latin-1 (< 256: the kernel's direct table) and NUL.
ALPHABETS = [
    "ab",
    "abc AB",
    "的人工智能发展",
    "😀🀄\U0001f9eae",
    "e\u0301\u0300\u200b",
    "aé的😀\x00\xff\u0100",
]


def texts(max_size: int) -> st.SearchStrategy[str]:
    return st.sampled_from(ALPHABETS).flatmap(
        lambda alphabet: st.text(alphabet=alphabet, max_size=max_size)
    ) | st.text(max_size=min(max_size, 80))


def edited(text: str, positions: list[int], alphabet: str) -> str:
    chars = list(text)
    for k, pos in enumerate(positions):
        if not chars:
            break
        i = pos % len(chars)
        if k % 3 == 0:
            chars.insert(i, alphabet[pos % len(alphabet)])
        elif k % 3 == 1:
            del chars[i]
        else:
            chars[i] = alphabet[pos % len(alphabet)]
    return "".join(chars)


def kernel(pairs: Sequence[tuple[str | None, str | None]], workers: int = 1) -> list[float | None]:
    a = pl.Series([p[0] for p in pairs], dtype=pl.String)
    b = pl.Series([p[1] for p in pairs], dtype=pl.String)
    return levenshtein_similarity(a, b, workers=workers).to_list()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(texts(150), texts(150)), min_size=1, max_size=8))
def test_equals_dp_oracle_up_to_150_code_points(pairs: list[tuple[str, str]]) -> None:
    assert kernel(pairs) == [oracle.similarity(x, y) for x, y in pairs]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([63, 64, 65, 127, 128, 129, 192]),
    st.sampled_from(ALPHABETS),
    st.lists(st.integers(0, 10_000), max_size=8),
    st.integers(0, 2**32),
)
def test_equals_dp_oracle_at_word_boundaries(
    size: int, alphabet: str, edits: list[int], seed: int
) -> None:
    rng = np.random.default_rng(seed)
    left = "".join(rng.choice(list(alphabet), size=size))
    right = edited(left, edits, alphabet)
    pairs = [(left, right), (right, left), (left, left[1:]), (left, "")]
    assert kernel(pairs) == [oracle.similarity(x, y) for x, y in pairs]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(900, 2_500),
    st.integers(0, 1_500),
    st.sampled_from(ALPHABETS),
    st.lists(st.integers(0, 100_000), max_size=40),
    st.integers(0, 2**32),
)
def test_equals_rapidfuzz_beyond_1000_code_points(
    size: int, other: int, alphabet: str, edits: list[int], seed: int
) -> None:
    rng = np.random.default_rng(seed)
    left = "".join(rng.choice(list(alphabet), size=size))
    pairs = [
        (left, edited(left, edits, alphabet)),
        (left, "".join(rng.choice(list(alphabet), size=other))),  # unrelated, shorter or longer
        ("".join(rng.choice(list(alphabet), size=other)), left),
    ]
    expected = [Levenshtein.normalized_similarity(x, y) for x, y in pairs]
    assert kernel(pairs, workers=2) == expected


def test_equals_dp_oracle_beyond_1000_code_points() -> None:
    # Two full dynamic programmes of ~1,100 x 1,050 cells: the oracle itself, not only rapidfuzz.
    rng = np.random.default_rng(7)
    left = "".join(rng.choice(list("的人工智能发展ab😀"), size=1_100))
    right = edited(left, list(range(0, 60_000, 997)), "的人x😀\u0301")
    pairs = [(left, right), (right[:1_050], left)]
    assert kernel(pairs) == [oracle.similarity(x, y) for x, y in pairs]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.none() | texts(200), st.none() | texts(200)), min_size=1, max_size=30),
    st.integers(0, 5),
)
def test_slices_nulls_and_32_bit_offsets(
    pairs: list[tuple[str | None, str | None]], cut: int
) -> None:
    # Arrow arrays as other producers hand them over: ``string`` (int32 offsets) and sliced
    # ``large_string`` arrays (non-zero offset into offsets and validity), read directly.
    a = pa.array(["pad"] * cut + [p[0] for p in pairs], type=pa.string()).slice(cut)
    b = pa.array([None] * cut + [p[1] for p in pairs], type=pa.large_string()).slice(cut)
    out = np.empty(len(pairs))
    _levenshtein.similarity(*buffers(a), *buffers(b), out, 2)
    got = [None if np.isnan(v) else float(v) for v in out]
    expected = [
        None if x is None or y is None else Levenshtein.normalized_similarity(x, y)
        for x, y in pairs
    ]
    assert got == expected


def buffers(array: pa.Array) -> tuple[object, object, object, int, int]:
    validity, offsets, data = array.buffers()
    width = 8 if pa.types.is_large_string(array.type) else 4
    return offsets, b"" if data is None else data, validity, array.offset, width


def test_threads_split_rows_without_changing_scores() -> None:
    rng = np.random.default_rng(3)
    words = ["的人工", "智能", "abc", "😀", "x" * 70, "发展" * 40]
    pairs = [
        (
            "".join(rng.choice(words, size=int(rng.integers(0, 6)))),
            "".join(rng.choice(words, size=int(rng.integers(0, 6)))),
        )
        for _ in range(10_000)
    ]
    expected = [Levenshtein.normalized_similarity(x, y) for x, y in pairs]
    for workers in (1, 2, 3, 8):
        assert kernel(pairs, workers=workers) == expected


def test_arrow_strings_from_string_views_and_chunks() -> None:
    values = ["abc", None, "人工智能", "", "x" * 40]
    view = pl.Series(pa.array(values, type=pa.string_view()))
    chunked = pl.concat([pl.Series(values[:2]), pl.Series(values[2:])], rechunk=False)
    other = pl.Series(["abd", "x", "人工", "", "x" * 39 + "y"])
    for series in (view, chunked):
        _offsets, _data, validity, start, width = arrow_strings(series)
        assert (start, width, validity is not None) == (0, 8, True)
        got = levenshtein_similarity(series, other, workers=1)
        assert got.to_list() == [1 - 1 / 3, None, 0.5, 1.0, 1 - 1 / 40]


def test_invalid_utf8_and_offsets_raise_value_error() -> None:
    offsets = np.array([0, 2], dtype=np.int64).tobytes()
    good = (offsets, b"ab", None, 0, 8)
    out = np.empty(1)
    # Not UTF-8, cut short, a surrogate, overlong, beyond U+10FFFF.
    for data in (b"\xff\xfe", b"\xc3(", b"a\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80"):
        bad = (np.array([0, len(data)], dtype=np.int64).tobytes(), data, None, 0, 8)
        with pytest.raises(ValueError, match="row 0: invalid UTF-8"):
            _levenshtein.similarity(*good, *bad, out, 1)
        with pytest.raises(ValueError, match="row 0: invalid UTF-8"):  # even if equal bytes
            _levenshtein.similarity(*bad, *bad, out, 1)
    too_far = np.array([0, 9], dtype=np.int64).tobytes()
    with pytest.raises(ValueError, match="offsets outside the data buffer"):
        _levenshtein.similarity(*good, too_far, b"ab", None, 0, 8, out, 1)
    with pytest.raises(ValueError, match="offsets buffer holds 16 bytes, expected at least 24"):
        _levenshtein.similarity(*good, offsets, b"ab", None, 1, 8, out, 1)
    with pytest.raises(ValueError, match="offset width must be 4 or 8"):
        _levenshtein.similarity(*good, offsets, b"ab", None, 0, 2, out, 1)


def test_workers_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive thread count"):
        levenshtein_similarity(pl.Series(["a"]), pl.Series(["b"]), workers=0)
