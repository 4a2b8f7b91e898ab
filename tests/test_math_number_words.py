"""Numbers written in words: English number words (compound, with scale words after digits,
and words that are no numbers), digits between Chinese scale characters (``1万2千``), and
mixed numbers joined by 又 to a fraction."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import examples, score_all_paths
from tests.oracles import math_written as oracle_written
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator
from xpert_frames.reading.numeric.parse import extract_number, parse_number
from xpert_frames.reading.numeric.scales import _rewrite, run_value


def score(preds: list[str], answers: list[str], **options: Any) -> pl.DataFrame:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(**options)])


def latex_scores(preds: list[str], answers: list[str]) -> list[float]:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(symbolic="latex")])["math_score"].to_list()


_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "


_ONES += "fifteen sixteen seventeen eighteen nineteen"


ONES = _ONES.split()


TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def to_words(n: int, *, and_: bool = False) -> str:
    """Plain Python writer of English number words (< 10**12)."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10 - 2] + ("-" + ONES[n % 10] if n % 10 else "")
    if n < 1000:
        rest = n % 100
        joint = " and " if and_ else " "
        return ONES[n // 100] + " hundred" + (joint + to_words(rest) if rest else "")
    for power, word in ((9, "billion"), (6, "million"), (3, "thousand")):
        if n >= 10**power:
            head, rest = divmod(n, 10**power)
            tail = " " + to_words(rest, and_=and_) if rest else ""
            return to_words(head, and_=and_) + " " + word + tail
    raise AssertionError(n)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**11), st.booleans()), min_size=1, max_size=15))
def test_english_number_words_read_back(items: list[tuple[int, bool]]) -> None:
    texts = [to_words(n, and_=a) for n, a in items]
    df = pl.DataFrame({"t": texts, "s": [f"The answer is {w}." for w in texts]})
    got = df.select(
        parse_number("t").alias("whole"), extract_number("s").struct.field("value").alias("in")
    )
    assert got["whole"].to_list() == [float(n) for n, _ in items], texts
    assert got["in"].to_list() == [float(n) for n, _ in items], texts


def test_scale_words_after_digits() -> None:
    texts = ["1.5 million", "2.25 billion", "3 thousand", "0.125 million", "4 Million", "7"]
    got = pl.DataFrame({"t": texts}).select(parse_number("t").alias("v"))["v"].to_list()
    assert got == [1.5e6, 2.25e9, 3000.0, 125000.0, 4e6, 7.0]
    # Not a scale word: an ordinal, a word that only starts like one.
    out = score(["the 3 millionth visitor", "It cost 5 thousands"], ["3", "5"])
    assert out["math_score"].to_list() == [1.0, 1.0]


def test_words_that_are_not_numbers() -> None:
    preds = [
        "None of the students failed, so the answer is zero.",
        "One of the numbers is five and the other is seven. The answer is seven.",
        "The bridge is a hundred-year-old structure; the final answer is twelve.",
    ]
    assert score(preds, ["0", "7", "12"])["math_score"].to_list() == [1.0, 1.0, 1.0]


def test_words_only_where_no_digits() -> None:
    out = score(
        ["There are seven days.", "Each one costs 5 dollars.", "\\boxed{twenty-one}"],
        ["7", "5", "21"],
    )
    assert out["math_score"].to_list() == [1.0, 1.0, 1.0]


def test_digit_scale_runs() -> None:
    runs = {"1万2千": 12000, "3万5": 35000, "1亿2千万": 120000000, "2千5百": 2500}
    runs |= {"12万5千": 125000, "3万2500": 32500, "4万3千2百": 43200, "2千5": 2500}
    runs |= {"1万0百5": 10050}
    for run, value in runs.items():
        assert run_value(run) == value, run
    for bad in ("2千3万", "1万2万", "0万5", "5千5千", "2百5千", "20千5", "0千1亿"):
        assert _rewrite(bad) == bad, bad
    # A plain 12万 is the grammar's; a 千 before 克 is a unit (left alone).
    assert _rewrite("共 12万 人") == "共 12万 人"
    assert _rewrite("重 1万2千克") == "重 1万2千克"


_SCALE = st.sampled_from(["亿", "万", "千", "百", ""])


@settings(max_examples=examples(1000), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12345), _SCALE), min_size=1, max_size=5))
def test_digit_scales_match_the_oracle(parts: list[tuple[int, str]]) -> None:
    text = "共 " + "".join(f"{n}{s}" for n, s in parts) + " 元"
    assert _rewrite(text) == oracle_written.cn_digit_scales(text), text


def _digit_scale_text(a: int, b: int, c: int) -> tuple[str, int]:
    value = a * 10**4 + b * 1000 + c * 100
    text = f"所以总价为 {a}万{b}千{c}百 元。" if b else f"所以总价为 {a}万{c}百 元。"
    return text, value


def test_every_digit_scale_run_scores_as_its_value() -> None:
    """All 810 runs a万b千c百 (and a万c百), in one frame: each against its value and value + 1."""
    texts, answers, want = [], [], []
    for a in range(1, 10):
        for b in range(10):
            for c in range(1, 10):
                text, value = _digit_scale_text(a, b, c)
                texts += [text, text]
                answers += [str(value), str(value + 1)]
                want += [1.0, 0.0]
    assert latex_scores(texts, answers) == want


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(1, 9), st.integers(0, 9), st.integers(1, 9))
def test_digit_scales_score_as_their_value_in_a_two_row_frame(a: int, b: int, c: int) -> None:
    text, value = _digit_scale_text(a, b, c)
    assert latex_scores([text, text], [str(value), str(value + 1)]) == [1.0, 0.0]


@settings(max_examples=10, deadline=None)
@given(
    st.integers(1, 99),
    st.integers(1, 30),
    st.integers(2, 31),
    st.sampled_from(["{w}又{a}/{b}", "{w} 又 {a}/{b}", "{w}又\\frac{{{a}}}{{{b}}}"]),
)
def test_mixed_numbers_with_you_score_as_their_value(w: int, a: int, b: int, form: str) -> None:
    written = form.format(w=w, a=a, b=b)
    value = w + Fraction(a, b)
    whole = str(float(value)) if (value * 1000).denominator == 1 else f"{value}"
    got = latex_scores([f"所以需要 {written} 小时。"] * 2, [whole, f"{a}/{b}"])
    assert got == [1.0, 0.0], written


def test_you_before_a_whole_number_stays_a_conjunction() -> None:
    assert latex_scores(["小明有 1 又 2 个苹果，所以一共 3 个。"], ["3"]) == [1.0]
