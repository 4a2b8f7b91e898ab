"""CLI messages say what to do: did-you-mean for report groups, the extra to install for Ray,
the whole description of each evaluator with its options' types, help pages with examples, a
summary that keeps start-up apart from scoring, and ``-q`` printing nothing (Ray included)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import polars as pl
import pytest

import xpert_frames as xf
from tests.test_cli import run
from xpert_frames import registry
from xpert_frames.api import SAMPLE
from xpert_frames.cli.main import main as cli_main


def test_report_by_a_misspelt_column_suggests_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scored.parquet"
    assert cli_main(["score", str(xf.api.SAMPLE), "-o", str(out), "-e", "fuzzy", "-q"]) == 0
    assert cli_main(["report", str(out), "--by", "modle"]) == 2
    err = capsys.readouterr().err
    assert "Did you mean 'model'?" in err and "Map it with" not in err
    assert (
        cli_main(["score", str(xf.api.SAMPLE), "-o", str(out), "-e", "fuzzy", "--by", "modle"]) == 2
    )
    assert "Did you mean 'model'?" in capsys.readouterr().err


def test_engine_ray_without_ray_names_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    monkeypatch.delitem(sys.modules, "xpert_frames.cli.ray_engine", raising=False)
    monkeypatch.delitem(sys.modules, "xpert_frames.ray_data", raising=False)
    out = tmp_path / "scored.parquet"
    args = ["score", str(xf.api.SAMPLE), "-o", str(out), "-e", "fuzzy", "--engine", "ray"]
    assert cli_main(args) == 2
    err = capsys.readouterr().err
    assert "pip install 'xpert-frames[ray]'" in err and "--engine polars" in err
    assert not out.exists()


def test_evaluators_shows_class_types_and_whole_description(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The listing wraps at the terminal's width (COLUMNS first): checked at 100 columns, also in
    # a pytest-xdist worker (which sets COLUMNS=80; textwrap then breaks "NLTK-identical").
    monkeypatch.setenv("COLUMNS", "100")
    assert cli_main(["evaluators"]) == 0
    text = capsys.readouterr().out
    assert max(len(line) for line in text.splitlines()) <= 100
    joined = " ".join(text.split())
    for record in registry.records():
        assert f"{record.name}: " in text
        assert record.target.replace(":", ".") in text  # type: ignore[union-attr]
        paragraph = (record.cls.__doc__ or "").strip().split("\n\n")[0]
        assert " ".join(paragraph.split()) in joined  # the whole first paragraph, wrapped
        types = ", ".join(record.answer_types) or "any"
        assert f"answer types: {types};" in text


@pytest.mark.slow
def test_score_help_shows_an_option_example() -> None:
    text = run("score", "--help").stdout
    assert "-e NAME:opt=value" in text
    assert re.search(r'-e "fuzzy:threshold=0\.8,normalize=case\|width"', text)
    assert "--all-rows" in text and "--baseline" in text and ".html" in text


@pytest.mark.slow
def test_report_help_lists_the_formats() -> None:
    text = run("report", "--help").stdout
    assert "[table|markdown|json|csv|html]" in text
    assert "--format html -o report.html" in text


@pytest.mark.slow
def test_evaluators_print_options_with_types() -> None:
    text = run("evaluators").stdout
    assert "    threshold=0.6 (float)\n" in text
    assert "    n_gram=4 (int)\n" in text
    assert "    extract=last (str)\n" in text
    assert "--  " not in text and " = " not in text


@pytest.mark.slow
def test_summary_keeps_start_up_apart(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    proc = run("score", str(SAMPLE), "-o", str(out), "-e", "fuzzy", "-e", "bleu")
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.strip().splitlines()[-1]
    match = re.search(r"start-up ([\d.]+) s, scoring ([\d.]+) s(?: \(([\d,]+) rows/s\))?", line)
    assert match, line
    scoring = float(match.group(2))
    # a rate only when scoring took long enough to mean one
    assert (match.group(3) is not None) == (scoring >= 1.0)
    assert "report" in line


@pytest.mark.slow
def test_quiet_prints_nothing(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    proc = run("score", str(SAMPLE), "-o", str(out), "-e", "fuzzy", "-q")
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""


@pytest.mark.ray
@pytest.mark.slow
def test_quiet_silences_ray(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    out = tmp_path / "scored.parquet"
    proc = run("score", str(SAMPLE), "-o", str(out), "-e", "fuzzy", "--engine", "ray", "-q")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr == "", proc.stderr[-3000:]
    assert pl.read_parquet(out).height == pl.read_parquet(SAMPLE).height
