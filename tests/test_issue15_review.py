"""Issue 15, defects found in code review: each test failed before its fix."""

from __future__ import annotations

import os
import stat
import tomllib
import warnings
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import xpert_frames as xf
from xpert_frames import registry
from xpert_frames.cli import files as io
from xpert_frames.distance import levenshtein as kernels
from xpert_frames.evaluators.tcm import TcmDiagnosisEvaluator
from xpert_frames.tokens import pool

ROOT = Path(__file__).resolve().parents[1]


def test_tcm_named_tcm_keeps_the_canonical_subtype_column() -> None:
    df = pl.DataFrame(
        {
            "prediction": ["气虚证", "胃痛"],
            "answer": ["气虚证", "胃痛"],
            "tcm_eval_type": ["syndrome", "disease"],
        }
    )
    # The evaluator after it reads the canonical __xf_tcm_eval_type, which a prefix match
    # on __xf_tcm_ dropped.
    out = xf.score(df, [TcmDiagnosisEvaluator(name="tcm"), TcmDiagnosisEvaluator(name="t2")])
    assert out["tcm_score"].to_list() == out["t2_score"].to_list() == [1.0, 1.0]
    assert out["t2_type"].to_list() == ["syndrome", "disease"]
    assert not [c for c in out.columns if c.startswith("__xf")]


def test_pool_releases_the_lock_when_the_worker_cannot_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(count: int) -> None:
        raise OSError("cannot start the worker")

    monkeypatch.setattr(pool, "MIN_PARALLEL", 2)
    monkeypatch.setattr(pool, "worker_count", lambda: 1)
    monkeypatch.setattr(pool, "_start", broken)
    with pytest.raises(OSError, match="cannot start"):
        pool.tokenize_zh(["你好", "世界", "中文"])
    assert pool._lock.acquire(blocking=False)  # not left held: the next batch would hang
    pool._lock.release()


def test_numpy_requirement_has_bitwise_count() -> None:
    from packaging.requirements import Requirement

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    numpy = next(Requirement(d) for d in deps if Requirement(d).name == "numpy")
    assert not numpy.specifier.contains("1.26.4")  # np.bitwise_count is NumPy >= 2
    assert numpy.specifier.contains("2.0.0")


def test_kernel_threads_respect_polars_pool_and_affinity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rapidfuzz import process

    from xpert_frames.distance import scorers

    monkeypatch.setattr(scorers, "_NATIVE", None)  # the cpdist twin: its workers are checked
    seen: list[int] = []
    real = process.cpdist

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(kw["workers"])  # rapidfuzz's thread count
        return real(*args, **kw)

    monkeypatch.setattr(process, "cpdist", spy)
    out = kernels.levenshtein_similarity(pl.Series(["abc", "x"]), pl.Series(["abd", "y"]))
    assert out.to_list() == pytest.approx([2 / 3, 0.0])
    assert seen and all(w >= 1 for w in seen)
    assert seen[0] <= pl.thread_pool_size()
    assert seen[0] <= len(os.sched_getaffinity(0))


def test_write_atomic_leaves_the_umask_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    current = os.umask(0o022)
    os.umask(current)

    def no_umask(mask: int) -> int:
        raise AssertionError("os.umask called: it changes the mask of every thread")

    monkeypatch.setattr(os, "umask", no_umask)
    target = io.write_text_atomic(tmp_path / "x.txt", "hi")
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~current


def test_plugin_named_like_a_builtin_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    class EP:
        name = "fuzzy"
        value = "other_pkg.evals:Fuzzy"

        def load(self) -> type:
            raise AssertionError("a colliding plugin is not loaded")

    monkeypatch.setattr(registry, "entry_points", lambda group: [EP()])
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        registry.records()
    messages = [str(w.message) for w in caught]
    assert any(
        "other_pkg.evals:Fuzzy" in m and "FuzzyEvaluator" in m and "'fuzzy'" in m for m in messages
    ), messages
