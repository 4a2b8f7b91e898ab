"""Fixtures shared by several test modules, and a suite that leaves nothing in the temporary
directory: every test writes under its ``tmp_path`` (removed at the end of a passing session,
``tmp_path_retention_policy`` in pyproject.toml), Ray's session files go to a private directory
removed at the end, and jieba's dictionary cache (the oracles call ``jieba.lcut``) goes to the
package's per-user cache directory instead of the temporary directory."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import helpers
from xpert_frames import registry

#: Ray writes sessions, sockets and logs under ``$RAY_TMPDIR/ray`` (default ``/tmp/ray``): the
#: suite's own short directory (socket paths must stay under 107 bytes), inherited by the CLI
#: subprocesses that run ``--engine ray``.
_RAY_TMP = tempfile.mkdtemp(prefix="xf-ray-")
os.environ.setdefault("RAY_TMPDIR", _RAY_TMP)


def pytest_configure(config: pytest.Config) -> None:
    import jieba

    from xpert_frames.tokens.zh import cache_dir

    jieba.dt.tmp_dir = str(cache_dir())  # not jieba's default, the temporary directory
    # The quick loop draws fewer hypothesis examples in the costly property tests.
    helpers.QUICK = "not slow" in (config.getoption("markexpr", "") or "")


#: The test files that take longest (Ray in local mode, the big oracle sets, the benchmark smoke
#: run, the sdist and wheel builds, the linters), longest first: they start first, so that on
#: pytest-xdist workers (``--dist loadfile``) the short files fill the other worker meanwhile
#: and no worker is left alone with a long file at the end. Each file keeps its own order.
LONGEST_FIRST = (
    "test_ray.py",
    "test_math_labelled_sets.py",
    "test_math_peer_suite_cases.py",
    "test_benchmarks.py",
    "test_packaging.py",
    "test_static.py",
    "test_exact_integers.py",
    "test_scoring_plans.py",
    "test_accuracy_properties.py",
    "test_tokenize.py",
    "test_cli_messages.py",
    "test_fuzzy_kernel.py",
    "test_accuracy_text_properties.py",
    "test_scoring_plans_ray.py",
    "test_several_answers.py",
    "test_applicability.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: others as found


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    shutil.rmtree(_RAY_TMP, ignore_errors=True)
    # pytest's own root (pytest-of-<user>) stays behind empty once its numbered directories
    # are removed; it is removed too when nothing else (another session) is in it.
    factory = getattr(session.config, "_tmp_path_factory", None)
    base = getattr(factory, "_basetemp", None)
    if base is not None and not Path(base).exists():
        with contextlib.suppress(OSError):
            Path(base).parent.rmdir()


@pytest.fixture
def clean_registry() -> Iterator[None]:
    """Whatever a test registers is gone afterwards."""
    saved = dict(registry._REGISTRY)
    yield
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved)
