"""The fuzzy kernel (rapidfuzz's ``Levenshtein``, distinct pairs once, in pieces), on both of
its paths (the C extension handing Arrow buffers to rapidfuzz's C scorer, and the
``process.cpdist`` twin; every test runs on each, the extension's skipped when it is not
built): equal to the seed's reference dynamic programme across rapidfuzz's internal
thresholds (one 64-bit word up to 64 code points, blocks of words beyond: 64, 128, 256, 512),
on ASCII and CJK text, emoji, nulls, repeated pairs and hash collisions; pieces bounded in
pairs and cells with a pending signal seen between them; absurdly long pairs refused with a
warning."""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from tests.helpers import examples
from xpert_frames.distance import levenshtein as kernels
from xpert_frames.distance import scorers
from xpert_frames.distance.levenshtein import LongPairWarning, levenshtein_similarity
from xpert_frames.evaluators.fuzzy import fuzzy_match_score

# Small alphabets make long strings share many code points (distances neither 0 nor maximal):
# ASCII, CJK, astral emoji, combining marks, Latin-1 and NUL.
ALPHABETS = [
    "ab",
    "abc AB",
    "的人工智能发展",
    "😀🀄\U0001f9eae",
    "e\u0301\u0300\u200b",
    "aé的😀\x00\xff\u0100",
]
#: Lengths around rapidfuzz's internal switches (single word <= 64, then blocks of 64).
THRESHOLDS = [63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513]


@pytest.fixture(autouse=True, params=["native", "cpdist"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test once on the C extension (skipped when it is not built) and once on the twin."""
    if request.param == "cpdist":
        monkeypatch.setattr(scorers, "_NATIVE", None)
    elif scorers.backend() != "native":
        pytest.skip("the C extension xpert_frames.distance._arrow_scorer is not built")
    return str(request.param)


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


def seed(x: str | None, y: str | None) -> float | None:
    """The seed's reference (``fuzzy_match_score``: its two-row dynamic programme)."""
    return None if x is None or y is None else fuzzy_match_score(x, y)


def kernel(pairs: Sequence[tuple[str | None, str | None]], **options: Any) -> list[float | None]:
    a = pl.Series([p[0] for p in pairs], dtype=pl.String)
    b = pl.Series([p[1] for p in pairs], dtype=pl.String)
    return levenshtein_similarity(a, b, **options).to_list()


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(texts(150), texts(150)), min_size=1, max_size=8))
def test_equals_the_seed_dp_up_to_150_code_points(pairs: list[tuple[str, str]]) -> None:
    assert kernel(pairs) == [seed(x, y) for x, y in pairs]


@settings(max_examples=examples(60), deadline=None)
@given(
    st.sampled_from(THRESHOLDS),
    st.sampled_from(ALPHABETS),
    st.lists(st.integers(0, 10_000), max_size=8),
    st.integers(0, 2**32),
)
def test_equals_the_seed_dp_across_rapidfuzz_thresholds(
    size: int, alphabet: str, edits: list[int], rng_seed: int
) -> None:
    rng = np.random.default_rng(rng_seed)
    left = "".join(rng.choice(list(alphabet), size=size))
    right = edited(left, edits, alphabet)
    other = "".join(rng.choice(list(alphabet), size=int(rng.integers(1, 600))))
    pairs = [(left, right), (right, left), (left, left[1:]), (left, ""), (left, other)]
    assert kernel(pairs) == [seed(x, y) for x, y in pairs]


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(st.tuples(st.none() | texts(200), st.none() | texts(200)), min_size=1, max_size=30),
    st.integers(0, 5),
)
def test_nulls_slices_string_views_and_chunks(
    pairs: list[tuple[str | None, str | None]], cut: int
) -> None:
    # Arrow arrays as other producers hand them over: ``string`` (int32 offsets), sliced
    # ``large_string`` and ``string_view`` arrays, and several chunks.
    a = pl.Series(pa.array(["pad"] * cut + [p[0] for p in pairs], type=pa.string()).slice(cut))
    b = pl.Series(pa.array([None] * cut + [p[1] for p in pairs], type=pa.large_string()))
    b = b.slice(cut)
    expected = [seed(x, y) for x, y in pairs]
    assert levenshtein_similarity(a, b, workers=2).to_list() == expected
    view = pl.Series(pa.array([p[0] for p in pairs], type=pa.string_view()))
    half = len(pairs) // 2
    chunked = pl.concat([b.slice(0, half), b.slice(half)], rechunk=False)
    assert levenshtein_similarity(view, chunked).to_list() == expected


def test_repeated_pairs_and_hash_collisions_score_their_own_pair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    words = ["的人工", "智能", "abc", "😀", "x" * 70, "发展" * 40, ""]
    rng = np.random.default_rng(3)
    pairs: list[tuple[str | None, str | None]] = [
        (
            "".join(rng.choice(words, size=int(rng.integers(0, 4)))),
            "".join(rng.choice(words, size=int(rng.integers(0, 4)))),
        )
        for _ in range(3_000)
    ]
    pairs += [(None, "a"), ("a", None), (None, None)] * 3
    expected = [seed(x, y) for x, y in pairs]
    assert kernel(pairs) == expected
    # Every pair under one key: each row is checked against its representative and rescored.
    monkeypatch.setattr(kernels, "_pair_key", lambda: pl.lit(7, dtype=pl.UInt64))
    assert kernel(pairs) == expected


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.tuples(st.none() | texts(16), st.none() | texts(16)), min_size=1, max_size=60),
    st.integers(0, 3),
)
def test_pair_heads_never_count_more_pairs_than_there_are(
    pairs: list[tuple[str | None, str | None]], cut: int
) -> None:
    # Short strings (inside their views, some under the 4-byte prefix), sliced Series, nulls.
    a = pl.Series(["pad"] * cut + [p[0] for p in pairs], dtype=pl.String).slice(cut)
    b = pl.Series(["pad"] * cut + [p[1] for p in pairs], dtype=pl.String).slice(cut)
    heads = scorers.pair_heads(a, b)
    assert len(heads) == len(pairs)
    assert len(np.unique(heads)) <= len(set(pairs))
    for i, p in enumerate(pairs):  # equal pairs, equal heads
        j = pairs.index(p)
        assert heads[i] == heads[j]


def test_pairs_are_hashed_only_when_their_heads_allow_repeats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hashed: list[int] = []
    real = kernels._pair_key

    def spy() -> pl.Expr:
        hashed.append(1)
        return real()

    monkeypatch.setattr(kernels, "_pair_key", spy)
    distinct = [(f"answer {i}", f"{i} prediction") for i in range(1_000)]
    assert kernel(distinct) == [seed(x, y) for x, y in distinct]
    assert hashed == []  # every head differs: no hashing
    repeated = distinct[:100] * 10
    assert kernel(repeated) == [seed(x, y) for x, y in repeated]
    assert hashed == [1]


def spy_on_pieces(monkeypatch: pytest.MonkeyPatch, path: str, after: Any = None) -> list[int]:
    """Record the size of every piece handed to rapidfuzz on ``path`` (``after`` runs after
    each piece)."""
    calls: list[int] = []
    if path == "cpdist":
        real = process.cpdist

        def spy(a: list[str], b: list[str], **kw: Any) -> Any:
            assert kw["workers"] >= 1
            calls.append(len(a))
            out = real(a, b, **kw)
            if after:
                after()
            return out

        monkeypatch.setattr(process, "cpdist", spy)
    else:
        native = scorers._NATIVE

        class Spy:
            check = native.check

            @staticmethod
            def score(*args: Any) -> Any:
                calls.append(len(args[7]))  # the rows of this piece
                out = native.score(*args)
                if after:
                    after()
                return out

        monkeypatch.setattr(scorers, "_NATIVE", Spy)
    return calls


def test_pieces_bound_pairs_and_cells(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    calls = spy_on_pieces(monkeypatch, path)
    monkeypatch.setattr(kernels, "PIECE_ROWS", 100)
    monkeypatch.setattr(kernels, "PIECE_CELLS", 50_000)
    pieces: list[list[tuple[int, int]]] = []
    real_pieces = kernels._pieces

    def spy_pieces(cells: Any, **kw: Any) -> list[tuple[int, int]]:
        out = real_pieces(cells, **kw)
        pieces.append(out)
        assert all(sum(cells[b:e]) <= 50_000 or e - b == 1 for b, e in out)
        return out

    monkeypatch.setattr(kernels, "_pieces", spy_pieces)
    pairs = [(f"答{i}abc", f"答{i * 7}abd") for i in range(1_000)]
    pairs += [("长" * 300 + str(i), "长" * 299) for i in range(20)]  # 90,000 cells each
    assert kernel(pairs, workers=2) == [seed(x, y) for x, y in pairs]
    assert sum(calls) == len(pairs)
    assert all(n <= 100 for n in calls)
    # A longer pair is a piece alone (cells in code points on the twin, bytes on the extension).
    assert sum(1 for piece in pieces[-1] if piece[1] - piece[0] == 1) >= 20


@pytest.mark.parametrize("workers", [1, 2])
def test_a_pending_signal_is_seen_between_pieces(
    monkeypatch: pytest.MonkeyPatch, path: str, workers: int
) -> None:
    class Stop(Exception):
        pass

    def handler(signum: int, frame: object) -> None:
        raise Stop

    sent: list[int] = []

    def signal_once() -> None:  # once: a piece still running on another thread after the
        if not sent:  # handler is restored must not send it again (default action: exit)
            sent.append(1)
            os.kill(os.getpid(), signal.SIGUSR1)

    # The signal arrives while a piece runs in C (on a worker thread with two workers). Each
    # piece takes milliseconds (4,000 distinct pairs of 300 random letters), longer than
    # Python's switch interval (5 ms by default: what the main thread may wait for the GIL
    # before its handler runs; with pieces of microseconds, dozens would finish meanwhile).
    letters = np.random.default_rng(5).integers(97, 105, size=(2, 60_000 * 300), dtype=np.uint8)
    left, right = (row.tobytes().decode() for row in letters)
    pairs = [(left[i : i + 300], right[i : i + 300]) for i in range(0, 60_000 * 300, 300)]
    calls = spy_on_pieces(monkeypatch, path, after=signal_once)
    monkeypatch.setattr(kernels, "PIECE_ROWS", 4_000)
    previous = signal.signal(signal.SIGUSR1, handler)
    try:
        with pytest.raises(Stop):
            kernel(pairs, workers=workers)
    finally:
        signal.signal(signal.SIGUSR1, previous)
    # The handler ran before the pieces were all scored: the pieces already started on each
    # thread finish (one or two per thread, by when the signal lands), not the other 15.
    assert len(calls) <= 2 * workers + 1 < 15


def test_pairs_over_the_cell_cap_are_null_with_a_warning() -> None:
    pairs: list[tuple[str | None, str | None]] = [
        ("a" * 200, "b" * 200),  # 40,000 cells: over a cap of 10,000
        ("a" * 200, "a" * 200),  # equal: 1.0 without the distance
        ("a" * 100, "ab" * 50),  # 10,000 cells: at the cap, scored
        ("x" * 5_000, "y"),  # 5,000 cells
        (None, "b" * 10_000),
    ]
    with pytest.warns(LongPairWarning, match=r"1 pair\(s\) not scored .* exceeds 10,000"):
        got = kernel(pairs, max_cells=10_000)
    assert got == [None, 1.0, seed(*pairs[2]), seed(*pairs[3]), None]
    assert kernels.MAX_PAIR_CELLS == 10**10  # the documented default


def test_two_long_strings_are_refused_by_default() -> None:
    a = "的" * 120_000
    with pytest.warns(LongPairWarning, match="exceeds 10,000,000,000"):
        got = kernel([(a, a[:-1] + "x"), ("abc", "abd")])
    assert got == [None, Levenshtein.normalized_similarity("abc", "abd")]


def test_options_are_checked() -> None:
    one = pl.Series(["a"])
    with pytest.raises(ValueError, match="positive thread count"):
        levenshtein_similarity(one, one, workers=0)
    with pytest.raises(ValueError, match="max_cells must be a positive integer"):
        levenshtein_similarity(one, one, max_cells=0)
    with pytest.raises(ValueError, match="lengths differ"):
        levenshtein_similarity(one, pl.Series(["a", "b"]))
    assert levenshtein_similarity(pl.Series([], dtype=pl.String), pl.Series([])).to_list() == []


def test_the_evaluator_keeps_a_refused_row_and_counts_it_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import xpert_frames as xf

    monkeypatch.setattr(kernels, "MAX_PAIR_CELLS", 100)
    frame = pl.DataFrame(
        {
            "id": [1, 2, 3],
            "prediction": ["abc", "x" * 11, "的人"],
            "answer": ["abd", "y" * 10, "的"],
        }
    )
    with pytest.warns(LongPairWarning, match="1 pair"):
        out = xf.score(frame, "fuzzy")
    assert out["id"].to_list() == [1, 2, 3]
    assert out["fuzzy_score"].to_list() == [seed("abd", "abc"), None, 0.5]
    assert out["fuzzy_match"].to_list() == [True, None, False]


def test_kernel_threads_respect_polars_pool_and_affinity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scorers, "_NATIVE", None)  # the cpdist twin: its workers are checked
    seen: list[int] = []
    real = process.cpdist

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(kw["workers"])  # rapidfuzz's thread count
        return real(*args, **kw)

    monkeypatch.setattr(process, "cpdist", spy)
    out = kernels.levenshtein_similarity(pl.Series(["abc", "x"]), pl.Series(["abd", "y"]))
    assert out.to_list() == pytest.approx([2 / 3, 0.0])
    assert seen and all(w >= 1 for w in seen)
    assert seen[0] <= pl.thread_pool_size()
    assert seen[0] <= len(os.sched_getaffinity(0))


def test_refused_pairs_are_counted_across_pieces_and_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(kernels, "PIECE_ROWS", 50)
    pairs: list[tuple[str | None, str | None]] = [
        ("长" * 120 + str(i), "x" * 100) if i % 7 == 0 else (f"a{i}", f"b{i}") for i in range(5_000)
    ]
    refused = sum(1 for i in range(5_000) if i % 7 == 0)
    with pytest.warns(LongPairWarning, match=rf"^fuzzy: {refused:,} pair\(s\) not scored"):
        got = kernel(pairs, workers=2, max_cells=10_000)
    assert got == [None if i % 7 == 0 else seed(*p) for i, p in enumerate(pairs)]
