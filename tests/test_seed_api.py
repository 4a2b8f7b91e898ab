"""The XpertEval evaluate() API is honest: plain answer values are accepted, and what it cannot
score is an error, never a silent 0.0 with count 0."""

from __future__ import annotations

import pytest

import xpert_frames as xf
from xpert_frames.core.exceptions import InputError, NoScoresError


def test_plain_string_references_are_the_answer_value() -> None:
    math = xf.get_evaluator("math")
    want = {"math_accuracy": {"score": 1.0, "min": 1.0, "max": 1.0, "count": 1}}
    assert math.evaluate(["所以答案是14"], ["14"]) == want
    assert math.evaluate(["所以答案是14"], [14]) == want
    as_dict = [{"answer": {"type": "number", "value": "14"}}]
    assert math.evaluate(["所以答案是14"], as_dict) == want  # the XpertEval form still works
    wrong = math.evaluate(["所以答案是15", "14"], ["14", "14"])["math_accuracy"]
    assert (wrong["score"], wrong["count"]) == (0.5, 2)


@pytest.mark.parametrize("name", ["accuracy", "bleu", "fuzzy", "math", "tcm_diagnosis"])
def test_every_evaluator_scores_plain_and_dict_references_alike(name: str) -> None:
    ev = xf.get_evaluator(name)
    preds, refs = ["诊断为肝郁脾虚证。", "答案是42"], ["肝郁脾虚证", "42"]
    dicts = [{"answer": {"value": r}} for r in refs]
    assert ev.evaluate(preds, refs) == ev.evaluate(preds, dicts)
    first = next(iter(ev.evaluate(preds, refs).values()))
    assert first["count"] == 2


def test_several_references_as_a_plain_list() -> None:
    bleu = xf.get_evaluator("bleu")
    plain = bleu.evaluate(["the cat sat on the mat"], [["a cat sat on the mat", "the cat sat"]])
    nested = bleu.evaluate(
        ["the cat sat on the mat"],
        [{"answer": {"value": ["a cat sat on the mat", "the cat sat"]}}],
    )
    assert plain == nested and plain["bleu"]["count"] == 1


@pytest.mark.parametrize(
    ("refs", "message"),
    [
        ([object()], "references[0]: expected a string, a number or a list of strings"),
        ([{"answer": "14"}], "references[0] is a dict without an answer value"),
        ([{"value": "14"}], "references[0] is a dict without an answer value"),
        ([["14", 3]], "references[0]: expected"),
        ([True], "references[0]: expected"),
    ],
)
def test_references_of_another_shape_are_errors(refs: list[object], message: str) -> None:
    with pytest.raises(InputError) as err:
        xf.get_evaluator("math").evaluate(["14"], refs)
    assert message in str(err.value)


def test_nothing_scored_is_an_error_that_says_why() -> None:
    math = xf.get_evaluator("math")
    with pytest.raises(NoScoresError, match=r"no prediction \(None\) in rows \[0, 1\]"):
        math.evaluate([None, None], ["14", "15"])
    with pytest.raises(NoScoresError, match=r"empty or missing reference value in rows \[0\]"):
        math.evaluate(["14"], [""])
    with pytest.raises(InputError, match="same length"):
        math.evaluate(["14"], [])
    # some rows skipped is not an error: they are counted out, as in a table
    assert math.evaluate(["14", None], ["14", "15"])["math_accuracy"]["count"] == 1
    # nothing given: the XpertEval zeros of aggregate_scores([])
    assert math.evaluate([], []) == {"math_accuracy": math.aggregate_scores([])}
