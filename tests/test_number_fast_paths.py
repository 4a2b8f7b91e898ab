"""The number reader's shortcuts against what they replace, on generated texts: ASCII fractions
read by literal cuts (``numeric.values._ascii_fraction``) against the capture groups of their
regex; a bare number as its own last candidate (``numeric.rules._statement``) against the
search of every grammar; the rewrites of folded text run only on the texts their screen bits
admit (``numeric.grammar.rewrite_rows``) against every rewrite on every text."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import examples
from xpert_frames.reading.numeric import screens
from xpert_frames.reading.numeric.grammar import (
    REWRITE_STEPS,
    grammar,
    powers_of_ten,
    rewrite_rows,
    rewrite_text,
)
from xpert_frames.reading.numeric.rules import last_candidate
from xpert_frames.reading.numeric.values import _ASCII_FRACTION, BARE, _ascii_fraction

SPACE = st.sampled_from(["", " ", "  ", "\t", "\u3000", "\n"])
DIGITS = st.text("0123456789", min_size=1, max_size=5)
THOUSANDS = st.tuples(
    st.text("0123456789", min_size=1, max_size=3),
    st.lists(st.text("0123456789", min_size=3, max_size=3), min_size=1, max_size=2),
).map(lambda t: ",".join([t[0], *t[1]]))
NUMBER = st.tuples(
    st.one_of(DIGITS, THOUSANDS),
    st.one_of(st.just(""), DIGITS.map(lambda d: "." + d)),
    st.one_of(
        st.just(""),
        st.tuples(st.sampled_from("eE"), st.sampled_from(["", "-", "+"]), DIGITS).map("".join),
    ),
).map("".join) | DIGITS.map(lambda d: "." + d)
SIGN = st.sampled_from(["", "-", "+"])


@st.composite
def fractions(draw: st.DrawFn) -> str:
    s = [draw(SPACE) for _ in range(6)]
    a, b = draw(NUMBER), draw(NUMBER)
    if draw(st.booleans()):
        inner = f"{s[0]}{{{s[1]}{draw(SIGN)}{a}{s[2]}}}{s[3]}{{{s[4]}{draw(SIGN)}{b}{s[5]}}}"
        return f"{draw(SIGN)}\\frac{inner}"
    return f"{draw(SIGN)}{a}{s[0]}/{s[1]}{b}"


@settings(max_examples=examples(500), deadline=None)
@given(texts=st.lists(fractions(), min_size=1, max_size=20))
def test_cuts_equal_the_capture_groups(texts: list[str]) -> None:
    df = pl.DataFrame({"num": texts})
    assert df["num"].str.contains(_ASCII_FRACTION).all()  # the generator writes only these
    want = df.with_columns(pl.col("num").str.extract_groups(_ASCII_FRACTION).alias("p")).unnest("p")
    got = _ascii_fraction(df).select(want.columns)
    assert got.equals(want)


@settings(max_examples=examples(300), deadline=None)
@given(texts=st.lists(st.tuples(SIGN, NUMBER).map("".join), min_size=1, max_size=20))
def test_a_bare_number_is_its_own_last_candidate(texts: list[str]) -> None:
    df = pl.DataFrame({"t": texts})
    bare = df.filter(pl.col("t").str.contains(BARE))
    for chinese in (True, False):
        for mixed in (True, False):
            found = bare.select(last_candidate(grammar(chinese, mixed), pl.col("t")))
            assert found.to_series().to_list() == bare["t"].to_list()


REWRITE_PIECES = [
    *"0123456789", " ", "\t", "-", " - ", "e", "E", "x", ")", "^", "{", "}", "×", "第", "十", "二",
    "\\text{", "\\mathrm{", "\\rm {", "\\mbox{", "10^", "10^{", "^{-3}", "×10^", "abc", "是", ".",
]  # fmt: skip


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.lists(st.sampled_from(REWRITE_PIECES), max_size=10).map("".join), max_size=20))
def test_rewrites_on_their_screened_texts_equal_every_rewrite_on_every_text(
    texts: list[str],
) -> None:
    t = pl.Series("normalized_text", [*texts, None], dtype=pl.String)
    want = t.to_frame().select(powers_of_ten(rewrite_text(pl.col("normalized_text"))))
    df = t.to_frame().with_columns(screens.screen(t).alias("screen_bits"))
    hits = [df.select(screens.has(bits)).to_series() for bits in screens.REWRITE_SCREENS]
    got, changed = rewrite_rows(t, list(zip(hits, REWRITE_STEPS, strict=True)))
    assert got.to_frame().equals(want)
    assert changed.to_list() == got.ne_missing(t).to_list()
    assert t.to_list() == [*texts, None]  # written in place in a copy
