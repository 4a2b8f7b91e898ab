"""A scored file is data: its recorded configuration never chooses code to run or a file to read.

Evaluators are rebuilt by registry name only; options are checked against the class's keyword
parameters before it is called; path-like text options are refused; the recorded signature must
match the rebuilt evaluator's; duplicates and every malformed configuration are a
``ConfigurationError`` (a ``ValueError``), exit 2 with one line from the CLI.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq
import pytest

import xpert_frames as xf
from xpert_frames import provenance
from xpert_frames.cli.main import main
from xpert_frames.core.exceptions import ConfigurationError

EVIL = """
import pathlib
pathlib.Path("{marker}").write_text("imported")
class X:
    pass
"""


def scored_file(tmp_path: Path, *evaluators: Any, name: str = "scored.parquet") -> Path:
    evs = list(evaluators) or [xf.get_evaluator("fuzzy")]
    frame = pl.DataFrame({"prediction": ["the cat sat", "a dog"], "answer": ["the cat sat", "dog"]})
    return xf.write_scored(xf.score(frame, evs), tmp_path / name, evs)


def entries_of(path: Path) -> list[dict[str, Any]]:
    return json.loads(pl.read_parquet_metadata(path)[provenance.METADATA_KEY])


def tamper(path: Path, raw: str | bytes) -> Path:
    """Rewrite ``path`` with ``raw`` as its recorded configuration."""
    table = pq.read_table(path)
    meta = dict(table.schema.metadata or {})
    meta[provenance.METADATA_KEY.encode()] = raw.encode() if isinstance(raw, str) else raw
    pq.write_table(table.replace_schema_metadata(meta), path)
    return path


def with_entries(path: Path, entries: list[Any]) -> Path:
    return tamper(path, json.dumps(entries))


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # ``python -m`` puts the working directory first on sys.path: the worst case.
    return subprocess.run(
        [sys.executable, "-m", "xpert_frames.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


# --------------------------------------------------------------------------- no code from data
@pytest.mark.slow
@pytest.mark.parametrize("registry_name", ["fuzzy", "evilmod", None])
def test_a_class_named_in_the_file_is_never_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, registry_name: str | None
) -> None:
    marker = tmp_path / "imported.txt"
    (tmp_path / "evilmod.py").write_text(EVIL.format(marker=marker.as_posix()))
    path = scored_file(tmp_path)
    entry = entries_of(path)[0]
    with_entries(path, [{**entry, "class": "evilmod:X", "registry": registry_name}])
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # a notebook's working directory is importable
    monkeypatch.delitem(sys.modules, "evilmod", raising=False)
    if registry_name == "fuzzy":  # the registry name decides; the class string is only a note
        assert xf.report(path)["metric"].to_list()[0] == "fuzzy"
    else:
        with pytest.raises(ConfigurationError, match="never imported") as err:
            xf.report(path)
        assert "evilmod" in str(err.value) or registry_name is None
    assert not marker.exists() and "evilmod" not in sys.modules
    # The CLI in this process (working directory first on sys.path), then in its own.
    assert main(["report", str(path)]) == (0 if registry_name == "fuzzy" else 2)
    assert not marker.exists() and "evilmod" not in sys.modules

    proc = cli("report", str(path), cwd=tmp_path)
    assert not marker.exists()
    if registry_name == "fuzzy":
        assert proc.returncode == 0, proc.stderr
    else:
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("target", ["this:X", "unittest.__main__:X", "antigravity:X"])
def test_standard_library_modules_named_in_the_file_do_not_run(tmp_path: Path, target: str) -> None:
    path = scored_file(tmp_path)
    entry = entries_of(path)[0]
    module = target.partition(":")[0].partition(".")[0]
    with_entries(path, [{**entry, "class": target, "registry": module}])
    proc = cli("report", str(path), cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Zen of Python" not in proc.stdout and "Beautiful is better" not in proc.stdout
    assert "not" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_a_term_table_path_from_the_file_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from xpert_frames.evaluators.tcm import terms

    secret = tmp_path / "secret.csv"
    secret.write_text("canonical,synonym\nTOP-SECRET,hidden\n")
    path = scored_file(tmp_path, xf.get_evaluator("tcm_diagnosis", terms="seed"))
    entry = entries_of(path)[0]

    def no_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("a table was read")

    monkeypatch.setattr(terms, "_read_csv", no_read)
    monkeypatch.setattr(pl, "read_parquet", no_read)
    for value in (str(secret), "secret.csv", "../x/terms.parquet", "~/t"):
        with_entries(path, [{**entry, "options": {**entry["options"], "terms": value}}])
        with pytest.raises(ConfigurationError, match="never name files") as err:
            xf.report(path)
        assert "TOP-SECRET" not in str(err.value) and "evaluators=" in str(err.value)
    monkeypatch.undo()
    with_entries(path, [{**entry, "options": {**entry["options"], "terms": str(secret)}}])
    proc = cli("report", str(path), cwd=tmp_path)
    assert proc.returncode == 2 and "TOP-SECRET" not in proc.stderr + proc.stdout


def test_options_are_checked_before_the_class_is_called(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from xpert_frames.evaluators.fuzzy import FuzzyEvaluator

    path = scored_file(tmp_path)
    entry = entries_of(path)[0]
    calls: list[dict[str, Any]] = []
    original = FuzzyEvaluator.__init__

    @functools.wraps(original)
    def spy(self: FuzzyEvaluator, **kwargs: Any) -> None:
        calls.append(kwargs)
        original(self, **kwargs)

    monkeypatch.setattr(FuzzyEvaluator, "__init__", spy)
    cases = {
        "threshold": ("high", "threshold.*float"),
        "normalize": ({"a": 1}, "normalize"),
        "aliases": (["x"], "aliases"),
        "no_such_option": (1, "has no option 'no_such_option'"),
    }
    for option, (value, message) in cases.items():
        with_entries(path, [{**entry, "options": {option: value}}])
        with pytest.raises(ConfigurationError, match=message):
            xf.report(path)
    assert calls == []
    with_entries(path, [{**entry, "options": {"threshold": 7.0}}])  # the right type, out of range
    with pytest.raises(ConfigurationError, match=r"cannot rebuild.*threshold"):
        xf.report(path)


def test_an_unknown_registry_name_is_refused_naming_it(tmp_path: Path) -> None:
    path = scored_file(tmp_path)
    with_entries(path, [{**entries_of(path)[0], "registry": "fuzzzy"}])
    with pytest.raises(ConfigurationError, match=r"'fuzzzy'.*Install the plugin"):
        xf.report(path)
    assert issubclass(ConfigurationError, ValueError)


# --------------------------------------------------------------------------- signatures
@pytest.mark.slow
def test_tampered_bleu_weights_are_refused_naming_both_signatures(tmp_path: Path) -> None:
    ev = xf.get_evaluator("bleu", weights=[0.1, 0.3, 0.5, 0.1])
    path = scored_file(tmp_path, ev)
    honest = xf.report(path).filter(pl.col("metric") == "corpus_bleu")["score"].item()
    entry = entries_of(path)[0]
    with_entries(path, [{**entry, "options": {**entry["options"], "weights": [1, 0, 0, 0]}}])
    with pytest.raises(ConfigurationError, match="does not match") as err:
        xf.report(path)
    assert "w:0.1,0.3,0.5,0.1" in str(err.value) and "w:1.0,0.0,0.0,0.0" in str(err.value)
    proc = cli("report", str(path), cwd=tmp_path)
    assert proc.returncode == 2 and "does not match" in proc.stderr and not proc.stdout
    # A forged signature with honest options is refused too.
    forged = entry["signature"].replace("smooth:method1", "smooth:none")
    with_entries(path, [{**entry, "signature": forged}])
    with pytest.raises(ConfigurationError, match="does not match"):
        xf.report(path)
    # Versions of the software named in the signature may differ between machines.
    other = entry["signature"].replace("version:xpert_frames-", "version:xpert_frames-9")
    other = other.replace("nltk-", "nltk-0.")
    with_entries(path, [{**entry, "signature": other}])
    assert xf.report(path).filter(pl.col("metric") == "corpus_bleu")["score"].item() == honest


def test_duplicate_entries_are_refused(tmp_path: Path) -> None:
    path = scored_file(tmp_path)
    entry = entries_of(path)[0]
    with_entries(path, [entry, entry])
    with pytest.raises(ConfigurationError, match="'fuzzy' is recorded twice"):
        xf.report(path)


def test_an_evaluator_registered_under_another_name_round_trips(
    tmp_path: Path, clean_registry: None
) -> None:
    from xpert_frames.evaluators.fuzzy import FuzzyEvaluator

    class Strict(FuzzyEvaluator):
        """Fuzzy with another default name."""

    xf.register_evaluator("strict_fuzzy", Strict)
    ev = xf.get_evaluator("strict_fuzzy", threshold=0.9)
    path = scored_file(tmp_path, ev)
    assert entries_of(path)[0]["registry"] == "strict_fuzzy"
    assert provenance.read_evaluators([path]) == [ev]


# --------------------------------------------------------------------------- malformed
def _entry() -> dict[str, Any]:
    return provenance.describe(xf.get_evaluator("fuzzy"))


MALFORMED: dict[str, tuple[Any, str]] = {
    "not JSON": ("{nope", "not valid JSON"),
    "not a list": ('{"name": "fuzzy"}', "expected a JSON list"),
    "entry not an object": ('["fuzzy"]', "expected a JSON object"),
    "NaN": ('[{"options": {"threshold": NaN}}]', "NaN is not a JSON value"),
    "deeply nested": ("[" * 100_000 + "]" * 100_000, "nested more deeply"),
    "nested past the bound": ("[" * 9 + "]" * 9, "nested more deeply"),
    "invalid UTF-8": (b'[{"name": "\xff"}]', "unreadable key-value metadata"),
    "missing field": ([{"name": "fuzzy", "options": {}}], "missing"),
    "unknown field": ([{**_entry(), "code": "x"}], "unknown"),
    "options not an object": ([{**_entry(), "options": [1]}], "'options' must be dict"),
    "name not text": ([{**_entry(), "name": 3}], "'name' must be str"),
    "registry not text": ([{**_entry(), "registry": ["fuzzy"]}], "'registry' must be str"),
    "empty name": ([{**_entry(), "name": ""}], "1 to 200 characters"),
    "huge name": ([{**_entry(), "name": "x" * 10_000}], "1 to 200 characters"),
    "bad name": ([{**_entry(), "name": "__x"}], "cannot rebuild"),
    "too many": ([{**_entry(), "name": f"f{i}"} for i in range(65)], "more than the 64"),
    "bad term table": (
        [
            {
                **provenance.describe(xf.get_evaluator("tcm_diagnosis")),
                "options": {"terms": {"__xf_type__": "TermTable", "rows": [[1, 2]]}},
            }
        ],
        "recorded term table",
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_configurations_are_configuration_errors(tmp_path: Path, case: str) -> None:
    raw, message = MALFORMED[case]
    path = scored_file(tmp_path)
    if isinstance(raw, list):
        with_entries(path, raw)
    else:
        tamper(path, raw)
    with pytest.raises(ConfigurationError, match=message):
        xf.report(path)
    code = main(["report", str(path)])
    assert code == 2


def test_the_size_bound_is_stated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = scored_file(tmp_path)
    monkeypatch.setattr(provenance.rebuild, "MAX_CHARS", 100)
    with pytest.raises(ConfigurationError, match="more than the 100 a configuration may have"):
        xf.report(path)


@pytest.mark.slow
def test_the_cli_error_is_one_line(tmp_path: Path) -> None:
    path = with_entries(scored_file(tmp_path), [{**_entry(), "options": {"threshold": "x" * 5000}}])
    proc = cli("report", str(path), cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and len(lines[0]) < 1000, lines


def test_an_arrow_table_with_invalid_utf8_metadata_is_a_configuration_error() -> None:
    ev = xf.get_evaluator("fuzzy")
    table = xf.score(pl.DataFrame({"prediction": ["a"], "answer": ["a"]}).to_arrow(), ev)
    meta = {provenance.METADATA_KEY.encode(): b'[{"name": "\xff"}]'}
    with pytest.raises(ConfigurationError, match="not valid JSON"):
        xf.report(table.replace_schema_metadata(meta))
