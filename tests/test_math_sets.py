"""Sets, tuples and roots: column vectors against tuples, roots listed or joined by or (also
inside ``\\text{}``), the empty set in words, set-builder references against intervals,
inequalities joined by or, and references that list several roots; each rule against its
oracle and its neighbours."""

from __future__ import annotations

import polars as pl

from tests.helpers import score_all_paths
from tests.oracles import math_forms as oracle_forms
from tests.oracles import math_sets as oracle_sets
from xpert_frames.evaluators.math_answer import answer_forms
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator


def score(preds: list[str], answers: list[str]) -> list[float]:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(symbolic="latex")])["math_score"].to_list()


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
