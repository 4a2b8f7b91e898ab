"""Files are written atomically (a temp file, then a rename): a failed write leaves what was
there and no temp file, the new file's mode follows the umask (without changing it), and a
report that fails after scoring keeps the scored file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import polars as pl
import pytest

import xpert_frames as xf
from xpert_frames.cli import files as io
from xpert_frames.cli import main as cli
from xpert_frames.cli import score_command


def test_write_scored_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ev = xf.get_evaluator("fuzzy")
    first = xf.score(pl.DataFrame({"prediction": ["ab"], "answer": ["ab"]}), ev)
    path = xf.write_scored(first, tmp_path / "s.parquet", [ev])
    before = path.read_bytes()
    # A failure inside Polars' writer (an Object column has no Parquet type).
    bad = first.with_columns(pl.Series("obj", [object()], dtype=pl.Object))
    with pytest.raises(Exception):  # noqa: B017 - whatever Polars raises
        xf.write_scored(bad, path, [ev])
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.parquet"]

    # A failure after part of the file is written: the partial bytes never reach ``path``.
    def half_then_fail(self: pl.DataFrame, file: Path, **kwargs: object) -> None:
        Path(file).write_bytes(b"PAR1 partial")
        raise OSError("disk full")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", half_then_fail)
    with pytest.raises(OSError, match="disk full"):
        xf.write_scored(first, path, [ev])
    with pytest.raises(OSError, match="disk full"):
        xf.write_scored(first, tmp_path / "new.parquet", [ev])
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.parquet"]
    monkeypatch.undo()
    assert pl.read_parquet(path).equals(first)


def test_write_atomic_leaves_the_umask_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    current = os.umask(0o022)
    os.umask(current)

    def no_umask(mask: int) -> int:
        raise AssertionError("os.umask called: it changes the mask of every thread")

    monkeypatch.setattr(os, "umask", no_umask)
    target = io.write_text_atomic(tmp_path / "x.txt", "hi")
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~current


def test_report_failure_keeps_the_scored_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text('{"prediction": "a", "answer": "a"}\n')
    out = tmp_path / "out.parquet"

    def broken(*args: object, **kwargs: object) -> pl.DataFrame:
        raise MemoryError("out of memory in the report")

    monkeypatch.setattr(score_command, "report_parquet", broken)
    code = cli.main(
        [
            "score",
            str(src),
            "-o",
            str(out),
            "-e",
            "fuzzy",
            "-q",
            "--report",
            str(tmp_path / "r.json"),
        ]
    )
    assert code == 2
    assert pl.read_parquet(out)["fuzzy_score"].to_list() == [1.0]
    err = capsys.readouterr().err
    assert str(out) in err and "report failed" in err
