"""The scoring configuration that travels with the scores.

A scored Parquet file (CLI, Ray output, :func:`write_scored`) or Arrow table (``xf.score`` of a
``pyarrow.Table``) carries, under the key-value metadata key :data:`METADATA_KEY`, a JSON list
with one entry per evaluator: its ``name``, ``class`` (``module:QualName``), ``registry`` name,
``options``, the ``package`` and ``version`` that define it, and its ``signature``. Reports
rebuild the evaluators from it, so a corpus metric is computed with the options the rows were
scored with. A table without it (a bare DataFrame) gives no configuration: a report then refuses
metrics that depend on options (see ``BaseEvaluator.report_options``) instead of guessing them.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import polars as pl

from xpert_frames.core.aliases import Frame
from xpert_frames.core.atomic import write_atomic
from xpert_frames.core.exceptions import ConfigurationError
from xpert_frames.evaluators.base import BaseEvaluator

METADATA_KEY = "xpert_frames.evaluators"
_TYPE = "__xf_type__"


__all__ = ["METADATA_KEY", "ConfigurationError", "from_metadata", "metadata", "write_scored"]


# --------------------------------------------------------------------------- encode
def _encode(value: Any) -> Any:
    from xpert_frames.evaluators.tcm.terms import BUILTIN, TermTable

    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, TermTable):
        if value.source in BUILTIN:
            return value.source
        return {_TYPE: "TermTable", "rows": [list(r) for r in value.rows]}
    raise TypeError(f"cannot record option value {value!r} ({type(value).__name__})")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict) and value.get(_TYPE) == "TermTable":
        rows = value["rows"]
        return pl.DataFrame(
            rows,
            schema={"canonical": pl.String, "synonym": pl.String, "category": pl.String},
            orient="row",
        )
    if isinstance(value, dict):
        return {k: _decode(v) for k, v in value.items()}
    return value


def _package_version(module: str) -> tuple[str, str | None]:
    package = module.split(".")[0]
    try:
        return package, version(package.replace("_", "-"))
    except PackageNotFoundError:
        return package, None


def describe(evaluator: BaseEvaluator) -> dict[str, Any]:
    """One evaluator's entry: name, class, registry name, options, package, version, signature.
    Options that cannot be written as JSON are listed under ``unrecorded``."""
    cls = type(evaluator)
    options: dict[str, Any] = {}
    unrecorded: list[str] = []
    for key, value in evaluator.options().items():
        try:
            options[key] = _encode(value)
        except TypeError:
            unrecorded.append(key)
    package, package_version = _package_version(cls.__module__)
    return {
        "name": evaluator.name,
        "class": f"{cls.__module__}:{cls.__qualname__}",
        "registry": cls.key or None,
        "options": options,
        "unrecorded": unrecorded,
        "package": package,
        "version": package_version,
        "signature": evaluator.signature,
    }


def metadata(evaluators: Sequence[BaseEvaluator]) -> dict[str, str]:
    """Key-value metadata recording ``evaluators`` (for Parquet files and Arrow schemas)."""
    entries = [describe(ev) for ev in evaluators]
    return {METADATA_KEY: json.dumps(entries, ensure_ascii=False, sort_keys=True)}


def write_scored(
    frame: Frame, path: str | Path, evaluators: Sequence[BaseEvaluator], **kwargs: Any
) -> Path:
    """Write a scored table to Parquet with the configuration of ``evaluators`` in its metadata
    (``xf.report(path)`` and ``xpert-frames report`` then rebuild them). ``kwargs`` go to
    ``polars.DataFrame.write_parquet``.

    The file is written atomically: to a temporary file beside ``path``, renamed to ``path`` when
    complete. If anything fails, the temporary file is removed and an existing ``path`` is left
    as it was."""
    from xpert_frames.core.frames import to_lazy

    table = to_lazy(frame).collect()
    meta = metadata(evaluators)

    def write(tmp: Path) -> None:
        table.write_parquet(tmp, metadata=meta, **kwargs)

    return write_atomic(path, write)


# --------------------------------------------------------------------------- decode
def _entries(raw: str | bytes, where: str) -> list[dict[str, Any]]:
    try:
        entries = json.loads(raw)
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise ValueError("expected a JSON list of objects")
    except ValueError as exc:
        raise ConfigurationError(
            f"{where}: unreadable scoring configuration under {METADATA_KEY!r}: {exc}"
        ) from None
    return entries


def build(entry: Mapping[str, Any], where: str = "metadata") -> BaseEvaluator:
    """The evaluator an entry of :func:`describe` records."""
    from xpert_frames import registry

    name = entry.get("name")
    options = {k: _decode(v) for k, v in dict(entry.get("options") or {}).items()}
    module, _, qualname = str(entry.get("class", "")).partition(":")
    cls: Any = None
    try:
        cls = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
    except (ImportError, AttributeError, ValueError):
        cls = None
    if not (isinstance(cls, type) and issubclass(cls, BaseEvaluator)):
        key = entry.get("registry")
        if not key:
            raise ConfigurationError(
                f"{where}: evaluator {name!r} was scored by {entry.get('class')!r} "
                f"({entry.get('package')} {entry.get('version')}), which cannot be imported here"
            )
        cls = registry.get_record(str(key)).cls
    try:
        built: BaseEvaluator = cls(**options, name=name)
        return built
    except (TypeError, ValueError) as exc:
        raise ConfigurationError(
            f"{where}: cannot rebuild evaluator {name!r} ({entry.get('class')}) with the recorded "
            f"options {options}: {exc}"
        ) from None


def from_metadata(
    meta: Mapping[Any, Any] | None, where: str = "metadata"
) -> list[BaseEvaluator] | None:
    """Evaluators recorded in key-value metadata (str or bytes keys), ``None`` if absent."""
    if not meta:
        return None
    for key, value in meta.items():
        if (key.decode() if isinstance(key, bytes) else key) == METADATA_KEY:
            return [build(entry, where) for entry in _entries(value, where)]
    return None


def read_evaluators(paths: Sequence[str | Path]) -> list[BaseEvaluator] | None:
    """Evaluators recorded in Parquet files (``None`` when none records any). Files that record
    different configurations cannot be reported together: an error names two of them."""
    found: dict[str, str] = {}
    for path in paths:
        meta = pl.read_parquet_metadata(path)
        if METADATA_KEY in meta:
            found[str(path)] = meta[METADATA_KEY]
    if not found:
        return None
    distinct = {
        json.dumps([{**e, "version": None} for e in _entries(v, p)], sort_keys=True): p
        for p, v in found.items()
    }
    if len(distinct) > 1:
        a, b = list(distinct.values())[:2]
        raise ConfigurationError(
            f"{a} and {b} were scored with different evaluator configurations; report on them "
            "separately or pass evaluators=[...]"
        )
    path, raw = next(iter(found.items()))
    return [build(entry, path) for entry in _entries(raw, path)]


def merge(existing: Mapping[Any, Any] | None, evaluators: Sequence[BaseEvaluator]) -> dict:
    """``existing`` metadata plus ``evaluators`` appended to any evaluators it records."""
    out = {
        (k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
        for k, v in (existing or {}).items()
    }
    before = _entries(out[METADATA_KEY], "metadata") if METADATA_KEY in out else []
    entries = before + [describe(ev) for ev in evaluators]
    out[METADATA_KEY] = json.dumps(entries, ensure_ascii=False, sort_keys=True)
    return out


# --------------------------------------------------------------------------- row filters
#: Key-value metadata key of the scoring plan's row filters: a JSON object
#: ``{evaluator name: {"sql": text}}`` (a filter given as SQL, rebuilt with ``pl.sql_expr``) or
#: ``{evaluator name: {"polars": text}}`` (a Polars expression, recorded as its text for
#: reading only: it is never evaluated).
ROWS_KEY = "xpert_frames.rows"
_ROW_KINDS = ("sql", "polars")
_MAX_ROWS_TEXT = 10_000


def rows_metadata(rows: Mapping[str, tuple[str, str]]) -> dict[str, str]:
    """Key-value metadata recording row filters: ``{name: (kind, text)}``, kind ``"sql"`` or
    ``"polars"``; empty when there are none."""
    if not rows:
        return {}
    entries = {name: {kind: text} for name, (kind, text) in rows.items()}
    return {ROWS_KEY: json.dumps(entries, ensure_ascii=False, sort_keys=True)}


def read_rows(
    meta: Mapping[Any, Any] | None, where: str = "metadata"
) -> dict[str, tuple[str, str]]:
    """The row filters recorded in key-value metadata as ``{name: (kind, text)}`` (empty when
    none), strictly validated: a JSON object of evaluator names to ``{"sql": text}`` or
    ``{"polars": text}``. Anything else is a :class:`ConfigurationError`; the text is returned
    as text (SQL is compiled by :mod:`xpert_frames.plans` with ``pl.sql_expr``, never run as
    code)."""
    raw = None
    for key, value in (meta or {}).items():
        if (key.decode() if isinstance(key, bytes) else key) == ROWS_KEY:
            raw = value
    if raw is None:
        return {}
    problem = "expected a JSON object {evaluator name: {'sql' or 'polars': text}}"
    try:
        entries = json.loads(raw)
    except ValueError as exc:
        raise ConfigurationError(
            f"{where}: unreadable row filters under {ROWS_KEY!r}: {exc}"
        ) from None
    if not isinstance(entries, dict):
        raise ConfigurationError(f"{where}: row filters under {ROWS_KEY!r}: {problem}")
    out: dict[str, tuple[str, str]] = {}
    for name, entry in entries.items():
        ok = isinstance(entry, dict) and len(entry) == 1
        kind, text = next(iter(entry.items())) if ok else (None, None)
        if not (
            ok and kind in _ROW_KINDS and isinstance(text, str) and 0 < len(text) <= _MAX_ROWS_TEXT
        ):
            raise ConfigurationError(
                f"{where}: row filter of {name!r} under {ROWS_KEY!r}: {problem}, got {entry!r}"
            )
        out[name] = (str(kind), str(text))
    return out
