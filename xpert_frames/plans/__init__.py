"""Scoring plans: which evaluator scores which rows, said once.

A :class:`Plan` is a list of :class:`PlanEntry`: an evaluator and, optionally, a row filter. The
filter is a Boolean Polars expression over the input's own columns (``pl.col("task") ==
"translation"``) or the same as SQL text (``"task = 'translation'"``, compiled by Polars' own
``pl.sql_expr``). Rows outside an evaluator's filter are not applicable to it, exactly as rows of
answer types it does not fit: null in its columns, ``false`` in ``<name>_applicable``, counted as
``not_applicable`` by reports. With an ``answer_type`` column both hold (the rule *and* the
filter); ``all_rows=True`` lifts the rule, never a filter.

Filters are evaluated row by row: a filter must not aggregate over the table
(``pl.col("score") > pl.col("score").mean()``), since the CLI and Ray score a table in chunks.

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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

import polars as pl

from xpert_frames import provenance, registry
from xpert_frames.core.exceptions import (
    ConfigurationError,
    EmptyInputError,
    EvaluatorTypeError,
)
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.plans import toml as plan_toml
from xpert_frames.plans.entry import EvaluatorLike, PlanEntry, RowsLike, compile_sql

#: Everything that says what to score: one evaluator, several, a mapping of registry names to row
#: filters, plan entries, or a plan.
PlanLike: TypeAlias = (
    "EvaluatorLike | PlanEntry | Plan | Mapping[str, RowsLike] "
    "| Sequence[EvaluatorLike | PlanEntry]"
)

__all__ = ["EvaluatorLike", "Plan", "PlanEntry", "PlanLike", "RowsLike", "compile_sql"]


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
            raise EvaluatorTypeError(
                "expected evaluator names or instances, a {name: rows} mapping, PlanEntry "
                f"objects or a Plan, got {type(evaluators).__name__}"
            )
        if not entries:
            raise EmptyInputError("no evaluators given; pass names such as ['fuzzy'] or instances")
        registry.refuse_shared_names([e.name for e in entries])
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
        return cls(plan_toml.read_entries(text, where))

    def to_toml(self) -> str:
        """The plan as TOML (:meth:`read` reads it back). A filter given as a Polars expression
        has no TOML form: write it as SQL text to save the plan."""
        return plan_toml.write_entries(self.entries)


# --------------------------------------------------------------------------- helpers
def _entry(item: Any) -> PlanEntry:
    if isinstance(item, PlanEntry):
        return item
    if isinstance(item, str | BaseEvaluator):
        return PlanEntry(item)
    raise EvaluatorTypeError(
        f"expected an evaluator name, a BaseEvaluator instance or a PlanEntry, got "
        f"{type(item).__name__}"
    )


def _entry_of_mapping(name: Any, rows: Any) -> PlanEntry:
    if not isinstance(name, str):
        raise EvaluatorTypeError(
            f"a plan mapping's keys are evaluator names (registry names), got {name!r}; for an "
            "instance use xf.PlanEntry(instance, rows=...)"
        )
    return PlanEntry(name, rows)
