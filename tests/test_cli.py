"""The real console script, in a subprocess, on generated files: every row and column kept,
reports in every format, chunked runs equal to one pass, JSONL values read per line, CSV empty
predictions skipped, the output file's mode following the umask."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal, assert_series_equal

import xpert_frames as xf
from xpert_frames.api import SAMPLE

SCRIPT = Path(sys.executable).parent / "xpert-frames"  # the installed console script
EXE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "xpert_frames.cli"]

pytestmark = pytest.mark.slow  # every test starts the console script


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*EXE, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_score_sample_keeps_rows_and_columns(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    rep = tmp_path / "report.json"
    proc = run(
        "score", str(SAMPLE), "-o", str(out), "-e", "fuzzy", "--by", "model", "--report", str(rep)
    )
    assert proc.returncode == 0, proc.stderr
    assert "start-up" in proc.stdout and "scoring" in proc.stdout
    source = pl.read_parquet(SAMPLE)
    scored = pl.read_parquet(out)
    outputs = ["fuzzy_score", "fuzzy_match", "fuzzy_applicable"]
    assert scored.columns == [*source.columns, "row_id", *outputs]
    assert_frame_equal(scored.select(source.columns), source)
    assert scored["row_id"].to_list() == list(range(source.height))
    report = json.loads(rep.read_text())["report"]
    counts = {
        r["model"]: r["count"] + r["skipped"] + r["not_applicable"]
        for r in report
        if r["metric"] == "fuzzy"
    }
    assert counts == dict(source.group_by("model").len().iter_rows())


def test_report_command_formats(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    assert run("score", str(SAMPLE), "-o", str(out), "-e", "fuzzy", "-q").returncode == 0
    for fmt in ("table", "markdown", "json", "csv"):
        long = ["--long"] if fmt == "table" else []  # the table's default is the summary
        proc = run("report", str(out), "--by", "model", "--format", fmt, *long)
        assert proc.returncode == 0, proc.stderr
        assert "fuzzy_match_rate" in proc.stdout


def test_evaluators_lists_registry() -> None:
    proc = run("evaluators")
    assert proc.returncode == 0
    assert "fuzzy:" in proc.stdout and "    threshold=0.6 (float)\n" in proc.stdout
    assert "scores rows with a tcm_eval_type" in proc.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-e", "fuzy"], "Did you mean 'fuzzy'"),
        (["-e", "fuzzy:treshold=0.5"], "Did you mean 'threshold'"),
        (["-e", "fuzzy:threshold=2"], "must be in [0.0, 1.0]"),
        (["-e", "fuzzy", "--prediction", "respons"], "not found"),
    ],
)
def test_usage_errors_exit_2_without_output(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "scored.parquet"
    proc = run("score", str(SAMPLE), "-o", str(out), *args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_failed_run_leaves_existing_output_untouched(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    out.write_bytes(b"previous result")
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 this is not parquet")
    proc = run("score", str(bad), "-o", str(out), "-e", "fuzzy")
    assert proc.returncode == 2 and "cannot read Parquet" in proc.stderr
    assert out.read_bytes() == b"previous result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.parquet", "scored.parquet"]


def test_chunked_scoring_equals_one_pass(tmp_path: Path) -> None:
    one = tmp_path / "one.parquet"
    many = tmp_path / "many.parquet"
    args = ["-e", "accuracy", "-e", "fuzzy", "-e", "math", "-q"]
    assert run("score", str(SAMPLE), "-o", str(one), "--chunk-rows", "1000", *args).returncode == 0
    assert run("score", str(SAMPLE), "-o", str(many), "--chunk-rows", "50", *args).returncode == 0
    assert_frame_equal(pl.read_parquet(one), pl.read_parquet(many))
    assert pl.read_parquet(many)["row_id"].to_list() == list(range(pl.read_parquet(SAMPLE).height))
    import pyarrow.parquet as pq

    rows = pl.read_parquet(SAMPLE).height
    assert pq.ParquetFile(many).metadata.num_row_groups == -(-rows // 50)  # one per chunk


def test_bleu_signature_is_printed_with_reports(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    rep = tmp_path / "report.json"
    proc = run("score", str(SAMPLE), "-o", str(out), "-e", "bleu", "--report", str(rep))
    assert proc.returncode == 0, proc.stderr
    signature = json.loads(rep.read_text())["signatures"]["bleu"]
    assert signature.startswith("bleu|nrefs:var|lang:auto|tok:en=nltk-")
    # wrapped at "|" to fit the terminal: the continuation lines join back into the signature
    assert f"bleu signature: {signature}\n" in proc.stdout.replace("\n    ", "")
    md = run("report", str(out), "--format", "markdown")
    assert "corpus_bleu" in md.stdout and "`bleu|" in md.stdout


def test_chunked_report_equals_whole_report(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    rep = tmp_path / "report.json"
    args = ["-e", "fuzzy", "-e", "bleu", "--by", "model", "--chunk-rows", "40", "-q"]
    assert run("score", str(SAMPLE), "-o", str(out), "--report", str(rep), *args).returncode == 0
    import xpert_frames as xf

    whole = xf.report(
        pl.read_parquet(out),
        by="model",
        evaluators=[xf.get_evaluator("fuzzy"), xf.get_evaluator("bleu")],
    )
    chunked = pl.DataFrame(json.loads(rep.read_text())["report"], schema=whole.schema)
    assert_frame_equal(chunked, whole, check_exact=False, rel_tol=1e-12)


def test_jsonl_lists_and_scalars_read_per_line(tmp_path: Path) -> None:
    rows = [
        {"prediction": "the cat", "answer": ["the cat", "a cat"]},
        {"prediction": "the dog", "answer": "the dog"},
        {"prediction": "7", "answer": 7},
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.parquet"
    proc = run("score", str(src), "-o", str(out), "-e", "bleu", "-q")
    assert proc.returncode == 0, proc.stderr
    scored = pl.read_parquet(out)
    assert scored["answer"].to_list() == [["the cat", "a cat"], ["the dog"], ["7"]]
    same = xf.score(scored.select("prediction", "answer"), "bleu")["bleu_score"]
    assert_series_equal(scored["bleu_score"], same)  # scored with the per-line references


def test_cli_csv_empty_prediction_is_skipped_and_output_mode(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("prediction,answer\n,a\na,a\n")
    out = tmp_path / "out.parquet"
    assert run("score", str(src), "-o", str(out), "-e", "fuzzy", "-q").returncode == 0
    assert pl.read_parquet(out)["fuzzy_score"].to_list() == [None, 1.0]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
