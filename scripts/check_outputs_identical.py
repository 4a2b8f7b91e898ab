"""Check that a change leaves every evaluator's output identical, column by column.

Two steps. ``save DIR`` scores fixed inputs with the installed project and writes one Parquet
file per input to ``DIR``:

- ``sample``: the bundled sample scored with its plan (the README's first command);
- ``bench_text``: a 200,000-row part of the benchmark data (:func:`benchmarks.data.answers`)
  scored with every evaluator on every row;
- ``bench_accuracy`` / ``bench_math`` / ``bench_tcm``: 200,000 rows of each evaluator's own
  benchmark generator, scored with accuracy + math, math + accuracy and TCM;
- ``labelled_*``: every labelled set in ``tests/data/`` scored with the evaluators it is for.

``compare BEFORE AFTER`` reads both directories and checks frame equality file by file, printing
the first differing column and row; it exits 1 when anything differs.

Usage (from the repository root)::

    .venv/bin/python scripts/check_outputs_identical.py save out/before
    # ... change the code ...
    .venv/bin/python scripts/check_outputs_identical.py save out/after
    .venv/bin/python scripts/check_outputs_identical.py compare out/before out/after
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import xpert_frames as xf  # noqa: E402

BENCH_ROWS = 200_000
EVERY = ["accuracy", "bleu", "math", "tcm_diagnosis", "fuzzy"]
LABELLED = {
    "accuracy_labelled": ["accuracy"],
    "accuracy_text_labelled": ["accuracy"],
    "math_labelled": ["math", "accuracy"],
    "math_labelled_answers": ["math", "accuracy"],
    "math_labelled_forms": ["math", "accuracy"],
    "tcm_labelled": ["tcm_diagnosis"],
}


def _sample() -> pl.DataFrame:
    return xf.score(xf.load_sample(), xf.load_sample_plan())


def _bench_text() -> pl.DataFrame:
    from benchmarks.data import answers

    frame = answers(BENCH_ROWS).with_columns(tcm_eval_type=pl.lit("syndrome"))
    return xf.score(frame, EVERY, all_rows=True)


def _bench_accuracy() -> pl.DataFrame:
    from benchmarks.bench_accuracy import make_rows

    return xf.score(make_rows(BENCH_ROWS), ["accuracy", "math"], all_rows=True)


def _bench_math() -> pl.DataFrame:
    from benchmarks.bench_math import math_rows

    return xf.score(math_rows(BENCH_ROWS), ["math", "accuracy"], all_rows=True)


def _bench_tcm() -> pl.DataFrame:
    from benchmarks.bench_tcm import make_frame

    return xf.score(make_frame(BENCH_ROWS), ["tcm_diagnosis"], all_rows=True)


def _labelled(stem: str, evaluators: list[str]) -> Callable[[], pl.DataFrame]:
    def run() -> pl.DataFrame:
        frame = pl.read_ndjson(ROOT / "tests" / "data" / f"{stem}.jsonl", infer_schema_length=None)
        roles = ("prediction", "answer", "choices", "tcm_eval_type")
        keep = [c for c in roles if c in frame.columns]
        if "choices" in keep and frame.schema["choices"] == pl.Null:
            keep.remove("choices")
        return xf.score(frame.select(keep), evaluators, all_rows=True)

    return run


def inputs() -> dict[str, Callable[[], pl.DataFrame]]:
    """Every scored frame the check writes, by file stem."""
    out: dict[str, Callable[[], pl.DataFrame]] = {
        "sample": _sample,
        "bench_text": _bench_text,
        "bench_accuracy": _bench_accuracy,
        "bench_math": _bench_math,
        "bench_tcm": _bench_tcm,
    }
    for stem, evaluators in LABELLED.items():
        out[f"labelled_{stem}"] = _labelled(stem, evaluators)
    return out


def save(directory: Path, only: list[str] | None) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for stem, run in inputs().items():
        if only and stem not in only:
            continue
        start = time.perf_counter()
        frame = run()
        frame.write_parquet(directory / f"{stem}.parquet")
        print(
            f"{stem}: {frame.height} rows x {frame.width} columns "
            f"({time.perf_counter() - start:.1f} s)"
        )


def first_difference(before: pl.DataFrame, after: pl.DataFrame) -> str | None:
    """A sentence naming the first column and row where the two frames differ, or None."""
    if before.columns != after.columns:
        return f"columns differ: {before.columns} vs {after.columns}"
    if before.height != after.height:
        return f"row counts differ: {before.height} vs {after.height}"
    for name in before.columns:
        a, b = before[name], after[name]
        if a.dtype != b.dtype:
            return f"column {name!r}: dtype {a.dtype} vs {b.dtype}"
        if a.equals(b, check_names=True):
            continue
        same = (a == b) | (a.is_null() & b.is_null())
        if a.dtype.is_float():
            same = same | (a.is_nan() & b.is_nan())
        rows = pl.Series(range(a.len())).filter(~same.fill_null(False))
        row = int(rows[0]) if rows.len() else 0
        return (
            f"column {name!r} differs on {rows.len()} rows; first row {row}: "
            f"{a[row]!r} vs {b[row]!r}"
        )
    return None


def compare(before_dir: Path, after_dir: Path) -> int:
    failed = 0
    for path in sorted(before_dir.glob("*.parquet")):
        other = after_dir / path.name
        if not other.exists():
            print(f"{path.stem}: missing in {after_dir}")
            failed += 1
            continue
        diff = first_difference(pl.read_parquet(path), pl.read_parquet(other))
        print(f"{path.stem}: {'identical' if diff is None else diff}")
        failed += diff is not None
    print("identical: yes" if not failed else f"identical: no ({failed} files differ)")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save", help="score the fixed inputs and write them to a directory")
    s.add_argument("directory", type=Path)
    s.add_argument("--only", nargs="*", help="file stems to write (default: all)")
    c = sub.add_parser("compare", help="compare two saved directories column by column")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "save":
        save(args.directory, args.only)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    raise SystemExit(main())
