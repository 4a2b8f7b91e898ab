"""Every registered evaluator class documents itself: its numpydoc ``Parameters`` section names
each keyword of ``__init__`` in order, with the signature's default, and an ``Examples`` section
(run as a doctest) shows it scoring a table."""

from __future__ import annotations

import ast
import inspect
import re

import pytest

from xpert_frames import registry

PARAMETER = re.compile(r"^(\w+) : (.+)$")


def documented(cls: type) -> dict[str, str]:
    """The ``Parameters`` section of the class docstring: name -> the text after ``:``."""
    doc = inspect.cleandoc(cls.__doc__ or "")
    assert "\nParameters\n----------\n" in doc, f"{cls.__name__} has no Parameters section"
    section = doc.split("\nParameters\n----------\n", 1)[1]
    section = re.split(r"\n\n\w[\w ]*\n-+\n", section, maxsplit=1)[0]
    found = {}
    for line in section.splitlines():
        match = PARAMETER.match(line)  # a name line is not indented
        if match:
            found[match.group(1)] = match.group(2)
    return found


def builtin_classes() -> list[type]:
    return [r.cls for r in registry.records() if r.cls.__module__.startswith("xpert_frames.")]


def test_every_builtin_is_checked() -> None:
    names = {cls.__name__ for cls in builtin_classes()}
    assert {
        "AccuracyEvaluator",
        "BLEUEvaluator",
        "FuzzyEvaluator",
        "MathEvaluator",
        "TcmDiagnosisEvaluator",
    } <= names


@pytest.mark.parametrize("cls", builtin_classes(), ids=lambda c: c.__name__)
def test_parameters_match_the_signature(cls: type) -> None:
    params = [
        p
        for p in inspect.signature(cls.__init__).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    docs = documented(cls)
    assert list(docs) == [p.name for p in params]
    for p in params:
        text = docs[p.name]
        if p.default is None:
            assert text.endswith(", optional"), (p.name, text)
            continue
        match = re.search(r", default (.+)$", text)
        assert match, f"{cls.__name__}: {p.name} documents no default: {text!r}"
        assert ast.literal_eval(match.group(1)) == p.default, (p.name, text, p.default)


@pytest.mark.parametrize("cls", builtin_classes(), ids=lambda c: c.__name__)
def test_class_docstring_has_an_example(cls: type) -> None:
    doc = inspect.cleandoc(cls.__doc__ or "")
    assert "\nExamples\n--------\n>>> " in doc
    assert f"xf.{cls.__name__}(" in doc
