"""The notebooks run top to bottom, offline, on every test run: they cannot go stale."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.mark.parametrize("name", ["quickstart.ipynb", "scale.ipynb"])
def test_notebook_executes(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XF_NOTEBOOK_OUT", str(tmp_path / "out"))
    monkeypatch.setenv("XF_SCALE_ROWS", "50000")
    book = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert all(not cell.get("outputs") for cell in book.cells if cell.cell_type == "code"), (
        "notebooks are stored without outputs"
    )
    client = nbclient.NotebookClient(
        book, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    errors = [
        out
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert not errors
    if name == "quickstart.ipynb":
        images = sorted(p.name for p in (tmp_path / "out").glob("*.png"))
        assert images == [
            "accuracy_by_model.png",
            "accuracy_by_type.png",
            "compare.png",
            "distributions.png",
        ]
        assert all((tmp_path / "out" / p).stat().st_size > 1000 for p in images)
