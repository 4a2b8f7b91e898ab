"""Reading the scoring configuration back: the evaluators rebuilt from what a scored file or
table records under :data:`~xpert_frames.provenance.record.METADATA_KEY`, strictly validated."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from xpert_frames.core import bounded_json, option_types
from xpert_frames.core.exceptions import ConfigurationError, UnknownEvaluatorError
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.provenance.record import METADATA_KEY, TYPE_KEY, describe

# A scored file is data: nothing it records chooses code to import or a file to read. An entry
# names its evaluator by registry name only (built-ins and installed plugins); its options are
# checked against that class's keyword parameters and their types before the class is called;
# text options that look like file paths are refused; the evaluator built is checked against the
# recorded signature. Every way a configuration can be malformed is a ConfigurationError.

#: Bounds on a recorded configuration: JSON size, nesting (list > entry > options > value >
#: term table > rows > row is 7), number of entries, length of an evaluator's name.
MAX_CHARS = 32 * 1024 * 1024
MAX_DEPTH = 8
MAX_ENTRIES = 64
MAX_NAME = 200
#: The fields of an entry and the JSON kinds each may hold (``describe`` writes them all).
_FIELDS: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "class": (str, type(None)),
    "registry": (str, type(None)),
    "options": (dict,),
    "unrecorded": (list,),
    "package": (str, type(None)),
    "version": (str, type(None)),
    "signature": (str, type(None)),
}
_REQUIRED = ("name", "registry", "options", "signature")
#: A text option naming a file: a path separator, ``~`` or ``.`` first, or a file suffix.
_PATH_LIKE = re.compile(r"[/\\]|^[~.]|\.[A-Za-z][A-Za-z0-9]{0,7}$")
#: Software versions inside a signature (``nltk-3.9.1``): they may differ between machines.
_VERSION = re.compile(r"(?<=[A-Za-z_]-)\d[\w.+!]*")
#: Signature fields that name software, not options (``tok:``, ``version:``).
_ENVIRONMENT = ("tok:", "version:")


def _cut(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _entries(raw: str | bytes, where: str) -> list[dict[str, Any]]:
    """The entries of a recorded configuration, each checked (fields, kinds, names unique)."""
    what = f"{where}: scoring configuration under {METADATA_KEY!r}"
    entries = bounded_json.load(raw, what, max_chars=MAX_CHARS, max_depth=MAX_DEPTH)
    if not isinstance(entries, list):
        raise ConfigurationError(
            f"{what}: expected a JSON list of evaluators, got {_short(entries)}"
        )
    if len(entries) > MAX_ENTRIES:
        raise ConfigurationError(
            f"{what}: {len(entries)} evaluators, more than the {MAX_ENTRIES} allowed"
        )
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        _check_entry(entry, f"{what}, entry {i}")
        if entry["name"] in seen:
            raise ConfigurationError(
                f"{what}: evaluator {entry['name']!r} is recorded twice; a scored table has "
                "one set of columns per evaluator name"
            )
        seen.add(entry["name"])
    return entries


def _check_entry(entry: Any, where: str) -> None:
    if not isinstance(entry, dict):
        raise ConfigurationError(f"{where}: expected a JSON object, got {_short(entry)}")
    unknown = sorted(set(entry) - set(_FIELDS))
    missing = [f for f in _REQUIRED if f not in entry]
    if unknown or missing:
        raise ConfigurationError(
            f"{where}: fields {sorted(_FIELDS)} expected; unknown {_short(unknown)}, "
            f"missing {missing}"
        )
    for field, kinds in _FIELDS.items():
        if field in entry and not isinstance(entry[field], kinds):
            expected = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            raise ConfigurationError(
                f"{where}: field {field!r} must be {expected}, got {_short(entry[field])}"
            )
    if not all(isinstance(o, str) for o in entry.get("unrecorded", [])):
        raise ConfigurationError(f"{where}: field 'unrecorded' must list option names")
    name = entry["name"]
    if not name or len(name) > MAX_NAME:
        raise ConfigurationError(
            f"{where}: an evaluator name has 1 to {MAX_NAME} characters, got {_short(name)}"
        )


def _decode(value: Any, option: str, where: str) -> Any:
    """A recorded option value as the evaluator takes it (a term table as a DataFrame)."""
    if isinstance(value, dict) and value.get(TYPE_KEY) == "TermTable":
        rows = value.get("rows")
        good = isinstance(rows, list) and all(
            isinstance(r, list) and len(r) == 3 and all(isinstance(v, str | None) for v in r)
            for r in rows
        )
        if set(value) != {TYPE_KEY, "rows"} or not good:
            raise ConfigurationError(
                f"{where}: option {option!r}: a recorded term table is "
                '{"__xf_type__": "TermTable", "rows": [[canonical, synonym, category], ...]}'
            )
        return pl.DataFrame(
            rows,
            schema={"canonical": pl.String, "synonym": pl.String, "category": pl.String},
            orient="row",
        )
    return value


def _check_options(
    cls: type[BaseEvaluator], label: str, recorded: dict[str, Any], where: str
) -> dict[str, Any]:
    """``recorded`` checked against the keyword parameters of ``cls`` and their types, before
    ``cls`` is called; returned decoded."""
    params = option_types.keyword_parameters(cls)
    params.pop("name", None)
    options: dict[str, Any] = {}
    for option, value in recorded.items():
        if option not in params:
            raise ConfigurationError(
                f"{where}: {label} has no option {_short(option)}; its options: {sorted(params)}"
            )
        texts = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        named = next((t for t in texts if isinstance(t, str) and _PATH_LIKE.search(t)), None)
        if named is not None:
            raise ConfigurationError(
                f"{where}: {label} option {option!r} names a file ({_short(named)}); options "
                "read from a scored file never name files. Pass the evaluator yourself, e.g. "
                f"xf.report(path, evaluators=[xf.get_evaluator(..., {option}=<table>)])"
            )
        if not option_types.fits(value, params[option]):
            raise ConfigurationError(
                f"{where}: {label} option {option!r} must be "
                f"{option_types.describe_type(params[option])}, got {_short(value)} "
                f"({type(value).__name__})"
            )
        options[option] = _decode(value, option, where)
    return options


def _comparable(signature: str | None) -> str | None:
    """A signature without what names software (tokenizer and package versions): the scores
    are read from the file, so only what the options decide must agree."""
    if signature is None:
        return None
    fields = [f for f in signature.split("|") if not f.startswith(_ENVIRONMENT)]
    return _VERSION.sub("*", "|".join(fields))


def build(entry: Mapping[str, Any], where: str = "metadata") -> BaseEvaluator:
    """The evaluator a checked entry of :func:`describe` records (see :func:`_entries`)."""
    from xpert_frames import registry

    name, key = entry["name"], entry["registry"]
    scored_by = f"{entry.get('class')} ({entry.get('package')} {entry.get('version')})"
    try:
        if key is None:
            raise UnknownEvaluatorError("it was not registered when the file was scored")
        cls = registry.get_record(key).cls
    except UnknownEvaluatorError as exc:
        raise ConfigurationError(
            f"{where}: evaluator {name!r} was scored by {scored_by}, registered as {key!r}, "
            f"which this installation does not have ({exc}). Install the plugin that provides "
            "it, or pass evaluators=[...]; a class is never imported by the name a file gives"
        ) from None
    label = f"evaluator {name!r} ({key})"
    options = _check_options(cls, label, entry["options"], where)
    unrecorded = [o for o in entry.get("unrecorded", []) if o in cls.report_options]
    if unrecorded:
        raise ConfigurationError(
            f"{where}: {label}: its report depends on option(s) {unrecorded}, which the file "
            "does not record; pass evaluators=[...]"
        )
    try:
        built: BaseEvaluator = cls(**options, name=name)
        rebuilt = built.signature
    except Exception as exc:  # the class's own validation: wrong values, contradictions
        raise ConfigurationError(
            f"{where}: cannot rebuild {label} with the recorded options: "
            f"{type(exc).__name__}: {_cut(str(exc))}"
        ) from None
    recorded = entry["signature"]
    if _comparable(recorded) != _comparable(rebuilt):
        raise ConfigurationError(
            f"{where}: {label}: the recorded signature {_short(recorded, 500)} does not match "
            f"the signature of the evaluator its options build, {_short(rebuilt, 500)}; the "
            "configuration was altered after scoring. Pass evaluators=[...] to report with "
            "known options"
        )
    return built


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
    found: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        try:
            meta = pl.read_parquet_metadata(path)
        except pl.exceptions.ComputeError as exc:  # invalid UTF-8 in a key or value, say
            raise ConfigurationError(f"{path}: unreadable key-value metadata: {exc}") from None
        if METADATA_KEY in meta:
            found[str(path)] = _entries(meta[METADATA_KEY], str(path))
    if not found:
        return None
    distinct = {
        json.dumps([{**e, "version": None} for e in entries], sort_keys=True): p
        for p, entries in found.items()
    }
    if len(distinct) > 1:
        a, b = list(distinct.values())[:2]
        raise ConfigurationError(
            f"{a} and {b} were scored with different evaluator configurations; report on them "
            "separately or pass evaluators=[...]"
        )
    path, entries = next(iter(found.items()))
    return [build(entry, path) for entry in entries]


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
