"""Only the committed conclusion of a TCM answer counts: options rejected or described are not
the answer, compound syndromes are matched whole, and a question with options is decided by
the option the answer chose (by letter or by content). The labelled set
``tcm_labelled_committed.jsonl`` holds each class as models write it, with negatives."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from tests.helpers import score_all_paths
from tests.oracles import tcm as oracle
from xpert_frames.core.exceptions import OptionTypeError
from xpert_frames.evaluators.tcm.committed import option_picks
from xpert_frames.evaluators.tcm.evaluator import TcmDiagnosisEvaluator

LABELLED = Path(__file__).parent / "data" / "tcm_labelled_committed.jsonl"
CHOICES = pl.List(pl.Struct({"id": pl.String, "content": pl.String}))
OPTIONS = [
    {"id": "A", "content": "气虚"},
    {"id": "B", "content": "血虚"},
    {"id": "C", "content": "血热"},
    {"id": "D", "content": "脾虚痰聚"},
    {"id": "E", "content": "脾虚肝旺"},
]


def labelled() -> pl.DataFrame:
    df = pl.read_ndjson(LABELLED)
    return df.with_columns(pl.col("choices").cast(CHOICES))


def test_labelled_set_covers_each_class_with_negatives() -> None:
    df = labelled()
    assert df.height >= 30
    assert set(df["judgement"]) >= {"correct", "wrong", "rejected", "two"}
    assert df.filter(pl.col("choices").is_not_null()).height >= 12
    assert df.filter(pl.col("expected") == 0.0).height >= 12


def test_labelled_scores_equal_expected() -> None:
    df = labelled()
    out = score_all_paths(df, [TcmDiagnosisEvaluator()])
    assert out["tcm_diagnosis_score"].to_list() == pytest.approx(df["expected"].to_list())


def test_oracle_agrees_with_labels() -> None:
    table = oracle.read_table("default")
    for r in labelled().iter_rows(named=True):
        got = oracle.score_row(
            r["prediction"], r["answer"], r["tcm_eval_type"], table, choices=r["choices"]
        )[0]
        assert got == pytest.approx(r["expected"]), r


@pytest.mark.parametrize(
    ("prediction", "pick"),
    [
        ("根据题目描述，辨证为脾虚肝旺。因此选E。", "E"),
        ("所以，答案应该是C。", "C"),
        ("答案：B", "B"),
        ("The answer is (A).", "A"),
        ("综上，D选项最符合题意。", "D"),
        ("选项C的描述最准确，其他选项不符。", "C"),
        ("所以这个证候应该是气虚和血虚。", "?"),
        ("答案是C和D。", "?"),
        ("因此选A。此证属于血虚。", "?"),
        ("可以判断患儿的辨证是脾虚痰聚。", "D"),
        ("A选项气虚与症状不符；B选项血虚也不符。", None),
        ("选项A和D都是补脾的方法，但并不合适。", None),
        ("患者症状复杂，需要进一步检查。", None),
    ],
)
def test_option_picks_equal_oracle(prediction: str, pick: str | None) -> None:
    frame = pl.DataFrame(
        {"prediction": [prediction], "choices": pl.Series([OPTIONS], dtype=CHOICES)}
    )
    assert option_picks(frame).to_list() == [pick]
    assert oracle.option_pick(prediction, OPTIONS) == pick


def test_rows_without_a_stated_option_are_scored_as_text() -> None:
    frame = pl.DataFrame(
        {
            "prediction": ["患者症状复杂，考虑脾虚为主。", "本证为脾虚。"],
            "answer": ["脾虚", "脾虚"],
            "choices": pl.Series([[{"id": "A", "content": "肝郁"}], None], dtype=CHOICES),
        }
    )
    out = score_all_paths(frame, [TcmDiagnosisEvaluator()])
    assert out["tcm_diagnosis_score"].to_list() == [1.0, 1.0]


def test_read_options_false_reads_the_text() -> None:
    frame = pl.DataFrame(
        {
            "prediction": ["这些症状是血虚的表现。所以选A。"],
            "answer": ["血虚"],
            "choices": pl.Series([OPTIONS], dtype=CHOICES),
        }
    )
    by_option = score_all_paths(frame, [TcmDiagnosisEvaluator()])
    assert by_option["tcm_diagnosis_score"].to_list() == [0.0]
    as_text = score_all_paths(frame, [TcmDiagnosisEvaluator(read_options=False)])
    assert as_text["tcm_diagnosis_score"].to_list() == [1.0]


def test_read_options_is_validated() -> None:
    with pytest.raises(OptionTypeError, match="read_options"):
        TcmDiagnosisEvaluator(read_options="yes")  # type: ignore[arg-type]
