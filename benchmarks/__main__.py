"""Run every ``benchmarks/bench_*.py`` (or ``--only`` some) and print/write a Markdown table.

Each module defines ``run(quick: bool) -> list[Row]``. The first row of each benchmark is the
baseline its ratios are computed against.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from pathlib import Path

import benchmarks
from benchmarks.common import Row, machine, markdown
from xpert_frames.core.allocator import ENV, prefer_throughput


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument(
        "--smoke", action="store_true", help="tiny sizes: checks every benchmark runs (tests)"
    )
    parser.add_argument("--only", nargs="*", default=None, help="benchmark module names")
    parser.add_argument("--write", type=Path, default=None, help="write the Markdown here")
    parser.add_argument(
        "--allocator",
        choices=["throughput", "polars"],
        default="throughput",
        help="Polars' allocator as the console script sets it (throughput, default) or as "
        "Polars sets it on import (polars); see xpert_frames.core.allocator",
    )
    args = parser.parse_args(argv)
    # Before any benchmark module imports Polars (its allocator reads the setting once).
    allocator = args.allocator
    if (allocator == "throughput" and not prefer_throughput()) or (
        allocator == "polars" and ENV in os.environ
    ):
        allocator = f"as found ({ENV}={os.environ.get(ENV)!r})"
    if args.smoke:
        os.environ["XF_BENCH_SMOKE"] = "1"
        args.quick = True
    names = sorted(
        m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
    )
    if args.only:
        names = [n for n in names if n in args.only or n.removeprefix("bench_") in args.only]
    sections = [f"Machine: {machine()}; Polars allocator: {allocator}", ""]
    for name in names:
        module = importlib.import_module(f"benchmarks.{name}")
        rows: list[Row] = module.run(quick=args.quick)
        by_bench: dict[str, list[Row]] = {}
        for row in rows:
            by_bench.setdefault(row.bench, []).append(row)
        for bench, group in by_bench.items():
            table = markdown(group, baseline=group[0].contender)
            sections += [f"### {bench}", "", table, ""]
            print(f"### {bench}\n{table}\n", flush=True)
    if args.write:
        args.write.write_text("\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main())
