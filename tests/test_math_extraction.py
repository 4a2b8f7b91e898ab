"""Where the math answer is read out of the output: the statement span is the maths and not the
words around it, a number glued to the final expression is no answer, units and words after a
number keep it one, a decimal comma does not end a statement, checks are cut only after the
answer, the final answer after a box wins, an approximation after the exact value, a
conclusion followed by context stands, a later clause naming another quantity is cut."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from tests.helpers import score_all_paths
from tests.math_checks import assert_matches_oracle
from tests.oracles import math_forms as oracle_forms
from xpert_frames.evaluators.math_answer import symbolic
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator


def score(preds: list[str], answers: list[str], **options: Any) -> pl.DataFrame:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(**options)])


def latex_scores(preds: list[str], answers: list[str]) -> list[float]:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(symbolic="latex")])["math_score"].to_list()


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


def test_final_answer_after_a_box_wins() -> None:
    pred = "First, $\\boxed{255}$ subsets; times 41 is 10,455.\n\nThe final answer is $10,455$."
    out = score([pred, pred, "The final answer is $\\boxed{42}$."], ["10455", "255", "42"])
    assert out["math_score"].to_list() == [1.0, 0.0, 1.0]
    assert out["math_rule"].to_list() == ["statement", "statement", "boxed"]


def test_approximation_after_the_exact_value() -> None:
    preds = ["x = 1/3 ≈ 0.33", "$x = \\frac{1}{3} \\approx 0.33$", "x = 1/3 ≈ 0.33", "≈ 0.33"]
    out = score(preds, ["1/3", "0.33", "0.3", "0.33"])
    assert out["math_score"].to_list() == [1.0, 1.0, 0.0, 1.0]
    assert out["math_value"].to_list()[:3] == pytest.approx([1 / 3] * 3)
    # The approximation counts only against a decimal reference, never against a whole one.
    assert score(["n = 7/2 ≈ 3"], ["3"])["math_score"].to_list() == [0.0]


def test_a_conclusion_followed_by_context_stands() -> None:
    preds = [
        "His son was 17, so John was 2 × 17 = 34.\nSo John was 34 years old. This was in 1998.",
        "So each box holds 6 pens. Then 7 boxes hold 6 × 7 = 42 pens.",
        "So x = 4. Therefore the answer is 8.",
        "Thus she has 14 marbles. Her sister has 9, so together they have 23 marbles.",
        "So the area is 12x. It was drawn in 1990.",
    ]
    # The last one's conclusion holds an expression (12x): it does not stand, the last
    # number does (as before).
    answers = ["34", "42", "8", "23", "1990"]
    assert latex_scores(preds, answers) == [1.0] * 5
    assert latex_scores(preds[:2], ["1998", "6"]) == [0.0, 0.0]


def test_a_later_clause_naming_another_quantity_is_cut() -> None:
    preds = [
        "所以体积为 $4\\pi$，表面积另算为 $12\\pi$。",
        "So the volume is $\\frac{32\\pi}{3}$, and the surface area is $16\\pi$.",
        "所以 $x_1 = 2$，$x_2 = 3$。",
        "所以面积为 $\\frac{12}{4}\\sqrt{3}$，即 $3\\sqrt{3}$。",
    ]
    answers = ["4\\pi", "16\\pi", "2, 3", "3\\sqrt{3}"]
    assert latex_scores(preds, answers) == [1.0, 0.0, 1.0, 1.0]
