"""The bundled sample's figures: the CLI with the sample's plan and the quickstart notebook show
the same number for the same metric, and each metric covers the rows a person would pick."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import xpert_frames as xf
from xpert_frames.cli.main import main as cli_main

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "quickstart.ipynb"


@pytest.fixture(scope="module")
def cli_report(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    tmp = tmp_path_factory.mktemp("figures")
    out, rep = tmp / "sample_scored.parquet", tmp / "report.json"
    args = ["score", str(xf.api.SAMPLE), "-o", str(out), "--plan", str(xf.api.SAMPLE_PLAN)]
    assert cli_main([*args, "--by", "model", "--report", str(rep), "-q"]) == 0
    return pl.DataFrame(json.loads(rep.read_text())["report"])


def test_each_metric_covers_the_rows_meant_for_it(cli_report: pl.DataFrame) -> None:
    sample = xf.load_sample()
    per_model = sample.filter(pl.col("model") == sample["model"][0])
    tasks = per_model["task"].value_counts()
    n = dict(tasks.iter_rows())
    want = {
        "accuracy": per_model.height - n["translation"] - n["tcm_diagnosis"],
        "math_accuracy": n["math"],
        "bleu": n["translation"],
        "tcm_diagnosis": n["tcm_diagnosis"],
        "fuzzy": n["translation"],
    }
    first = cli_report.filter(pl.col("model") == per_model["model"][0])
    for metric, rows in want.items():
        row = first.filter(pl.col("metric") == metric).row(0, named=True)
        assert row["count"] + row["skipped"] == rows, metric
        assert row["count"] + row["skipped"] + row["not_applicable"] == per_model.height


def test_notebook_shows_the_cli_figures(
    cli_report: pl.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run the notebook's cells up to its per-model report, and compare with the CLI's."""
    monkeypatch.setenv("XF_NOTEBOOK_OUT", str(tmp_path))
    book = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    namespace: dict[str, Any] = {}
    for cell in book["cells"]:
        if cell["cell_type"] == "code":
            exec("".join(cell["source"]), namespace)  # the notebook's own code, as stored
            if "by_model" in namespace:
                break
    by_model = namespace["by_model"]
    assert_frame_equal(
        by_model.select(cli_report.columns), cli_report, check_dtypes=False, check_exact=False
    )
    headline = by_model.filter(pl.col("metric").is_in(["accuracy", "corpus_bleu"]))
    assert headline.height == 2 * xf.load_sample()["model"].n_unique()
