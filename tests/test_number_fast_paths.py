"""The number reader's shortcuts against what they replace, on generated texts: ASCII fractions
read by literal cuts (``numeric.values._ascii_fraction``) against the capture groups of their
regex; a bare number as its own last candidate (``numeric.rules._statement``) against the
search of every grammar; the rewrites of folded text run only on the texts their screen bits
admit (``numeric.grammar.rewrite_rows``) against every rewrite on every text."""

from __future__ import annotations

import re

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
from xpert_frames.reading.numeric.values import (
    _ASCII_FRACTION,
    _ASCII_ZH_FRACTION,
    BARE,
    _ascii_fraction,
    _ascii_zh_fraction,
    _plain_units,
)

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
    groups = df.with_columns(pl.col("num").str.extract_groups(_ASCII_FRACTION).alias("p"))
    groups = groups.unnest("p")
    # The cuts give each form's operands folded: numerator and denominator of either form.
    want = groups.select(
        "num",
        "sign",
        pl.coalesce("frac_num", "slash_num").alias("numerator"),
        pl.coalesce("frac_den", "slash_den").alias("denominator"),
    )
    got = _ascii_fraction(df).select(want.columns)
    assert got.equals(want)


def test_no_unit_is_written_with_the_characters_of_an_ascii_fraction() -> None:
    # A candidate that is an ASCII fraction skips the unit's split: what follows its first
    # number is never a unit, since no unit is written with only these characters.
    fraction_only = re.compile(r"[0-9,.eE+\-/\s]*")
    assert [u for u in _plain_units() if fraction_only.fullmatch(u)] == []


@settings(max_examples=examples(300), deadline=None)
@given(texts=st.lists(fractions(), min_size=1, max_size=20))
def test_whole_fraction_candidates_read_as_through_the_unit_split(texts: list[str]) -> None:
    from xpert_frames.reading.numeric import values

    df = pl.DataFrame({"candidate": texts}).with_row_index("k")
    got = values.parse_rows(True, df, validated=False).sort("k")
    # The same candidates with a unit after them go through the unit split: their values
    # must be the fractions' values.
    with_unit = df.with_columns(pl.col("candidate") + "kg")
    want = values.parse_rows(True, with_unit, validated=False).sort("k")
    assert got["value"].to_list() == want["value"].to_list()
    assert got["unit"].null_count() == got.height


ZH_FRACTIONS = st.tuples(st.sampled_from(["", "-", "+", "负"]), NUMBER, SPACE, SPACE, NUMBER).map(
    lambda t: f"{t[0]}{t[1]}{t[2]}分之{t[3]}{t[4]}"
)


@settings(max_examples=examples(300), deadline=None)
@given(texts=st.lists(ZH_FRACTIONS, min_size=1, max_size=20))
def test_chinese_fraction_cuts_equal_the_grammars_capture_groups(texts: list[str]) -> None:
    df = pl.DataFrame({"num": texts})
    assert df["num"].str.contains(_ASCII_ZH_FRACTION).all()  # the generator writes only these
    for mixed in (True, False):
        groups = df.with_columns(
            pl.col("num").str.extract_groups(grammar(True, mixed).number_groups).alias("p")
        ).unnest("p")
        others = [c for c in groups.columns if c not in ("num", "sign", "zh_den", "zh_num")]
        assert groups.select(pl.all_horizontal(pl.col(others).is_null())).to_series().all()
        want = groups.select(
            "num",
            "sign",
            pl.col("zh_num").alias("numerator"),
            pl.col("zh_den").alias("denominator"),
        )
        got = _ascii_zh_fraction(df).select(want.columns)
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
