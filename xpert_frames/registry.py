"""The evaluator registry: one record per evaluator, found by name.

Built-in evaluators are registered here; third-party packages register through the entry point
group ``xpert_frames.evaluators`` (``name = "package.module:EvaluatorClass"``), loaded on first use.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.exceptions import (
    DuplicateEvaluatorError,
    OptionTypeError,
    UnknownEvaluatorError,
    did_you_mean,
)

ENTRY_POINT_GROUP = "xpert_frames.evaluators"


@dataclass(frozen=True, slots=True)
class EvaluatorRecord:
    """Everything the toolkit knows about one registered evaluator."""

    name: str
    cls: type[BaseEvaluator]
    description: str
    answer_types: tuple[str, ...]
    score_range: tuple[float, float]
    metric: str

    def options(self) -> dict[str, Any]:
        """Keyword options of the evaluator class and their defaults."""
        return evaluator_options(self.cls)


_REGISTRY: dict[str, EvaluatorRecord] = {}
_entry_points_loaded = False


def evaluator_options(cls: type[BaseEvaluator]) -> dict[str, Any]:
    params = inspect.signature(cls.__init__).parameters
    return {
        name: p.default
        for name, p in params.items()
        if name != "self" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    }


def _describe(cls: type) -> str:
    doc = inspect.getdoc(cls) or ""
    return doc.strip().splitlines()[0] if doc.strip() else cls.__name__


def register_evaluator(
    name: str,
    evaluator_class: type[BaseEvaluator],
    *,
    overwrite: bool = False,
    description: str | None = None,
) -> EvaluatorRecord:
    """Register ``evaluator_class`` under ``name``.

    Raises ``TypeError`` for a class not derived from :class:`BaseEvaluator` and
    :class:`~xpert_frames.exceptions.DuplicateEvaluatorError` when the name is taken, unless
    ``overwrite=True``.
    """
    if not (isinstance(evaluator_class, type) and issubclass(evaluator_class, BaseEvaluator)):
        raise TypeError(f"evaluator class must derive from BaseEvaluator, got {evaluator_class!r}")
    if not isinstance(name, str) or not name:
        raise TypeError(f"evaluator name must be a non-empty string, got {name!r}")
    if name in _REGISTRY and not overwrite and _REGISTRY[name].cls is not evaluator_class:
        raise DuplicateEvaluatorError(
            f"an evaluator is already registered as {name!r} ({_REGISTRY[name].cls.__name__}); "
            "pass overwrite=True to replace it"
        )
    record = EvaluatorRecord(
        name=name,
        cls=evaluator_class,
        description=description or _describe(evaluator_class),
        answer_types=tuple(evaluator_class.answer_types),
        score_range=tuple(evaluator_class.score_range),  # type: ignore[arg-type]
        metric=evaluator_class.metric or name,
    )
    _REGISTRY[name] = record
    return record


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _REGISTRY:
            warnings.warn(
                f"evaluator plugin {ep.name!r} ({ep.value}) is ignored: the name is taken by "
                f"{_REGISTRY[ep.name].cls.__module__}.{_REGISTRY[ep.name].cls.__qualname__}; "
                "register the plugin under another name",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        try:
            cls = ep.load()
            register_evaluator(ep.name, cls)
        except Exception as exc:  # a broken plugin must not break the built-ins
            warnings.warn(
                f"could not load evaluator plugin {ep.name!r} ({ep.value}): {exc}",
                RuntimeWarning,
                stacklevel=2,
            )


def get_record(name: str) -> EvaluatorRecord:
    if name not in _REGISTRY:
        _load_entry_points()
    if name not in _REGISTRY:
        available = ", ".join(_REGISTRY)
        raise UnknownEvaluatorError(
            f"unknown evaluator {name!r}; available evaluators: {available}."
            f"{did_you_mean(name, _REGISTRY)}"
        )
    return _REGISTRY[name]


def records() -> list[EvaluatorRecord]:
    _load_entry_points()
    return list(_REGISTRY.values())


def list_evaluators() -> list[str]:
    """Names of all registered evaluators."""
    return [r.name for r in records()]


def get_evaluator(evaluator_name: str, **kwargs: Any) -> BaseEvaluator:
    """An instance of the evaluator registered as ``evaluator_name``, with options ``kwargs``.

    An option the evaluator does not have is an error naming the valid ones, never ignored.
    """
    record = get_record(evaluator_name)
    _check_option_names(record, kwargs)
    if "name" not in kwargs and record.name != record.cls.key and _accepts(record.cls, "name"):
        kwargs = {**kwargs, "name": record.name}
    return record.cls(**kwargs)


def get_evaluators(evaluator_names: Iterable[str], **kwargs: Any) -> list[BaseEvaluator]:
    """Instances for several names. Each evaluator gets the options it has; an option that
    none of them has is an error (the seed passed every option to every evaluator)."""
    names = list(evaluator_names)
    recs = [get_record(n) for n in names]
    if "name" in kwargs and len(names) > 1:
        raise OptionTypeError("option 'name' cannot be shared by several evaluators")
    unused = [k for k in kwargs if not any(_accepts(r.cls, k) for r in recs)]
    if unused:
        valid = sorted({o for r in recs for o in r.options()})
        raise OptionTypeError(
            f"option(s) {unused} belong to none of {names}; valid options: {valid}."
            f"{did_you_mean(unused[0], valid)}"
        )
    return [
        get_evaluator(r.name, **{k: v for k, v in kwargs.items() if _accepts(r.cls, k)})
        for r in recs
    ]


def _accepts(cls: type, option: str) -> bool:
    params = inspect.signature(cls.__init__).parameters
    return option in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _check_option_names(record: EvaluatorRecord, kwargs: dict[str, Any]) -> None:
    for option in kwargs:
        if not _accepts(record.cls, option):
            valid = sorted(record.options())
            raise OptionTypeError(
                f"evaluator {record.name!r} has no option {option!r}; valid options: {valid}."
                f"{did_you_mean(option, valid)}"
            )


def _register_builtins() -> None:
    from xpert_frames.evaluators.accuracy import AccuracyEvaluator
    from xpert_frames.evaluators.bleu import BLEUEvaluator
    from xpert_frames.evaluators.fuzzy import FuzzyEvaluator
    from xpert_frames.evaluators.math_answer import MathEvaluator
    from xpert_frames.evaluators.tcm_diagnosis import TcmDiagnosisEvaluator

    for cls in (
        AccuracyEvaluator,
        BLEUEvaluator,
        MathEvaluator,
        TcmDiagnosisEvaluator,
        FuzzyEvaluator,
    ):
        register_evaluator(cls.key, cls)


_register_builtins()
