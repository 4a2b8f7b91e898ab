"""MathEvaluator against the per-row oracle on random answer-like texts (hypothesis)."""

from __future__ import annotations

import os
from typing import Any

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import examples
from tests.math_checks import OPTION_SETS, assert_matches_oracle
from tests.test_numbers import to_chinese

WORDS = [
    "答案是", "答案为", "答案：", "答：", "所以", "因此", "故", "最终答案", "结果是",
    "the answer is ", "Final answer: ", "Answer: ", "#### ", "=", " = ", "+", "-", " - ", "×",
    "，", "。", ", ", ". ", "\n", " ", "；", "：", "(", ")", "$", "\\boxed{", "}", "x", "y",
    "一共", "十分", "第一步", "三角形", "个", "米", "千克", "元", "厘米", "kg", " kg", "m/s",
    "%", "℃", "°C", " km", " m", "小时", "分钟", "苹果", "apples", "total", "负", "分之",
    "百分之", "点", "万", "亿", "两", "零", "十", "e", "/", ",", ".", "－", "１", "０",
]  # fmt: skip


@st.composite
def number_text(draw: st.DrawFn) -> str:
    n = draw(st.integers(0, 10**9))
    d = draw(st.integers(1, 1000))
    x = draw(st.floats(-1e6, 1e6, allow_nan=False))
    form = draw(st.integers(0, 9))
    return [
        str(n),
        f"{n:,}",
        repr(x),
        f"{x:.3e}",
        f"{n}/{d}",
        f"\\frac{{{n}}}{{{d}}}",
        f"{d}分之{n}",
        to_chinese(n % 100000),
        f"{to_chinese(n % 1000)}点{to_chinese(d % 10)}",
        f"{x:.2f}%",
    ][form]


texts = st.lists(st.one_of(number_text(), st.sampled_from(WORDS)), max_size=12).map("".join)


# XF_MATH_EXAMPLES raises the number of examples for a longer local search.
@settings(max_examples=int(os.environ.get("XF_MATH_EXAMPLES", examples(25))), deadline=None)
@given(
    st.lists(st.tuples(st.one_of(st.none(), texts), texts), min_size=1, max_size=30),
    st.sampled_from(OPTION_SETS),
)
def test_random_texts_match_oracle(
    pairs: list[tuple[str | None, str]], options: dict[str, Any]
) -> None:
    df = pl.DataFrame(
        {"prediction": [p for p, _ in pairs], "answer": [a for _, a in pairs]},
        schema={"prediction": pl.String, "answer": pl.String},
    )
    assert_matches_oracle(df, options)
