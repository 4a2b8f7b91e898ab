"""The declared requirements admit only versions that have what the code uses."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_numpy_requirement_has_bitwise_count() -> None:
    from packaging.requirements import Requirement

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    numpy = next(Requirement(d) for d in deps if Requirement(d).name == "numpy")
    assert not numpy.specifier.contains("1.26.4")  # np.bitwise_count is NumPy >= 2
    assert numpy.specifier.contains("2.0.0")
