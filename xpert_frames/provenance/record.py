"""Writing the scoring configuration: one JSON entry per evaluator (name, class, registry name,
options, package, version, signature) under :data:`METADATA_KEY` of a Parquet file's or Arrow
table's key-value metadata."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from xpert_frames.core.aliases import Frame
from xpert_frames.core.atomic import write_atomic
from xpert_frames.core.exceptions import OptionTypeError
from xpert_frames.evaluators.base import BaseEvaluator

METADATA_KEY = "xpert_frames.evaluators"
#: Key naming the type of an option value recorded as a JSON object (a term table).
TYPE_KEY = "__xf_type__"


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
        return {TYPE_KEY: "TermTable", "rows": [list(r) for r in value.rows]}
    raise OptionTypeError(f"cannot record option value {value!r} ({type(value).__name__})")


def _package_version(module: str) -> tuple[str, str | None]:
    package = module.split(".")[0]
    try:
        return package, version(package.replace("_", "-"))
    except PackageNotFoundError:
        return package, None


def describe(evaluator: BaseEvaluator) -> dict[str, Any]:
    """One evaluator's entry: name, class, registry name, options, package, version, signature.
    Options that cannot be written as JSON are listed under ``unrecorded``. Reports rebuild the
    evaluator from its registry name (``None`` for a class not registered: such a file needs
    ``evaluators=`` to be reported); the class is recorded for people, never imported."""
    from xpert_frames import registry

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
        "registry": registry.name_of(cls),
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
