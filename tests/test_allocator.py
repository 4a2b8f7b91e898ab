"""Polars' allocator setting for batch jobs (``xpert_frames.core.allocator``): set before Polars
is imported, never over the user's own, and by the console script's package."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from xpert_frames.core import allocator

PROBE = (
    "import os, sys; import {module}; from xpert_frames.core.allocator import ENV; "
    "import polars; print(repr(os.environ.get(ENV)), 'polars' in sys.modules)"
)


def run(module: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != allocator.ENV}
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_too_late_once_polars_is_imported() -> None:
    assert "polars" in sys.modules  # the suite has imported it
    before = os.environ.get(allocator.ENV)
    assert allocator.prefer_throughput() is False
    assert os.environ.get(allocator.ENV) == before


@pytest.mark.slow
def test_the_console_script_sets_it_before_polars() -> None:
    # Polars puts what it finds after its own setting (later options win in jemalloc).
    assert run("xpert_frames.cli").endswith(f",{allocator.THROUGHPUT_CONF}' True")


@pytest.mark.slow
def test_the_users_setting_stands() -> None:
    out = run("xpert_frames.cli", _RJEM_MALLOC_CONF="narenas:2")
    assert out.endswith(",narenas:2' True"), out
    assert allocator.THROUGHPUT_CONF not in out


@pytest.mark.slow
def test_importing_the_package_changes_nothing() -> None:
    out = run("xpert_frames")
    assert allocator.THROUGHPUT_CONF not in out and out.endswith(" True"), out  # Polars' own
