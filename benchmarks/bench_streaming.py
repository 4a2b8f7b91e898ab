"""Streaming CLI over a large Parquet file: rows/s and peak RSS of the scoring process.

Targets (issue 7): 10,000,000 rows scored with accuracy + fuzzy + math below 1.5 GB peak RSS;
BLEU in bounded chunks below 2 GB. Each run is a fresh ``xpert-frames score`` process; its
peak RSS is read from the kernel's accounting of the finished child.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

from benchmarks.common import Row, size

_CHOICE = [
    ("答案是B", "B"),
    ("综上所述，本题选D。", "D"),
    ("The answer is (C).", "C"),
    ("A", "A"),
    ("我认为选A，因为北京是首都。", "B"),
    ("**Answer: B**", "B"),
]
_TEXT = [
    ("北京", "北京"),
    ("北京。", "北京"),
    ("Paris", "Paris"),
    ("the Pacific Ocean", "Pacific Ocean"),
]
_NUMBER = [
    ("所以答案是14", "14"),
    ("答案：1/2", "0.5"),
    ("The final answer is 1,250.5 元", "1250.5"),
    ("3+4=7，7×2=14", "14"),
    ("零点五", "0.5"),
    ("\\boxed{42}", "42"),
]


def make_input(path: Path, n_rows: int, seed: int = 0) -> None:
    """``n_rows`` answers gathered from a small bank (vectorized; no per-row Python)."""
    bank = (
        [(p, a, "choice") for p, a in _CHOICE]
        + [(p, a, "text") for p, a in _TEXT]
        + [(p, a, "number") for p, a in _NUMBER]
    )
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(bank), n_rows)
    table = pl.DataFrame(
        {
            "prediction": [b[0] for b in bank],
            "answer": [b[1] for b in bank],
            "answer_type": [b[2] for b in bank],
        }
    )
    df = table[idx].with_columns(
        pl.Series("model", np.char.add("model_", (np.arange(n_rows) % 10).astype(str))),
        pl.Series("question_id", np.arange(n_rows) // 10),
    )
    df.write_parquet(path, row_group_size=500_000)


def run_cli(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one ``xpert-frames`` process."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "proc = subprocess.run(sys.argv[1:])\n"
        "dt = time.perf_counter() - t\n"
        "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(f'{dt} {rss} {proc.returncode}')\n"
    )
    exe = shutil.which("xpert-frames") or str(Path(sys.executable).parent / "xpert-frames")
    out = subprocess.run(
        [sys.executable, "-c", probe, exe, *args], capture_output=True, text=True, check=True
    )
    seconds, rss, code = out.stdout.split()
    if code != "0":
        raise RuntimeError(f"xpert-frames failed: {args}")
    return float(seconds), float(rss)


def run(quick: bool) -> list[Row]:
    n = size(quick, 200_000, 10_000_000)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "answers.parquet"
        make_input(src, n)
        for label, specs in (
            ("accuracy + fuzzy + math", ["accuracy", "fuzzy", "math"]),
            ("fuzzy", ["fuzzy"]),
            ("bleu", ["bleu"]),
        ):
            args = ["score", str(src), "-o", str(Path(tmp) / "out.parquet"), "-q"]
            for spec in specs:
                args += ["-e", spec]
            seconds, rss = run_cli(args)
            rows.append(
                Row(
                    "streaming CLI",
                    label,
                    n,
                    seconds,
                    f"peak RSS {rss:,.0f} MiB",
                    {"peak_rss_mb": rss},
                )
            )
    return rows
