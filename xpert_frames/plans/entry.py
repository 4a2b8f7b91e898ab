"""One entry of a scoring plan: an evaluator and the rows it scores (:mod:`xpert_frames.plans`)."""

from __future__ import annotations

from typing import Any, TypeAlias

import polars as pl

from xpert_frames.core.exceptions import (
    ConfigurationError,
    EvaluatorTypeError,
    OptionTypeError,
)
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.registry import get_evaluator

#: A row filter: a Boolean Polars expression, SQL text for ``pl.sql_expr``, or ``None`` (every
#: row the answer-type rule allows).
RowsLike: TypeAlias = pl.Expr | str | None
#: An evaluator by registry name (default options) or as an instance.
EvaluatorLike: TypeAlias = str | BaseEvaluator


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
                raise OptionTypeError(
                    f"options {sorted(options)} go with a registry name, not an instance: "
                    f"PlanEntry({evaluator.key or evaluator.name!r}, {next(iter(options))}=...)"
                )
            self.evaluator = evaluator
        elif isinstance(evaluator, str):
            self.evaluator = get_evaluator(evaluator, **options)
        else:
            raise EvaluatorTypeError(
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
            raise OptionTypeError(
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
