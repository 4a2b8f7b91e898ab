"""``import xpert_frames`` time in fresh interpreters (goal: under 0.3 s), next to Polars alone."""

from __future__ import annotations

import subprocess
import sys

from benchmarks.common import Row, runs

_PROBE = "import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"


def import_seconds(module: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", _PROBE.format(module=module)],
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(float(out.stdout))
    return min(times)


def run(quick: bool) -> list[Row]:
    repeat = runs(3) if quick else 7
    rows = []
    for module in ("polars", "xpert_frames"):
        seconds = import_seconds(module, repeat)
        rows.append(
            Row(
                "import time",
                f"import {module}",
                1,
                seconds,
                f"best of {repeat} fresh interpreters",
            )
        )
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, xpert_frames; print(sorted(m for m in ('jieba', 'nltk', 'numpy', "
            "'pyarrow', 'rapidfuzz', 'ray', 'altair') if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    rows[-1].note += f"; heavy modules loaded: {check.stdout.strip()}"
    return rows
