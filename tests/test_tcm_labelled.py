"""The labelled set: realistic diagnosis answers with the scores the rules give by hand."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from tests.helpers import score_all_paths
from tests.oracles import tcm as oracle
from xpert_frames.evaluators.tcm.evaluator import TcmDiagnosisEvaluator

LABELLED = Path(__file__).parent / "data" / "tcm_labelled.jsonl"


def labelled() -> pl.DataFrame:
    return pl.read_ndjson(LABELLED)


def test_labelled_set_shape() -> None:
    df = labelled()
    assert df.height >= 60
    assert set(df["tcm_eval_type"]) == {"syndrome", "disease", "treatment"}
    assert set(df["judgement"]) == {"correct", "partial", "wrong"}
    assert df["id"].n_unique() == df.height


def test_labelled_scores_equal_expected() -> None:
    df = labelled()
    out = score_all_paths(df, [TcmDiagnosisEvaluator()])
    assert out["tcm_diagnosis_score"].to_list() == pytest.approx(df["expected"].to_list())


def test_oracle_agrees_with_labels() -> None:
    table = oracle.read_table("default")
    for r in labelled().iter_rows(named=True):
        got = oracle.score_row(r["prediction"], r["answer"], r["tcm_eval_type"], table)[0]
        assert got == pytest.approx(r["expected"]), r


def test_seed_table_symptom_trap() -> None:
    """气短 and 畏寒 are symptoms; the seed table counts them as 气虚 and 阳虚."""
    frame = pl.DataFrame(
        {"prediction": ["患者气短乏力，畏寒肢冷，辨为阳虚。"], "answer": ["阳虚证"]}
    )
    seed = score_all_paths(frame, [TcmDiagnosisEvaluator(terms="seed")])
    assert seed["tcm_diagnosis_score"].to_list() == [pytest.approx(0.6)]
    assert sorted(seed["tcm_diagnosis_matched"][0]) == ["阳虚"]
    default = score_all_paths(frame, [TcmDiagnosisEvaluator()])
    assert default["tcm_diagnosis_score"].to_list() == [1.0]
