"""CLI messages say what to do: did-you-mean for report groups, the extra to install for Ray,
and the whole description of each evaluator."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import xpert_frames as xf
from xpert_frames import registry
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
    capsys: pytest.CaptureFixture[str],
) -> None:
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
