"""MathEvaluator: the seed's failures as regressions, its options, invalid rows, names and the
report, on every path."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

import xpert_frames as xf
from tests.helpers import score_all_paths
from tests.oracles.math_seed import SeedMathEvaluator
from xpert_frames.core.exceptions import InvalidOptionError, OptionTypeError
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator


def score(preds: list[str | None], answers: list[str], **options: Any) -> pl.DataFrame:
    df = pl.DataFrame(
        {"prediction": preds, "answer": answers},
        schema=dict.fromkeys(("prediction", "answer"), pl.String),
    )
    return score_all_paths(df, [MathEvaluator(**options)])


@pytest.mark.parametrize(
    ("prediction", "answer", "seed_value", "value"),
    [
        ("1/2", "0.5", 1.0, 0.5),
        ("2分之1", "0.5", 1.0, 0.5),
        ("零点五", "0.5", None, 0.5),
        ("1,000", "1000", 1.0, 1000.0),
        ("3+4=7，7×2=14，所以答案是14", "14", 3.0, 14.0),
    ],
)
def test_seed_failures_are_fixed(
    prediction: str, answer: str, seed_value: float | None, value: float
) -> None:
    seed = SeedMathEvaluator()
    assert seed._extract_number_and_unit(prediction)[0] == seed_value
    assert seed._evaluate_math_answer(prediction, answer) == 0.0
    out = score([prediction], [answer])
    assert out["math_value"].to_list() == [value]
    assert out["math_score"].to_list() == [1.0]


def test_seed_misses_chinese_units_we_capture_them() -> None:
    assert SeedMathEvaluator()._extract_number_and_unit("5米") == (5.0, None)
    out = score(["5米", "5千克", "5 kg"], ["5 m", "5 kg", "5千克"], require_units=True)
    assert out["math_unit"].to_list() == ["米", "千克", "kg"]
    assert out["math_score"].to_list() == [1.0, 1.0, 1.0]


def test_normalize_false_changes_behaviour() -> None:
    preds = ["零点五", "2分之1", "－３", "50%", "1 km", "5千克"]
    answers = ["0.5", "0.5", "-3", "50", "1000 m", "5 kg"]
    on = score(preds, answers)["math_score"].to_list()
    off = score(preds, answers, normalize=False)["math_score"].to_list()
    assert on == [1.0] * 6
    assert off == [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    units = score(["5千克"], ["5 kg"], normalize=False, require_units=True)
    assert units["math_score"].to_list() == [0.0]


def test_strict_format() -> None:
    preds = ["14", "14 kg", " 1/2 ", "答案是14", "14。", "\\boxed{14}"]
    out = score(preds, ["14", "14", "0.5", "14", "14", "14"], strict_format=True)
    assert out["math_score"].to_list() == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert out["math_rule"].to_list() == ["strict"] * 3 + ["none"] * 3


def test_require_units_and_conversion() -> None:
    preds = ["1 km", "5", "5 kg", "90分钟", "30°C", "2 kg"]
    answers = ["1000 m", "5 kg", "5", "1.5 h", "30℃", "2000 mL"]
    assert score(preds, answers, require_units=True)["math_score"].to_list() == [
        1.0, 0.0, 0.0, 1.0, 1.0, 0.0,
    ]  # fmt: skip
    assert score(preds, answers)["math_score"].to_list() == [1.0, 1.0, 1.0, 1.0, 1.0, 0.0]


def test_tolerance_rule() -> None:
    preds = ["3.1416", "3.2", "1e-7", "0.001"]
    answers = ["3.14159265", "3.14159265", "0", "0"]
    assert score(preds, answers, tolerance=1e-4)["math_score"].to_list() == [1.0, 0.0, 1.0, 0.0]
    assert score(preds, answers)["math_score"].to_list() == [0.0, 0.0, 1.0, 0.0]


def test_extract_first_is_the_seeds_choice() -> None:
    out = score(["3+4=7，7×2=14，所以答案是14"], ["14"], extract="first")
    assert out.select("math_value", "math_rule", "math_score").row(0) == (3.0, "first", 0.0)


def test_invalid_rows_null_nothing_found_wrong() -> None:
    out = score([None, "no number", "12"], ["3", "3", ""])
    assert out["math_score"].to_list() == [None, 0.0, None]
    assert out["math_rule"].to_list() == [None, "none", None]


def test_names_and_report() -> None:
    df = pl.DataFrame({"prediction": ["14", "3"], "answer": ["14", "14"]})
    out = xf.score(df, [MathEvaluator(), MathEvaluator(name="m2", extract="first")])
    assert "math_score" in out.columns and "m2_rule" in out.columns
    res = MathEvaluator().evaluate(["14", "3"], [{"answer": {"type": "number", "value": "14"}}] * 2)
    assert res == {"math_accuracy": {"score": 0.5, "min": 0.0, "max": 1.0, "count": 2}}


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"tolerance": -1.0}, InvalidOptionError),
        ({"tolerance": "small"}, OptionTypeError),
        ({"normalize": "yes"}, OptionTypeError),
        ({"require_units": 1}, OptionTypeError),
        ({"strict_format": None}, OptionTypeError),
        ({"extract": "lst"}, InvalidOptionError),
        ({"unit": True}, TypeError),
    ],
)
def test_bad_options(options: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        MathEvaluator(**options)
