"""A directory of Parquet files against one file holding the same rows (``xpert-frames score``).

The bundled sample, repeated to ``n`` rows, is written once as one file and once split per
model (7 files). Each contender runs the CLI's in-process scoring path (the sample's scoring
plan: all five evaluators, each on its rows) into a Parquet file, timed without start-up and
report. Each chunk of input rows is made one contiguous batch before scoring, so the
evaluators' per-batch work (compiling regexes, number parsing set-up) runs once per chunk, not
once per file.
"""

from __future__ import annotations

import shutil
import tempfile
from functools import partial
from pathlib import Path

import polars as pl

import xpert_frames as xf
from benchmarks.common import Row, size, timed
from xpert_frames.cli import engines, files
from xpert_frames.core.frames import Columns


def _score(inputs: Path, out: Path) -> None:
    plan = xf.load_sample_plan()
    source = files.scan([inputs])
    score = engines.chunk_scorer(plan, Columns(), False, "row_id")
    engines.score_in_process((str(inputs),), out, source, score, plan, files.CHUNK_ROWS, True)


def run(quick: bool) -> list[Row]:
    n = size(quick, 378 * 10, 378 * 100, smoke=378)
    tmp = Path(tempfile.mkdtemp(prefix="xf_bench_dir_"))
    try:
        sample = xf.load_sample()
        data = pl.concat([sample] * max(1, n // sample.height))
        one, split = tmp / "one.parquet", tmp / "split"
        data.write_parquet(one)
        split.mkdir()
        for (model,), part in data.group_by("model", maintain_order=True):
            part.write_parquet(split / f"{model}.parquet")
        n_files = len(list(split.iterdir()))
        out = tmp / "scored.parquet"
        _score(one, out)  # warm-up: imports, tokenizers, dictionaries
        rows = []
        for label, inputs in (("one file", one), (f"directory of {n_files} files", split)):
            seconds, _ = timed(partial(_score, inputs, out), repeat=3)
            rows.append(Row("directory vs one file (CLI scoring)", label, data.height, seconds))
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    for row in run(quick=True):
        print(f"{row.contender}: {row.seconds:.3f} s for {row.rows:,} rows")
