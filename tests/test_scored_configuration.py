"""The scored file records each evaluator's configuration and reports use it: options change
corpus metrics (BLEU weights against NLTK's corpus_bleu), a bare table refuses to guess, Arrow
tables and ``write_scored`` carry the configuration, every built-in round-trips through metadata."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

import xpert_frames as xf
from tests.test_cli import run
from xpert_frames import provenance

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


@pytest.mark.slow
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


@pytest.mark.slow
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
