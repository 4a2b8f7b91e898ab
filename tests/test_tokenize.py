"""Tokenizers: NLTK/jieba callables, the Polars fast path for NLTKWordTokenizer, columns."""

from __future__ import annotations

import re

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.tokenize import NLTKWordTokenizer

from benchmarks.verify_tokenizer import english_corpus
from xpert_frames.tokens import en, en_fast, is_chinese, tokenize_series, zh
from xpert_frames.tokens._charsets import unsafe_mask
from xpert_frames.tokens.columns import from_lists, tokenize_unique

NLTK = NLTKWordTokenizer()
# Characters that exercise every rule: quotes, apostrophes, contractions' letters, dots,
# colons/commas before digits, dashes, brackets, newlines, and a few routed code points.
ALPHABET = "aIsnt'\"`.:,;!?-–—()[]{}<> \n\t0123’‘“”«»„…*&%$#@cmrdvlewoygNT中İ²\u00a0\x1c"


def fast(texts: list[str]) -> tuple[list[list[str] | None], list[bool]]:
    s = pl.Series(texts, dtype=pl.String)
    frame = pl.select(
        en_fast.tokens(pl.lit(s)).alias("t"), en_fast.needs_nltk(pl.lit(s)).alias("r")
    )
    return frame["t"].to_list(), frame["r"].to_list()


def test_en_callable_is_nltk() -> None:
    text = "Good muffins cost $3.88 (roughly 3,36 euros)\nin New York.  Please buy me\ntwo."
    assert en.tokenize(text) == NLTK.tokenize(text)
    assert en.tokenize_many([text, ""]) == [NLTK.tokenize(text), []]


@pytest.mark.parametrize(
    "text",
    [
        "I can't do it, 'cause it's 'tis wanna gonna cannot.",
        "'Hello' he said \"ok\"...",
        "a:\n",
        "x -- y (z) [w] {v} <u>",
        "“quoted” «this» ‘that’ „low",
        "He's 'll 're 'em 'twas 'T 'Tis o'clock",
        "''double'' ``tick`` \"start",
        'end." ) ',
        "",
        "   ",
    ],
)
def test_fast_path_examples(text: str) -> None:
    tokens, routed = fast([text])
    assert not routed[0]
    assert tokens[0] == NLTK.tokenize(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET, max_size=30), min_size=1, max_size=20))
def test_fast_path_equals_nltk(texts: list[str]) -> None:
    tokens, routed = fast(texts)
    for text, tok, r in zip(texts, tokens, routed, strict=True):
        if not r:
            assert tok == NLTK.tokenize(text), text


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=10))
def test_fast_path_equals_nltk_any_unicode(texts: list[str]) -> None:
    texts = [t for t in texts if "\x00" not in t] or ["x"]
    tokens, routed = fast(texts)
    for text, tok, r in zip(texts, tokens, routed, strict=True):
        if not r:
            assert tok == NLTK.tokenize(text), text


def test_fast_path_generated_corpus() -> None:
    corpus = english_corpus(50_000, seed=7)
    tokens, routed = fast(corpus)
    checked = 0
    for text, tok, r in zip(corpus, tokens, routed, strict=True):
        if not r:
            checked += 1
            assert tok == NLTK.tokenize(text), text
    assert checked > 40_000  # most of the corpus is on the fast path


def test_unsafe_characters() -> None:
    cps, bad = unsafe_mask()
    unsafe = {chr(c) for c in cps[bad]}
    assert {"İ", "ı", "²", "\x1c", "\ue000"} <= unsafe
    assert not unsafe & set("abcXYZ019 '\".,:;!?()[]{}<>-\n\t中文“”’")


def test_zh_callable_is_jieba() -> None:
    import jieba

    text = "今天 天气很好, 我们去公园。Hello world"
    assert zh.tokenize(text) == jieba.lcut(text)
    assert " " in zh.tokenize(text)  # spaces are tokens


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="中文字abc 。,\u4e00\u9fff\u3400", max_size=20))
def test_is_chinese_matches_seed_rule(text: str) -> None:
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    expected = len(text) > 0 and cjk / len(text) > 0.2
    assert pl.select(is_chinese(pl.lit(text, pl.String))).item() == expected


def test_tokenize_series_unique_and_nulls() -> None:
    s = pl.Series("x", ["a b", None, "a b", "it's"], dtype=pl.String)
    out = tokenize_series(s, "en")
    assert out.to_list() == [["a", "b"], None, ["a", "b"], ["it", "'s"]]
    zh_out = tokenize_series(pl.Series(["我们 在"]), "zh")
    assert zh_out.to_list() == [zh.tokenize("我们 在")]
    assert tokenize_unique(pl.Series([], dtype=pl.String), "zh").to_list() == []


def test_routed_strings_use_nltk() -> None:
    text = "İstanbul isn't ² far"
    assert tokenize_series(pl.Series([text]), "en").to_list() == [NLTK.tokenize(text)]


def test_from_lists() -> None:
    assert from_lists([["a", "b"], [], ["c"]]).to_list() == [["a", "b"], [], ["c"]]


def test_zh_pool_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from xpert_frames.tokens import pool

    monkeypatch.setattr(pool, "MIN_PARALLEL", 10)
    texts = [f"第{i}个 句子很长，测试分词。" for i in range(40)]
    try:
        assert pool.tokenize_zh(texts) == [zh.tokenize(t) for t in texts]
    finally:
        pool.shutdown()


def test_token_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    from xpert_frames.tokens import cache

    monkeypatch.setattr(cache, "MAX_STRINGS", 3)
    cache.clear()
    try:
        first = pl.Series(["a b", "c, d", "it's"])
        second = pl.Series(["e", "a b", "f g", "it's"])
        for batch in (first, second, first):
            assert cache.tokenize_cached(batch, "en").to_list() == [NLTK.tokenize(t) for t in batch]
        assert cache.tokenize_cached(pl.Series(["我们 在"]), "zh").to_list() == [
            zh.tokenize("我们 在")
        ]
    finally:
        cache.clear()
