"""The house rules that tools check: lint, format, types and the import layers.

Each runs the pinned tool from the ``dev`` extra on the package, as a developer would.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ("ruff", "check", "."),  # the package, tests, benchmarks, scripts, notebooks
        ("ruff", "format", "--check", "."),  # and the README's Python blocks
        ("lint-imports",),
        ("mypy",),
    ],
    ids=["ruff-check", "ruff-format", "lint-imports", "mypy"],
)
def test_tool_is_clean(command: tuple[str, ...]) -> None:
    proc = _run(str(BIN / command[0]), *command[1:])
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]


def test_documented_example_evaluator_registers_and_runs(clean_registry: None) -> None:
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    section = text[text.index("## Adding an evaluator") :]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    namespace: dict[str, object] = {"__name__": "docs_example"}
    exec(compile(block.group(1), "development.md", "exec"), namespace)
    from xpert_frames import registry

    assert registry.get_record("exact").metric == "exact_match"
