"""``--by`` names any column, a comma in its name included: repeatable, a value naming a column
as it is, else split on commas (``--by a,b`` as before)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from xpert_frames.cli.main import cli, main

ROWS = [
    {"prediction": "a", "answer": "a", "model": "m1", "city, state": "Paris, TX", "kind": "x"},
    {"prediction": "b", "answer": "a", "model": "m1", "city, state": "Paris, FR", "kind": "y"},
    {"prediction": "a", "answer": "a", "model": "m2", "city, state": "Paris, TX", "kind": "x"},
]


@pytest.fixture
def scored(tmp_path: Path) -> Path:
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    out = tmp_path / "out.parquet"
    assert main(["score", str(src), "-o", str(out), "-e", "accuracy", "-q"]) == 0
    return out


def report(path: Path, *by: str) -> pl.DataFrame:
    args = ["report", str(path), "--format", "json"]
    for value in by:
        args += ["--by", value]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return pl.DataFrame(json.loads(result.output)["report"])


def test_a_column_whose_name_holds_a_comma(scored: Path) -> None:
    rep = report(scored, "city, state").filter(pl.col("metric") == "accuracy")
    assert dict(zip(rep["city, state"], rep["count"], strict=True)) == {
        "Paris, FR": 1,
        "Paris, TX": 2,
    }


def test_repeated_and_comma_separated_forms_agree(scored: Path) -> None:
    repeated = report(scored, "model", "kind")
    assert repeated.columns[:2] == ["model", "kind"]
    assert repeated.equals(report(scored, "model,kind"))
    assert repeated.equals(report(scored, "model, kind", "model"))  # named twice: used once
    mixed = report(scored, "model", "city, state")
    assert mixed.columns[:2] == ["model", "city, state"]


def test_score_groups_its_report_by_such_a_column(scored: Path, tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    rep = tmp_path / "rep.json"
    code = main(["score", str(src), "-o", str(tmp_path / "o.parquet"), "-e", "accuracy", "-q",
                 "--by", "city, state", "--report", str(rep)])  # fmt: skip
    assert code == 0
    assert {r["city, state"] for r in json.loads(rep.read_text())["report"]} == {
        "Paris, TX",
        "Paris, FR",
    }


def test_a_missing_column_is_named(scored: Path) -> None:
    result = CliRunner().invoke(cli, ["report", str(scored), "--by", "model,nope"])
    assert result.exit_code == 2 and "['nope']" in result.output


def test_the_help_says_how(scored: Path) -> None:
    for command in ("score", "report"):
        text = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
        assert "repeat for several" in text and "holds a comma" in text
