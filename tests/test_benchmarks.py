"""``python -m benchmarks --smoke`` runs every benchmark at tiny sizes (a smoke test: it checks
that each side-by-side run works and writes its table; it asserts no timings)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_quick_benchmarks_run(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--smoke", "--write", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = out.read_text()
    for bench in (
        "### fuzzy",
        "### accuracy",
        "### math",
        "### tcm_diagnosis",
        "### bleu",
        "### streaming CLI",
        "### import time",
        "### report",
        "### ray",
    ):
        assert bench in text, bench
    assert "Machine:" in text
