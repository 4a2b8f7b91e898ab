"""Command-line option parsing: evaluator specs ``NAME:opt=value,...`` and column-role flags."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from xpert_frames import registry
from xpert_frames.core.exceptions import did_you_mean
from xpert_frames.core.frames import Columns
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.plans import Plan, PlanEntry

ROLE_FLAGS = (
    "prediction",
    "answer",
    "answer_type",
    "choices",
    "tcm_eval_type",
    "reference",
    "meta",
)


# --------------------------------------------------------------------------- option parsing
def _convert(option: str, raw: str, default: Any) -> Any:
    """Text from the command line, typed after the option's default."""
    lowered = raw.strip().lower()
    if isinstance(default, bool) or lowered in ("true", "false"):
        if lowered in ("true", "1", "yes"):
            return True
        if lowered in ("false", "0", "no"):
            return False
        raise click.BadParameter(f"option {option!r} takes true/false, got {raw!r}")
    if isinstance(default, list | tuple) or "|" in raw:
        kind = type(default[0]) if isinstance(default, list | tuple) and default else None
        return [_convert(option, part, kind() if kind else None) for part in raw.split("|") if part]
    if isinstance(default, int) and not isinstance(default, bool):
        try:
            return int(raw)
        except ValueError:
            return float(raw) if _is_float(raw) else raw
    if isinstance(default, float):
        return float(raw) if _is_float(raw) else raw
    if raw.startswith(("{", "[")):
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise click.BadParameter(f"option {option!r}: invalid JSON {raw!r}: {exc}") from None
    if default is None and _is_float(raw):
        return float(raw)
    return raw


def _is_float(raw: str) -> bool:
    try:
        float(raw)
    except ValueError:
        return False
    return True


def parse_evaluator(spec: str) -> BaseEvaluator:
    """``name`` or ``name:opt=value,opt=value`` (lists as ``a|b``, mappings as JSON)."""
    name, _, rest = spec.partition(":")
    record = registry.get_record(name.strip())
    defaults = record.options()
    options: dict[str, Any] = {}
    for item in _split_options(rest):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise click.BadParameter(f"expected opt=value in {spec!r}, got {item!r}")
        if key in options:
            raise click.BadParameter(
                f"option {key!r} given twice in {spec!r}; give each option once"
            )
        options[key] = _convert(key, value, defaults.get(key))
    return registry.get_evaluator(record.name, **options)


def _split_options(text: str) -> list[str]:
    """Split on commas that are not inside JSON brackets."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "[{"
        depth -= char in "]}"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    return [p for p in parts if p.strip()]


def build_plan(plan_path: Path | None, specs: tuple[str, ...], rows: tuple[str, ...]) -> Plan:
    """The scoring plan of ``score``: the ``--plan`` file's entries, then each ``-e`` spec, with
    ``--rows NAME:SQL`` filters set on the entries they name."""
    entries: list[PlanEntry] = list(Plan.read(plan_path)) if plan_path is not None else []
    entries += [PlanEntry(parse_evaluator(spec)) for spec in specs]
    if not entries:
        raise click.UsageError(
            "no evaluators: give -e NAME (repeat for several) or --plan plan.toml; "
            "`xpert-frames evaluators` lists them"
        )
    names = [e.name for e in entries]
    seen: set[str] = set()
    for item in rows:
        name, sep, sql = item.partition(":")
        name = name.strip()
        if not sep or not name or not sql.strip():
            raise click.BadParameter(
                f"expected NAME:SQL, e.g. \"bleu: task = 'translation'\", got {item!r}",
                param_hint="'--rows'",
            )
        if name not in names:
            raise click.BadParameter(
                f"no evaluator named {name!r} to filter; evaluators: {names}."
                f"{did_you_mean(name, names)}",
                param_hint="'--rows'",
            )
        index = names.index(name)
        if name in seen or entries[index].text is not None:
            raise click.BadParameter(
                f"the rows of {name!r} are given twice; give each evaluator's rows once",
                param_hint="'--rows'",
            )
        seen.add(name)
        entries[index] = PlanEntry(entries[index].evaluator, sql.strip())
    return Plan(entries)


def columns_from(kwargs: dict[str, Any]) -> Columns:
    return Columns.of(**{role: kwargs[role] for role in ROLE_FLAGS if kwargs.get(role)})


def role_options(func: Any) -> Any:
    defaults = Columns()
    for role in reversed(ROLE_FLAGS):
        flag = "--" + role.replace("_", "-")
        func = click.option(
            flag,
            role,
            default=None,
            metavar="COLUMN",
            help=f"column holding the {role.replace('_', ' ')} "
            f"(default {getattr(defaults, role)!r})",
        )(func)
    return func


# --------------------------------------------------------------------------- --by
BY_HELP = (
    "column to group the report by; repeat for several (--by model --by answer_type). A value "
    "that is not a column name is split on commas (--by model,answer_type), so a column whose "
    "name holds a comma is named as it is (--by 'a,b')"
)


def group_columns(values: tuple[str, ...] | list[str], present: list[str]) -> list[str]:
    """The columns ``--by`` names: each value is a column name when the input has that column
    (commas included), else a comma-separated list of names. A column missing from the input
    is an error naming it; a column given twice is used once."""
    out: list[str] = []
    for value in values:
        parts = [value] if value in present else [c.strip() for c in value.split(",")]
        out.extend(p for p in parts if p and p not in out)
    missing = [c for c in out if c not in present]
    if missing:
        raise click.BadParameter(
            f"column(s) {missing} not in the input; columns present: {present}."
            f"{did_you_mean(missing[0], present)}",
            param_hint="'--by'",
        )
    return out
