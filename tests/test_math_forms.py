"""Number forms real answers use, each as prediction and as reference; the decimal comma
option; whole numbers compared exactly; a round trip of random numbers written in every
supported form."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import examples, score_all_paths
from tests.test_numbers import to_chinese
from xpert_frames.core.exceptions import InvalidOptionError
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator
from xpert_frames.reading.numeric.parse import extract_number, parse_number

CASES: list[tuple[str, float]] = [
    ("4 4/9", 40 / 9),
    ("12\\frac{3}{5}", 12.6),
    ("$4 \\frac{4}{9}$", 40 / 9),
    ("4 4/9%", 40 / 900),
    ("三又四分之一", 3.25),
    ("-2 1/2", -2.5),
    ("1 000", 1000.0),
    ("1 000 000", 1e6),
    ("11,\\! 111,\\! 100", 11111100.0),
    ("14{,}916", 14916.0),
    ("10{,}000", 10000.0),
    ("2,74", 2.74),
    ("1000,99", 1000.99),
    ("1,000", 1000.0),
    ("33.5 percent", 0.335),
    ("8 pct", 0.08),
    ("12 percentage", 0.12),
    ("\\boxed{25\\text{ percent}}", 0.25),
    ("25\\%", 0.25),
    ("\\frac13", 1 / 3),
    ("\\frac3{4}", 0.75),
    ("\\frac{3}4", 0.75),
    ("\\dfrac{1}{8}", 0.125),
    ("\\tfrac{2}{5}", 0.4),
    ("\\cfrac{5}{8}", 0.625),
    ("\\frac{9.5}{2}", 4.75),
    ("seven", 7.0),
    ("twenty-one", 21.0),
    ("one hundred", 100.0),
    ("one hundred and five", 105.0),
    ("Ninety-nine", 99.0),
]


def score(preds: list[str | None], answers: list[str], **options: Any) -> pl.DataFrame:
    df = pl.DataFrame(
        {"prediction": preds, "answer": answers},
        schema=dict.fromkeys(("prediction", "answer"), pl.String),
    )
    return score_all_paths(df, [MathEvaluator(**options)])


def test_every_form_as_prediction_and_as_reference() -> None:
    """Each form scored as the prediction (bare and in a sentence) against the plain value,
    as the reference (bare and boxed) against it, and against a wrong value."""
    preds: list[str | None] = []
    answers: list[str] = []
    for written, value in CASES:
        plain, wrong = repr(value), repr(value + 1.0)
        preds += [written, f"The answer is {written}.", plain, plain, written, wrong]
        answers += [plain, plain, written, f"\\boxed{{{written}}}", wrong, written]
    out = score(preds, answers)
    scores = out["math_score"].to_list()
    for k, (written, value) in enumerate(CASES):
        assert scores[6 * k : 6 * k + 6] == [1.0] * 4 + [0.0] * 2, (written, out.slice(6 * k, 6))
        assert out["math_value"][6 * k] == pytest.approx(value, rel=1e-12), written


def test_parse_number_reads_every_form() -> None:
    df = pl.DataFrame({"t": [w for w, _ in CASES if "boxed" not in w]})
    got = df.select(parse_number("t").alias("v"))["v"].to_list()
    want = [v for w, v in CASES if "boxed" not in w]
    assert got == pytest.approx(want, rel=1e-12)


def test_decimal_comma_option() -> None:
    texts = ["2,74", "1,000", "1000,99", "1,5", "0,5 kg"]
    df = pl.DataFrame({"t": texts})
    auto, always, never = (
        df.select(parse_number("t", decimal_comma=dc).alias("v"))["v"].to_list()  # type: ignore[arg-type]
        for dc in ("auto", "always", "never")
    )
    assert auto == [2.74, 1000.0, 1000.99, None, None]  # "1,5" is ambiguous: not a number
    assert always == [2.74, 1.0, 1000.99, 1.5, 0.5]
    assert never == [None, 1000.0, None, None, None]
    out = score(["1,5"], ["1.5"], decimal_comma="always")
    assert out["math_score"].to_list() == [1.0]
    with pytest.raises(InvalidOptionError, match="decimal_comma"):
        extract_number("t", decimal_comma="sometimes")  # type: ignore[arg-type]


def test_whole_numbers_compare_exactly() -> None:
    out = score(
        ["99999999999", "1000001", "3.0", "\\frac{6}{2}", "2.9999999999"],
        ["100000000000", "1000000", "3", "3", "3"],
    )
    assert out["math_score"].to_list() == [0.0, 0.0, 1.0, 1.0, 1.0]


def _written(draw: st.DrawFn, q: Fraction) -> tuple[str, float]:
    """One random way of writing the non-negative rational ``q`` (value read back)."""
    n, d = q.numerator, q.denominator
    whole, rest = divmod(n, d)
    forms: list[tuple[str, float]] = [(f"\\frac{{{n}}}{{{d}}}", n / d), (f"{n}/{d}", n / d)]
    if d == 1:
        forms += [
            (str(n), float(n)),
            (f"{n:,}", float(n)),
            (f"{n:,}".replace(",", " "), float(n)),
            (f"{n:,}".replace(",", "{,}"), float(n)),
            (f"{n:,}".replace(",", ",\\! "), float(n)),
            (to_chinese(n), float(n)),
            (f"{n}\\%", n / 100),
            (f"{n} percent", n / 100),
            (f"{n}%", n / 100),
        ]
        cents = draw(st.integers(10, 99))
        forms.append((f"{n},{cents}", n + cents / 100))  # a decimal comma
    if whole and rest:
        forms += [
            (f"{whole} {rest}/{d}", n / d),
            (f"{whole}\\frac{{{rest}}}{{{d}}}", n / d),
            (f"{to_chinese(whole)}又{to_chinese(d)}分之{to_chinese(rest)}", n / d),
        ]
    if n < 10 and d < 10:
        forms.append((f"\\frac{n}{d}", n / d))
    return draw(st.sampled_from(forms))


@st.composite
def written_numbers(draw: st.DrawFn) -> tuple[str, float]:
    q = Fraction(draw(st.integers(0, 10**9)), draw(st.sampled_from([1, 1, 1, 2, 3, 7, 12, 100])))
    return _written(draw, q)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(written_numbers(), min_size=1, max_size=20))
def test_written_numbers_read_back(items: list[tuple[str, float]]) -> None:
    texts = [w for w, _ in items]
    df = pl.DataFrame({"t": texts, "s": [f"所以答案是{w}。" for w in texts]})
    got = df.select(
        parse_number("t").alias("whole"), extract_number("s").struct.field("value").alias("in")
    )
    for (written, value), whole, inside in zip(items, got["whole"], got["in"], strict=True):
        assert whole == pytest.approx(value, rel=1e-12), written
        assert inside == pytest.approx(value, rel=1e-12), written
