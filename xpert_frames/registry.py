"""The evaluator registry: one record per evaluator, found by name. Name resolution lives here.

Built-in evaluators are named as ``"module:Class"`` strings and imported on first lookup (as
sacrebleu names its tokenizers), so the registry never imports an evaluator it is not asked for;
third-party packages register through the entry point group ``xpert_frames.evaluators``
(``name = "package.module:EvaluatorClass"``), loaded on first use. Besides lookups by name, the
registry turns a list of names and instances into instances (:func:`resolve_evaluators`) and
finds the evaluators behind the score columns of a scored table (:func:`detect_evaluators`).
"""

from __future__ import annotations

import importlib
import inspect
import sys
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

import polars as pl

from xpert_frames.core.exceptions import (
    DuplicateColumnError,
    DuplicateEvaluatorError,
    EmptyInputError,
    EvaluatorTypeError,
    OptionTypeError,
    UnknownEvaluatorError,
    did_you_mean,
)
from xpert_frames.evaluators.base import BaseEvaluator

ENTRY_POINT_GROUP = "xpert_frames.evaluators"

#: The built-in evaluators, by registry name. Imported on first lookup.
BUILTINS: dict[str, str] = {
    "accuracy": "xpert_frames.evaluators.accuracy:AccuracyEvaluator",
    "bleu": "xpert_frames.evaluators.bleu:BLEUEvaluator",
    "math": "xpert_frames.evaluators.math_answer:MathEvaluator",
    "tcm_diagnosis": "xpert_frames.evaluators.tcm:TcmDiagnosisEvaluator",
    "fuzzy": "xpert_frames.evaluators.fuzzy:FuzzyEvaluator",
}


def load_class(target: str) -> type[BaseEvaluator]:
    """The class named by ``"package.module:Class"``, checked to be an evaluator."""
    module, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    if not (isinstance(cls, type) and issubclass(cls, BaseEvaluator)):
        raise EvaluatorTypeError(f"{target!r} is not a BaseEvaluator subclass, got {cls!r}")
    return cls


@dataclass(frozen=True, slots=True)
class EvaluatorRecord:
    """Everything the toolkit knows about one registered evaluator: its name, its class (or
    the ``"module:Class"`` string naming it, resolved on first use) and the class's facts."""

    name: str
    target: type[BaseEvaluator] | str
    summary: str | None = None

    @property
    def cls(self) -> type[BaseEvaluator]:
        if isinstance(self.target, type):
            return self.target
        if self.target not in _CLASSES:
            _CLASSES[self.target] = load_class(self.target)
        return _CLASSES[self.target]

    @property
    def description(self) -> str:
        return self.summary or _describe(self.cls)

    @property
    def answer_types(self) -> tuple[str, ...]:
        return tuple(self.cls.answer_types)

    @property
    def score_range(self) -> tuple[float, float]:
        lo, hi = self.cls.score_range
        return (lo, hi)

    @property
    def metric(self) -> str:
        return self.cls.metric or self.name

    def options(self) -> dict[str, Any]:
        """Keyword options of the evaluator class and their defaults."""
        return evaluator_options(self.cls)


_REGISTRY: dict[str, EvaluatorRecord] = {}
_CLASSES: dict[str, type[BaseEvaluator]] = {}
_entry_points_loaded = False


def evaluator_options(cls: type[BaseEvaluator]) -> dict[str, Any]:
    params = inspect.signature(cls).parameters
    return {
        name: p.default
        for name, p in params.items()
        if name != "self" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    }


def _describe(cls: type) -> str:
    doc = inspect.getdoc(cls) or ""
    return doc.strip().splitlines()[0] if doc.strip() else cls.__name__


def check_facts(cls: type[BaseEvaluator]) -> None:
    """Raise ``TypeError`` naming the fact of ``cls`` that listings and reports cannot read
    (a plugin's class attributes are data the toolkit did not write)."""
    problems = []
    for fact in ("key", "metric", "subtype_metric"):
        if not isinstance(getattr(cls, fact, ""), str):
            problems.append(f"{fact} must be a str")
    for fact in ("answer_types", "report_options"):
        value = getattr(cls, fact, ())
        if not isinstance(value, tuple | list) or not all(isinstance(v, str) for v in value):
            problems.append(f"{fact} must be a tuple of str")
    for fact in ("subtype_column", "subtype_default"):
        if not isinstance(getattr(cls, fact, None), str | None):
            problems.append(f"{fact} must be a str or None")
    for fact in ("binary_score", "accepts_list_answer", "best_of_answers"):
        if not isinstance(getattr(cls, fact, False), bool):
            problems.append(f"{fact} must be a bool")
    if getattr(cls, "best_of_answers", False) is True and not getattr(
        cls, "accepts_list_answer", False
    ):
        problems.append("best_of_answers needs accepts_list_answer = True")
    bounds = getattr(cls, "score_range", (0.0, 1.0))
    if not (
        isinstance(bounds, tuple | list)
        and len(bounds) == 2
        and all(isinstance(b, int | float) and not isinstance(b, bool) for b in bounds)
        and bounds[0] <= bounds[1]
    ):
        problems.append(f"score_range must be two numbers (low, high), got {bounds!r}")
    try:
        evaluator_options(cls)
        if not isinstance(cls.fits(), str):
            problems.append("fits() must return a str")
    except Exception as exc:
        problems.append(f"its options cannot be read: {type(exc).__name__}: {exc}")
    if problems:
        raise EvaluatorTypeError(f"evaluator class {cls.__qualname__}: " + "; ".join(problems))


def register_evaluator(
    name: str,
    evaluator_class: type[BaseEvaluator],
    *,
    overwrite: bool = False,
    description: str | None = None,
) -> EvaluatorRecord:
    """Register ``evaluator_class`` under ``name``.

    Raises ``TypeError`` for a class not derived from :class:`BaseEvaluator` or with facts
    listings cannot read (:func:`check_facts`), and
    :class:`~xpert_frames.core.exceptions.DuplicateEvaluatorError` when the name is taken, unless
    ``overwrite=True``.
    """
    if not (isinstance(evaluator_class, type) and issubclass(evaluator_class, BaseEvaluator)):
        raise EvaluatorTypeError(
            f"evaluator class must derive from BaseEvaluator, got {evaluator_class!r}"
        )
    check_facts(evaluator_class)
    if not isinstance(name, str) or not name:
        raise EvaluatorTypeError(f"evaluator name must be a non-empty string, got {name!r}")
    if name in _REGISTRY and not overwrite and _REGISTRY[name].cls is not evaluator_class:
        raise DuplicateEvaluatorError(
            f"an evaluator is already registered as {name!r} ({_REGISTRY[name].cls.__name__}); "
            "pass overwrite=True to replace it"
        )
    record = EvaluatorRecord(name=name, target=evaluator_class, summary=description)
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
                f"evaluator plugin {ep.name!r} ({ep.value}) is not loaded: the name is taken by "
                f"{_REGISTRY[ep.name].target!r}; register the plugin under another name",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        try:
            cls = ep.load()
            register_evaluator(ep.name, cls)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit on import included: a broken
            # plugin must not end the program nor break the built-ins
            warnings.warn(
                f"broken evaluator plugin {ep.name!r} ({ep.value}) is not loaded: "
                f"{type(exc).__name__}: {exc}",
                RuntimeWarning,
                stacklevel=2,
            )


def name_of(cls: type[BaseEvaluator]) -> str | None:
    """The name ``cls`` is registered under (its ``key`` when that is one of its names), else
    ``None``. Built-ins not imported yet are not imported (``cls`` cannot be one of them)."""
    names = [r.name for r in _REGISTRY.values() if _is_target(r.target, cls)]
    if not names and not _entry_points_loaded:  # a plugin's class: load the plugins
        names = [r.name for r in records() if _is_target(r.target, cls)]
    if cls.key in names:
        return cls.key
    return names[0] if names else None


def _is_target(target: type[BaseEvaluator] | str, cls: type[BaseEvaluator]) -> bool:
    if not isinstance(target, str):
        return target is cls
    module, _, attr = target.partition(":")
    loaded = sys.modules.get(module)
    return loaded is not None and getattr(loaded, attr, None) is cls


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
    params = inspect.signature(cls).parameters
    return option in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _check_option_names(record: EvaluatorRecord, kwargs: dict[str, Any]) -> None:
    for option in kwargs:
        if not _accepts(record.cls, option):
            valid = sorted(record.options())
            raise OptionTypeError(
                f"evaluator {record.name!r} has no option {option!r}; valid options: {valid}."
                f"{did_you_mean(option, valid)}"
            )


def refuse_shared_names(names: Sequence[str]) -> None:
    """Evaluators in one table need distinct names (their columns are named for them)."""
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise DuplicateColumnError(
            f"two evaluators share the name(s) {dupes}; give one a different name, "
            "e.g. get_evaluator('fuzzy', threshold=0.8, name='fuzzy_strict')"
        )


def resolve_evaluators(
    evaluators: str | BaseEvaluator | Sequence[str | BaseEvaluator],
) -> list[BaseEvaluator]:
    """Names (looked up with default options) or instances, as instances with distinct names."""
    items = [evaluators] if isinstance(evaluators, str | BaseEvaluator) else list(evaluators)
    if not items:
        raise EmptyInputError("no evaluators given; pass names such as ['fuzzy'] or instances")
    out: list[BaseEvaluator] = []
    for item in items:
        if isinstance(item, BaseEvaluator):
            out.append(item)
        elif isinstance(item, str):
            out.append(get_evaluator(item))
        else:
            raise EvaluatorTypeError(
                f"expected an evaluator name or BaseEvaluator instance, got {type(item).__name__}"
            )
    refuse_shared_names([ev.name for ev in out])
    return out


def detect_evaluators(schema: pl.Schema) -> list[BaseEvaluator]:
    """Evaluators whose numeric ``<name>_score`` column is in ``schema``.

    A registry name gives that evaluator (default options). Another prefix is matched to the
    registered evaluator whose output columns it carries (``acc2_score``, ``acc2_extracted``,
    ``acc2_rule``, ``acc2_type`` → accuracy named ``acc2``), else it is reported as a plain
    score. Pass ``evaluators=`` for non-default options that change reports (BLEU's ``n_gram``).
    """
    recs = records()
    known = {r.name: r for r in recs}
    names = set(schema.names())
    found: list[BaseEvaluator] = []
    for column in schema.names():
        dtype = schema[column]
        if not column.endswith("_score") or not (dtype.is_numeric() or dtype == pl.Boolean):
            continue
        prefix = column.removesuffix("_score")
        if prefix in known:
            found.append(get_evaluator(prefix))
            continue
        best: BaseEvaluator = ScoreColumn(name=prefix)
        for record in recs:
            try:
                candidate = record.cls(name=prefix)
            except Exception:  # an evaluator that cannot be built with defaults: not a match
                continue
            outputs = set(candidate.output_names())
            if len(outputs) > len(best.output_names()) and outputs <= names:
                best = candidate
        found.append(best)
    return found


class ScoreColumn(BaseEvaluator):
    """A ``<name>_score`` column of an evaluator the registry does not know: reports give its
    overall metric only. It scores nothing itself (its one output is the existing column)."""

    def outputs(self) -> dict[str, pl.Expr]:
        return {"score": pl.col(self.score_column)}


for _name, _target in BUILTINS.items():
    _REGISTRY[_name] = EvaluatorRecord(name=_name, target=_target)
