"""The TCM term matcher (C, ``evaluators/tcm/_terms.c``) against a plain leftmost-longest scan
and against Polars' Aho-Corasick (``str.extract_many``), on Arrow arrays as producers give them."""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xpert_frames.evaluators.tcm import _terms
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
    if table:  # Polars' Aho-Corasick, longest pattern first, mapped and made unique per row
        keys = sorted(table, key=len, reverse=True)
        names = [table[k] for k in keys]
        to_name = pl.element().replace_strict(keys, names, default=None, return_dtype=pl.String)
        polars = series.str.extract_many(keys, leftmost=True).list.eval(to_name.drop_nulls())
        assert got.to_list() == polars.list.unique(maintain_order=True).to_list()


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
def test_sliced_arrays_and_32_bit_offsets(texts: list[str | None], cut: int) -> None:
    table: dict[str, str | None] = {"气虚": "气虚", "气": None, "a": "A", "😀b": "E"}
    m = matcher(table)
    for kind in (pa.string(), pa.large_string()):
        array = pa.array(["气虚"] * cut + texts, type=kind).slice(cut)
        validity, offsets, data = array.buffers()
        width = 8 if kind == pa.large_string() else 4
        row_offsets, values = _terms.find_terms(
            offsets, b"" if data is None else data, validity, array.offset, width,
            m._offsets, m._data, m._ids, len(m.names),
        )  # fmt: skip
        starts = np.frombuffer(row_offsets, dtype=np.int64)
        ids = np.frombuffer(values, dtype=np.uint32)
        got = [[m.names[i] for i in ids[starts[r] : starts[r + 1]]] for r in range(len(texts))]
        assert got == [naive(t, table) or [] for t in texts]


def test_bad_patterns_and_buffers_raise() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        TermMatcher(["气", ""], ["气", None])
    with pytest.raises(ValueError, match="distinct"):
        TermMatcher(["气", "气"], ["气", None])
    with pytest.raises(ValueError, match="one name per surface"):
        TermMatcher(["气"], [])
    m = matcher({"气": "气"})
    array = pa.array(["气血"], type=pa.large_string())
    _, offsets, data = array.buffers()
    bad_ids = np.array([5], dtype=np.int32)  # beyond n_ids
    with pytest.raises(ValueError, match="pattern 0"):
        _terms.find_terms(offsets, data, None, 0, 8, m._offsets, m._data, bad_ids, 1)
    with pytest.raises(ValueError, match="width"):
        _terms.find_terms(offsets, data, None, 0, 2, m._offsets, m._data, m._ids, 1)
    short = np.array([0, 100], dtype=np.int64)  # the row claims more bytes than the data has
    with pytest.raises(ValueError, match="row 0"):
        _terms.find_terms(short, data, None, 0, 8, m._offsets, m._data, m._ids, 1)
