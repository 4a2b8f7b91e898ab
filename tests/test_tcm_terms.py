"""Synonym tables: shipped data, loading from every source, validation errors."""

from __future__ import annotations

import csv
from pathlib import Path

import polars as pl
import pytest

from xpert_frames.core.exceptions import OptionTypeError, TermTableError
from xpert_frames.evaluators.tcm.evaluator import TcmDiagnosisEvaluator
from xpert_frames.evaluators.tcm.terms import builtin_path, load_terms

SEED = {
    "气虚": ["气虚", "气不足", "肺气虚", "脾气虚", "气虚证", "气短"],
    "阴虚": ["阴虚", "阴不足", "阴亏", "阴津亏", "阴虚证", "津亏"],
    "血虚": ["血虚", "血亏", "血不足", "血少", "血虚证"],
    "阳虚": ["阳虚", "阳不足", "阳气虚", "阳亏", "阳虚证", "畏寒"],
    "湿热": ["湿热", "湿热蕴结", "湿热内蕴", "湿热证"],
    "气滞": ["气滞", "气机不畅", "气机阻滞", "气郁", "气滞证"],
    "血瘀": ["血瘀", "瘀血", "血瘀证", "瘀阻", "血行不畅"],
    "痰湿": ["痰湿", "痰浊", "痰湿内停", "痰湿证", "痰浊内停"],
    "肝郁": ["肝郁", "肝气郁结", "肝气不舒", "肝郁气滞"],
}


def test_seed_table_is_the_seed_dict_exactly() -> None:
    with open(builtin_path("seed"), encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    got: dict[str, list[str]] = {}
    for r in rows:
        got.setdefault(r["canonical"], []).append(r["synonym"])
    assert got == SEED
    table = load_terms("seed")
    assert len(table.categories) == 9
    assert table.mapping == {s: c for c, syns in SEED.items() for s in syns}


def test_seed_traps_are_documented_in_the_data() -> None:
    with open(builtin_path("seed"), encoding="utf-8", newline="") as f:
        notes = {r["synonym"]: r["note"] for r in csv.DictReader(f) if r["note"]}
    assert set(notes) == {"气短", "畏寒", "肝郁气滞"}


def test_default_table_size_and_decisions() -> None:
    table = load_terms("default")
    syndromes = [c for c, cat in table.categories.items() if cat != "treatment"]
    assert len(syndromes) >= 60
    assert set(table.categories.values()) == {"basic", "organ", "pathogen", "treatment"}
    for name in ("脾虚", "肾阳虚", "肝阳上亢", "心脾两虚", "肝郁脾虚", "湿热下注"):
        assert table.categories[name] != "treatment", name
    # Decisions on the seed's traps: symptoms are not syndromes; 肝郁气滞 is one syndrome (肝郁).
    assert "气短" not in table.mapping and "畏寒" not in table.mapping
    assert table.mapping["肝郁气滞"] == "肝郁"


def test_sources_agree(tmp_path: Path) -> None:
    frame = pl.DataFrame({"canonical": ["气虚", "气虚"], "synonym": ["气不足", "少气"]})
    csv_path = tmp_path / "t.csv"
    frame.write_csv(csv_path)
    pq_path = tmp_path / "t.parquet"
    frame.write_parquet(pq_path)
    by_dict = load_terms({"气虚": ["气不足", "少气"]})
    for spec in (frame, str(csv_path), pq_path):
        assert load_terms(spec).rows == by_dict.rows
    assert by_dict.categories == {"气虚": "syndrome"}


def test_two_canonicals_for_one_synonym_names_both() -> None:
    frame = pl.DataFrame({"canonical": ["气滞", "肝郁"], "synonym": ["气郁", "气郁"]})
    with pytest.raises(TermTableError, match=r"'气郁'.*'气滞'.*'肝郁'"):
        load_terms(frame)
    with pytest.raises(ValueError, match="two different canonical terms: '气虚' and '心气虚'"):
        load_terms({"气虚": ["心气虚"], "心气虚": []})


def test_extra_terms_extend_and_conflicts_fail() -> None:
    ev = TcmDiagnosisEvaluator(extra_terms={"气虚": ["少气懒言"]})
    assert ev._table.mapping["少气懒言"] == "气虚"
    assert ev._table.mapping["肝阳上亢"] == "肝阳上亢"
    with pytest.raises(TermTableError, match="'肺气虚' is mapped to two different"):
        TcmDiagnosisEvaluator(extra_terms="seed")
    assert TcmDiagnosisEvaluator(extra_terms={"气虚": ["少气"]}) == TcmDiagnosisEvaluator(
        extra_terms=pl.DataFrame({"canonical": ["气虚"], "synonym": ["少气"]})
    )


@pytest.mark.parametrize(
    ("spec", "error", "match"),
    [
        (3, OptionTypeError, "must be 'default', 'seed'"),
        ("nope", TermTableError, r"\.csv/\.parquet"),
        ("missing.csv", FileNotFoundError, "no such table file"),
        (pl.DataFrame({"canonical": ["a"]}), TermTableError, r"missing \['synonym'\]"),
        (pl.DataFrame({"canonical": ["a"], "synonym": ["b"], "x": [1]}), TermTableError, "x"),
        (pl.DataFrame({"canonical": ["a"], "synonym": [None]}), TermTableError, "non-empty"),
        (pl.DataFrame({"canonical": ["a"], "synonym": [1]}), TermTableError, "must be text"),
        ({"a": "b"}, OptionTypeError, "lists of synonyms"),
        ({"a": ["b\x02"]}, TermTableError, "reserved"),
        (
            pl.DataFrame({"canonical": ["a", "a"], "synonym": ["b", "c"], "category": ["x", "y"]}),
            TermTableError,
            "two categories",
        ),
    ],
)
def test_bad_tables(spec: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        TcmDiagnosisEvaluator(terms=spec)
