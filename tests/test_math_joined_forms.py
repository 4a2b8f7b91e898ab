"""Blind-set-4 classes: mixed numbers joined by 又 to an ASCII or LaTeX fraction, the empty set
in words inside ``\\text{}``, inequalities joined by or in a last sentence, and references
that list several roots (the labelled set holds the answers as models write them; these
pin each rule, its neighbours and its oracle)."""

from __future__ import annotations

from fractions import Fraction

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import score_all_paths
from tests.oracles import math_forms as oracle_forms
from xpert_frames.evaluators.math_answer import answer_forms
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator


def score(preds: list[str], answers: list[str]) -> list[float]:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(symbolic="latex")])["math_score"].to_list()


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
    got = score([f"所以需要 {written} 小时。"] * 2, [whole, f"{a}/{b}"])
    assert got == [1.0, 0.0], written


def test_you_before_a_whole_number_stays_a_conjunction() -> None:
    assert score(["小明有 1 又 2 个苹果，所以一共 3 个。"], ["3"]) == [1.0]


def test_empty_set_in_words_inside_text() -> None:
    preds = [
        "Hence there are no solutions.",
        "所以解集为 $\\boxed{\\varnothing}$。",
        "所以 $x=2$。",
    ]
    preds += ["Hence the equation has $\\boxed{\\text{no solution}}$."]
    refs = ["\\text{no solution}", "\\text{无解}", "\\text{无解}", "\\emptyset"]
    assert score(preds, refs) == [1.0, 1.0, 0.0, 1.0]
    # Other words in \text are no empty set.
    assert score(["Hence there are no solutions."], ["\\text{two solutions}"]) == [0.0]


def test_inequalities_joined_by_or_across_segments() -> None:
    ref = "(-\\infty,-1)\\cup(3,+\\infty)"
    preds = [
        "So the solution is $x < -1$ or $x > 3$.",
        "So the solution is $x \\le -1$ or $x > 3$.",
    ]
    preds += ["所以 $x<-1$ 或 $x>3$。", "So $x < -1$ or $x > 3$."]
    assert score(preds, [ref, ref, ref, "(-1,3)"]) == [1.0, 0.0, 1.0, 0.0]


SPANS = [
    "x=2或x=3", "x = 2 or x = 3", "x_1=2, x_2=3", "x_1=2，x_2=3", "x=-1或x=\\frac{1}{2}",
    "x=2 \\text{ or } x=3", "x=2, y=3", "x=2", "2x=4, x=2", "x=2或3", "a=1 \\lor a=-3",
    "x=2=y 或 x=3", "(x-2)(x-3)=0",
]  # fmt: skip


def test_listed_roots_match_the_oracle() -> None:
    got = [answer_forms._roots(s) for s in SPANS]
    assert got == [oracle_forms.listed_roots(s) for s in SPANS]
    assert got[:5] == ["2, 3", "2, 3", "2, 3", "2, 3", "-1, \\frac{1}{2}"]
    assert got[6:9] == [None, None, None]  # two unknowns, one root, a step


def test_references_listing_roots() -> None:
    preds = [
        "所以 $x_1=2$，$x_2=3$。",
        "The roots are $\\boxed{2, 3}$.",
        "所以 $x = 2$ 或 $x = 4$。",
    ]
    preds += ["所以 $x=2$。", "So $\\boxed{2, 3, 4}$."]
    refs = ["x=2或x=3", "x=2 or x=3", "x=2或x=3", "x=2或x=3", "x_1=2, x_2=3"]
    assert score(preds, refs) == [1.0, 1.0, 0.0, 0.0, 0.0]
