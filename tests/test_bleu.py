"""BLEU evaluator: options, NLTK's documented values, oracle agreement, every path, corpus BLEU."""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import (
    SmoothingFunction,
    corpus_bleu,
    modified_precision,
    sentence_bleu,
)

import xpert_frames as xf
from tests.helpers import score_all_paths
from tests.oracles import bleu as oracle
from xpert_frames.core.aliases import Language
from xpert_frames.core.exceptions import InvalidOptionError, OptionTypeError
from xpert_frames.evaluators.bleu import batch as bleu_batch
from xpert_frames.evaluators.bleu import stats as bleu_stats
from xpert_frames.evaluators.bleu.evaluator import BLEUEvaluator, bleu_signature
from xpert_frames.evaluators.bleu.stats import Tokens, bleu_numpy, bleu_python, count_stats

HYP1 = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
HYP2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
REF1 = "It is a guide to action that ensures that the military will forever heed Party commands"
REF2 = (
    "It is the guiding principle which guarantees the military forces always being under the "
    "command of the Party"
)
REF3 = "It is the practical guide for the army always to heed the directions of the party"
HYP_B = "he read the book because he was interested in world history"
REF_B = "he was interested in world history because he read the book"


def scores(frame: pl.DataFrame, ev: BLEUEvaluator) -> list[float | None]:
    return score_all_paths(frame, [ev])[ev.score_column].to_list()


# --------------------------------------------------------------------------- options
def test_defaults_and_options() -> None:
    ev = BLEUEvaluator()
    assert (ev.n_gram, ev.weights, ev.smoothing, ev.language) == (4, (0.25,) * 4, True, "auto")
    assert BLEUEvaluator(n_gram=2).weights == (0.5, 0.5)
    assert BLEUEvaluator(n_gram=3, weights=[0.2, 0.3, 0.5]).weights == (0.2, 0.3, 0.5)
    assert ev.output_names() == ["bleu_score", "bleu_stats"]
    assert BLEUEvaluator.accepts_list_answer


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"n_gram": 0}, InvalidOptionError),
        ({"n_gram": 2.0}, OptionTypeError),
        ({"weights": [0.5, 0.5]}, InvalidOptionError),
        ({"weights": [0.25, 0.25, 0.25, -0.25]}, InvalidOptionError),
        ({"weights": [0.25, 0.25, 0.25, float("nan")]}, InvalidOptionError),
        ({"weights": "0.25"}, OptionTypeError),
        ({"weights": [0.25, 0.25, 0.25, "x"]}, OptionTypeError),
        ({"smoothing": 1}, OptionTypeError),
        ({"language": "fr"}, InvalidOptionError),
        ({"tokenizer": "x"}, TypeError),
    ],
)
def test_bad_options(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        BLEUEvaluator(**kwargs)


def test_signature() -> None:
    sig = BLEUEvaluator(n_gram=2, smoothing=False).signature
    assert sig.startswith("bleu|nrefs:var|lang:auto|tok:en=nltk-")
    assert "zh=jieba-" in sig and "|n:2|w:0.5,0.5|smooth:none|" in sig
    assert "rjieba-0.2.2:blocks-without-_.-except-decimals" in sig
    assert "smooth:method1-eps0.1" in bleu_signature()


# --------------------------------------------------------------------------- known values
@pytest.mark.parametrize(
    ("hyp", "refs", "kwargs", "expected"),
    [
        (HYP1, [REF1, REF2, REF3], {"smoothing": False}, 0.5045666840058485),
        (HYP2, [REF1, REF2, REF3], {"smoothing": False}, 0.0),
        (HYP2, [REF1, REF2, REF3], {}, 0.0370),
        (HYP1, [REF1, REF2, REF3], {"n_gram": 5}, 0.3920),
        (HYP1, [REF1, REF2, REF3], {"n_gram": 2}, 0.7453),
        (HYP1, [REF1, REF2, REF3], {"n_gram": 3}, 0.6240),
        (HYP1, [REF1], {"smoothing": False}, 0.4118),
    ],
)
def test_nltk_documented_values(hyp: str, refs: list[str], kwargs: dict, expected: float) -> None:
    ev = BLEUEvaluator(language="en", **kwargs)
    got = scores(pl.DataFrame({"prediction": [hyp], "answer": [refs]}), ev)[0]
    assert got is not None
    assert math.floor(got * 1e4) / 1e4 == pytest.approx(math.floor(expected * 1e4) / 1e4)


def test_corpus_bleu_documented_value() -> None:
    frame = pl.DataFrame({"prediction": [HYP1, HYP_B], "answer": [[REF1, REF2, REF3], [REF_B]]})
    ev = BLEUEvaluator(language="en")
    rep = xf.report(xf.score(frame, [ev]), evaluators=[ev])
    corpus = rep.filter(pl.col("metric") == "corpus_bleu")["score"].item()
    mean = rep.filter(pl.col("metric") == "bleu")["score"].item()
    assert corpus == pytest.approx(0.5920, abs=1e-4)  # NLTK corpus_bleu docstring: 0.5920...
    assert mean == pytest.approx(0.6223, abs=1e-4)  # mean of sentence BLEU: 0.6223...


# --------------------------------------------------------------------------- stats kernel
def _tokens(strings: list[list[int]]) -> Tokens:
    ids = np.array([t for s in strings for t in s], dtype=np.uint32)
    offsets = np.zeros(len(strings) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in strings], out=offsets[1:])
    return Tokens(ids, offsets)


token_lists = st.lists(st.integers(0, 4), max_size=10)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(token_lists, st.lists(token_lists, min_size=1, max_size=3)), min_size=1),
    st.integers(1, 5),
    st.booleans(),
    st.sampled_from([1, 3, 1000]),
)
def test_stats_kernel_equals_nltk(rows: list, n: int, smoothing: bool, chunk: int) -> None:
    strings = [h for h, _ in rows] + [r for _, rs in rows for r in rs]
    tokens = _tokens(strings)
    hyp = np.arange(len(rows))
    refs = np.arange(len(rows), len(strings))
    ref_offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(rs) for _, rs in rows], out=ref_offsets[1:])
    old = bleu_stats.CHUNK_ROWS
    bleu_stats.CHUNK_ROWS = chunk
    try:
        stats = count_stats(tokens, hyp, refs, ref_offsets, n)
    finally:
        bleu_stats.CHUNK_ROWS = old
    weights = [1.0 / n] * n
    got = bleu_numpy(
        stats["matches"],
        stats["denominators"],
        stats["hyp_len"],
        stats["ref_len"],
        weights,
        smoothing=smoothing,
    )
    smooth = SmoothingFunction().method1 if smoothing else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, (h, rs) in enumerate(rows):
            expected = sentence_bleu(rs, h, weights=weights, smoothing_function=smooth)
            assert abs(got[i] - expected) <= 1e-9
            plain = bleu_python(
                stats["matches"][i],
                stats["denominators"][i],
                stats["hyp_len"][i],
                stats["ref_len"][i],
                weights,
                smoothing=smoothing,
            )
            assert abs(plain - expected) <= 1e-9
        summed = bleu_numpy(
            stats["matches"].sum(0, keepdims=True),
            stats["denominators"].sum(0, keepdims=True),
            stats["hyp_len"].sum(keepdims=True),
            stats["ref_len"].sum(keepdims=True),
            weights,
            smoothing=smoothing,
        )[0]
        expected = corpus_bleu(
            [rs for _, rs in rows],
            [h for h, _ in rows],
            weights=weights,
            smoothing_function=smooth,
        )
        assert abs(summed - expected) <= 1e-9


# --------------------------------------------------------------------------- oracle
EN_WORDS = ["the", "cat", "sat", "on", "mat", "it's", "don't", "a", "(b)", "x.", "--", '"q"']
ZH_WORDS = ["今天", "天气", "很", "好", "我们", "去", "公园", "。", "，", " ", "北京", "大学"]


def sentence(words: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(words), max_size=12).map(lambda ws: " ".join(ws))


def zh_sentence() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(ZH_WORDS), max_size=12).map("".join)


any_sentence = st.one_of(sentence(EN_WORDS), zh_sentence(), sentence(EN_WORDS + ZH_WORDS))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            any_sentence, st.one_of(any_sentence, st.lists(any_sentence, min_size=1, max_size=3))
        ),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from(["auto", "en", "zh"]),
    st.booleans(),
)
def test_evaluator_equals_oracle(rows: list, language: Language, smoothing: bool) -> None:
    preds = [p for p, _ in rows]
    refs = [[r] if isinstance(r, str) else r for _, r in rows]
    refs = [[x if x.strip() else "x" for x in r] for r in refs]  # keep every row valid
    ev = BLEUEvaluator(language=language, smoothing=smoothing)
    got = scores(pl.DataFrame({"prediction": preds, "answer": refs}), ev)
    for p, r, g in zip(preds, refs, got, strict=True):
        assert g is not None
        assert abs(g - oracle.bleu(p, r, smoothing=smoothing, language=language)) <= 1e-9


def test_edge_rows() -> None:
    frame = pl.DataFrame(
        {
            "prediction": ["", "   ", None, "a", "the cat", "完全不同的句子", "x y z", "中文"],
            "answer": ["ref", "ref", "ref", "", "a cat", "the cat", "x y z", None],
        }
    )
    ev = BLEUEvaluator()
    got = scores(frame, ev)
    assert got[0] == 0.0 and got[1] == 0.0  # empty / blank prediction: wrong, not skipped
    assert got[2] is None and got[3] is None and got[7] is None  # invalid rows
    assert got[4] == pytest.approx(oracle.bleu("the cat", "a cat"), abs=1e-9)
    assert got[5] == 0.0  # no match
    assert got[6] == pytest.approx(oracle.bleu("x y z", "x y z"), abs=1e-9)  # shorter than n


def test_several_references_closest_length_ties_shorter() -> None:
    frame = pl.DataFrame({"prediction": ["a b c d e"], "answer": [["a b c d", "a b c d e f", "q"]]})
    ev = BLEUEvaluator()
    out = xf.score(frame, [ev])
    assert out["bleu_stats"].struct.field("ref_len").item() == 4
    assert out["bleu_score"].item() == pytest.approx(
        oracle.bleu("a b c d e", ["a b c d", "a b c d e f", "q"]), abs=1e-9
    )


def test_mixed_batch_with_chunks_and_duplicates(monkeypatch: pytest.MonkeyPatch) -> None:
    preds = ["the cat sat on the mat", "今天天气很好", "", "It's a test.", "今天 天气 好"] * 7
    answers = ["the cat is on the mat", "今天天气不错", "ref", "It is a test", "今天天气"] * 7
    monkeypatch.setattr(bleu_stats, "CHUNK_ROWS", 4)
    monkeypatch.setattr(bleu_batch, "TOKENIZE_CHUNK", 3)
    frame = pl.DataFrame(
        {"model": [f"m{i % 3}" for i in range(35)], "prediction": preds, "answer": answers}
    )
    ev = BLEUEvaluator()
    got = scores(frame, ev)
    for p, a, g in zip(preds, answers, got, strict=True):
        assert g is not None
        assert abs(g - oracle.bleu(p, a)) <= 1e-9
    rep = xf.report(xf.score(frame, [ev]), "model", evaluators=[ev])
    for model, part in frame.group_by("model"):
        row = rep.filter((pl.col("model") == model[0]) & (pl.col("metric") == "corpus_bleu"))
        expected = oracle.corpus(part["prediction"].to_list(), part["answer"].to_list())
        assert row["score"].item() == pytest.approx(expected, abs=1e-9)


def test_renamed_instance_metrics() -> None:
    ev = BLEUEvaluator(name="bleu_zh", language="zh")
    frame = pl.DataFrame({"prediction": ["我们去公园"], "answer": ["我们去北京"]})
    rep = xf.report(xf.score(frame, [ev]), evaluators=[ev])
    assert set(rep["metric"]) == {"bleu_zh", "corpus_bleu_zh"}


def test_seed_evaluate_api() -> None:
    ev = BLEUEvaluator()
    refs = [{"answer": {"type": "text", "value": REF1}}, {"answer": {"type": "text", "value": "x"}}]
    result = ev.evaluate([HYP1, None], refs)
    assert result["bleu"]["count"] == 1
    assert result["bleu"]["score"] == pytest.approx(oracle.bleu(HYP1, REF1), abs=1e-9)


def test_stats_long_rows_group_by_path_equals_nltk() -> None:
    rng = np.random.default_rng(5)
    strings = [list(rng.integers(0, 3, rng.integers(0, 90))) for _ in range(120)]
    rows = 80
    hyp = np.arange(rows)
    nrefs = rng.integers(1, 3, rows)
    refs = rng.integers(rows, len(strings), nrefs.sum())
    ref_offsets = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(nrefs, out=ref_offsets[1:])
    stats = count_stats(_tokens(strings), hyp, refs, ref_offsets, 4)
    for i in range(rows):
        rs = [strings[j] for j in refs[ref_offsets[i] : ref_offsets[i + 1]]]
        for k in range(4):
            p = modified_precision(rs, strings[i], k + 1)
            assert stats["matches"][i, k] == p.numerator


@pytest.mark.slow
def test_worker_process_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from xpert_frames.tokens import cache, pool

    monkeypatch.setattr(pool, "MIN_PARALLEL", 4)
    monkeypatch.setattr(bleu_batch, "TOKENIZE_CHUNK", 5)
    cache.clear()
    # Blocks with "_.-" go to jieba (and so to the worker), the rest to rjieba.
    preds = [f"第{i}个句子很长，我们去公园3.5km。" for i in range(12)]
    preds += ["the cat sat", "It's 3.5."]
    answers = [f"第{i % 3}个句子，我们去北京_{i}。" for i in range(12)]
    answers += ["a cat sat", "It is 3.5"]
    frame = pl.DataFrame({"prediction": preds, "answer": answers})
    try:
        got = xf.score(frame.lazy(), [BLEUEvaluator()]).collect(engine="in-memory")
        for p, a, g in zip(preds, answers, got["bleu_score"], strict=True):
            assert abs(g - oracle.bleu(p, a)) <= 1e-9
    finally:
        pool.shutdown()
        cache.clear()
