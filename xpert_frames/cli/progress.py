"""What the CLI says while it works: a progress bar advanced once per chunk (never per row),
the summary line with start-up and scoring time apart, and Ray's log lines held back on quiet
runs."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import polars as pl
from tqdm import tqdm

from xpert_frames.core.frames import Columns
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.scoring import plan


def bar(total: int | None, *, disable: bool) -> tqdm:
    """A tqdm bar on stderr; silent when ``disable`` or when stderr is not a terminal."""
    return tqdm(
        total=total,
        unit=" rows",
        unit_scale=True,
        disable=disable or not sys.stderr.isatty(),
        file=sys.stderr,
        dynamic_ncols=True,
    )


@contextlib.contextmanager
def held_stderr(hold: bool) -> Iterator[None]:
    """With ``hold``, this process's stderr (file descriptor 2, where Ray's C++ core and the
    processes it starts write their log lines) goes to a temporary file; it is shown only if
    the block fails, so a quiet run prints nothing but errors."""
    if not hold:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            held.seek(0)
            sys.stderr.write(held.read()[-20_000:].decode("utf-8", "replace"))
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def warm_up(evaluators: Sequence[BaseEvaluator]) -> None:
    """Load the evaluators' tokenizers, dictionaries and tables on two made-up rows (Chinese and
    English), so the summary can tell start-up from scoring."""
    rows = pl.DataFrame(
        {
            "prediction": ["答案是北京，气虚血瘀证。", "The answer is B: 42 kg."],
            "answer": ["北京", "B"],
            "tcm_eval_type": ["syndrome", "syndrome"],
        }
    )
    # Best effort only: an evaluator that needs other columns warms up while scoring.
    with contextlib.suppress(Exception):
        plan(rows.lazy(), evaluators, Columns(), all_rows=True).collect()


def summary(
    output: Path,
    evaluators: Sequence[BaseEvaluator],
    times: tuple[float, float, float],
    engine: str,
) -> str:
    """Two lines: rows, skipped rows and the output; then start-up (imports, the evaluators'
    tokenizers and tables), scoring and report time apart; a rate only when scoring took a
    second or more."""
    started, ready, scored = times
    done = time.perf_counter()
    result = pl.scan_parquet(output)
    names = result.collect_schema().names()
    rows = result.select(pl.len()).collect().item()
    skipped = (
        result.select(
            pl.any_horizontal(
                pl.col(ev.score_column).is_null()
                & (pl.col(ev.column("applicable")) if ev.column("applicable") in names else True)
                for ev in evaluators
            ).sum()
        )
        .collect()
        .item()
    )
    work = scored - ready
    rate = f" ({rows / work:,.0f} rows/s)" if work >= 1.0 else ""
    where = "Ray start-up and scoring" if engine == "ray" else "scoring"
    return (
        f"scored {rows:,} rows ({skipped:,} skipped by at least one evaluator) -> {output}\n"
        f"start-up {ready - started:.2f} s, {where} {work:.2f} s{rate}, "
        f"report {done - scored:.2f} s"
    )
