"""What a first read of the CLI found (issue 16, part 4)."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from tests.test_cli import run
from xpert_frames.api import SAMPLE


def test_score_help_shows_an_option_example() -> None:
    text = run("score", "--help").stdout
    assert "-e NAME:opt=value" in text
    assert re.search(r'-e "fuzzy:threshold=0\.8,normalize=case\|width"', text)
    assert "--all-rows" in text and "--baseline" in text and ".html" in text


def test_report_help_lists_the_formats() -> None:
    text = run("report", "--help").stdout
    assert "[table|markdown|json|csv|html]" in text
    assert "--format html -o report.html" in text


def test_evaluators_print_options_with_types() -> None:
    text = run("evaluators").stdout
    assert "    threshold=0.6 (float)\n" in text
    assert "    n_gram=4 (int)\n" in text
    assert "    extract=last (str)\n" in text
    assert "--  " not in text and " = " not in text


def test_repeated_option_key_is_an_error(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    proc = run("score", str(SAMPLE), "-o", str(out), "-e", "fuzzy:threshold=0.5,threshold=0.9")
    assert proc.returncode == 2
    assert "option 'threshold' given twice" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("values", "ok"),
    [(["a", "b"], False), ([0.5, 1.5], False), ([7, 9], True)],
)
def test_row_id_must_be_integers_when_present(tmp_path: Path, values: list, ok: bool) -> None:
    src = tmp_path / "in.parquet"
    frame = pl.DataFrame({"prediction": ["a", "b"], "answer": ["a", "c"], "key": values})
    frame.write_parquet(src)
    out = tmp_path / "out.parquet"
    proc = run("score", str(src), "-o", str(out), "-e", "fuzzy", "--row-id", "key", "-q")
    if ok:
        assert proc.returncode == 0, proc.stderr
        assert pl.read_parquet(out)["key"].to_list() == values  # kept as is
    else:
        assert proc.returncode == 2
        assert "column 'key' is in the input as" in proc.stderr and "not integers" in proc.stderr
        assert not out.exists()


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


def test_quiet_prints_nothing(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    proc = run("score", str(SAMPLE), "-o", str(out), "-e", "fuzzy", "-q")
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""


@pytest.mark.ray
def test_quiet_silences_ray(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    out = tmp_path / "scored.parquet"
    proc = run("score", str(SAMPLE), "-o", str(out), "-e", "fuzzy", "--engine", "ray", "-q")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr == "", proc.stderr[-3000:]
    assert pl.read_parquet(out).height == pl.read_parquet(SAMPLE).height
