"""A broken evaluator plugin is reported and skipped, never the end of the program.

A plugin that raises ``SystemExit`` (or any exception but ``KeyboardInterrupt``) on import, or
whose class has facts listings cannot read, gives a warning naming it; the built-ins and the
commands ``evaluators``, ``score`` and ``report`` go on. A plugin named like a built-in is
not loaded: a warning names both classes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import xpert_frames as xf
from xpert_frames import registry
from xpert_frames.evaluators.fuzzy import FuzzyEvaluator

BAD_FACTS = """
from xpert_frames.evaluators.fuzzy import FuzzyEvaluator

class Bad(FuzzyEvaluator):
    score_range = "abc"
    answer_types = 5
"""


class EP:
    name = "exiter"
    value = "exiter_mod:X"

    def load(self) -> type:
        raise SystemExit(3)


class BadFacts(FuzzyEvaluator):
    """Facts a listing cannot read."""

    score_range = "abc"  # type: ignore[assignment]


class BadFactsEP(EP):
    name = "badfacts"
    value = "tests.test_plugin_loading:BadFacts"

    def load(self) -> type:
        return BadFacts


class Good(FuzzyEvaluator):
    """A working plugin."""


class GoodEP(EP):
    name = "good_plugin"
    value = "tests.test_plugin_loading:Good"

    def load(self) -> type:
        return Good


def test_systemexit_and_bad_facts_are_warnings_naming_the_plugin(
    monkeypatch: pytest.MonkeyPatch, clean_registry: None
) -> None:
    monkeypatch.setattr(registry, "entry_points", lambda group: [EP(), BadFactsEP(), GoodEP()])
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = xf.list_evaluators()
    messages = [str(w.message) for w in caught]
    assert any("'exiter'" in m and "SystemExit" in m for m in messages), messages
    assert any("'badfacts'" in m and "score_range" in m for m in messages), messages
    assert {"fuzzy", "bleu", "good_plugin"} <= set(names)
    assert "exiter" not in names and "badfacts" not in names


def test_keyboard_interrupt_in_a_plugin_is_not_swallowed(
    monkeypatch: pytest.MonkeyPatch, clean_registry: None
) -> None:
    class Interrupted(EP):
        def load(self) -> type:
            raise KeyboardInterrupt

    monkeypatch.setattr(registry, "entry_points", lambda group: [Interrupted()])
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    with pytest.raises(KeyboardInterrupt):
        xf.list_evaluators()


def test_register_evaluator_refuses_unreadable_facts(clean_registry: None) -> None:
    with pytest.raises(TypeError, match="score_range must be two numbers"):
        xf.register_evaluator("bad", BadFacts)


@pytest.fixture
def broken_plugins(tmp_path: Path) -> dict[str, str]:
    """An installed distribution (a dist-info on PYTHONPATH) with two broken plugins."""
    dist = tmp_path / "plugins" / "fakeplug-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeplug\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[xpert_frames.evaluators]\nexiter = exiter_mod:X\nbadfacts = badfacts_mod:Bad\n"
    )
    (dist.parent / "exiter_mod.py").write_text("raise SystemExit(3)\n")
    (dist.parent / "badfacts_mod.py").write_text(BAD_FACTS)
    path = os.pathsep.join([str(dist.parent), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path}


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xpert_frames.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.mark.slow
def test_commands_go_on_past_broken_plugins(tmp_path: Path, broken_plugins: dict[str, str]) -> None:
    listing = cli(broken_plugins, "evaluators")
    assert listing.returncode == 0, listing.stderr
    assert "fuzzy:" in listing.stdout and "bleu:" in listing.stdout
    for plugin in ("exiter", "badfacts"):
        assert f"warning: broken evaluator plugin {plugin!r}" in listing.stderr, listing.stderr
    src = tmp_path / "in.jsonl"
    src.write_text('{"prediction": "a", "answer": "a"}\n')
    out = tmp_path / "out.parquet"
    scored = cli(broken_plugins, "score", str(src), "-o", str(out), "-e", "fuzzy")
    assert scored.returncode == 0 and out.exists(), scored.stderr
    # An unknown name loads the plugins: the error names the evaluator, not a silent exit 3.
    unknown = cli(broken_plugins, "score", str(src), "-o", str(out), "-e", "fuzy")
    assert unknown.returncode == 2 and "Did you mean 'fuzzy'" in unknown.stderr, unknown.stderr
    assert "broken evaluator plugin 'exiter'" in unknown.stderr
    report = cli(broken_plugins, "report", str(out), "--format", "json")
    assert report.returncode == 0 and '"fuzzy"' in report.stdout, report.stderr


def test_plugin_named_like_a_builtin_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    class EP:
        name = "fuzzy"
        value = "other_pkg.evals:Fuzzy"

        def load(self) -> type:
            raise AssertionError("a colliding plugin is not loaded")

    monkeypatch.setattr(registry, "entry_points", lambda group: [EP()])
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        registry.records()
    messages = [str(w.message) for w in caught]
    assert any(
        "other_pkg.evals:Fuzzy" in m and "FuzzyEvaluator" in m and "'fuzzy'" in m for m in messages
    ), messages
