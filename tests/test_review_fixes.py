"""Regression tests for issues found in review: each failed before its fix."""

from __future__ import annotations

import os
import random
import stat
from pathlib import Path

import polars as pl
import pytest

import xpert_frames as xf
from tests.test_cli import run
from xpert_frames.core.exceptions import DuplicateColumnError


def test_duplicate_rows_do_not_widen_the_bootstrap_interval() -> None:
    random.seed(1)
    df = pl.DataFrame(
        {
            "prediction": [random.choice(["abc", "abd", "xyz", "ab"]) for _ in range(400)],
            "answer": [random.choice(["abc", "abx", "xyz"]) for _ in range(400)],
        }
    )
    row = xf.report(xf.score(df, "fuzzy")).row(0, named=True)
    normal = 1.96 * row["stderr"]
    assert row["ci_high"] - row["ci_low"] == pytest.approx(2 * normal, rel=0.2)


def test_single_row_corpus_bleu_interval_is_degenerate() -> None:
    df = pl.DataFrame(
        {"prediction": ["the cat sat on the mat"], "answer": ["the cat sat on a mat"]}
    )
    row = (
        xf.report(xf.score(df, "bleu"), evaluators=[xf.get_evaluator("bleu")])
        .filter(pl.col("metric") == "corpus_bleu")
        .row(0, named=True)
    )
    assert row["ci_low"] == row["ci_high"] == pytest.approx(row["score"])


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


def test_reference_without_meta_reads_the_meta_column() -> None:
    df = pl.DataFrame(
        {
            "prediction": ["慢性胃炎"],
            "reference": [{"answer": {"type": "text", "value": "慢性胃炎"}}],
            "meta": [{"tcm_eval_type": "disease"}],
        }
    )
    assert xf.score(df, "tcm_diagnosis")["tcm_diagnosis_type"].to_list() == ["disease"]


def test_compare_is_independent_of_other_models() -> None:
    rows = []
    rng = random.Random(5)
    for q in range(40):
        for model in ("base", "m1", "m2"):
            rows.append({"question_id": q, "model": model, "x_score": float(rng.random() < 0.6)})
    df = pl.DataFrame(rows)
    both = xf.compare(df, "model", "x", baseline="base").filter(pl.col("model") == "m1")
    alone = xf.compare(df.filter(pl.col("model") != "m2"), "model", "x", baseline="base")
    assert both.equals(alone)


def test_cli_duplicate_names_and_reports_without_scores(tmp_path: Path) -> None:
    src = tmp_path / "in.parquet"
    pl.DataFrame({"prediction": ["a"], "answer": ["a"]}).write_parquet(src)
    out = tmp_path / "out.parquet"
    proc = run("score", str(src), "-o", str(out), "-e", "fuzzy", "-e", "fuzzy:threshold=0.5")
    assert (
        proc.returncode == 2 and "different name" in proc.stderr and "Traceback" not in proc.stderr
    )
    proc = run("report", str(src))
    assert (
        proc.returncode == 2
        and "no score columns" in proc.stderr
        and "Traceback" not in proc.stderr
    )


def test_cli_csv_empty_prediction_is_skipped_and_output_mode(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("prediction,answer\n,a\na,a\n")
    out = tmp_path / "out.parquet"
    assert run("score", str(src), "-o", str(out), "-e", "fuzzy", "-q").returncode == 0
    assert pl.read_parquet(out)["fuzzy_score"].to_list() == [None, 1.0]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
