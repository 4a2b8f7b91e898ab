"""Reference values typed as users hold them: float answers read as written (NaN skipped like
null, Float32 without its binary noise), infinities compare as infinities, list answers score
like their texts, answer subtypes normalized (case and spaces)."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_series_equal

import xpert_frames as xf

INF = float("inf")


def test_float_answers_read_as_written_and_nan_is_skipped() -> None:
    df = pl.DataFrame(
        {
            "prediction": ["3", "0.5", "1e+20", "3", "x"],
            "answer": [3.0, 0.5, 1e20, float("nan"), None],
        }
    )
    out = xf.score(df, "accuracy")
    assert out["accuracy_score"].to_list() == [1.0, 1.0, 1.0, None, None]
    rep = xf.report(out).filter(pl.col("metric") == "accuracy").row(0, named=True)
    assert (rep["count"], rep["skipped"]) == (3, 2)  # NaN is no value, like null
    f32 = pl.DataFrame({"prediction": ["0.1"], "answer": pl.Series([0.1], dtype=pl.Float32)})
    assert xf.score(f32, "accuracy")["accuracy_score"].to_list() == [1.0]  # not 0.10000000149
    lists = pl.DataFrame({"prediction": ["3 x", "4.5"], "answer": [[3.0, 4.5], [3.0, 4.5]]})
    texts = lists.with_columns(answer=pl.lit(["3", "4.5"]))
    assert_series_equal(
        xf.score(lists, "bleu")["bleu_score"], xf.score(texts, "bleu")["bleu_score"]
    )


@pytest.mark.parametrize("evaluator", ["accuracy", "math"])
def test_infinities_compare_as_infinities(evaluator: str) -> None:
    df = pl.DataFrame(
        {
            "prediction": ["inf", "-inf", "inf", "1e308", "-Infinity"],
            "answer": [INF, -INF, -INF, INF, -INF],
            "answer_type": "number",
        }
    )
    assert xf.score(df, evaluator)[f"{evaluator}_score"].to_list() == [1.0, 1.0, 0.0, 0.0, 1.0]


def test_subtypes_are_normalized() -> None:
    df = pl.DataFrame(
        {"prediction": ["B", "3"], "answer": ["B", "3"], "answer_type": [" Choice", "NUMBER "]}
    )
    rep = xf.report(xf.score(df, "accuracy"))
    assert {"choice_accuracy", "number_accuracy"} <= set(rep["metric"])
    assert not any(m.startswith(("Choice", " ")) for m in rep["metric"])
    tcm = pl.DataFrame({"prediction": ["胃痛"], "answer": ["胃痛"], "tcm_eval_type": ["Disease"]})
    out = xf.score(tcm, "tcm_diagnosis")
    assert out["tcm_diagnosis_score"].to_list() == [1.0]  # scored, not skipped
    assert out["tcm_diagnosis_type"].to_list() == ["disease"]
