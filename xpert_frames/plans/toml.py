"""Scoring plans in TOML files: one ``[evaluators.NAME]`` table per evaluator
(:mod:`xpert_frames.plans`), read with :mod:`tomllib` and strictly validated."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from typing import Any

from xpert_frames.core.exceptions import ConfigurationError, did_you_mean
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.plans.entry import PlanEntry

_ENTRY_KEYS = ("evaluator", "options", "rows")


def read_entries(text: str, where: str = "plan") -> list[PlanEntry]:
    """The entries of a plan written in TOML; a :class:`ConfigurationError` names anything
    else."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigurationError(f"{where}: not valid TOML: {exc}") from None
    extra = [k for k in doc if k != "evaluators"]
    if extra:
        raise ConfigurationError(
            f"{where}: unknown top-level key(s) {extra}; a plan has only [evaluators.NAME] "
            f"tables.{did_you_mean(extra[0], ['evaluators'])}"
        )
    tables = doc.get("evaluators")
    if not isinstance(tables, dict) or not tables:
        raise ConfigurationError(
            f"{where}: expected at least one [evaluators.NAME] table, e.g.\n"
            "[evaluators.bleu]\nrows = \"task = 'translation'\""
        )
    return [_toml_entry(name, table, where) for name, table in tables.items()]


def write_entries(entries: Iterable[PlanEntry]) -> str:
    """Entries as TOML (:func:`read_entries` reads them back); SQL filters only."""
    lines: list[str] = []
    for entry in entries:
        ev = entry.evaluator
        if entry.text is not None and entry.sql is None:
            raise ConfigurationError(
                f"the rows of {ev.name!r} are a Polars expression ({entry.text}); a plan "
                "file holds SQL text: give them as SQL, e.g. \"task = 'translation'\""
            )
        lines.append(f"[evaluators.{_toml_key(ev.name)}]")
        if ev.key and ev.key != ev.name:
            lines.append(f"evaluator = {_toml_str(ev.key)}")
        options = _changed_options(ev)
        if options:
            inline = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in options.items())
            lines.append(f"options = {{ {inline} }}")
        if entry.sql is not None:
            lines.append(f"rows = {_toml_str(entry.sql)}")
        lines.append("")
    return "\n".join(lines)


def _toml_entry(name: str, table: Any, where: str) -> PlanEntry:
    here = f"{where}: [evaluators.{name}]"
    if not isinstance(table, dict):
        raise ConfigurationError(f"{here}: expected a table, got {table!r}")
    unknown = [k for k in table if k not in _ENTRY_KEYS]
    if unknown:
        raise ConfigurationError(
            f"{here}: unknown key(s) {unknown}; an entry has {list(_ENTRY_KEYS)}."
            f"{did_you_mean(unknown[0], _ENTRY_KEYS)} Evaluator options go in "
            "options = { ... }."
        )
    registry_name = table.get("evaluator", name)
    options = table.get("options", {})
    rows = table.get("rows")
    if not isinstance(registry_name, str):
        raise ConfigurationError(
            f"{here}: 'evaluator' must be a registry name, got {registry_name!r}"
        )
    if not isinstance(options, dict):
        raise ConfigurationError(f"{here}: 'options' must be a table, got {options!r}")
    if rows is not None and not isinstance(rows, str):
        raise ConfigurationError(f"{here}: 'rows' must be SQL text, got {rows!r}")
    if "name" in options:
        raise ConfigurationError(f"{here}: the table's name is the evaluator's name; drop 'name'")
    if name != registry_name:
        options = {**options, "name": name}
    try:
        return PlanEntry(registry_name, rows, **options)
    except ConfigurationError as exc:
        raise ConfigurationError(f"{here}: {exc}") from None
    except (KeyError, ValueError, TypeError) as exc:
        raise ConfigurationError(f"{here}: {exc}") from None


def _changed_options(ev: BaseEvaluator) -> dict[str, Any]:
    try:
        defaults = type(ev)().options()
    except Exception:  # an evaluator without defaults: write every option
        defaults = {}
    return {k: v for k, v in ev.options().items() if k not in defaults or defaults[k] != v}


def _toml_key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare else _toml_str(key)


def _toml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _toml_str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        items = ", ".join(f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + items + " }"
    raise ConfigurationError(f"option value {value!r} has no TOML form; write the plan by hand")
