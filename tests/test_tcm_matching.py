"""The TCM term matcher (Polars' Aho-Corasick, ``str.extract_many``) against a plain
leftmost-longest scan, on Arrow arrays as producers give them."""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xpert_frames.evaluators.tcm.matching import TermMatcher

# Characters of every UTF-8 width, patterns sharing first characters and prefixes.
ALPHABET = [*"ab气血虚瘀肝郁脾阳阴证é😀", "\u0301", "\x00"]
PATTERNS = st.dictionaries(
    st.text(ALPHABET, min_size=1, max_size=4),
    st.none() | st.sampled_from(["X", "Y", "Z", "气虚"]),
    max_size=12,
)


def naive(text: str | None, table: dict[str, str | None]) -> list[str] | None:
    """Obviously correct: at each position the longest pattern that matches there, if any."""
    if text is None:
        return None
    found: list[str] = []
    i = 0
    by_length = sorted(table, key=len, reverse=True)
    while i < len(text):
        hit = next((p for p in by_length if text.startswith(p, i)), None)
        if hit is None:
            i += 1
            continue
        i += len(hit)
        name = table[hit]
        if name is not None and name not in found:
            found.append(name)
    return found


def matcher(table: dict[str, str | None]) -> TermMatcher:
    return TermMatcher(list(table), list(table.values()))


@settings(max_examples=300, deadline=None)
@given(
    table=PATTERNS,
    texts=st.lists(st.none() | st.text(ALPHABET, max_size=30), min_size=1, max_size=20),
)
def test_equals_the_plain_scan_and_polars(
    table: dict[str, str | None], texts: list[str | None]
) -> None:
    series = pl.Series("t", texts, dtype=pl.String)
    got = matcher(table)(series)
    assert got.dtype == pl.List(pl.String) and got.name == "t"
    assert got.to_list() == [naive(t, table) for t in texts]


def test_many_patterns_share_hash_slots() -> None:
    # 3,000 patterns over 2,000 first characters: slots hold several first characters.
    rng = np.random.default_rng(3)
    chars = [chr(c) for c in range(0x4E00, 0x4E00 + 2_000)]
    table: dict[str, str | None] = {}
    while len(table) < 3_000:
        key = "".join(rng.choice(chars, size=int(rng.integers(1, 4))))
        table[key] = None if rng.random() < 0.2 else f"n{len(table) % 500}"
    texts = [
        "".join(rng.choice([*chars, "，", "a"], size=int(rng.integers(0, 80)))) for _ in range(300)
    ]
    got = matcher(table)(pl.Series(texts)).to_list()
    assert got == [naive(t, table) for t in texts]
    assert sum(map(len, got)) > 300  # the test finds terms, not only empty lists


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.none() | st.text(ALPHABET, max_size=20), min_size=1, max_size=15), st.integers(0, 4)
)
def test_sliced_arrays_string_views_and_32_bit_offsets(texts: list[str | None], cut: int) -> None:
    table: dict[str, str | None] = {"气虚": "气虚", "气": None, "a": "A", "😀b": "E"}
    m = matcher(table)
    expected = [naive(t, table) for t in texts]
    for kind in (pa.string(), pa.large_string(), pa.string_view()):
        array = pa.array(["气虚"] * cut + texts, type=kind).slice(cut)
        assert m(pl.Series("t", array)).to_list() == expected


def test_bad_patterns_raise() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        TermMatcher(["气", ""], ["气", None])
    with pytest.raises(ValueError, match="distinct"):
        TermMatcher(["气", "气"], ["气", None])
    with pytest.raises(ValueError, match="one name per surface"):
        TermMatcher(["气"], [])


def test_no_surfaces_give_empty_lists_and_nulls_stay_null() -> None:
    got = TermMatcher([], [])(pl.Series("t", ["气虚", None, ""]))
    assert got.dtype == pl.List(pl.String) and got.to_list() == [[], None, []]
