"""The terminal summary: one row per group, one column per headline metric, fits 120 columns;
the long table stays available (--long, Markdown, JSON, CSV)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest

import xpert_frames as xf
from xpert_frames.cli.main import main as cli_main
from xpert_frames.reporting.render import render, summary_frame

HEADLINE = ["accuracy", "math_accuracy", "bleu", "tcm_diagnosis", "fuzzy"]


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's first command: the sample with its plan, every evaluator."""
    out = tmp_path_factory.mktemp("summary") / "sample_scored.parquet"
    plan = str(xf.api.SAMPLE_PLAN)
    assert cli_main(["score", str(xf.api.SAMPLE), "-o", str(out), "--plan", plan, "-q"]) == 0
    return out


def _report(scored: Path) -> pl.DataFrame:
    plan = xf.Plan.from_scored(scored)
    assert plan is not None
    return xf.report(scored, by="model", evaluators=plan.evaluators)


def test_summary_of_the_sample_fits_120_columns(
    scored: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["report", str(scored), "--by", "model"]) == 0
    text = capsys.readouterr().out
    lines = text.rstrip("\n").splitlines()
    assert max(len(line) for line in lines) <= 120, max(lines, key=len)
    assert lines[0].split() == ["model", *HEADLINE]
    models = xf.load_sample()["model"].unique().sort().to_list()
    assert [line.split()[0] for line in lines[2 : 2 + len(models)]] == models  # one row each


def test_summary_cells_are_the_report_figures(scored: Path) -> None:
    rep = _report(scored)
    table = summary_frame(rep, xf.Plan.from_scored(scored).evaluators)  # type: ignore[union-attr]
    assert table.columns == ["model", *HEADLINE]
    for row in table.iter_rows(named=True):
        for metric in HEADLINE:
            want = rep.filter((pl.col("model") == row["model"]) & (pl.col("metric") == metric))
            score, low, high = want.select("score", "ci_low", "ci_high").row(0)
            assert row[metric] == f"{score:.3f} [{low:.2f},{high:.2f}]"
            match = re.fullmatch(r"(\d\.\d{3}) \[(\d\.\d{2}),(\d\.\d{2})\]", row[metric])
            assert match and float(match.group(2)) <= float(match.group(1)) + 0.005


def test_long_table_stays_available(scored: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["report", str(scored), "--by", "model", "--long"]) == 0
    long = capsys.readouterr().out
    for column in ("not_applicable", "skipped", "ci_high", "choice_accuracy", "corpus_bleu"):
        assert column in long
    assert cli_main(["report", str(scored), "--by", "model", "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "## Summary" in md and "## Every metric" in md and "| not_applicable |" in md
    assert cli_main(["report", str(scored), "--by", "model", "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert {r["metric"] for r in body["report"]} >= {"choice_accuracy", "corpus_bleu"}


def test_summary_without_groups_and_with_empty_groups() -> None:
    df = pl.DataFrame(
        {"prediction": ["Paris", "Lyon", None], "answer": ["Paris", "Paris", "x"]}
        | {"g": ["a", "a", "b"]}
    )
    scored = xf.score(df, "fuzzy")
    whole = render(xf.report(scored), "table", [xf.get_evaluator("fuzzy")])
    assert whole.splitlines()[0].split() == ["group", "fuzzy"]
    assert whole.splitlines()[2].startswith("all rows  0.500 [")
    grouped = render(xf.report(scored, by="g"), "table", [xf.get_evaluator("fuzzy")])
    assert grouped.splitlines()[3].split() == ["b", "-"]  # nothing scored in group b


def test_group_values_stay_on_one_line() -> None:
    df = pl.DataFrame(
        {"prediction": ["a", "b", "c"], "answer": ["a", "b", "x"], "g": ["two\nlines", None, "x"]}
    )
    text = render(xf.report(xf.score(df, "fuzzy"), by="g"), "table", [xf.get_evaluator("fuzzy")])
    body = text.splitlines()[2:5]
    assert [line.split()[0] for line in body] == ["two\\nlines", "x", "null"]
