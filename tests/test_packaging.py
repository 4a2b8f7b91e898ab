"""``python -m build`` makes an sdist and, from it, a wheel with the optional C extension when a
compiler is there; without one (``CC=/nonexistent``) the wheel still builds, one line says the
slower path will be used, and the installed package scores the same through its twin. The sdist
carries the license, the C source and everything its test suite needs (conftest, helpers,
oracles, data), and that suite collects and runs from the unpacked sdist."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
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
        "setup.py",
        "xpert_frames/distance/_arrow_scorer.c",
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
    assert not [n for n in names if n.endswith((".so", ".pyc", ".pyd", ".h"))]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text


def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


HAS_COMPILER = bool(shutil.which(str(sysconfig.get_config_var("CC") or "cc").split()[0]))


def test_wheel_has_the_package_the_extension_and_not_the_tests(dist: Path) -> None:
    (wheel,) = dist.glob("xpert_frames-*.whl")
    names = wheel_names(wheel)
    assert "xpert_frames/data/sample.parquet" in names
    assert any(n.endswith("LICENSE") for n in names)
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/"))]
    assert not [n for n in names if n.endswith(".c")]
    built = [n for n in names if n.startswith("xpert_frames/distance/_arrow_scorer.")]
    assert bool(built) == HAS_COMPILER, built


PROBE = """
import warnings, xpert_frames as xf, polars as pl
from xpert_frames.distance import scorers
print(xf.__file__)
df = pl.DataFrame({"answer": ["kitten", "的人工智能", "😀"], "prediction": ["sitting", "人工", ""]})
print(scorers.backend(), xf.score(df, "fuzzy")["fuzzy_score"].to_list())
"""


def test_without_a_compiler_the_wheel_builds_and_scores_the_same(
    dist: Path, tmp_path: Path
) -> None:
    (sdist,) = dist.glob("xpert_frames-*.tar.gz")
    env = {**os.environ, "CC": "/nonexistent/cc"}
    env.pop("XPERT_FRAMES_NATIVE", None)
    out = [str(tmp_path)]
    build = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", *out, str(sdist)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    said = [
        line
        for line in (build.stdout + build.stderr).splitlines()
        if "optional C extension xpert_frames.distance._arrow_scorer not built" in line
    ]
    assert said and "slower rapidfuzz.process.cpdist path" in said[0]
    (wheel,) = tmp_path.glob("xpert_frames-*.whl")
    assert not [n for n in wheel_names(wheel) if "_arrow_scorer" in n]
    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index"]
    subprocess.run(
        [*pip, "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    ran = subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**env, "PYTHONPATH": str(target)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    where, scores = ran.stdout.splitlines()
    assert where.startswith(str(target))  # the installed wheel, not the worktree
    assert scores.startswith("cpdist [")
    assert "SlowPathWarning" in ran.stderr and "slower rapidfuzz.process.cpdist" in ran.stderr
    here = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert here.stdout.splitlines()[1].split(" ", 1)[1] == scores.split(" ", 1)[1]


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
