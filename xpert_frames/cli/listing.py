"""``xpert-frames evaluators``: the registry, one block per evaluator."""

from __future__ import annotations

import inspect
import json
import textwrap
import warnings
from collections.abc import Iterator
from typing import Any

from xpert_frames import registry


def evaluator_lines(width: int = 100) -> Iterator[str]:
    """Name and class, the whole description (wrapped at ``width``), answer types, score range
    and metric, the rows it scores under an answer_type column, and each option's default."""
    for record in registry.records():
        try:
            lines = list(_record_lines(record, width))
        except Exception as exc:  # facts a listing cannot read: say so, list the others
            warnings.warn(
                f"evaluator {record.name!r} cannot be listed: {type(exc).__name__}: {exc}",
                stacklevel=2,
            )
            continue
        yield from lines


def _record_lines(record: registry.EvaluatorRecord, width: int) -> Iterator[str]:
    """One evaluator's block of lines."""
    lo, hi = record.score_range
    types = ", ".join(record.answer_types) or "any"
    cls = record.cls
    where = (
        record.target.replace(":", ".")  # the public import path of a built-in
        if isinstance(record.target, str)
        else f"{cls.__module__}.{cls.__qualname__}"
    )
    yield f"{record.name}: {where}"
    for line in textwrap.wrap(description(record), width - 4, break_on_hyphens=False):
        yield f"    {line}"
    yield f"    answer types: {types}; score range [{lo}, {hi}]; metric {record.metric!r}"
    yield f"    with an answer_type column, scores {cls.fits()}"
    for option, default in record.options().items():
        kind = "" if default is None else f" ({type(default).__name__})"
        yield f"    {option}={_show(default)}{kind}"


def description(record: registry.EvaluatorRecord) -> str:
    """The registered description, else the whole first paragraph of the class docstring."""
    if record.summary:
        return record.summary
    doc = inspect.getdoc(record.cls) or record.cls.__name__
    return " ".join(doc.strip().split("\n\n")[0].split())


def _show(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "|".join(str(v) for v in value) if value else "(none)"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
