"""The number reader's screen (C, ``numeric/_screen.c``, and its Polars twin;
``numeric/screens.py``): the kernel against a plain byte-by-byte scan, each exact bit against
the Polars gate it replaces and each screen bit against its regex (a match always has the bit)
on both paths, the two paths equal bit for bit, and the math and accuracy evaluators giving
equal frames on both."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xpert_frames.core.arrow import arrow_strings
from xpert_frames.numeric import screens
from xpert_frames.numeric.forms import RARE_TRIGGER, form_stages
from xpert_frames.numeric.grammar import (
    CHECK_TRIGGERS,
    CONCLUSION_WORDS,
    FOLDS,
    MIXED_TRIGGER,
    REWRITE_TRIGGERS,
    grammar,
)
from xpert_frames.numeric.scales import SCREEN as SCALE_SCREEN

_screen = screens._NATIVE
needs_c = pytest.mark.skipif(_screen is None, reason="the C screen is not built")
#: The paths :func:`screens.screen` can take here: the C extension (when built), the twin.
PATHS = [True, False] if _screen is not None else [False]

# ---------------------------------------------------------------------------- the kernel
KIND_BYTES = st.one_of(
    st.tuples(st.just(0), st.sampled_from(list(b"ab1 ,.\\\xe7\x9a\x84\xc5\xbf"))),
    st.tuples(st.just(1), st.just(0)),
    st.tuples(st.just(2), st.sampled_from(list(b"abks"))),
    st.tuples(st.just(3), st.just(0)),
)
PATTERN = st.tuples(
    st.lists(KIND_BYTES, min_size=1, max_size=4), st.sampled_from([1, 2, 4, 1 << 31, 6])
)
# Digits, letters of both cases (k/s and their Unicode look-alikes), CJK, the bytes above.
ALPHABET = [*"ab1 9,.\\ABKSks的€😀", "\u017f", "\u212a", "\x00"]


def accepts(kind: int, want: int, c: int) -> bool:
    if kind == 1:
        return 48 <= c <= 57
    if kind == 2:
        return c | 0x20 == want
    if kind == 3:
        return c >= 0x80
    return c == want


def naive(text: str | None, patterns: list[tuple[list[tuple[int, int]], int]]) -> int:
    """Obviously correct: every pattern tried at every byte offset."""
    if text is None:
        return 0
    raw = text.encode("utf-8")
    found = 0
    for items, bits in patterns:
        for i in range(len(raw) - len(items) + 1):
            if all(accepts(k, w, raw[i + m]) for m, (k, w) in enumerate(items)):
                found |= bits
                break
    return found


def buffers(patterns: list[tuple[list[tuple[int, int]], int]]) -> tuple[bytes, ...]:
    ends = np.cumsum([0, *(len(items) for items, _ in patterns)]).astype(np.int64)
    data = bytes(w for items, _ in patterns for _, w in items)
    kinds = bytes(k for items, _ in patterns for k, _ in items)
    bits = np.array([b for _, b in patterns], dtype=np.uint32)
    return ends.tobytes(), data, kinds, bits.tobytes()


@needs_c
@settings(max_examples=400, deadline=None)
@given(
    patterns=st.lists(PATTERN, max_size=8),
    texts=st.lists(st.none() | st.text(ALPHABET, max_size=24), min_size=1, max_size=16),
)
def test_kernel_equals_the_plain_scan(
    patterns: list[tuple[list[tuple[int, int]], int]], texts: list[str | None]
) -> None:
    assert_kernel_equals_the_plain_scan(patterns, texts)


def assert_kernel_equals_the_plain_scan(
    patterns: list[tuple[list[tuple[int, int]], int]], texts: list[str | None]
) -> None:
    series = pl.Series("t", texts, dtype=pl.String)
    out = _screen.screen(*arrow_strings(series), len(series), *buffers(patterns))
    got = np.frombuffer(out, dtype=np.uint32).tolist()
    assert got == [naive(t, patterns) for t in texts]


# Without "any high byte" kinds the kernel starts each walk from a two-byte table; with them it
# walks from the root (both ways against the plain scan; digits give nodes of ten children).
EXACT_PATTERN = st.tuples(
    st.lists(KIND_BYTES.filter(lambda kb: kb[0] != 3), min_size=1, max_size=5),
    st.sampled_from([1, 2, 4, 1 << 31, 6]),
)


@needs_c
@settings(max_examples=300, deadline=None)
@given(
    patterns=st.lists(EXACT_PATTERN, max_size=12),
    texts=st.lists(st.none() | st.text(ALPHABET, max_size=32), min_size=1, max_size=16),
)
def test_kernel_without_high_kinds_equals_the_plain_scan(
    patterns: list[tuple[list[tuple[int, int]], int]], texts: list[str | None]
) -> None:
    assert_kernel_equals_the_plain_scan(patterns, texts)


@needs_c
def test_kernel_on_the_number_reader_patterns() -> None:
    """The real pattern set (two-byte starts, wide nodes: full-width forms) on texts that hold
    each pattern once, at the start, the end and inside another text."""
    patterns = [
        ([(k, w) for k, w in zip(kinds, data, strict=True)], bit)
        for (bit, pattern, ci), kinds, data in _real_patterns()
    ]
    texts = [
        f"{side}{text}{other}"
        for (_, text, _) in screens._PATTERNS
        for side, other in [("", ""), ("x ", " 1"), ("答案", "")]
    ]
    texts = [t.replace(screens._D, "7") for t in texts] + ["", "7", "7 ", "ｘ"]
    series = pl.Series("t", texts, dtype=pl.String)
    out = _screen.screen(*arrow_strings(series), len(series), *screens._buffers())
    got = np.frombuffer(out, dtype=np.uint32).tolist()
    assert got == [naive(t, patterns) for t in texts]


def _real_patterns() -> list[tuple[tuple[int, str, bool], list[int], list[int]]]:
    ends, data, kinds, _ = (bytes(b) for b in screens._buffers())
    offsets = np.frombuffer(ends, dtype=np.int64).tolist()
    return [
        (p, list(kinds[offsets[k] : offsets[k + 1]]), list(data[offsets[k] : offsets[k + 1]]))
        for k, p in enumerate(screens._PATTERNS)
    ]


@needs_c
def test_kernel_reads_slices_and_32_bit_offsets() -> None:
    patterns = [([(0, ord("="))], 1), ([(1, 0), (0, ord(" "))], 2), ([(3, 0)], 4)]
    texts = ["x", "1 =", None, "é", "2", "a = 3 "]
    array = pa.array(texts, pa.string()).slice(1, 4)  # int32 offsets, an offset
    validity, offsets, data = array.buffers()
    out = _screen.screen(offsets, data, validity, array.offset, 4, 4, *buffers(patterns))
    assert np.frombuffer(out, dtype=np.uint32).tolist() == [3, 0, 4, 0]


@needs_c
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: (np.array([0, 2, 1], np.int64).tobytes(), *b[1:]), "pattern 1: empty"),
        (lambda b: (b[0], b[1], b[2][:-1], b[3]), "inconsistent"),
        (lambda b: (b[0], b[1], b"\x07" + b[2][1:], b[3]), "kind 7"),
        (lambda b: (b[0], b"A" + b[1][1:], b"\x02" + b[2][1:], b[3]), "lowercase"),
    ],
)
def test_kernel_rejects_bad_patterns(change: object, message: str) -> None:
    good = buffers([([(0, ord("a")), (0, ord("b"))], 1), ([(0, ord("c"))], 2)])
    with pytest.raises(ValueError, match=message):
        _screen.screen(*arrow_strings(pl.Series(["ab"])), 1, *change(good))  # type: ignore[operator]


@needs_c
def test_kernel_rejects_offsets_outside_the_data() -> None:
    offsets = np.array([0, 5], dtype=np.int64).tobytes()
    with pytest.raises(ValueError, match="row 0"):
        _screen.screen(offsets, b"ab", None, 0, 8, 1, *buffers([([(0, 97)], 1)]))


# ---------------------------------------------------------------------------- the bits
# Texts as answers write them, and the characters of every gate (full-width forms, long s).
TEXT_ALPHABET = [
    *"0123456789 ,./=()\\{}$#:-+×≈约又第万亿千百答案是为结果所以因此故验证检查算",
    *"aAbBcCdDeEfFhHkKlLmMnNoOpPrRsStTuUvVwWxXyY",
    "\u017f",  # ſ
    "\u212a",  # Kelvin sign
    "\n",
    "…",
]
WORDS = [
    "\\frac",
    "percent",
    "pct",
    "thousand",
    "Million",
    "BILLION",
    "approx.",
    "approximately",
    "about",
    "roughly",
    "\\overline",
    "\\dot",
    "...",
    "\\ldots",
    "check",
    "Verify",
    "boxed",
    "\\fbox",
    "The answer is",
    "final ANSWER",
    "anſwer:",
    "####",
    "So",
    "therefore",
    "Thus",
    "hence",
    "答案是",
    "最终答案",
    # keys of the fold table, and their neighbours
    "一共",
    "一",
    "\\dfrac",
    "\\left(",
    "{,}",
    "℃",
    "＝",
    "，",
    "（",
    "\u3000",
    "ｆｒａｃ",
]
TEXTS = st.lists(st.sampled_from(WORDS) | st.text(TEXT_ALPHABET, max_size=6), max_size=10).map(
    "".join
)


def real_texts() -> list[str]:
    data = Path(__file__).parent / "data"
    rows = [
        json.loads(line)
        for name in ("math_labelled.jsonl", "math_labelled_answers.jsonl")
        for line in (data / name).read_text("utf-8").splitlines()
    ]
    return [str(r[k]) for r in rows for k in ("prediction", "answer")]


def bits_of(texts: list[str]) -> pl.DataFrame:
    series = pl.Series("n", texts, dtype=pl.String)
    return pl.DataFrame({"n": series, "g": screens.screen(series)})


def exact_gates() -> dict[int, pl.Expr]:
    n = pl.col("n")
    return {
        screens.REWRITE: n.str.contains_any([*REWRITE_TRIGGERS, *SCALE_SCREEN]),
        screens.APPROX: n.str.contains("≈", literal=True),
        screens.SLASH: n.str.contains("/", literal=True),
        screens.CHECK: n.str.contains_any(CHECK_TRIGGERS, ascii_case_insensitive=True),
        screens.BOX: n.str.contains_any(["boxed", "fbox"]),
        screens.EQUALS: n.str.contains("=", literal=True),
        screens.CONCLUSION: n.str.contains_any(CONCLUSION_WORDS, ascii_case_insensitive=True),
        screens.DIGIT_SPACE: n.str.contains("[0-9] "),
        screens.FOLD: n.str.contains_any(list(FOLDS)),
    }


def screened_regexes() -> list[tuple[int, str]]:
    stages = [
        "|".join(trigger for trigger, _ in form_stages(option))
        for option in ("auto", "always", "never")
    ]
    regexes = [
        *((screens.STAGES, s) for s in stages),
        (screens.RARE, RARE_TRIGGER),
        (screens.DIGIT_SPACE | screens.SLASH, MIXED_TRIGGER),
    ]
    return [*regexes, *((screens.MARKER, grammar(c).marker) for c in (True, False))]


def check(texts: list[str]) -> None:
    for native in PATHS:
        screens.NATIVE = native
        try:
            check_path(texts)
        finally:
            screens.NATIVE = _screen is not None


def check_path(texts: list[str]) -> None:
    df = bits_of(texts)
    for bit, gate in exact_gates().items():
        got = df.select(screens.has(bit)).to_series()
        want = df.select(gate).to_series()
        assert got.to_list() == want.to_list(), f"bit {bit}"
    for bits, regex in screened_regexes():
        found = df.filter(pl.col("n").str.contains(regex) & ~screens.has(bits))
        assert found.height == 0, f"bits {bits} miss {found['n'].to_list()[:3]}"


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(TEXTS, min_size=1, max_size=20))
def test_bits_are_their_gates_on_generated_texts(texts: list[str]) -> None:
    check(texts)


def test_bits_are_their_gates_on_real_answers() -> None:
    check(real_texts())


def test_screen_bits_hold_their_matches_with_unicode_case_folding() -> None:
    # A Unicode (?i) regex matches ſ for s and the Kelvin sign for k: every non-ASCII
    # character that any ASCII letter of a case-insensitive screen pattern matches is spelt
    # out in the screen (long s in "anſwer"; "thou" avoids the s of "thousand").
    letters = "".join(sorted({c for _, p, ci in screens._PATTERNS if ci for c in p if c.isalpha()}))
    chars = pl.Series([chr(c) for c in range(0x80, 0x3000)])
    for letter in letters:
        folded = chars.filter(chars.str.contains(f"(?i)^{letter}$")).to_list()
        assert set(folded) <= {"\u017f", "\u212a"}, (letter, folded)  # ſ, Kelvin sign
    check(["The anſwer is 5", "ANſWER: 3", "5 thouſand", "approximately 3"])


def test_empty_and_null_texts() -> None:
    assert screens.screen(pl.Series("n", [], dtype=pl.String)).to_list() == []
    got = screens.screen(pl.Series("n", [None, "", "x = 1"], dtype=pl.String)).to_list()
    assert got == [0, 0, screens.EQUALS]


@needs_c
def test_kernel_refuses_patterns_that_expand_too_far() -> None:
    # Seven digit positions are 10**7 paths: more trie nodes than the kernel builds per call.
    with pytest.raises(ValueError, match="trie nodes"):
        _screen.screen(*arrow_strings(pl.Series(["1"])), 1, *buffers([([(1, 0)] * 7, 1)]))


@needs_c
def test_kernel_bounds_arithmetic_does_not_overflow() -> None:
    # (start + n + 1) * width would wrap around for a start near 2**62: refused, not read.
    offsets, data, validity, _, width = arrow_strings(pl.Series(["ab"]))
    for start in (2**62, 2**63 - 2, 3):
        with pytest.raises(ValueError, match="offsets buffer holds"):
            _screen.screen(offsets, data, validity, start, width, 1, *screens._buffers())


def twin_and_native(texts: list[str | None]) -> tuple[list[int], list[int]]:
    series = pl.Series("n", texts, dtype=pl.String)
    try:
        screens.NATIVE = False
        twin = screens.screen(series).to_list()
    finally:
        screens.NATIVE = _screen is not None
    return twin, screens.screen(series).to_list()


@needs_c
@settings(max_examples=300, deadline=None)
@given(texts=st.lists(st.none() | TEXTS, min_size=1, max_size=20))
def test_the_polars_twin_gives_the_c_bits(texts: list[str | None]) -> None:
    twin, native = twin_and_native(texts)
    assert twin == native


@needs_c
def test_the_polars_twin_gives_the_c_bits_on_real_answers() -> None:
    twin, native = twin_and_native([*real_texts(), *(p for _, p, _ in screens._PATTERNS)])
    assert twin == native


@needs_c
def test_math_and_accuracy_score_the_same_on_both_paths() -> None:
    import xpert_frames as xf
    from xpert_frames.evaluators.accuracy.evaluator import AccuracyEvaluator
    from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator

    texts = real_texts()
    frame = pl.DataFrame({"prediction": texts, "answer": texts[1:] + texts[:1]})
    frame = pl.concat([frame, frame.with_columns(answer=pl.col("prediction"))])
    frame = frame.with_columns(answer_type=pl.lit("number"))
    # symbolic="latex": no time limits, so nothing but the screen can differ between runs.
    evaluators = [MathEvaluator(symbolic="latex"), AccuracyEvaluator()]
    try:
        screens.NATIVE = False
        twin = xf.score(frame, evaluators)
    finally:
        screens.NATIVE = True
    native = xf.score(frame, evaluators)
    assert native.equals(twin)
    assert native["math_score"].sum() > 0  # the frame has matches, not only misses
