"""The CLI scores its input chunk by chunk: no scoring batch ever sees more rows than one chunk,
each row is scored once (time linear in rows), and the output equals one pass over the table."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import xpert_frames as xf
from xpert_frames.cli import engines, progress
from xpert_frames.cli import main as cli
from xpert_frames.evaluators.math_answer import evaluator as math_evaluator

ROWS = 2_500
CHUNK = 1_000


def _table(n: int = ROWS) -> pl.DataFrame:
    """Math rows of every kind the evaluator reads (numbers, units, symbolic spans)."""
    bank = [
        ("所以答案是14", "14"),
        ("The final answer is 1,250.5 元", "1250.5"),
        ("\\boxed{\\frac{1}{2}}", "0.5"),
        ("x = 3 km", "3000 m"),
        ("答案：$2\\sqrt{2}$", "2\\sqrt{2}"),
        ("no number here", "7"),
    ]
    return pl.DataFrame(
        {
            "prediction": [bank[i % len(bank)][0] for i in range(n)],
            "answer": [bank[i % len(bank)][1] for i in range(n)],
            "model": [f"m{i % 3}" for i in range(n)],
        }
    )


def _record_math_batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Rows of every batch the math evaluator reads (its one batch over a whole column), from
    after the CLI's warm-up on."""
    seen: list[int] = []
    real_parts, real_warm = math_evaluator.in_parts, progress.warm_up

    def recording(read, frame, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(frame.height)
        return real_parts(read, frame, **kwargs)

    def warm_up(evaluators):  # type: ignore[no-untyped-def]
        real_warm(evaluators)
        seen.clear()

    monkeypatch.setattr(math_evaluator, "in_parts", recording)
    monkeypatch.setattr(progress, "warm_up", warm_up)
    return seen


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl", ".csv"])
def test_math_batches_never_exceed_the_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    table = _table()
    src = tmp_path / f"in{suffix}"
    if suffix == ".parquet":
        table.write_parquet(src, row_group_size=300)
    elif suffix == ".jsonl":
        table.write_ndjson(src)
    else:
        table.write_csv(src)
    seen = _record_math_batches(monkeypatch)
    out = tmp_path / "out.parquet"
    args = ["score", str(src), "-o", str(out), "-e", "math", "--chunk-rows", str(CHUNK), "-q"]
    assert cli.main(args) == 0
    assert seen and max(seen) <= CHUNK  # the whole table before a chunk is never read again
    assert sum(seen) == ROWS  # each row scored once
    scored = pl.read_parquet(out)
    assert scored["row_id"].to_list() == list(range(ROWS))
    assert_frame_equal(scored.drop("row_id"), xf.score(table, ["math"]))


def test_pieces_within_a_chunk_are_scored_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _table()
    src = tmp_path / "in.parquet"
    table.write_parquet(src)
    seen = _record_math_batches(monkeypatch)
    score = engines.chunk_scorer(
        [xf.get_evaluator("math")], xf.Columns(), all_rows=False, row_id="row_id", piece_rows=400
    )
    out = score(table, 5_000)
    assert max(seen) <= 400 and sum(seen) == ROWS
    assert out["row_id"].to_list() == list(range(5_000, 5_000 + ROWS))
    assert_frame_equal(out.drop("row_id"), xf.score(table, ["math"]))
