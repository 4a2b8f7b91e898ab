"""Issue 15: reference values typed as users hold them; line-format errors name file:line."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_series_equal

import xpert_frames as xf
from tests.test_cli import run

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


def write_lines(path: Path, rows: list[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_jsonl_lists_and_scalars_read_per_line(tmp_path: Path) -> None:
    src = write_lines(
        tmp_path / "in.jsonl",
        [
            {"prediction": "the cat", "answer": ["the cat", "a cat"]},
            {"prediction": "the dog", "answer": "the dog"},
            {"prediction": "7", "answer": 7},
        ],
    )
    out = tmp_path / "out.parquet"
    proc = run("score", str(src), "-o", str(out), "-e", "bleu", "-q")
    assert proc.returncode == 0, proc.stderr
    scored = pl.read_parquet(out)
    assert scored["answer"].to_list() == [["the cat", "a cat"], ["the dog"], ["7"]]
    same = xf.score(scored.select("prediction", "answer"), "bleu")["bleu_score"]
    assert_series_equal(scored["bleu_score"], same)  # scored with the per-line references


@pytest.mark.parametrize(
    ("lines", "where", "what"),
    [
        ([{"prediction": "a", "answer": "a"}, {"prediction": "b", "answer": True}], 2, "boolean"),
        ([{"prediction": "a", "answer": 1}, {"prediction": "b", "answer": {"k": 1}}], 2, "object"),
        ([{"prediction": "a", "answer": 1.5}, {"prediction": "b", "answer": False}], 2, "boolean"),
    ],
)
def test_jsonl_kinds_that_cannot_share_a_column_are_refused(
    tmp_path: Path, lines: list[object], where: int, what: str
) -> None:
    src = write_lines(tmp_path / "in.jsonl", lines)
    proc = run("score", str(src), "-o", str(tmp_path / "o.parquet"), "-e", "fuzzy", "-q")
    assert proc.returncode == 2, proc.stderr
    assert f"{src}:{where}:" in proc.stderr and what in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "o.parquet").exists()


def test_line_errors_name_file_and_line(tmp_path: Path) -> None:
    bad_json = tmp_path / "bad.jsonl"
    bad_json.write_text('{"prediction": "a", "answer": "b"}\n\n{"prediction": "c", answer}\n')
    proc = run("score", str(bad_json), "-o", str(tmp_path / "o.parquet"), "-e", "fuzzy")
    assert proc.returncode == 2 and f"{bad_json}:3:" in proc.stderr, proc.stderr
    ragged = tmp_path / "bad.csv"
    ragged.write_text("prediction,answer\na,b\nc,d\ne,f,g\n")
    proc = run("score", str(ragged), "-o", str(tmp_path / "o.parquet"), "-e", "fuzzy")
    assert proc.returncode == 2 and f"{ragged}:4:" in proc.stderr, proc.stderr
