"""Errors are public: one hierarchy under ``XpertFramesError`` in ``xpert_frames.exceptions``,
each also a builtin, each documented; package code raises no bare ``ValueError`` /
``TypeError`` / ``KeyError`` for user input (checked on the sources' syntax trees)."""

from __future__ import annotations

import ast
import inspect
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

import xpert_frames as xf
from xpert_frames import exceptions
from xpert_frames.core import exceptions as core_exceptions

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "xpert_frames"
BARE = {"ValueError", "TypeError", "KeyError", "IndexError", "LookupError"}
#: Bare builtin raises that are not about user input, per file: internal invariants of the
#: matchers and screens (built from tables the package ships or has checked) and of the
#: distinct-key helper.
ALLOWED = {
    "xpert_frames/core/distinct.py": 1,  # key_hash called with no or too many key columns
    "xpert_frames/evaluators/tcm/matching.py": 3,  # a term table the loaders already checked
    "xpert_frames/reading/numeric/screens.py": 1,  # a screen pattern the Polars twin cannot expand
    "xpert_frames/reading/rules.py": 2,  # a rule table with duplicate names or priorities
}


def errors_defined() -> set[str]:
    return {
        name
        for name, obj in vars(core_exceptions).items()
        if inspect.isclass(obj) and issubclass(obj, core_exceptions.XpertFramesError)
    }


def test_every_error_is_public_and_documented() -> None:
    assert errors_defined() == set(exceptions.__all__)
    assert xf.exceptions is exceptions
    page = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    for name in exceptions.__all__:
        cls = getattr(exceptions, name)
        assert cls is getattr(core_exceptions, name)
        assert issubclass(cls, exceptions.XpertFramesError)
        if name != "XpertFramesError":
            assert f"| `{name}` |" in page, f"{name} is not in the table of docs/errors.md"
            assert issubclass(cls, ValueError | TypeError | KeyError), name


def bare_raises(source: str, name: str) -> list[str]:
    """``name:line: raise X`` for each ``raise X`` / ``raise X(...)`` of a builtin in BARE."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if not isinstance(node, ast.Raise) or node.exc is None:
            continue
        target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if isinstance(target, ast.Name) and target.id in BARE:
            found.append(f"{name}:{node.lineno}: raise {target.id}")
    return found


def test_package_code_raises_no_bare_builtin_errors() -> None:
    found = [
        hit
        for path in sorted(PACKAGE.rglob("*.py"))
        for hit in bare_raises(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    ]
    per_file = Counter(hit.split(":")[0] for hit in found)
    new = [hit for hit in found if per_file[hit.split(":")[0]] > ALLOWED.get(hit.split(":")[0], 0)]
    assert new == [], (
        "raise an error of xpert_frames.core.exceptions (a subclass of XpertFramesError and of "
        "the builtin) instead:\n" + "\n".join(new)
    )


def test_the_check_sees_bare_raises_and_not_ours() -> None:
    source = (
        "def f(x):\n"
        "    if x == 1:\n"
        "        raise ValueError('no')\n"
        "    if x == 2:\n"
        "        raise TypeError\n"
        "    if x == 3:\n"
        "        raise InvalidOptionError('fine')\n"
        "    raise RuntimeError('a bug')\n"
    )
    assert bare_raises(source, "probe.py") == [
        "probe.py:3: raise ValueError",
        "probe.py:5: raise TypeError",
    ]


@pytest.mark.parametrize(
    ("call", "error", "builtin"),
    [
        (
            lambda: xf.score(pl.DataFrame({"prediction": ["a"], "answer": ["a"]}), []),
            exceptions.EmptyInputError,
            ValueError,
        ),
        (lambda: xf.score([1, 2], "fuzzy"), exceptions.FrameTypeError, TypeError),
        (lambda: xf.register_evaluator("x", int), exceptions.EvaluatorTypeError, TypeError),
        (
            lambda: xf.score(
                pl.DataFrame({"prediction": ["a"], "answer": ["a"]}), "fuzzy", predicton="p"
            ),
            exceptions.OptionTypeError,
            TypeError,
        ),
    ],
    ids=["no-evaluators", "not-a-table", "not-an-evaluator", "unknown-column-role"],
)
def test_user_errors_are_xpert_frames_errors(call, error, builtin) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, builtin) and isinstance(info.value, exceptions.XpertFramesError)
