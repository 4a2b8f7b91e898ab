"""Tokenizers: NLTK/jieba callables, the Polars fast path for NLTKWordTokenizer, columns."""

from __future__ import annotations

import re
from pathlib import Path

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


def test_unsafe_class_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from xpert_frames.tokens import _charsets

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(_charsets, "_class", None)
    computed = _charsets._compute()
    assert _charsets.unsafe_class() == computed  # computed and written
    path = _charsets._cache_file()
    assert path.read_text() == computed and path.parent == tmp_path / "xpert_frames"
    monkeypatch.setattr(_charsets, "_compute", lambda: pytest.fail("not read from the cache"))
    monkeypatch.setattr(_charsets, "_class", None)
    assert _charsets.unsafe_class() == computed
    path.write_text("garbage")  # a damaged file is recomputed
    monkeypatch.setattr(_charsets, "_compute", lambda: computed)
    monkeypatch.setattr(_charsets, "_class", None)
    assert _charsets.unsafe_class() == computed


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


@pytest.mark.slow
def test_zh_pool_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from xpert_frames.tokens import pool

    monkeypatch.setattr(pool, "MIN_PARALLEL", 10)
    texts = [f"第{i}个 句子很长，测试分词。" for i in range(40)]
    try:
        for workers in (1, 2):  # parts of every size, answers collected in order
            monkeypatch.setattr(pool, "worker_count", lambda w=workers: w)
            assert pool.tokenize_zh(texts) == [zh.tokenize(t) for t in texts]
            assert pool.tokenize_zh(texts[:10]) == [zh.tokenize(t) for t in texts[:10]]
        # The worker path ran (a worker is alive); a second one starts only when its thread
        # takes a part before the first worker has drained both (not under load, say).
        assert 1 <= pool.POOL.running() <= 2
    finally:
        pool.shutdown()
    monkeypatch.setattr(pool, "worker_count", lambda: 0)
    assert pool.tokenize_zh(texts) == [zh.tokenize(t) for t in texts]
    assert pool.POOL.running() == 0


@pytest.mark.slow
def test_rjieba_pool_path(monkeypatch: pytest.MonkeyPatch) -> None:
    import jieba

    from xpert_frames.tokens import columns, pool

    monkeypatch.setattr(pool, "MIN_PARALLEL_RJIEBA", 10)
    monkeypatch.setattr(pool, "MIN_PARALLEL", 3)
    monkeypatch.setattr(pool, "worker_count", lambda: 1)
    blocks = [f"第{i}个句子很长测试分词" for i in range(30)] + ["a_1", "x-2", "v1.2.3"]
    try:
        # Both kinds of request on the same worker, in either order.
        got = columns.segment_blocks(pl.Series(blocks)).to_list()
        assert got == [jieba.lcut(b) for b in blocks]
        assert pool.POOL.running() == 1
        assert pool.rjieba_zh(blocks[:30]) == [jieba.lcut(b) for b in blocks[:30]]
        assert pool.tokenize_zh(blocks[:30]) == [jieba.lcut(b) for b in blocks[:30]]
    finally:
        pool.shutdown()
    monkeypatch.setattr(zh, "rjieba_many", lambda texts: None)  # rjieba missing
    assert pool.rjieba_zh(blocks) is None


def test_pool_releases_the_lock_when_the_worker_cannot_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from xpert_frames.tokens import pool

    def broken(slot: int) -> None:
        raise OSError("cannot start the worker")

    monkeypatch.setattr(pool, "MIN_PARALLEL", 2)
    monkeypatch.setattr(pool, "worker_count", lambda: 1)
    monkeypatch.setattr(pool.POOL, "_start", broken)
    with pytest.raises(OSError, match="cannot start"):
        pool.tokenize_zh(["你好", "世界", "中文"])
    assert pool.POOL._lock.acquire(blocking=False)  # not left held: the next batch would hang
    pool.POOL._lock.release()


# jieba's block characters, the joiners rjieba treats differently, whitespace (\r\n is one
# token), CJK outside jieba's block range, punctuation, other scripts.
ZH_ALPHABET = "我们北京天安门中华人民共和国的了是在有個aZ09+#&._%-_ \r\n\t\u3000。，！：“"
ZH_ALPHABET += "\u9fd6\u3400Ａあ😀"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=ZH_ALPHABET, max_size=30), max_size=20, unique=True))
def test_zh_blocks_equal_jieba(texts: list[str]) -> None:
    import jieba

    got = tokenize_unique(pl.Series(texts, dtype=pl.String), "zh").to_list()
    assert got == [jieba.lcut(t) for t in texts]


def test_zh_examples_and_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    import jieba

    from xpert_frames.tokens import columns

    texts = ["", "我们 在\r\n这里\r\r\n", "a_1 中文-测试3.5mg", "  ", "Hello 世界!", "中\u3000文"]
    expected = [jieba.lcut(t) for t in texts]
    assert tokenize_unique(pl.Series(texts), "zh").to_list() == expected
    assert columns.segment_blocks(pl.Series(["北京天安门", "a_1"])).to_list() == [
        jieba.lcut("北京天安门"),
        jieba.lcut("a_1"),
    ]
    monkeypatch.setattr(zh, "_get_rjieba", lambda: None)  # rjieba missing: jieba alone
    assert tokenize_unique(pl.Series(texts), "zh").to_list() == expected


def test_needs_jieba_routing() -> None:
    blocks = ["北京", "答案是0.75", "是0.75和1.5", "12.5克", "0.75", "a_1", "x-1", "3.5mg"]
    blocks += ["1.2.3", "是0.75.3", "0.75%", "x1.5", "3."]
    got = pl.select(zh.needs_jieba(pl.lit(pl.Series(blocks)))).to_series().to_list()
    assert got == [False] * 5 + [True] * 8
    import jieba

    expected = [jieba.lcut(b) for b in blocks]
    assert tokenize_unique(pl.Series(blocks), "zh").to_list() == expected


def test_private_segmenters_ignore_user_words() -> None:
    import jieba

    text = "我们去北京天安门"
    before = zh.tokenize(text)
    jieba.add_word("去北京天", freq=10**9)
    try:
        assert jieba.lcut(text) != before
        assert tokenize_unique(pl.Series([text]), "zh").to_list() == [before]
    finally:
        jieba.del_word("去北京天")


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


def _cache_dirs(times: int) -> set[Path]:
    return {zh.cache_dir() for _ in range(times)}


def test_cache_dir_stays_per_user_when_processes_probe_it_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Several processes (jieba workers, other runs) probe the directory at once: a shared probe
    # file name made one of them fall back to the temporary directory.
    from concurrent.futures import ProcessPoolExecutor

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with ProcessPoolExecutor(4) as pool:
        found = set().union(*pool.map(_cache_dirs, [1500] * 4))
    assert found == {tmp_path / "cache" / "xpert_frames" / "jieba"}
    assert list(found.pop().iterdir()) == []
