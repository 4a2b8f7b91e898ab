"""Scoring plans: which evaluator scores which rows, said once.

A :class:`Plan` is a list of :class:`PlanEntry`: an evaluator and, optionally, a row filter. The
filter is a Boolean Polars expression over the input's own columns (``pl.col("task") ==
"translation"``) or the same as SQL text (``"task = 'translation'"``, compiled by Polars' own
``pl.sql_expr``). Rows outside an evaluator's filter are not applicable to it, exactly as rows of
answer types it does not fit: null in its columns, ``false`` in ``<name>_applicable``, counted as
``not_applicable`` by reports. With an ``answer_type`` column both hold (the rule *and* the
filter); ``all_rows=True`` lifts the rule, never a filter.

Filters are evaluated row by row: a filter must not aggregate over the table
(``pl.col("x") > pl.col("x").mean()``), since the CLI and Ray score a table in chunks.

The same plan is written three ways:

- in Python: ``xf.score(df, {"bleu": pl.col("task") == "translation", "accuracy": None})``, or
  ``xf.Plan([xf.PlanEntry("fuzzy", rows="task = 'translation'", threshold=0.8), "math"])``;
- on the command line: ``-e bleu --rows "bleu: task = 'translation'"``;
- in a TOML file (``--plan plan.toml``, :meth:`Plan.read`), one table per evaluator::

    [evaluators.bleu]
    rows = "task = 'translation'"

    [evaluators.fuzzy_strict]          # the evaluator's name (its columns' prefix)
    evaluator = "fuzzy"                # registry name; default: the table's name
    options = { threshold = 0.9 }
    rows = "task = 'translation'"

A scored Parquet file records the plan: the evaluators (:mod:`xpert_frames.provenance`) and the
row filters as text under :data:`~xpert_frames.provenance.ROWS_KEY`; :meth:`Plan.from_scored`
rebuilds it (SQL text is compiled with ``pl.sql_expr``; nothing read from a file is run as code).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

import polars as pl

from xpert_frames import provenance
from xpert_frames.core.exceptions import ConfigurationError, DuplicateColumnError, did_you_mean
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.registry import get_evaluator

#: A row filter: a Boolean Polars expression, SQL text for ``pl.sql_expr``, or ``None`` (every
#: row the answer-type rule allows).
RowsLike: TypeAlias = pl.Expr | str | None
#: An evaluator by registry name (default options) or as an instance.
EvaluatorLike: TypeAlias = str | BaseEvaluator
#: Everything that says what to score: one evaluator, several, a mapping of registry names to row
#: filters, plan entries, or a plan.
PlanLike: TypeAlias = (
    "EvaluatorLike | PlanEntry | Plan | Mapping[str, RowsLike] "
    "| Sequence[EvaluatorLike | PlanEntry]"
)

__all__ = ["EvaluatorLike", "Plan", "PlanEntry", "PlanLike", "RowsLike", "compile_sql"]

_ENTRY_KEYS = ("evaluator", "options", "rows")


def compile_sql(text: str, where: str = "row filter") -> pl.Expr:
    """SQL predicate text as a Polars expression (``pl.sql_expr``); a clear error otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise ConfigurationError(
            f"{where}: expected a SQL predicate such as \"task = 'translation'\", got {text!r}"
        )
    try:
        return pl.sql_expr(text)
    except pl.exceptions.PolarsError as exc:
        raise ConfigurationError(
            f"{where}: cannot read {text!r} as a SQL predicate ({exc}); write one such as "
            "\"task = 'translation'\" or \"task IN ('math', 'short_answer')\""
        ) from None


class PlanEntry:
    """One evaluator of a plan and the rows it scores.

    ``evaluator`` is a registry name (``options`` as keywords, e.g. ``threshold=0.8``,
    ``name="fuzzy_strict"``) or an instance. ``rows`` is a Boolean Polars expression over the
    input's columns, SQL text (compiled now by ``pl.sql_expr``, so a typo fails here), or
    ``None`` for no filter.

    Examples
    --------
    >>> import polars as pl, xpert_frames as xf
    >>> xf.PlanEntry("bleu", rows="task = 'translation'")
    PlanEntry('bleu', rows="task = 'translation'")
    >>> xf.PlanEntry("fuzzy", rows=pl.col("task") == "translation", threshold=0.8).evaluator
    FuzzyEvaluator(name='fuzzy', threshold=0.8, ...)
    """

    __slots__ = ("evaluator", "rows", "sql", "text")

    evaluator: BaseEvaluator
    #: The filter as an expression (``None``: no filter, or one recorded only as text).
    rows: pl.Expr | None
    #: The filter's SQL text, when it was given as SQL.
    sql: str | None
    #: The filter as written: its SQL, or the text of the Polars expression.
    text: str | None

    def __init__(self, evaluator: EvaluatorLike, rows: RowsLike = None, **options: Any) -> None:
        if isinstance(evaluator, BaseEvaluator):
            if options:
                raise TypeError(
                    f"options {sorted(options)} go with a registry name, not an instance: "
                    f"PlanEntry({evaluator.key or evaluator.name!r}, {next(iter(options))}=...)"
                )
            self.evaluator = evaluator
        elif isinstance(evaluator, str):
            self.evaluator = get_evaluator(evaluator, **options)
        else:
            raise TypeError(
                "PlanEntry takes an evaluator name or a BaseEvaluator instance, got "
                f"{type(evaluator).__name__}"
            )
        where = f"rows of evaluator {self.evaluator.name!r}"
        if rows is None:
            self.rows, self.sql, self.text = None, None, None
        elif isinstance(rows, pl.Expr):
            self.rows, self.sql, self.text = rows, None, str(rows)
        elif isinstance(rows, str):
            self.rows, self.sql, self.text = compile_sql(rows, where), rows, rows
        else:
            raise TypeError(
                f"{where}: expected a Boolean pl.Expr, SQL text or None, got {type(rows).__name__}"
            )

    @classmethod
    def _recorded(cls, evaluator: BaseEvaluator, kind: str, text: str, where: str) -> PlanEntry:
        """An entry rebuilt from recorded text: SQL is compiled, Polars text is kept as text."""
        if kind == "sql":
            entry = cls(evaluator)
            entry.rows, entry.sql, entry.text = compile_sql(text, where), text, text
            return entry
        entry = cls(evaluator)
        entry.text = text
        return entry

    @property
    def name(self) -> str:
        return self.evaluator.name

    def __repr__(self) -> str:
        name = self.evaluator.key or self.evaluator.name
        target = repr(name) if self.evaluator == _default(name) else repr(self.evaluator)
        if self.rows is not None and self.sql is None:
            return f"PlanEntry({target}, rows=<pl.Expr {self.text}>)"
        return f"PlanEntry({target}, rows={self.text!r})" if self.text else f"PlanEntry({target})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PlanEntry)
            and self.evaluator == other.evaluator
            and self.text == other.text
        )

    __hash__ = None  # type: ignore[assignment]


def _default(name: str) -> BaseEvaluator | None:
    try:
        return get_evaluator(name)
    except (KeyError, ValueError, TypeError):
        return None


class Plan:
    """Which evaluator scores which rows: an ordered list of :class:`PlanEntry` with distinct
    names. Built from anything :func:`xpert_frames.score` takes.

    Examples
    --------
    >>> import polars as pl, xpert_frames as xf
    >>> plan = xf.Plan({"accuracy": None, "bleu": pl.col("task") == "translation"})
    >>> [e.name for e in plan], plan.sql()
    (['accuracy', 'bleu'], {})
    >>> xf.Plan(["math", xf.PlanEntry("bleu", rows="task = 'translation'")]).sql()
    {'bleu': "task = 'translation'"}
    """

    __slots__ = ("entries",)

    entries: tuple[PlanEntry, ...]

    def __init__(self, evaluators: PlanLike) -> None:
        if isinstance(evaluators, Plan):
            entries: list[PlanEntry] = list(evaluators.entries)
        elif isinstance(evaluators, Mapping):
            entries = [_entry_of_mapping(k, v) for k, v in evaluators.items()]
        elif isinstance(evaluators, str | BaseEvaluator | PlanEntry):
            entries = [_entry(evaluators)]
        elif isinstance(evaluators, Iterable):
            entries = [_entry(item) for item in evaluators]
        else:
            raise TypeError(
                "expected evaluator names or instances, a {name: rows} mapping, PlanEntry "
                f"objects or a Plan, got {type(evaluators).__name__}"
            )
        if not entries:
            raise ValueError("no evaluators given; pass names such as ['fuzzy'] or instances")
        names = [e.name for e in entries]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise DuplicateColumnError(
                f"two evaluators share the name(s) {dupes}; give one a different name, "
                "e.g. get_evaluator('fuzzy', threshold=0.8, name='fuzzy_strict')"
            )
        self.entries = tuple(entries)

    # ------------------------------------------------------------------ reading
    @property
    def evaluators(self) -> list[BaseEvaluator]:
        return [e.evaluator for e in self.entries]

    def filters(self) -> dict[str, pl.Expr]:
        """The row filters to apply, by evaluator name. A filter recorded only as the text of
        a Polars expression cannot be applied again: that is an error, never all rows."""
        out: dict[str, pl.Expr] = {}
        for entry in self.entries:
            if entry.rows is not None:
                out[entry.name] = entry.rows
            elif entry.text is not None:
                raise ConfigurationError(
                    f"the rows of evaluator {entry.name!r} were recorded as the text of a Polars "
                    f"expression ({entry.text}), which is never run from a file; give the "
                    "filter again (a pl.Expr, or SQL text, which can be rebuilt)"
                )
        return out

    def sql(self) -> dict[str, str]:
        """The filters given as SQL text, by evaluator name."""
        return {e.name: e.sql for e in self.entries if e.sql is not None}

    def describe_rows(self) -> dict[str, str]:
        """Every filter as text (SQL as written; a Polars expression as Polars prints it)."""
        return {e.name: e.text for e in self.entries if e.text is not None}

    def __iter__(self) -> Iterator[PlanEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plan) and self.entries == other.entries

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Plan({list(self.entries)!r})"

    # ------------------------------------------------------------------ metadata
    def metadata(self) -> dict[str, str]:
        """Key-value metadata recording the plan: the evaluators and their row filters."""
        return provenance.metadata(self.evaluators) | provenance.rows_metadata(self._recorded())

    def merge_metadata(self, existing: Mapping[Any, Any] | None) -> dict[str, str]:
        """``existing`` metadata (a table scored before) plus this plan."""
        out = provenance.merge(existing, self.evaluators)
        rows = provenance.read_rows(existing, "the table's metadata") | self._recorded()
        out.pop(provenance.ROWS_KEY, None)
        return out | provenance.rows_metadata(rows)

    def _recorded(self) -> dict[str, tuple[str, str]]:
        return {
            e.name: ("sql", e.sql) if e.sql is not None else ("polars", e.text)
            for e in self.entries
            if e.text is not None
        }

    @classmethod
    def from_metadata(cls, meta: Mapping[Any, Any] | None, where: str = "metadata") -> Plan | None:
        """The plan recorded in key-value metadata (``None`` when no evaluators are)."""
        evaluators = provenance.from_metadata(meta, where)
        if evaluators is None:
            return None
        return cls._rebuilt(evaluators, provenance.read_rows(meta, where), where)

    @classmethod
    def from_scored(cls, path: str | Path | Sequence[str | Path]) -> Plan | None:
        """The plan recorded in scored Parquet files (``None`` when they record none). Files
        with different row filters cannot be read as one plan."""
        paths = [path] if isinstance(path, str | Path) else list(path)
        evaluators = provenance.read_evaluators(paths)
        if evaluators is None:
            return None
        found = {str(p): pl.read_parquet_metadata(p).get(provenance.ROWS_KEY) for p in paths}
        distinct = {json.dumps(v): p for p, v in found.items()}
        if len(distinct) > 1:
            a, b = list(distinct.values())[:2]
            raise ConfigurationError(
                f"{a} and {b} were scored with different row filters; report on them separately"
            )
        first = str(paths[0])
        meta = {provenance.ROWS_KEY: found[first]} if found[first] is not None else {}
        return cls._rebuilt(evaluators, provenance.read_rows(meta, first), first)

    @classmethod
    def _rebuilt(
        cls, evaluators: list[BaseEvaluator], rows: dict[str, tuple[str, str]], where: str
    ) -> Plan:
        names = [ev.name for ev in evaluators]
        unknown = [n for n in rows if n not in names]
        if unknown:
            raise ConfigurationError(
                f"{where}: row filters for {unknown}, which are not among the recorded "
                f"evaluators {names}"
            )
        return cls(
            [
                PlanEntry._recorded(ev, *rows[ev.name], f"{where}: rows of {ev.name!r}")
                if ev.name in rows
                else PlanEntry(ev)
                for ev in evaluators
            ]
        )

    # ------------------------------------------------------------------ TOML
    @classmethod
    def read(cls, path: str | Path) -> Plan:
        """The plan in a TOML file (see the module docs for its shape)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigurationError(f"cannot read plan file {str(path)!r}: {exc}") from None
        return cls.from_toml(text, where=str(path))

    @classmethod
    def from_toml(cls, text: str, *, where: str = "plan") -> Plan:
        """The plan in TOML text: one ``[evaluators.NAME]`` table per evaluator, with optional
        ``evaluator`` (registry name, default ``NAME``), ``options`` (a table) and ``rows``
        (SQL text). Anything else is a :class:`ConfigurationError` naming it."""
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
        return cls([_toml_entry(name, table, where) for name, table in tables.items()])

    def to_toml(self) -> str:
        """The plan as TOML (:meth:`read` reads it back). A filter given as a Polars expression
        has no TOML form: write it as SQL text to save the plan."""
        lines: list[str] = []
        for entry in self.entries:
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


# --------------------------------------------------------------------------- helpers
def _entry(item: Any) -> PlanEntry:
    if isinstance(item, PlanEntry):
        return item
    if isinstance(item, str | BaseEvaluator):
        return PlanEntry(item)
    raise TypeError(
        f"expected an evaluator name, a BaseEvaluator instance or a PlanEntry, got "
        f"{type(item).__name__}"
    )


def _entry_of_mapping(name: Any, rows: Any) -> PlanEntry:
    if not isinstance(name, str):
        raise TypeError(
            f"a plan mapping's keys are evaluator names (registry names), got {name!r}; for an "
            "instance use xf.PlanEntry(instance, rows=...)"
        )
    return PlanEntry(name, rows)


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
