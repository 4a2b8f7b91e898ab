"""The answer classes found on a blind set (issue 14): integers compared exactly at any size,
statement spans that are the maths and not the words around them, compound English number
words, a last number glued to the expression that ends the prediction, a check after the
answer, a conclusion after a boxed intermediate, colloquial Chinese numerals (一万二), an
approximation in words after the exact value, and repeating decimals (0.\\overline{3}).
The labelled set ``math_labelled_answers.jsonl`` holds each class and its neighbours as real
models write them."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import score_all_paths
from tests.oracles import math as oracle
from tests.oracles import math_forms as oracle_forms
from tests.test_math import OPTION_SETS, assert_matches_oracle
from tests.test_math_symbolic import MODES
from xpert_frames.evaluators.math_answer import symbolic
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator
from xpert_frames.reading.numbers.exact import integer_key
from xpert_frames.reading.numbers.parse import extract_number, parse_number

ANSWERS = Path(__file__).parent / "data" / "math_labelled_answers.jsonl"
CLASSES = {
    "angle",
    "bigint",
    "span",
    "words",
    "glued",
    "aside",
    "roots",
    "rhs",
    "interval",
    "boxstep",
    "verify",
    "conclusion",
    "colloquial",
    "approxword",
    "repeating",
    "ctxafter",
    "digitscale",
    "vector",
    "emptyset",
    "textroots",
    "setbuilder",
    "clause",
    "mixed_you",
    "empty_text",
    "ineq_or",
    "roots_gold",
}


def answers_set() -> pl.DataFrame:
    rows = [json.loads(line) for line in ANSWERS.read_text(encoding="utf-8").splitlines()]
    return pl.DataFrame(rows)


def score(preds: list[str], answers: list[str], **options: Any) -> pl.DataFrame:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(**options)])


# --------------------------------------------------------------------------- labelled set
def test_answers_set_shape() -> None:
    df = answers_set()
    assert df.height >= 60
    assert set(df["class"]) == CLASSES
    for cls in CLASSES:
        rows = df.filter(pl.col("class") == cls)
        assert rows["correct"].sum() >= 5 and (~rows["correct"]).sum() >= 5, cls
    assert (df["lang"] == "zh").sum() >= 15


@pytest.mark.parametrize("mode", MODES)
def test_answers_set(mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    df = answers_set()
    out = score_all_paths(df, [MathEvaluator(symbolic=mode)])
    right = out.with_columns(ok=pl.col("math_score") == pl.col("correct").cast(pl.Float64))
    by_class = right.group_by("class").agg(pl.col("ok").sum()).sort("class").rows()
    with capsys.disabled():
        print(f"\nmath answers set ({mode}): {right['ok'].sum()}/{df.height} {by_class}")
    false_credit = right.filter((pl.col("math_score") == 1.0) & ~pl.col("correct"))
    assert false_credit.height == 0, false_credit
    numeric = right.filter(pl.col("kind") == "numeric")
    assert numeric["ok"].all(), numeric.filter(~pl.col("ok"))
    if mode == "math_verify":
        assert right["ok"].all(), right.filter(~pl.col("ok"))


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_answers_set_matches_oracle(options: dict[str, Any]) -> None:
    assert_matches_oracle(answers_set().select("prediction", "answer"), options)


# --------------------------------------------------------------------------- 1. integers
def test_integer_key_matches_the_oracle() -> None:
    texts = [
        "18446744073709551616", "-0", "+12", "0012", "1,000", "12.00", "12.5", "1e20", "5万",
        "0万", "3 kg", "4 4/9", "7/2", "50%", "2亿 元", "-18,446,744,073,709,551,616", "12 ×",
        "\\frac{1}{2}", "1.5万", "十二", "7 ‰", "2.5e3", "1e5000", "1.25e1", "-0.0e7",
    ]  # fmt: skip
    for scientific in (False, True):
        got = pl.DataFrame({"t": texts}).select(integer_key(pl.col("t"), scientific=scientific))
        want = [oracle.int_key(t, scientific) for t in texts]
        assert [None if k is None else Decimal(k) for k in got.to_series()] == want
    got = pl.DataFrame({"t": texts[:6]}).select(integer_key(pl.col("t"))).to_series()
    assert got.to_list() == ["18446744073709551616e0", "0", "12e0", "12e0", "1e3", "12e0"]


def test_integers_compare_exactly_at_any_size() -> None:
    big = 2**64
    preds = [str(big), f"{big:,}", f"{big:,}".replace(",", "{,}"), str(2**53 + 1), str(-big)]
    preds += [f"\\boxed{{{big}}} ways", "所以共有 18446744073709551616 种。"]
    for delta, want in ((0, 1.0), (1, 0.0), (-1, 0.0)):
        refs = [str(big + delta)] * 3 + [str(2**53 + 1 + delta), str(-big + delta)]
        refs += [str(big + delta)] * 2
        assert score(preds, refs)["math_score"].to_list() == [want] * len(preds), delta
    # Numbers not written as integers keep the tolerance (scientific notation approximates).
    out = score(["1.8446744073709552e19", "1.8e19", "0.3333333"], [str(big), str(big), "1/3"])
    assert out["math_score"].to_list() == [1.0, 0.0, 1.0]


@settings(max_examples=30, deadline=None)
@given(st.integers(2**53, 10**30), st.integers(-2, 2), st.sampled_from(range(4)))
def test_big_integers_in_every_form(n: int, delta: int, form: int) -> None:
    written = [str(n), f"{n:,}", f"{n:,}".replace(",", "{,}"), f"{n:,}".replace(",", " ")][form]
    out = score([f"The answer is {written}.", f"\\boxed{{{n + delta}}}"], [str(n + delta), written])
    assert out["math_score"].to_list() == [float(delta == 0)] * 2, written


# --------------------------------------------------------------------------- 2. spans
@pytest.mark.parametrize(
    ("sentence", "maths"),
    [
        ("最小值为 $2\\sqrt{2}$", "2\\sqrt{2}"),
        ("$f(x)$ 的最小值为 $2\\sqrt{3}$", "2\\sqrt{3}"),
        ("所求的值为\\(x=3\\)", "x=3"),
        ("所求的值为\\[x=3\\]", "x=3"),
        ("is $4\\pi$ square units", "4\\pi"),
        ("the minimum value is 2\\sqrt{2} units", "2\\sqrt{2}"),
        ("最小值为2√2", "2√2"),
        ("圆的面积是16π平方厘米", "16π"),
        ("$$x^2$$", "x^2"),
        ("x = 3", "x = 3"),  # no words: the sentence itself
        ("ab = 6", "ab = 6"),
    ],
)
def test_statement_math(sentence: str, maths: str) -> None:
    got = pl.DataFrame({"s": [sentence]}).select(symbolic.statement_math(pl.col("s"))).item()
    assert got == oracle_forms.statement_math(sentence)
    assert got.strip() == maths  # spans are stripped afterwards


def test_statement_spans_are_the_maths() -> None:
    preds = [
        "所以最小值为 $2\\sqrt{2}$。",
        "因此答案是 $\\frac{\\pi}{3}$。",
        "故所求的值为\\(x=\\sqrt{3}\\)",
        "The final answer is $2\\sqrt{2}$ units.",
    ]
    out = score(preds, ["\\sqrt{8}", "\\pi/3", "\\sqrt{3}", "2\\sqrt2"], symbolic="latex")
    # x=\sqrt{3}: its right-hand side, the reference being no equation.
    assert out["math_extracted"].to_list() == [
        "2\\sqrt{2}", "\\frac{\\pi}{3}", "\\sqrt{3}", "2\\sqrt{2}",
    ]  # fmt: skip
    assert set(out["math_rule"]) == {"statement:latex-exact"}


def test_unicode_root_is_written_out() -> None:
    got = pl.DataFrame({"s": ["2√2", "√(x+1)", "√{3}", "√x"]}).select(
        symbolic.sqrt_latex(pl.col("s"))
    )
    want = ["2\\sqrt{2}", "\\sqrt{x+1}", "\\sqrt{3}", "\\sqrt{x}"]
    assert got.to_series().to_list() == want == [oracle_forms.sqrt_latex(s) for s in got["s"]]


# --------------------------------------------------------------------------- 3. words
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


@settings(max_examples=60, deadline=None)
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


# --------------------------------------------------------------------------- 4. glued
def test_a_number_glued_to_the_final_expression_is_not_the_answer() -> None:
    preds = [
        "Simplifying the expression gives 2x",
        "Combining like terms, we get $3x + 2$.",
        "Differentiating, the derivative is x^2",
        "化简得 $4a$",
        "After expanding we obtain 5(x+1)",
        "The solutions form the pair (1, 2)",
    ]
    out = score(preds, ["2", "2", "2", "4", "1", "2"], symbolic="latex")
    assert out["math_score"].to_list() == [0.0] * 6
    assert out["math_extracted"].to_list() == ["2x", "3x + 2", "x^2", "4a", "5(x+1)", "(1, 2)"]
    assert set(out["math_rule"]) == {"last:latex-exact"}
    assert score(preds[:1], ["2x"], symbolic="latex")["math_score"].to_list() == [1.0]


def test_numbers_with_units_or_words_after_them_stay_numbers() -> None:
    preds = [
        "So the rope is 5m",
        "The area of the square is 16 m^2",
        "The area of the square is 16 cm^2",
        "The new engine is 3x faster",
        "The total cost is \\$5",
        "We compute 10 - 8 = 2, then 2",
        "He finished 2nd",
    ]
    out = score(preds, ["5", "16", "16", "3", "5", "2", "2"])
    assert out["math_score"].to_list() == [1.0] * len(preds)
    assert set(out["math_rule"]) == {"last"}


# --------------------------------------------------------------------------- 5. decimal commas
def test_a_comma_between_digits_does_not_end_a_statement() -> None:
    preds = [
        "Answer: 2,5 kg",
        "答：每人分得 0,5 千克。",
        "Final answer: 2,75 m",
        "Answer: 12,500 people",
    ]
    answers = ["2.5 kg", "0.5", "2.75 m", "12500"]
    always = score(preds, answers, decimal_comma="always")["math_score"].to_list()
    assert always == [1.0, 1.0, 1.0, 0.0]  # always: every comma between digits is a point
    # auto: two digits after a lone comma are decimals, one digit is not (``2,5`` is 2 and 5)
    assert score(preds, answers)["math_score"].to_list() == [0.0, 0.0, 1.0, 1.0]
    assert score(preds, answers, decimal_comma="never")["math_score"].to_list() == [0.0] * 3 + [1.0]
    for option in ("auto", "always", "never"):
        df = pl.DataFrame({"prediction": preds, "answer": answers})
        assert_matches_oracle(df, {"decimal_comma": option})


# --------------------------------------------------------------------------- 6. checks
def test_checks_cut_only_after_the_answer() -> None:
    preds = [
        "So x = 4.\nCheck: 2(4) + 4 = 12.",
        "x = 4.\n\n### Verification\n2(4) + 4 = 12 ✓",
        "解得 x = 4。验算：2×4 + 4 = 12，正确。",
        "Let's check: 2 + 2 = 4. The answer is 12.",  # the answer statement after the check
        "Check: 2 + 2 = 4.",  # nothing before the check: the check is all there is
        "We double-check the count 7 + 5 = 12, so 12.",  # no check heading: read as before
    ]
    out = score(preds, ["4", "4", "4", "12", "4", "12"])
    assert out["math_score"].to_list() == [1.0] * len(preds)
