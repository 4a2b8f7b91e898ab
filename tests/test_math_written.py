"""The answer classes of the third blind set: digits between Chinese scale characters
(``1万2千``), a conclusion followed only by context sentences, column vectors against tuples,
the empty set in words, roots joined inside ``\\text{}``, set-builder references against
intervals, and a later clause that names another quantity (the labelled rows are in
``math_labelled_answers.jsonl``; these tests pin each rule and its neighbours)."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import score_all_paths
from tests.oracles import math_forms as oracle_forms
from tests.oracles import math_sets as oracle_sets
from tests.oracles import math_written as oracle_written
from xpert_frames.evaluators.math_answer import answer_forms
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator
from xpert_frames.reading.numbers.scales import _rewrite, run_value


def score(preds: list[str], answers: list[str]) -> list[float]:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(symbolic="latex")])["math_score"].to_list()


# --------------------------------------------------------------------------- digit scales
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


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12345), _SCALE), min_size=1, max_size=5))
def test_digit_scales_match_the_oracle(parts: list[tuple[int, str]]) -> None:
    text = "共 " + "".join(f"{n}{s}" for n, s in parts) + " 元"
    assert _rewrite(text) == oracle_written.cn_digit_scales(text), text


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 9), st.integers(0, 9), st.integers(1, 9))
def test_digit_scales_score_as_their_value(a: int, b: int, c: int) -> None:
    value = a * 10**4 + b * 1000 + c * 100
    text = f"所以总价为 {a}万{b}千{c}百 元。" if b else f"所以总价为 {a}万{c}百 元。"
    assert score([text, text], [str(value), str(value + 1)]) == [1.0, 0.0]


# --------------------------------------------------------------------------- conclusion
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
    assert score(preds, answers) == [1.0] * 5
    assert score(preds[:2], ["1998", "6"]) == [0.0, 0.0]


# --------------------------------------------------------------------------- symbolic forms
def test_fit_to_reference_matches_the_oracle() -> None:
    pmatrix = "\\begin{pmatrix} 2 \\\\ -1 \\end{pmatrix}"
    pairs = [
        (pmatrix, "(2,-1)"),
        ("(2, -1)", pmatrix),
        ("\\vec{a} = (\\frac{1}{2}, -3)", pmatrix),
        ("(1, 2) \\cup (3, 4)", pmatrix),
        ("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", "(1,2,3,4)"),
        ("x=-2 \\text{ or } x=3", "-2, 3"),
        ("x = 1 \\text{ 或 } x = 4", "1, 4"),
        ("x_1 = 2 \\text{，} x_2 = -3", "2, -3"),
        ("4x = 20 \\text{ and } x = 5", "5"),
        ("\\{x \\mid x<-1 \\text{ 或 } x>3\\}", "(-\\infty,-1)\\cup(3,+\\infty)"),
    ]
    for span, ref in pairs:
        assert answer_forms.fit_to_reference(span, ref) == oracle_forms.fit_to_reference(
            span, ref
        ), (span, ref)
    assert answer_forms.fit_to_reference(pmatrix, "(2,-1)") == "(2, -1)"
    assert answer_forms.fit_to_reference("x=-2 \\text{ or } x=3", "-2, 3") == "-2, 3"
    assert answer_forms.fit_to_reference("4x = 20 \\text{ and } x = 5", "5") == "5"


def test_the_empty_set_and_set_builder_references() -> None:
    preds = [
        "Squaring gives $x = 4$, which fails. Hence there is no solution.",
        "判别式小于零，所以方程无解。",
        "So the set is $\\boxed{\\{\\}}$.",
        "The answer is $\\boxed{\\varnothing}$.",
        "Hence there is no solution.",
        "So the solution set is $\\{x \\mid x > 2\\}$, which is not empty.",
        "There is no solution for $x<0$. The answer is $\\boxed{2}$.",
        "所以解集为 $(2, +\\infty)$。",
        "所以解集为 $[2, +\\infty)$。",
    ]
    answers = ["\\emptyset", "\\varnothing", "\\emptyset", "No solution", "\\{1\\}"]
    answers += ["\\emptyset", "\\emptyset", "\\{x|x>2\\}", "\\{x|x>2\\}"]
    assert score(preds, answers) == [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert oracle_sets.fit_sets(preds[1], None, "\\varnothing") == ("\\emptyset", "\\emptyset")


def test_a_later_clause_naming_another_quantity_is_cut() -> None:
    preds = [
        "所以体积为 $4\\pi$，表面积另算为 $12\\pi$。",
        "So the volume is $\\frac{32\\pi}{3}$, and the surface area is $16\\pi$.",
        "所以 $x_1 = 2$，$x_2 = 3$。",
        "所以面积为 $\\frac{12}{4}\\sqrt{3}$，即 $3\\sqrt{3}$。",
    ]
    answers = ["4\\pi", "16\\pi", "2, 3", "3\\sqrt{3}"]
    assert score(preds, answers) == [1.0, 0.0, 1.0, 1.0]
