"""The UTF-8 check on Arrow input (:func:`xpert_frames.core.utf8.check_table`) on 1M strings,
next to what it replaces or adds to: Polars' own ``pl.from_arrow`` of the same column (which
checks nothing), pyarrow's ``Array.validate(full=True)`` and a cast to binary and back (both
check every string). Two columns: ASCII answers, and answers mixing Chinese, accents and
LaTeX (about one in two rows non-ASCII)."""

from __future__ import annotations

import os
import random

import pyarrow as pa

from benchmarks.common import Row, size, timed
from xpert_frames.core import utf8

WORDS = ["Paris", "答案是 {}", "The answer is \\boxed{{{}}}", "北京", "x = {}", "é café {}"]


def columns(n: int) -> dict[str, pa.Table]:
    rng = random.Random(0)
    mixed = [rng.choice(WORDS).format(i) for i in range(n)]
    ascii_ = [f"The answer is {i}" for i in range(n)]
    return {
        "ASCII": pa.table({"prediction": pa.array(ascii_, pa.string())}),
        "mixed": pa.table({"prediction": pa.array(mixed, pa.string())}),
    }


def run(quick: bool) -> list[Row]:
    import polars as pl

    n = size(quick, 100_000, 1_000_000)
    rows = []
    for label, table in columns(n).items():
        array = table.column(0).chunk(0)
        bench = f"UTF-8 check of Arrow input: {n:,} {label} strings"
        contenders = {
            "pl.from_arrow (no check)": lambda t=table: pl.from_arrow(t, rechunk=False),
            "pyarrow validate(full=True)": lambda a=array: a.validate(full=True),
            "pyarrow cast to binary and back": lambda a=array: a.cast(pa.binary()).cast(
                pa.string()
            ),
            "xpert_frames check_table": lambda t=table: utf8.check_table(t),
        }
        mib = array.buffers()[2].size / 2**20
        for name, fn in contenders.items():
            seconds, _ = timed(fn, repeat=7)
            load = os.getloadavg()[0]
            note = f"{mib:.1f} MiB of text; best of 7; load {load:.1f}"
            rows.append(Row(bench, name, n, seconds, note))
    return rows
