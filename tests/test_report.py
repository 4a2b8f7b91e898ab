from __future__ import annotations

import math
import random

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xpert_frames as xf
from xpert_frames.core.exceptions import DuplicateColumnError
from xpert_frames.evaluators.compat import aggregate_scores


def scored_frame(seed: int = 0, n: int = 300) -> pl.DataFrame:
    rng = random.Random(seed)
    models = ["m1", "m2", "m3"]
    words = ["北京", "上海", "答案是B", "the answer", "人工智能"]
    rows = {
        "model": [rng.choice(models) for _ in range(n)],
        "answer_type": [rng.choice(["text", "choice"]) for _ in range(n)],
        "prediction": [rng.choice([*words, None]) for _ in range(n)],
        "answer": [rng.choice([*words, ""]) for _ in range(n)],
    }
    return xf.score(pl.DataFrame(rows), "fuzzy")


def plain_python(df: pl.DataFrame, by: list[str]) -> dict[tuple, dict]:
    """Per group: the seed's aggregate of fuzzy scores on text rows (the rows fuzzy fits), the
    invalid text rows (skipped) and the rows of other answer types (not applicable)."""
    groups: dict[tuple, list] = {}
    for row in df.iter_rows(named=True):
        groups.setdefault(tuple(row[c] for c in by), []).append(row)
    out = {}
    for key, rows in groups.items():
        fits = [r["fuzzy_score"] for r in rows if r["answer_type"] == "text"]
        scores = [v for v in fits if v is not None]
        out[key] = {
            **aggregate_scores(scores),
            "skipped": len(fits) - len(scores),
            "not_applicable": len(rows) - len(fits),
        }
    return out


@pytest.mark.parametrize("by", [[], ["model"], ["model", "answer_type"]])
def test_report_matches_plain_python(by: list[str]) -> None:
    df = scored_frame()
    rep = xf.report(df, by=by).filter(pl.col("metric") == "fuzzy")
    expected = plain_python(df, by)
    assert rep.height == len(expected)
    for row in rep.iter_rows(named=True):
        exp = expected[tuple(row[c] for c in by)]
        assert row["count"] == exp["count"] and row["skipped"] == exp["skipped"]
        assert row["not_applicable"] == exp["not_applicable"]
        if exp["count"]:
            assert math.isclose(row["score"], exp["score"], rel_tol=1e-12)
            assert row["min"] == exp["min"] and row["max"] == exp["max"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(0, 1)), max_size=50))
def test_summary_equals_aggregate_scores(values: list[float | None]) -> None:
    df = pl.DataFrame({"x_score": values}, schema={"x_score": pl.Float64})
    rep = xf.report(df)
    row = rep.row(0, named=True)
    present = [v for v in values if v is not None]
    seed = aggregate_scores(present)
    assert row["count"] == seed["count"] and row["skipped"] == len(values) - len(present)
    if present:
        assert math.isclose(row["score"], seed["score"], rel_tol=1e-9, abs_tol=1e-12)
        assert (row["min"], row["max"]) == (seed["min"], seed["max"])
    assert xf.to_seed_dict(rep)["x"]["count"] == seed["count"]


def test_report_sorted_and_typed() -> None:
    rep = xf.report(scored_frame(), by="model")
    assert rep.columns == [
        "model",
        "metric",
        "score",
        "min",
        "max",
        "count",
        "skipped",
        "not_applicable",
        "stderr",
        "ci_low",
        "ci_high",
    ]
    assert rep.schema["count"] == pl.Int64
    assert rep["model"].to_list() == sorted(rep["model"].to_list())


def test_seed_dict_nested_by_group() -> None:
    rep = xf.report(scored_frame(), by="model")
    d = xf.to_seed_dict(rep)
    assert set(d) == {"m1", "m2", "m3"}
    assert set(d["m1"]) == {"fuzzy", "fuzzy_match_rate"}


def test_report_unknown_by_column() -> None:
    with pytest.raises(KeyError, match="Did you mean 'model'"):
        xf.report(scored_frame(), by="modle")


def test_report_without_scores() -> None:
    with pytest.raises(ValueError, match="no score columns"):
        xf.report(pl.DataFrame({"a": [1]}))


def test_group_by_the_subtype_column_and_reserved_names() -> None:
    df = pl.DataFrame(
        {
            "prediction": ["A", "B", "x"],
            "answer": ["A", "C", "x"],
            "answer_type": ["choice", "choice", "text"],
        }
    )
    scored = xf.score(df, "accuracy")
    rep = xf.report(scored, by="accuracy_type")
    assert set(rep["metric"]) == {"accuracy", "choice_accuracy", "text_accuracy"}
    with pytest.raises(DuplicateColumnError, match="metric"):
        xf.report(scored.with_columns(metric=pl.lit("x")), by="metric")


def test_renamed_evaluator_is_detected_by_its_columns() -> None:
    acc = xf.get_evaluator("accuracy", name="acc2")
    df = pl.DataFrame(
        {
            "prediction": ["A", "B", "x"],
            "answer": ["A", "C", "x"],
            "answer_type": ["choice", "choice", "text"],
        }
    )
    scored = xf.score(df, [acc])
    assert xf.report(scored).equals(xf.report(scored, evaluators=[acc]))


def test_non_numeric_score_columns_are_not_metrics() -> None:
    df = xf.score(
        pl.DataFrame({"prediction": ["a"], "answer": ["a"], "judge_score": ["good"]}), "fuzzy"
    )
    assert "judge" not in xf.report(df)["metric"].to_list()
