"""xpert_frames.reading.numeric.parse: every supported form, the extraction rules, and round
trips."""

from __future__ import annotations

import math

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import examples
from xpert_frames.core.exceptions import InvalidOptionError, OptionTypeError
from xpert_frames.reading.numeric.parse import NUMBER_DTYPE, extract_number, parse_number


def extract(texts: list[str | None], **kw: object) -> list[dict[str, object] | None]:
    df = pl.DataFrame({"t": texts}, schema={"t": pl.String})
    return df.select(extract_number("t", **kw).alias("n"))["n"].to_list()  # type: ignore[arg-type]


def parse(texts: list[str | None], **kw: object) -> list[float | None]:
    df = pl.DataFrame({"t": texts}, schema={"t": pl.String})
    return df.select(parse_number("t", **kw).alias("v"))["v"].to_list()  # type: ignore[arg-type]


FORMS = [
    # integers, decimals, signs
    ("42", 42.0, None),
    ("3.14", 3.14, None),
    (".5", 0.5, None),
    ("-3", -3.0, None),
    ("+7", 7.0, None),
    ("负3", -3.0, None),
    ("－３", -3.0, None),
    ("１２３．５", 123.5, None),
    # thousands separators, scientific notation
    ("1,000", 1000.0, None),
    ("1,250.5", 1250.5, None),
    ("12,345,678", 12345678.0, None),
    ("1e-3", 0.001, None),
    ("2.5e3", 2500.0, None),
    ("2.5E+3", 2500.0, None),
    ("2.5×10^3", 2500.0, None),
    ("2.5 \\times 10^{-3}", 0.0025, None),
    # fractions
    ("1/2", 0.5, None),
    ("3 / 4", 0.75, None),
    ("-1/4", -0.25, None),
    ("2分之1", 0.5, None),
    ("\\frac{1}{2}", 0.5, None),
    ("\\dfrac{3}{4}", 0.75, None),
    ("\\frac{-1}{8}", -0.125, None),
    ("$\\frac{3}{4}$", 0.75, None),
    ("$42$", 42.0, None),
    # percent
    ("50%", 0.5, "%"),
    ("12.5%", 0.125, "%"),
    ("百分之五十", 0.5, "%"),
    ("百分之三十五点五", 0.355, "%"),
    ("百分之20", 0.2, "%"),
    # Chinese numerals
    ("零", 0.0, None),
    ("五", 5.0, None),
    ("十", 10.0, None),
    ("十五", 15.0, None),
    ("二十", 20.0, None),
    ("三点五", 3.5, None),
    ("零点五", 0.5, None),
    ("一百二十", 120.0, None),
    ("一百零五", 105.0, None),
    ("一千零五十", 1050.0, None),
    ("两千", 2000.0, None),
    ("三万", 30000.0, None),
    ("十二万零三", 120003.0, None),
    ("一万二", 12000.0, None),  # colloquial: the last digit takes the next lower unit
    ("三百五", 350.0, None),
    ("两千五", 2500.0, None),
    ("三万五", 35000.0, None),
    ("一万二千三", 12300.0, None),
    ("三百零五", 305.0, None),
    ("一万零二", 10002.0, None),
    ("一亿两千万", 120000000.0, None),
    ("二零二三", 2023.0, None),
    ("负二分之一", -0.5, None),
    ("三分之二", 2 / 3, None),
    ("2.5万", 25000.0, None),
    # units
    ("42.5 kg", 42.5, "kg"),
    ("5米", 5.0, "米"),
    ("3千克", 3.0, "千克"),
    ("12厘米", 12.0, "厘米"),
    ("10 m/s", 10.0, "m/s"),
    ("25℃", 25.0, "°C"),
    ("30°C", 30.0, "°C"),
    ("1,250.5元", 1250.5, "元"),
    ("7个", 7.0, "个"),
]


@pytest.mark.parametrize(("text", "value", "unit"), FORMS)
def test_forms_extract_and_parse(text: str, value: float, unit: str | None) -> None:
    (got,) = extract([text])
    assert got is not None
    assert got["value"] == pytest.approx(value, rel=1e-12)
    assert got["unit"] == unit
    assert parse([text]) == [pytest.approx(value, rel=1e-12)]


@pytest.mark.parametrize(
    ("text", "value", "rule"),
    [
        ("答案是1/2", 0.5, "statement"),
        ("总价为1,250.5元", 1250.5, "last"),
        ("3+4=7，7×2=14，所以答案是14", 14.0, "statement"),
        ("所以两个数的和是10", 10.0, "statement"),
        ("所以，答案是14，验证：14-7=7", 14.0, "statement"),
        ("答：还剩5个苹果。", 5.0, "statement"),
        ("最终答案：负二分之一", -0.5, "statement"),
        ("The answer is 42.", 42.0, "statement"),
        ("Final answer: 3.5", 3.5, "statement"),
        ("so #### 72", 72.0, "statement"),
        ("we get \\boxed{\\frac{1}{2}} in the end, not 3", 0.5, "boxed"),
        ("\\boxed{14}。其他3", 14.0, "boxed"),
        ("First 3+4=7, then 7*2 = 14", 14.0, "equals"),
        ("7-2=5", 5.0, "equals"),
        ("a 3 b 4 c", 4.0, "last"),
        ("十分简单，答案是5千克", 5.0, "statement"),
        ("第一步：3+4=7，第二步：7×2=14", 14.0, "equals"),
        ("一共15个", 15.0, "last"),
        ("这是一个三角形", 1.0, "last"),
    ],
)
def test_rules(text: str, value: float, rule: str) -> None:
    (got,) = extract([text])
    assert got is not None
    assert (got["value"], got["rule"]) == (pytest.approx(value), rule)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The code is AZYUK2A", None),  # a code word: letters, digits, letters
        ("AZYUK2", None),
        ("Plants take in CO2", None),
        ("The area is 15 cm2", 15.0),  # not the 2 of cm2
        ("x1 = 3 and x2 = 5, so the sum is 8", 8.0),
        ("\\frac12", 0.5),  # a LaTeX command's digits are its argument
        ("1e5", 100000.0),  # the exponent of scientific notation
        ("2.5E3", 2500.0),
        ("0x1F is 31", 31.0),
        ("The current is 2A", 2.0),  # a unit after the number
    ],
)
def test_digits_glued_after_a_words_letters_are_not_a_number(
    text: str, value: float | None
) -> None:
    (got,) = extract([text])
    assert got is not None
    assert got["value"] == (None if value is None else pytest.approx(value)), got


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The total is US$5.", 5.0),
        ("A ticket costs HK$300, so two cost HK$600.", 600.0),
        ("Each phone sells for NT$12,000", 12000.0),
        ("答案是 AU$45.50", 45.5),
        ("Let $HK$ = 5, so the answer is 7.", 7.0),  # a segment named HK in maths
        ("The US population grew by 5 million", 5000000.0),
    ],
)
def test_a_dollar_amount_with_its_currencys_letters_is_a_number(text: str, value: float) -> None:
    (got,) = extract([text])
    assert got is not None
    assert got["value"] == pytest.approx(value), got


def test_nothing_found_and_null() -> None:
    assert extract(["no digits here", "", None]) == [
        {"value": None, "unit": None, "rule": "none"},
        {"value": None, "unit": None, "rule": "none"},
        None,
    ]


def test_first_mode_is_the_seeds_choice() -> None:
    got = extract(["3+4=7，7×2=14，所以答案是14", "\\boxed{5} 6"], mode="first")
    assert [(g["value"], g["rule"]) for g in got] == [(3.0, "first"), (5.0, "first")]  # type: ignore[index]


def test_parse_requires_the_whole_string() -> None:
    assert parse(["答案是3", "3 apples and 4", "1,2,3", "3.", " 3 ", "3。", "x"]) == [
        None,
        None,
        None,
        None,
        3.0,
        None,
        None,
    ]


def test_normalize_false_reads_ascii_only() -> None:
    texts = ["零点五", "2分之1", "－３", "负3", "1/2", "1,000", "50%", "$\\frac{1}{4}$", "7-2"]
    got = [g["value"] for g in extract(texts, normalize=False)]  # type: ignore[index]
    assert got == [None, 1.0, None, 3.0, 0.5, 1000.0, 0.5, 0.25, -2.0]
    on = [g["value"] for g in extract(texts)]  # type: ignore[index]
    assert on == [0.5, 0.5, -3.0, -3.0, 0.5, 1000.0, 0.5, 0.25, 2.0]


def test_dtype_and_lazy() -> None:
    lf = pl.LazyFrame({"t": ["1/2", None]}).select(extract_number(pl.col("t")).alias("n"))
    assert lf.collect_schema()["n"] == NUMBER_DTYPE
    assert lf.collect(engine="streaming")["n"].to_list()[0]["value"] == 0.5


def test_bad_options() -> None:
    with pytest.raises(InvalidOptionError, match=r"Hint"):
        extract_number("t", mode="middle")  # type: ignore[arg-type]
    with pytest.raises(OptionTypeError):
        extract_number("t", normalize="yes")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- round trips
_CN_DIGITS = "零一二三四五六七八九"


def to_chinese(n: int) -> str:
    """Plain Python writer of Chinese integers (< 10**12), for the round trip."""
    if n == 0:
        return "零"

    def below_10k(k: int) -> str:
        out, zero = "", False
        for value, name in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
            d = k // value % 10
            if d:
                out += ("零" if zero and out else "") + _CN_DIGITS[d] + name
                zero = False
            else:
                zero = True
        return out

    parts, zero = "", False
    for value, name in ((10**8, "亿"), (10**4, "万"), (1, "")):
        k = n // value % 10**4 if value < 10**8 else n // value
        if k:
            prefix = "零" if parts and (zero or k < 1000) else ""
            parts += prefix + below_10k(k) + name
            zero = False
        elif parts:
            zero = True
    return parts


def formats(x: float) -> list[tuple[str, float]]:
    r = repr(x)
    out = [(r, x), (f"{x:.17e}", x), (f"{x:,}", x), ("答案是" + r + "元", x), (r + " kg", x)]
    out.append(("".join(chr(ord(c) + 0xFEE0) if c.isdigit() else c for c in r), x))
    out.append(("$" + r + "$", x))
    out.append((r + "%", x / 100))
    if x < 0:
        out.append(("负" + repr(-x), x))
    return out


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1, max_size=25)
)
def test_any_float_round_trips(xs: list[float]) -> None:
    cases = [case for x in xs for case in formats(x)]
    got = extract([c for c, _ in cases])
    for (text, want), g in zip(cases, got, strict=True):
        assert g is not None and g["value"] is not None, text
        assert math.isclose(g["value"], want, rel_tol=1e-12, abs_tol=0.0) or g["value"] == want, (
            text
        )


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 10**12 - 1), st.integers(1, 10**6), st.integers(0, 99)),
        min_size=1,
        max_size=25,
    )
)
def test_integers_fractions_and_chinese_round_trip(triples: list[tuple[int, int, int]]) -> None:
    cases = [case for n, d, cents in triples for case in _integer_cases(n, d, cents)]
    got = extract([c for c, _ in cases])
    for (text, want), g in zip(cases, got, strict=True):
        assert g is not None and g["value"] is not None, text
        assert math.isclose(g["value"], want, rel_tol=1e-12, abs_tol=1e-300), (text, g, want)


def _integer_cases(n: int, d: int, cents: int) -> list[tuple[str, float]]:
    return [
        (to_chinese(n), float(n)),
        (f"{n}/{d}", n / d),
        (f"\\frac{{{n}}}{{{d}}}", n / d),
        (f"{d}分之{n}", n / d),
        (f"{to_chinese(d)}分之{to_chinese(n)}", n / d),
        (f"{to_chinese(n)}点{_CN_DIGITS[cents // 10]}{_CN_DIGITS[cents % 10]}", n + cents / 100),
        (f"{n:,}", float(n)),
    ]


def test_all_null_and_empty_columns() -> None:
    assert extract([None, None]) == [None, None]
    assert extract([]) == []
    assert parse([None]) == [None]


def test_bare_fast_path_matches_the_rules() -> None:
    # Bare numbers skip the rule machinery; the same numbers inside text go through it.
    bare = extract(["42", " -3.5 ", "+7"])
    assert [(g["value"], g["rule"]) for g in bare] == [
        (42.0, "last"),
        (-3.5, "last"),
        (7.0, "last"),
    ]  # type: ignore[index]
    first = extract(["42"], mode="first")
    assert first[0] == {"value": 42.0, "unit": None, "rule": "first"}


@pytest.mark.parametrize(
    ("text", "value", "rule"),
    [
        # The last box is read after the last \\boxed, anchored; a malformed last box is no
        # box (an earlier one was superseded): the other rules read the text.
        ("\\boxed{3} and then \\boxed{4", 4.0, "last"),
        ("\\boxed{3}. Wait, redo: \\boxed{\\frac{1}{2}", 0.5, "last"),
        ("\\boxed{3} and \\boxed{\\frac{1}{2}}", 0.5, "boxed"),
        ("\\fbox{7} then \\boxed{ {8} }", 8.0, "boxed"),
        ("\\boxed{a{b{c{d}}}} \\boxed{5} but 9", 5.0, "boxed"),
        ("boxed 6 but no box", 6.0, "last"),
        ("\\boxed{x} so the answer is 12", 12.0, "statement"),
    ],
)
def test_last_box_fast_path(text: str, value: float, rule: str) -> None:
    (got,) = extract([text])
    assert got is not None
    assert (got["value"], got["rule"]) == (pytest.approx(value), rule)


def test_ascii_fraction_fast_path_matches_the_grammar() -> None:
    # ASCII fractions are read with a regex of their own forms; the rest with the grammar.
    texts: list[str | None] = [
        "-3/4",
        "\\frac{3}{4}",
        "1,000/4",
        "\\frac{-1}{2}",
        "3/4kg",
        "三分之一",
        "4 1/2",
    ]
    assert parse(texts) == pytest.approx([-0.75, 0.75, 250.0, -0.5, 0.75, 1 / 3, 4.5])
