"""``python -m build`` makes an sdist and, from it, a pure-Python wheel (no C extension, so no
compiler is needed anywhere); the sdist carries the license and everything its test suite needs
(conftest, helpers, oracles, data), and that suite collects and runs from the unpacked sdist."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # --no-isolation: the build uses this environment's setuptools (offline, no download).
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return out


def test_sdist_has_the_license_sources_and_the_test_suite(dist: Path) -> None:
    (sdist,) = dist.glob("xpert_frames-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    required = {
        "LICENSE",
        "README.md",
        "pyproject.toml",
        "xpert_frames/py.typed",
        "xpert_frames/data/sample.parquet",
        "xpert_frames/data/tcm_terms_default.csv",
        "tests/conftest.py",
        "tests/helpers.py",
        "tests/oracles/fuzzy.py",
        "tests/data/math_labelled.jsonl",
        "benchmarks/common.py",
        "notebooks/quickstart.ipynb",
        "mkdocs.yml",
        "docs/index.md",
        "docs/errors.md",
        "docs/img/html_report.png",
    }
    assert required <= names, sorted(required - names)
    assert not [n for n in names if n.endswith((".so", ".pyc", ".pyd", ".c", ".h"))]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text


def test_wheel_has_the_package_and_not_the_tests(dist: Path) -> None:
    (wheel,) = dist.glob("xpert_frames-*-py3-none-any.whl")  # pure Python
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    assert "xpert_frames/data/sample.parquet" in names
    assert any(n.endswith("LICENSE") for n in names)
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/"))]
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]


def test_the_sdist_suite_runs_from_the_unpacked_sdist(dist: Path, tmp_path: Path) -> None:
    (sdist,) = dist.glob("xpert_frames-*.tar.gz")
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    (tree,) = tmp_path.glob("xpert_frames-*")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x"]
    collected = subprocess.run(
        [*run, "--collect-only", "tests"], cwd=tree, env=env, capture_output=True, text=True
    )
    assert collected.returncode == 0, collected.stdout[-2000:] + collected.stderr[-2000:]
    tests = ["tests/test_tcm_matching.py", "tests/test_fuzzy.py"]
    ran = subprocess.run([*run, *tests], cwd=tree, env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    assert " passed" in ran.stdout
    probe = "import xpert_frames, sys; print(xpert_frames.__file__)"
    where = subprocess.run([sys.executable, "-c", probe], cwd=tree, env=env, capture_output=True)
    assert str(tree) in where.stdout.decode()  # the sdist's own package, not the worktree's
