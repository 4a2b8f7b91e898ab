"""Issue 15 through the real console script: configuration in the scored file, nothing the
user owns overwritten, signals clean up, the scored file kept when the report fails."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

import xpert_frames as xf
from tests.test_cli import EXE, run
from xpert_frames import provenance
from xpert_frames.cli import main as cli

# NLTK's corpus_bleu doctest.
HYP1 = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
REF1 = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the "
    "command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]
HYP2 = "he read the book because he was interested in world history"
REF2 = ["he was interested in world history because he read the book"]


def nltk_corpus(weights: tuple[float, ...]) -> float:
    refs = [[r.split() for r in REF1], [r.split() for r in REF2]]
    hyps = [HYP1.split(), HYP2.split()]
    return corpus_bleu(refs, hyps, weights=weights, smoothing_function=SmoothingFunction().method1)


def doctest_input(tmp_path: Path) -> Path:
    src = tmp_path / "in.jsonl"
    rows = [{"prediction": HYP1, "answer": REF1}, {"prediction": HYP2, "answer": REF2}]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return src


def corpus_from(report: dict) -> float:
    return next(r["score"] for r in report["report"] if r["metric"] == "corpus_bleu")


@pytest.mark.parametrize(
    ("spec", "weights"),
    [("bleu:weights=0.1|0.3|0.5|0.1", (0.1, 0.3, 0.5, 0.1)), ("bleu:n_gram=2", (0.5, 0.5))],
)
def test_scored_file_records_options_and_reports_use_them(
    tmp_path: Path, spec: str, weights: tuple[float, ...]
) -> None:
    out = tmp_path / "out.parquet"
    proc = run("score", str(doctest_input(tmp_path)), "-o", str(out), "-e", spec, "-q")
    assert proc.returncode == 0, proc.stderr
    entry = json.loads(pl.read_parquet_metadata(out)[provenance.METADATA_KEY])[0]
    assert entry["name"] == "bleu" and entry["class"].endswith(":BLEUEvaluator")
    assert tuple(entry["options"]["weights"]) == weights
    assert entry["version"] and entry["signature"].startswith("bleu|")
    expected = nltk_corpus(weights)
    proc = run("report", str(out), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert corpus_from(json.loads(proc.stdout)) == pytest.approx(expected, abs=1e-12)
    api = xf.report(out).filter(pl.col("metric") == "corpus_bleu")["score"].item()
    assert api == pytest.approx(expected, abs=1e-12)
    if weights == (0.1, 0.3, 0.5, 0.1):
        # NLTK's doctest prints 0.5818 (NLTK 3.10 computes 0.58188); uniform weights: 0.5921
        assert api == pytest.approx(0.5818, abs=1e-4)


def test_bare_table_refuses_option_dependent_metrics(tmp_path: Path) -> None:
    ev = xf.get_evaluator("bleu", weights=(0.1, 0.3, 0.5, 0.1))
    scored = xf.score(pl.DataFrame({"prediction": [HYP2], "answer": [REF2[0]]}), ev)
    with pytest.raises(provenance.ConfigurationError, match="evaluators="):
        xf.report(scored)
    assert xf.report(scored, evaluators=[ev])["metric"].to_list() == ["bleu", "corpus_bleu"]
    # A scored JSONL file records nothing: the CLI refuses too, with exit 2.
    path = tmp_path / "scored.jsonl"
    scored.write_ndjson(path)
    proc = run("report", str(path))
    assert proc.returncode == 2 and "evaluators=" in proc.stderr and "Traceback" not in proc.stderr


def test_arrow_tables_and_write_scored_carry_the_configuration(tmp_path: Path) -> None:
    ev = xf.get_evaluator("bleu", weights=(0.1, 0.3, 0.5, 0.1))
    table = pa.table({"prediction": [HYP1, HYP2], "answer": [REF1, REF2]})
    scored = xf.score(table, ev)
    expected = nltk_corpus((0.1, 0.3, 0.5, 0.1))
    got = xf.report(scored).filter(pl.col("metric") == "corpus_bleu")["score"].item()
    assert got == pytest.approx(expected, abs=1e-12)
    path = xf.write_scored(pl.from_arrow(scored), tmp_path / "s.parquet", [ev])
    assert provenance.read_evaluators([path]) == [ev]
    assert xf.report(path).filter(pl.col("metric") == "corpus_bleu")["score"].item() == got


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


def test_every_builtin_round_trips_through_metadata() -> None:
    evs = [
        xf.get_evaluator("accuracy", numeric_tolerance=0.01),
        xf.get_evaluator("bleu", n_gram=3, smoothing=False, name="b3"),
        xf.get_evaluator("math", extract="first"),
        xf.get_evaluator("fuzzy", threshold=0.8, normalize=["case", "width"], aliases={"a": "b"}),
        xf.get_evaluator("tcm_diagnosis", terms={"气虚": ["气不足"]}),
        xf.get_evaluator("tcm_diagnosis", terms="seed", name="tcm_seed"),
    ]
    rebuilt = provenance.from_metadata(provenance.metadata(evs))
    assert rebuilt is not None
    assert [repr(e) for e in rebuilt] == [repr(e) for e in evs]


# --------------------------------------------------------------------------- nothing overwritten
def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() if p.exists() else b"" for p in sorted(directory.iterdir())}


@pytest.mark.parametrize(
    "case", ["output_is_input", "report_is_input", "report_is_output", "symlink", "csv_output"]
)
def test_refused_paths_touch_nothing(tmp_path: Path, case: str) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text('{"prediction": "a", "answer": "a"}\n')
    csv = tmp_path / "in.csv"
    csv.write_text("prediction,answer\na,a\n")
    (tmp_path / "link.jsonl").symlink_to(src)
    (tmp_path / "r.json").symlink_to(tmp_path / "o.parquet")  # dangling: o.parquet is not there
    before = snapshot(tmp_path)
    args = {
        "output_is_input": [str(src), "-o", str(src)],
        "report_is_input": [str(csv), "-o", str(tmp_path / "o.parquet"), "--report", str(csv)],
        # the two names differ only through a link; the extensions are checked too
        "report_is_output": [
            str(src),
            "-o",
            str(tmp_path / "o.parquet"),
            "--report",
            str(tmp_path / "r.json"),
        ],
        "symlink": [str(tmp_path / "link.jsonl"), "-o", str(src)],
        "csv_output": [str(src), "-o", str(tmp_path / "x.csv")],
    }[case]
    proc = run("score", *args, "-e", "fuzzy")
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "error" in proc.stderr.lower()
    assert snapshot(tmp_path) == before  # nothing written, nothing replaced, no temp file


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)]
)
def test_signals_remove_the_temp_file(tmp_path: Path, sig: signal.Signals, code: int) -> None:
    src = tmp_path / "in.parquet"
    n = 400_000
    pl.DataFrame(
        {"prediction": [f"answer number {i}" for i in range(n)], "answer": ["answer"] * n}
    ).write_parquet(src, row_group_size=5_000)
    out = tmp_path / "out.parquet"
    proc = subprocess.Popen(
        [*EXE, "score", str(src), "-o", str(out), "-e", "fuzzy", "--chunk-rows", "5000", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".out.parquet.*")) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    assert list(tmp_path.glob(".out.parquet.*")), "the run never started writing"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert not list(tmp_path.glob(".out.parquet.*")) and not out.exists()


def test_report_failure_keeps_the_scored_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text('{"prediction": "a", "answer": "a"}\n')
    out = tmp_path / "out.parquet"

    def broken(*args: object, **kwargs: object) -> pl.DataFrame:
        raise MemoryError("out of memory in the report")

    monkeypatch.setattr(cli, "report_parquet", broken)
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
