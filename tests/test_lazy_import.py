"""The lazy top-level packages (PEP 562): ``import xpert_frames`` imports no Polars, every public
name still resolves (attribute, ``from`` import, ``dir``), and the names type checkers see (the
``TYPE_CHECKING`` imports) are the names served at run time."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import xpert_frames
import xpert_frames.evaluators

PACKAGES = [xpert_frames, xpert_frames.evaluators]


def _fresh(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


@pytest.mark.slow
def test_import_loads_no_polars_and_first_use_works() -> None:
    out = _fresh(
        "import sys, xpert_frames as xf\n"
        "print(sorted(m for m in ('polars', 'numpy', 'pyarrow', 'rapidfuzz', 'jieba', 'nltk',"
        " 'ray') if m in sys.modules))\n"
        "from xpert_frames import score, FuzzyEvaluator\n"
        "import polars as pl\n"
        "df = score(pl.DataFrame({'prediction': ['Paris'], 'answer': ['Paris']}), 'fuzzy')\n"
        "print(df['fuzzy_score'][0], isinstance(xf.get_evaluator('fuzzy'), FuzzyEvaluator))\n"
        "print('xpert_frames.evaluators.accuracy' in sys.modules)"
    )
    assert out.splitlines() == ["[]", "1.0 True", "False"]


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_type_checking_imports_are_the_lazy_names(package) -> None:
    tree = ast.parse(Path(package.__file__).read_text(encoding="utf-8"))
    guarded = next(
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    )
    seen = {
        alias.name: node.module
        for node in guarded.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen == package._SOURCES
    assert set(package.__all__) - {"__version__"} == set(package._SOURCES)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_every_public_name_resolves_to_its_definition(package) -> None:
    for name, source in package._SOURCES.items():
        assert getattr(package, name) is getattr(importlib.import_module(source), name)
    assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        package.nope  # noqa: B018


@pytest.mark.slow
def test_subpackages_stay_reachable_as_attributes() -> None:
    out = _fresh("import xpert_frames as xf; print(xf.registry.__name__, xf.reporting.__name__)")
    assert out == "xpert_frames.registry xpert_frames.reporting"
