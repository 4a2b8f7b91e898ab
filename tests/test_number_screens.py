"""The number reader's screen (``numeric/screens.py``): each exact bit against the Polars gate
it stands for, each screen bit against its regex (a match always has the bit), and every
pattern found with its bit wherever it stands in a text; a rewrite followed by a new screen of
only the texts it changed equals one followed by a new screen of every text."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import examples
from xpert_frames.reading.numeric import screens
from xpert_frames.reading.numeric.forms import DECIMAL_COMMAS, RARE_TRIGGER, form_stages
from xpert_frames.reading.numeric.grammar import (
    CHECK_TRIGGERS,
    CONCLUSION_WORDS,
    MIXED_TRIGGER,
    POWER_OF_TEN,
    REWRITES,
    grammar,
)
from xpert_frames.reading.numeric.scales import SCREEN as SCALE_SCREEN
from xpert_frames.reading.numeric.scales import TRIGGER as SCALE_TRIGGER

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
    "\\cdots",
    "\\text{",
    "\\TEXT{",
    "\\textbf{",
    "\\mathrm {",
    "\\mathbf{",
    "\\rm{",
    "\\operatorname{",
    "\\mbox{",
    "10^",
    "×10^{",
    "第二",
    "2万3千",
    "BOXED",
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
    series = pl.Series("normalized_text", texts, dtype=pl.String)
    return pl.DataFrame({"normalized_text": series, "screen_bits": screens.screen(series)})


def exact_gates() -> dict[int, pl.Expr]:
    n = pl.col("normalized_text")
    return {
        screens.APPROX: n.str.contains("≈", literal=True),
        screens.SLASH: n.str.contains("/", literal=True),
        screens.CHECK: n.str.contains_any(CHECK_TRIGGERS, ascii_case_insensitive=True),
        screens.BOX: n.str.contains_any(["boxed", "fbox"]),
        screens.EQUALS: n.str.contains("=", literal=True),
        screens.CONCLUSION_WORD: n.str.contains_any(CONCLUSION_WORDS, ascii_case_insensitive=True),
        screens.DIGIT_SPACE: n.str.contains("[0-9] "),
        screens.TIMES: n.str.contains("×", literal=True),
        screens.POWER: n.str.contains("^", literal=True),
        screens.ORDINAL: n.str.contains("第", literal=True),
        screens.MINUS: n.str.contains("-", literal=True),
        screens.SCALE: n.str.contains_any(SCALE_SCREEN),
    }


def screened_regexes() -> list[tuple[int, str]]:
    regexes = [
        (screens.RARE, RARE_TRIGGER),
        (screens.DIGIT_SPACE | screens.SLASH, MIXED_TRIGGER),
        *zip(screens.REWRITE_SCREENS, [p for _, p, _ in REWRITES] + [POWER_OF_TEN], strict=True),
        (screens.SCALE, SCALE_TRIGGER),
    ]
    return [*regexes, *((screens.MARKER, grammar(c).marker) for c in (True, False))]


def check(texts: list[str]) -> None:
    df = bits_of(texts)
    for bit, gate in exact_gates().items():
        got = df.select(screens.has(bit)).to_series()
        want = df.select(gate).to_series()
        assert got.to_list() == want.to_list(), f"bit {bit}"
    for bits, regex in screened_regexes():
        found = df.filter(pl.col("normalized_text").str.contains(regex) & ~screens.has(bits))
        assert found.height == 0, f"bits {bits} miss {found['normalized_text'].to_list()[:3]}"


@settings(max_examples=examples(300), deadline=None)
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
    assert screens.screen(pl.Series("normalized_text", [], dtype=pl.String)).to_list() == []
    got = screens.screen(
        pl.Series("normalized_text", [None, "", "x = 1"], dtype=pl.String)
    ).to_list()
    assert got == [0, 0, screens.EQUALS]


def test_the_screen_searches_at_most_100_patterns() -> None:
    # Above 100 patterns the Aho-Corasick search is built as an NFA, about twice as slow.
    patterns, _, _ = screens._lookup()
    assert len(patterns) == len(set(patterns)) <= 100


def test_every_pattern_sets_its_bit_wherever_it_stands() -> None:
    texts, want = [], []
    for bit, pattern, ci in screens._PATTERNS:
        text = pattern.replace(screens._D, "7")
        for variant in {text, text.upper() if ci else text}:
            for side, other in [("", ""), ("x ", " 1"), ("答案", "")]:
                texts.append(f"{side}{variant}{other}")
                want.append(bit)
    got = screens.screen(pl.Series("t", texts, dtype=pl.String)).to_list()
    missing = [t for t, g, w in zip(texts, got, want, strict=True) if not g & w]
    assert not missing, missing[:5]


def _rewrites(df: pl.DataFrame) -> pl.DataFrame:
    """A rewrite that changes some texts and leaves the others, in order."""
    n = pl.col("normalized_text")
    return df.with_columns(n.str.replace_all("×", "*", literal=True).str.replace_all("-", " − "))


@settings(max_examples=examples(200), deadline=None)
@given(texts=st.lists(TEXTS, min_size=1, max_size=20))
def test_rescreening_the_changed_rows_equals_rescreening_every_row(texts: list[str]) -> None:
    df = bits_of(texts)
    assert screens.after_in_place(_rewrites)(df).equals(screens.rescreen(_rewrites(df)))


# ------------------------------------------------------------------- number-form stages
# Fractions and decimal commas next to digits, braces and letters.
_FRACTIONS = st.tuples(
    st.sampled_from(["", "1", "x", "{"]),
    st.sampled_from(["", " "]),
    st.just("\\frac"),
    st.sampled_from(["", " "]),
    st.sampled_from(["1", "{1}", "{23}", "{"]),
    st.sampled_from(["", " "]),
    st.sampled_from(["2", "{3}", "{45}", "}", "x"]),
).map("".join)
_COMMAS = st.tuples(
    st.sampled_from(["", "0", "1", "12", ",", "(", "x"]),
    st.just(","),
    st.sampled_from(["1", "23", "456", "7890"]),
    st.sampled_from(["", ",", "x", ")", "5"]),
).map("".join)
FORM_TEXTS = st.lists(_FRACTIONS | _COMMAS | st.sampled_from([" ", "x", "1"]), max_size=6).map(
    "".join
)


@settings(max_examples=examples(300), deadline=None)
@given(texts=st.lists(FORM_TEXTS, min_size=1, max_size=20))
def test_a_form_stage_leaves_a_text_its_trigger_does_not_match_as_it_is(texts: list[str]) -> None:
    df = pl.DataFrame({"t": texts})
    n = pl.col("t")
    for option in DECIMAL_COMMAS:
        for trigger, rules in form_stages(option):
            out = n
            for pattern, replacement in rules:
                out = out.str.replace_all(pattern, replacement)
            missed = df.filter(~n.str.contains(trigger) & (out != n))
            assert missed.height == 0, (option, trigger, missed["t"].to_list()[:3])
