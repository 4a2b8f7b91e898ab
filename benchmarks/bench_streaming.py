"""Streaming CLI over a large Parquet file: rows/s and peak RSS of the scoring process.

Every evaluator at once (``-e accuracy -e math -e bleu -e tcm_diagnosis -e fuzzy``) with a
report by model (``--by model --report``), at 1,000,000 and 10,000,000 rows (with ``--quick``:
100,000 and 1,000,000): the CLI scores chunks of its input, each on its own, so 10x the rows
must take at most 11x the time and 1.3x the peak memory (both ratios printed). Each run is a
fresh ``xpert-frames score`` process; its peak RSS is read from the kernel's accounting of the
finished child. ``python -m benchmarks.bench_streaming ROWS`` runs one size alone (the 50M+
run in RESULTS.md).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq

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
_TCM = [
    ("患者表现为气虚血瘀证，建议补气活血。", "气虚血瘀证"),
    ("辨证为气滞血瘀证。", "气虚血瘀证"),
    ("证属肝郁脾虚，治以疏肝健脾。", "肝郁脾虚证"),
    ("综合分析，属脾胃虚弱证。", "脾胃虚弱证"),
]
_NUMBER = [
    ("所以答案是14", "14"),
    ("答案：1/2", "0.5"),
    ("The final answer is 1,250.5 元", "1250.5"),
    ("3+4=7，7×2=14", "14"),
    ("零点五", "0.5"),
    ("\\boxed{42}", "42"),
]


_SLAB = 5_000_000


def make_input(path: Path, n_rows: int, seed: int = 0) -> None:
    """``n_rows`` answers gathered from a small bank (vectorized; no per-row Python)."""
    bank = (
        [(p, a, "choice") for p, a in _CHOICE]
        + [(p, a, "text") for p, a in _TEXT]
        + [(p, a, "number") for p, a in _NUMBER]
        + [(p, a, "tcm") for p, a in _TCM]
    )
    table = pl.DataFrame(
        {
            "prediction": [b[0] for b in bank],
            "answer": [b[1] for b in bank],
            "answer_type": [b[2] if b[2] != "tcm" else "text" for b in bank],
            "tcm_eval_type": [None if b[2] != "tcm" else "syndrome" for b in bank],
        }
    )
    rng = np.random.default_rng(seed)
    writer: pq.ParquetWriter | None = None
    try:  # written in slabs: 50M rows never sit in memory at once
        for start in range(0, n_rows, _SLAB):
            stop = min(n_rows, start + _SLAB)
            idx = rng.integers(0, len(bank), stop - start)
            rows = np.arange(start, stop)
            df = table[idx].with_columns(
                pl.Series("model", np.char.add("model_", (rows % 10).astype(str))),
                pl.Series("question_id", rows // 10),
            )
            arrow = df.to_arrow()
            if writer is None:
                writer = pq.ParquetWriter(path, arrow.schema, compression="zstd")
            writer.write_table(arrow, row_group_size=500_000)
    finally:
        if writer is not None:
            writer.close()


def run_cli(args: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of one ``xpert-frames``
    process. On a shared machine the CPU time is the fair measure of work done."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "proc = subprocess.run(sys.argv[1:])\n"
        "dt = time.perf_counter() - t\n"
        "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(f'{dt} {use.ru_utime + use.ru_stime} {use.ru_maxrss / 1024} {proc.returncode}')\n"
    )
    exe = shutil.which("xpert-frames") or str(Path(sys.executable).parent / "xpert-frames")
    out = subprocess.run(
        [sys.executable, "-c", probe, exe, *args], capture_output=True, text=True, check=True
    )
    seconds, cpu, rss, code = out.stdout.split()
    if code != "0":
        raise RuntimeError(f"xpert-frames failed: {args}")
    return float(seconds), float(cpu), float(rss)


EVALUATORS = ["accuracy", "math", "bleu", "tcm_diagnosis", "fuzzy"]


def measure(src: Path, tmp: Path, n: int) -> Row:
    """One CLI run over ``src`` (``n`` rows) with every evaluator and a report by model."""
    args = ["score", str(src), "-o", str(tmp / "out.parquet"), "-q", "--by", "model"]
    args += ["--report", str(tmp / "report.json")]
    for spec in EVALUATORS:
        args += ["-e", spec]
    load = os.getloadavg()[0]
    seconds, cpu, rss = run_cli(args)
    note = (
        f"CPU {cpu:,.1f} s ({n / cpu:,.0f} rows per CPU-s); peak RSS {rss:,.0f} MiB; "
        f"load {load:.1f} → {os.getloadavg()[0]:.1f}"
    )
    extra = {"rss": rss, "cpu": cpu}
    return Row("streaming CLI", "all five + report by model", n, seconds, note, extra)


def run(quick: bool) -> list[Row]:
    small, large = size(quick, 100_000, 1_000_000), size(quick, 1_000_000, 10_000_000)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for n in (small, large):
            src = tmp / "answers.parquet"
            make_input(src, n)
            rows.append(measure(src, tmp, n))
    a, b = rows
    time_ratio, cpu_ratio = b.seconds / a.seconds, b.extra["cpu"] / a.extra["cpu"]
    rss_ratio = b.extra["rss"] / a.extra["rss"]
    ratios = (
        f"{large // small}x rows: {time_ratio:.2f}x wall time, {cpu_ratio:.2f}x CPU time "
        f"(target <= 11x), {rss_ratio:.2f}x peak RSS (target <= 1.3x)"
    )
    b.note += "; " + ratios
    print(f"{large:,} vs {small:,} rows: {ratios}")
    return rows


def _tower(base: int, top: int) -> str:
    return f"${base}^{{{base}^{{{base}^{{{base}^{{{base}^{{{top}}}}}}}}}}}$"


def stop_latency(sig: signal.Signals, folder: Path, pairs: int = 64) -> tuple[float, int, bool]:
    """Seconds from ``sig`` to the CLI's exit while Math-Verify works on ``pairs`` distinct slow
    pairs (towers of powers, each taking its whole 5 s deadline), the exit code, and whether
    the run left no temporary file."""
    src = folder / "slow.jsonl"
    rows = [{"prediction": _tower(2, 10 + k), "answer": _tower(3, 10 + k)} for k in range(pairs)]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    exe = shutil.which("xpert-frames") or str(Path(sys.executable).parent / "xpert-frames")
    out = folder / "out.parquet"
    proc = subprocess.Popen([exe, "score", str(src), "-o", str(out), "-e", "math", "-q"])
    while True:  # until the symbolic pool's workers run and the output is being written
        ps = subprocess.run(["ps", "-eo", "ppid=,args="], capture_output=True, text=True).stdout
        busy = any(
            line.split()[0] == str(proc.pid) and "verify_worker" in line for line in ps.splitlines()
        )
        if busy and list(folder.glob(".out.parquet.xf-*.tmp")):
            break
        if proc.poll() is not None:
            raise RuntimeError("the slow run ended before the signal")
        time.sleep(0.1)
    time.sleep(3.0)  # inside the slow pairs
    sent = time.perf_counter()
    proc.send_signal(sig)
    code = proc.wait()
    latency = time.perf_counter() - sent
    return latency, code, not list(folder.glob(".out.parquet*"))


def main(argv: list[str]) -> None:
    """``ROWS [DIR]``: one CLI run of ROWS rows (input and output in DIR); ``signal [TRIALS]``:
    the stop latency on slow symbolic maths, SIGINT and SIGTERM."""
    if argv[0] == "signal":
        for sig in (signal.SIGINT, signal.SIGTERM):
            for _ in range(int(argv[1]) if len(argv) > 1 else 3):
                with tempfile.TemporaryDirectory() as name:
                    latency, code, clean = stop_latency(sig, Path(name))
                print(
                    f"{sig.name}: exit {code} {latency:.2f} s after the signal; temporary "
                    f"files left: {not clean}; load {os.getloadavg()[0]:.1f}"
                )
        return
    n_rows = int(argv[0])
    with tempfile.TemporaryDirectory(dir=argv[1] if len(argv) > 1 else None) as name:
        made = Path(name) / "answers.parquet"
        make_input(made, n_rows)
        row = measure(made, Path(name), n_rows)
        print(f"{row.rows:,} rows: {row.seconds:.1f} s, {row.rate:,.0f} rows/s, {row.note}")


if __name__ == "__main__":
    main(sys.argv[1:])
