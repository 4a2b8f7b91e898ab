"""The documentation site builds without a warning, and its examples run as written.

The site (``mkdocs.yml``, ``docs/``) is built with ``mkdocs build --strict`` into a temporary
directory: a broken link, a page missing from the navigation, a docstring mkdocstrings cannot
read or a click command that no longer imports fails the build. Every fenced block marked
``<!-- runnable -->`` on a page runs as the README's do (``tests/test_readme.py``): pages in
navigation order, blocks in page order, each in a fresh process, in one temporary directory
holding ``answers/``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import xpert_frames as xf
from tests.test_readme import Block, blocks, examples_dir, run_block

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MKDOCS = Path(sys.executable).parent / "mkdocs"


def nav_pages() -> list[Path]:
    """The pages of ``mkdocs.yml``'s navigation, in order (read without a YAML parser: each
    navigation entry ends in ``.md``)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:") :]
    return [DOCS / name for name in re.findall(r":\s*(\S+\.md)\s*$", nav, re.M)]


PAGES = nav_pages()
RUNNABLE = [b for page in PAGES for b in blocks(page) if b.runnable]


def test_every_page_is_in_the_navigation() -> None:
    pages = {p for p in DOCS.rglob("*.md") if not p.name.startswith("_")}
    assert pages == set(PAGES)
    assert all(p.exists() for p in PAGES)


def test_the_pages_have_runnable_examples() -> None:
    assert len(RUNNABLE) >= 8
    assert {b.lang for b in RUNNABLE} == {"python", "bash"}


@pytest.mark.slow
@pytest.mark.skipif(not MKDOCS.exists(), reason="mkdocs is not installed (the docs extra)")
def test_site_builds_without_warnings(tmp_path: Path) -> None:
    site = tmp_path / "site"
    proc = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert "WARNING" not in proc.stderr, proc.stderr[-5000:]
    # Every public name of the package, and every public error, has its reference entry.
    ids = {
        anchor.rsplit(".", 1)[-1]
        for page in site.rglob("*.html")
        for anchor in re.findall(r'id="(xpert_frames\.[\w.]+)"', page.read_text(encoding="utf-8"))
    }
    from xpert_frames import exceptions

    public = set(xf.__all__) - {"__version__"}
    assert public - ids == set()
    assert set(exceptions.__all__) - ids == set()
    cli = (site / "cli.html").read_text(encoding="utf-8")
    assert "--by" in cli and "xpert-frames score" in cli  # generated from the click commands
    options = (site / "evaluators" / "fuzzy.html").read_text(encoding="utf-8")
    assert "threshold" in options and "aliases" in options  # from the class docstring
    # The site reads offline: no page loads a script, style or image from another host.
    loads = re.compile(r"""(?:\bsrc=|<link[^>]*\bhref=)["']https?://""")
    remote = [p.name for p in site.rglob("*.html") if loads.search(p.read_text(encoding="utf-8"))]
    assert remote == []
    shutil.rmtree(site)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return examples_dir(tmp_path_factory.mktemp("docs"))


@pytest.mark.slow
@pytest.mark.parametrize("block", RUNNABLE, ids=[b.id for b in RUNNABLE])
def test_runnable_block(block: Block, workdir: Path) -> None:
    run_block(block, workdir)
