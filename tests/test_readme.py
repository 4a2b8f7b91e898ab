"""The README's examples run as written.

Every fenced ``python`` or ``bash`` block preceded by the line ``<!-- runnable -->`` is run, in
document order, each in a fresh process, in one temporary directory that holds ``answers/``: one
Parquet file per model with the bundled sample's rows (the shape the README documents). Python
blocks run with the source tree first on the path; bash blocks with ``set -euo pipefail`` and an
``xpert-frames`` on ``PATH`` that runs ``python -m xpert_frames.cli`` from the source tree.
Unmarked blocks (installs, clusters) are not run, but no bash block may pipe a ``--format``
list into a shell pipe.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import xpert_frames as xf

ROOT = Path(__file__).resolve().parents[1]
#: README.md, plus sections written for it that are not merged yet.
DOCS = [p for p in (ROOT / "README.md", ROOT / "README_issue16.md") if p.exists()]
MARKER = "<!-- runnable -->"
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Block:
    doc: str
    line: int  # 1-based line of the opening fence
    lang: str
    code: str
    runnable: bool

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}:{self.lang}"


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file, with whether each is marked runnable."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        start, lang = i, match.group(1)
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
        if end is None:
            raise AssertionError(f"{path.name}:{start + 1}: code block never closed")
        previous = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        code = "\n".join(lines[start + 1 : end]) + "\n"
        out.append(Block(path.name, start + 1, lang, code, previous.strip() == MARKER))
        i = end + 1
    return out


ALL = [b for doc in DOCS for b in blocks(doc)]
RUNNABLE = [b for b in ALL if b.runnable]


def test_the_readme_has_runnable_examples() -> None:
    langs = {b.lang for b in RUNNABLE}
    assert {"python", "bash"} <= langs, f"runnable blocks: {[b.id for b in RUNNABLE]}"
    assert len(RUNNABLE) >= 5
    unknown = [b.id for b in RUNNABLE if b.lang not in ("python", "bash")]
    assert unknown == [], "only python and bash blocks can run"


def test_no_format_list_runs_pipes() -> None:
    # `--format table|markdown|json` pasted into a shell pipes into commands called markdown...
    bad = [
        f"{b.id}: {line.strip()}"
        for b in ALL
        if b.lang in ("bash", "sh", "shell", "console")
        for line in b.code.splitlines()
        if re.search(r"--format[ =][\w-]+\|", line)
    ]
    assert bad == []


def examples_dir(root: Path) -> Path:
    """``root`` with ``answers/`` (one Parquet file per model of the sample) and an
    ``xpert-frames`` command that runs the CLI of this source tree: where runnable examples run."""
    answers = root / "answers"
    answers.mkdir()
    for (model,), rows in xf.load_sample().group_by("model"):
        rows.write_parquet(answers / f"{model}.parquet")
    bin_dir = root / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "xpert-frames"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m xpert_frames.cli "$@"\n')
    shim.chmod(0o755)
    return root


def run_block(block: Block, workdir: Path) -> None:
    """Run one runnable block (Python or shell) in ``workdir``; fail with its output."""
    if block.lang == "python":
        command = [sys.executable, "-c", block.code]
    else:
        command = ["bash", "-c", "set -euo pipefail\n" + block.code]
    proc = subprocess.run(
        command, cwd=workdir, env=_env(workdir), capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, (
        f"{block.id} failed ({proc.returncode})\n--- code\n{block.code}\n--- stdout\n"
        f"{proc.stdout[-3000:]}\n--- stderr\n{proc.stderr[-5000:]}"
    )


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return examples_dir(tmp_path_factory.mktemp("readme"))


def _env(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["PATH"] = os.pathsep.join([str(workdir / ".bin"), env.get("PATH", "")])
    env.setdefault("MPLBACKEND", "Agg")
    return env


@pytest.mark.slow
@pytest.mark.parametrize("block", RUNNABLE, ids=[b.id for b in RUNNABLE])
def test_runnable_block(block: Block, workdir: Path) -> None:
    run_block(block, workdir)
