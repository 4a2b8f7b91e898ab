"""Start-up in fresh interpreters: ``import polars``; ``import xpert_frames`` (goal: under 0.3 s;
lazy, it imports no Polars); and what a first call costs, ``import xpert_frames`` + ``xf.score``
on a one-row frame (Polars, the fuzzy evaluator and its kernel imported on the way), next to
``import polars`` + a one-row Polars query. Wall and CPU seconds, best of several runs."""

from __future__ import annotations

import os
import subprocess
import sys

from benchmarks.common import Row, runs

_PROBE = """
import time
w, c = time.perf_counter(), time.process_time()
{code}
print(time.perf_counter() - w, time.process_time() - c)
"""
CASES = {
    "import polars": "import polars",
    "import xpert_frames": "import xpert_frames",
    "import polars + one-row query": (
        "import polars as pl\npl.DataFrame({'a': ['x']}).select(pl.col('a').str.len_chars())"
    ),
    "import xpert_frames + xf.score (one row, fuzzy)": (
        "import xpert_frames as xf, polars as pl\n"
        "xf.score(pl.DataFrame({'prediction': ['Paris'], 'answer': ['Paris']}), 'fuzzy')"
    ),
}
HEAVY = ("polars", "jieba", "nltk", "numpy", "pyarrow", "rapidfuzz", "ray", "altair")


def fresh_seconds(code: str, repeat: int) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``code`` in ``repeat`` fresh interpreters, after one
    run that writes the bytecode cache (an installed package has it: pip compiles on install,
    as Polars' files are; with PYTHONDONTWRITEBYTECODE set, every start would compile our
    sources)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    walls, cpus = [], []
    for _ in range(repeat + 1):
        out = subprocess.run(
            [sys.executable, "-c", _PROBE.format(code=code)],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        wall, cpu = (float(x) for x in out.stdout.split())
        walls.append(wall)
        cpus.append(cpu)
    return min(walls[1:]), min(cpus[1:])


def run(quick: bool) -> list[Row]:
    repeat = runs(3) if quick else 7
    rows = []
    for name, code in CASES.items():
        wall, cpu = fresh_seconds(code, repeat)
        load = os.getloadavg()[0]
        note = f"best of {repeat} fresh interpreters, bytecode cached; CPU {cpu:.3f} s"
        note += f"; load {load:.1f}"
        rows.append(Row("import time", name, 1, wall, note))
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, xpert_frames; print(sorted(m for m in {HEAVY!r} if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    rows[1].note += f"; heavy modules loaded: {check.stdout.strip()}"
    return rows
