from __future__ import annotations

import sys

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xpert_frames as xf
from tests.helpers import score_all_paths
from tests.oracles import fuzzy as oracle
from xpert_frames.core import budget
from xpert_frames.core.exceptions import InvalidOptionError, OptionTypeError
from xpert_frames.distance.levenshtein import kernel_threads, levenshtein_similarity
from xpert_frames.evaluators.fuzzy import (
    FuzzyEvaluator,
    FuzzyMatcher,
    fuzzy_match_score,
    levenshtein_distance,
    similarity,
)

# A batch of a few thousand rows (the kernel's own tests shrink its pieces to cross them).
CHUNK = 2048

# Code points that stress the kernel: ASCII, CJK, astral-plane emoji, combining marks.
ALPHABET = st.sampled_from([*"abcAB 的人工智能发展😀🀄\u0301\u0300e", "\U0001f9ea", "\u200b"])
TEXT = st.text(alphabet=ALPHABET, max_size=90) | st.text(max_size=140)


def test_seed_examples_print_true_values() -> None:
    matcher = FuzzyMatcher(threshold=0.6)
    got = [
        (r["similarity"], r["is_match"])
        for r in (
            matcher.evaluate("人工智能的发展", "AI的发展"),
            matcher.evaluate("我喜欢编程", "我喜欢写代码"),
            matcher.evaluate("今天天气很好", "今天天气很差"),
            matcher.evaluate("完全相同的句子", "完全相同的句子"),
        )
    ]
    # The seed document prints 0.625/True and 0.5714/False for the first two: miscomputed
    # (distance 4 over length 7, and 3 over 6).
    assert got == [(0.4286, False), (0.5, False), (0.8333, True), (1.0, True)]
    assert levenshtein_distance("人工智能的发展", "AI的发展") == 4


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_seed_dp_matches_oracle(a: str, b: str) -> None:
    assert levenshtein_distance(a, b) == oracle.distance(a, b)
    assert fuzzy_match_score(a, b) == oracle.similarity(a, b)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=40))
def test_kernel_equals_dp_exactly(pairs: list[tuple[str, str]]) -> None:
    a = pl.Series([p[0] for p in pairs], dtype=pl.String)
    b = pl.Series([p[1] for p in pairs], dtype=pl.String)
    got = levenshtein_similarity(a, b).to_list()
    assert got == [oracle.similarity(x, y) for x, y in pairs]


def test_kernel_long_strings_cross_64_code_points() -> None:
    # rapidfuzz switches from the single-word bit-parallel algorithm above 64 code points.
    base = "人工智能的发展" * 20 + "abc😀" * 10
    pairs = [(base[:n], base[3 : n + 7] + "x") for n in (10, 63, 64, 65, 128, 129, 200)]
    a = pl.Series([p[0] for p in pairs])
    b = pl.Series([p[1] for p in pairs])
    assert levenshtein_similarity(a, b).to_list() == [oracle.similarity(*p) for p in pairs]


def test_kernel_chunks_and_nulls() -> None:
    n = CHUNK * 2 + 17  # several threads, crossing the task boundary twice
    a = pl.Series(["abc", None, "", "xyz", "人工"] * (n // 5 + 1))[:n]
    b = pl.Series(["abd", "q", "", None, "人"] * (n // 5 + 1))[:n]
    got = levenshtein_similarity(a, b)
    assert got.dtype == pl.Float64
    expected = [
        None if x is None or y is None else oracle.similarity(x, y)
        for x, y in zip(a.to_list(), b.to_list(), strict=True)
    ]
    assert got.to_list() == expected


# Few distinct texts, so that pairs repeat, one side is often empty or null, and both orders of
# a pair occur.
POOL = st.sampled_from(["", "abc", "abd", "人工智能的发展", "AI的发展", "😀" * 70, "😀" * 69 + "x"])
SMALL_TEXT = POOL | TEXT


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.none() | SMALL_TEXT, st.none() | SMALL_TEXT), min_size=1, max_size=60),
    st.sampled_from([1, 2, None]),
)
def test_kernel_repeated_pairs_equal_dp(
    pairs: list[tuple[str | None, str | None]], workers: int | None
) -> None:
    a = pl.Series([p[0] for p in pairs], dtype=pl.String)
    b = pl.Series([p[1] for p in pairs], dtype=pl.String)
    got = levenshtein_similarity(a, b, workers=workers).to_list()
    expected = [None if x is None or y is None else oracle.similarity(x, y) for x, y in pairs]
    assert got == expected


def test_kernel_many_distinct_pairs_cross_chunks() -> None:
    # More distinct pairs than two tasks (each repeated three times), short and > 64 code points.
    n = CHUNK * 2 + 5
    left = pl.Series([f"答{i}abc" for i in range(n)] + ["长" * 70 + str(i) for i in range(99)])
    right = pl.Series([f"答{i * 7 % 1000}abd" for i in range(n)] + ["长" * 69 for _ in range(99)])
    a, b = pl.concat([left] * 3), pl.concat([right] * 3)
    got = levenshtein_similarity(a, b).to_list()
    distinct = {(x, y): oracle.similarity(x, y) for x, y in zip(left, right, strict=True)}
    assert got == [distinct[p] for p in zip(a, b, strict=True)]


def test_kernel_threads_follow_polars_and_affinity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget.os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(budget.pl, "thread_pool_size", lambda: 3)
    assert kernel_threads() == 3  # Polars' pool is the narrower budget
    monkeypatch.setattr(budget.os, "sched_getaffinity", lambda _pid: {5}, raising=False)
    assert kernel_threads() == 1  # e.g. taskset -c 5


def test_kernel_threads_follow_a_ray_allotment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget.os, "sched_getaffinity", lambda _pid: set(range(8)), raising=False)
    monkeypatch.setattr(budget.pl, "thread_pool_size", lambda: 8)

    class Context:
        def __init__(self, mode: int, cpus: float | None) -> None:
            self.worker = type("Worker", (), {"mode": mode})()
            self.cpus = cpus

        def get_assigned_resources(self) -> dict[str, float]:
            return {} if self.cpus is None else {"CPU": self.cpus}

    def fake_ray(mode: int, cpus: float | None) -> object:
        context = Context(mode, cpus)
        return type(
            "Ray",
            (),
            {
                "WORKER_MODE": 1,
                "is_initialized": staticmethod(lambda: True),
                "get_runtime_context": staticmethod(lambda: context),
            },
        )

    for mode, cpus, expected in [(1, 2.0, 2), (1, 0.5, 1), (1, None, 8), (0, 2.0, 8)]:
        monkeypatch.setitem(sys.modules, "ray", fake_ray(mode, cpus))  # mode 0: the driver
        assert kernel_threads() == expected


def test_evaluator_columns_and_validity() -> None:
    df = pl.DataFrame(
        {
            "id": [1, 2, 3, 4, 5, 6],
            "prediction": ["AI的发展", "我喜欢写代码", None, "", "", "今天天气很差"],
            "answer": ["人工智能的发展", "我喜欢编程", "x", "abc", "  ", "今天天气很好"],
        }
    )
    out = score_all_paths(df, [FuzzyEvaluator()])
    assert out.columns == ["id", "prediction", "answer", "fuzzy_score", "fuzzy_match"]
    assert out["fuzzy_score"].to_list() == [1 - 4 / 7, 0.5, None, 0.0, None, 1 - 1 / 6]
    assert out["fuzzy_match"].to_list() == [False, False, None, False, None, True]


@pytest.mark.parametrize(
    ("steps", "pred", "ref", "expected"),
    [
        (["case"], "Hello World", "hello world", 1.0),
        (["width"], "ＡＢＣ１２３", "ABC123", 1.0),
        (["whitespace"], "  a   b\tc ", "a b c", 1.0),
        (["punctuation"], "北京。", "北京", 1.0),
        ((), "北京。", "北京", 1 - 1 / 3),
    ],
)
def test_normalization(steps: list[str], pred: str, ref: str, expected: float) -> None:
    df = pl.DataFrame({"prediction": [pred], "answer": [ref]})
    out = score_all_paths(df, [FuzzyEvaluator(normalize=steps)])
    assert out["fuzzy_score"][0] == pytest.approx(expected, abs=1e-15)


def test_aliases_state_equivalences() -> None:
    df = pl.DataFrame({"prediction": ["AI的发展"], "answer": ["人工智能的发展"]})
    out = score_all_paths(df, [FuzzyEvaluator(aliases={"人工智能": "AI"})])
    assert out["fuzzy_score"].to_list() == [1.0]


def test_similarity_expression() -> None:
    df = pl.DataFrame({"a": ["kitten", None], "b": ["sitting", "x"]})
    got = df.select(similarity("a", pl.col("b"))).to_series().to_list()
    assert got == [1 - 3 / 7, None]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"threshold": 1.5}, InvalidOptionError),
        ({"threshold": "0.5"}, OptionTypeError),
        ({"threshold": True}, OptionTypeError),
        ({"normalize": ["cases"]}, InvalidOptionError),
        ({"normalize": "case"}, OptionTypeError),
        ({"aliases": {"": "x"}}, OptionTypeError),
    ],
)
def test_bad_options(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        FuzzyEvaluator(**kwargs)


def test_unknown_option_is_an_error_with_hint() -> None:
    with pytest.raises(TypeError, match="Did you mean 'threshold'"):
        xf.get_evaluator("fuzzy", treshold=0.5)


def test_seed_evaluate_shape() -> None:
    ev = xf.get_evaluator("fuzzy")
    result = ev.evaluate(
        ["AI的发展", None, "今天天气很差"],
        [
            {"answer": {"type": "text", "value": "人工智能的发展"}},
            {"answer": {"type": "text", "value": "x"}},
            {"answer": {"type": "text", "value": "今天天气很好"}},
        ],
    )
    scores = [1 - 4 / 7, 1 - 1 / 6]
    assert result["fuzzy"] == {
        "score": pytest.approx(sum(scores) / 2, abs=1e-15),
        "min": min(scores),
        "max": max(scores),
        "count": 2,
    }
    assert result["fuzzy_match_rate"]["score"] == 0.5


@pytest.mark.parametrize("engine", ["auto", "streaming", "in-memory"])
def test_the_evaluator_scores_a_table_in_one_batch_whichever_engine(
    engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The streaming engine hands an elementwise function morsels of 100,000 rows; the
    # evaluator's similarity is one batch over the whole column, so a pair repeated far
    # apart is still scored once, and the scores are the per-morsel expression's.
    from xpert_frames.distance import levenshtein

    rows = 250_000
    df = pl.DataFrame(
        {"prediction": ["kitten", "sitting", "的人工智能", None] * (rows // 4), "answer": "kitten"}
    )
    heights: list[int] = []
    batch = levenshtein.levenshtein_similarity

    def counted(a: pl.Series, b: pl.Series, **options: int) -> pl.Series:
        heights.append(len(a))
        return batch(a, b, **options)

    monkeypatch.setattr(levenshtein, "levenshtein_similarity", counted)
    out = xf.score(df.lazy(), "fuzzy").collect(engine=engine)  # type: ignore[call-overload]
    assert heights == [rows]
    expected = df.select(levenshtein.normalized_similarity("answer", "prediction"))
    assert out["fuzzy_score"].equals(expected.to_series().alias("fuzzy_score"))
    assert out["fuzzy_score"].null_count() == rows // 4
    with pytest.raises(InvalidOptionError, match="whole_column"):
        levenshtein.normalized_similarity("a", "b", whole_column="yes")  # type: ignore[arg-type]
