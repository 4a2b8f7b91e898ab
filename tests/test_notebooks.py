"""The notebooks run top to bottom with ``jupyter nbconvert --execute`` (the ``notebook``
extra), offline, on every test run: they cannot go stale. Their charts are inline images (SVG
or PNG drawn by vl-convert), never a script from the network, and they leave nothing in the
temporary directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbconvert")
pytest.importorskip("vl_convert")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
IMAGES = ("image/svg+xml", "image/png")


def execute(name: str, tmp_path: Path) -> tuple[dict, Path, Path]:
    """Run ``notebooks/<name>`` as a user would, from a copy in ``tmp_path``; return the
    executed notebook, its output directory and the temporary directory it was given."""
    book = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    code = [c for c in book["cells"] if c["cell_type"] == "code"]
    assert all(not c.get("outputs") for c in code), "notebooks are stored without outputs"
    shutil.copy(NOTEBOOKS / name, tmp_path / name)
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {
        **os.environ,
        "XF_NOTEBOOK_OUT": str(tmp_path / "out"),
        "XF_SCALE_ROWS": "40000",
        "TMPDIR": str(temp),
    }
    command = [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute"]
    proc = subprocess.run(
        [*command, "--ExecutePreprocessor.timeout=600", "--output", "executed", name],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    executed = json.loads((tmp_path / "executed.ipynb").read_text(encoding="utf-8"))
    return executed, tmp_path / "out", temp


def outputs(book: dict) -> list[dict]:
    return [o for c in book["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]


def assert_offline_charts(book: dict, at_least: int) -> None:
    charts = [o for o in outputs(book) if any(k in o.get("data", {}) for k in IMAGES)]
    assert len(charts) >= at_least
    for out in outputs(book):
        for kind, value in out.get("data", {}).items():
            text = value if isinstance(value, str) else "".join(value)
            if kind in ("text/html", "application/javascript"):
                assert "<script" not in text and "cdn" not in text.lower(), kind


@pytest.mark.slow
def test_quickstart_runs_with_offline_charts(tmp_path: Path) -> None:
    book, out, temp = execute("quickstart.ipynb", tmp_path)
    assert not [o for o in outputs(book) if o["output_type"] == "error"]
    assert_offline_charts(book, at_least=4)
    images = sorted(p.name for p in out.glob("*.png"))
    assert images == [
        "accuracy_by_model.png",
        "accuracy_by_type.png",
        "compare.png",
        "distributions.png",
    ]
    assert all((out / p).stat().st_size > 1000 for p in images)
    assert sorted(p.name for p in temp.iterdir()) == []


@pytest.mark.slow
def test_scale_notebook_plots_rate_and_memory_and_cleans_up(tmp_path: Path) -> None:
    book, out, temp = execute("scale.ipynb", tmp_path)
    assert_offline_charts(book, at_least=1)
    assert (out / "scale.png").stat().st_size > 1000
    table = next(
        "".join(o["data"]["text/plain"])
        for o in outputs(book)
        if "rows_per_s" in "".join(o.get("data", {}).get("text/plain", ""))
    )
    assert "peak_mib" in table and "40000" in table.replace(",", "").replace("_", "")
    assert sorted(p.name for p in temp.iterdir()) == []  # the generated files are gone
