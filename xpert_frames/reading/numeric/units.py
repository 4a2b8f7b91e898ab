"""Units after a number: the alias table (``data/units.csv``) and expressions over it.

Each row of the table is ``alias, canonical, dimension, factor``: ``千克`` and ``kilograms`` are
both ``kg`` (dimension ``mass``); ``factor`` converts the canonical unit to the dimension's base
unit (``km`` → 1000 m) and is empty where no linear conversion exists (``°C``, ``%``, counters).
The table is data, read once on first use.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass

import polars as pl

from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.text import to_expr


@dataclass(frozen=True, slots=True)
class UnitTable:
    """Aliases and their canonical unit, dimension and base factor."""

    canonical: dict[str, str]
    dimension: dict[str, str]
    factor: dict[str, float]

    @property
    def aliases(self) -> list[str]:
        return list(self.canonical)


@functools.cache
def unit_table() -> UnitTable:
    """The shipped unit table (``xpert_frames/data/units.csv``)."""
    from importlib.resources import files  # only on first use: keeps the import light

    text = files("xpert_frames").joinpath("data/units.csv").read_text(encoding="utf-8")
    canonical: dict[str, str] = {}
    dimension: dict[str, str] = {}
    factor: dict[str, float] = {}
    for row in csv.DictReader(text.splitlines()):
        alias, canon = row["alias"], row["canonical"]
        canonical[alias] = canon
        dimension[canon] = row["dimension"]
        if row["factor"]:
            factor[canon] = float(row["factor"])
    return UnitTable(canonical, dimension, factor)


#: What :func:`unit_info` gives for each unit.
UNIT_INFO = pl.Struct({"canonical": pl.String, "dimension": pl.String, "factor": pl.Float64})


@functools.cache
def _info_table() -> pl.DataFrame:
    """``{unit, canonical, dimension, factor}`` for every alias and canonical name."""
    table = unit_table()
    units = sorted(set(table.canonical) | set(table.dimension))
    canonical = [table.canonical.get(u, u) for u in units]
    return pl.DataFrame(
        {
            "unit": units,
            "canonical": canonical,
            "dimension": [table.dimension.get(c) for c in canonical],
            "factor": [table.factor.get(c) for c in canonical],
        },
        schema={"unit": pl.String, **UNIT_INFO.to_schema()},
    )


def _info_batch(values: pl.Series) -> pl.Series:
    """Each distinct unit looked up once (a batch holds a handful), then gathered by the
    unit's index among them (nulls: null fields)."""
    values = values.cast(pl.String)
    units = values.drop_nulls().unique()
    info = units.to_frame("unit").join(_info_table(), on="unit", how="left", maintain_order="left")
    info = info.select(pl.coalesce("canonical", "unit").alias("canonical"), "dimension", "factor")
    frame = info[values.cast(pl.Enum(units.to_list())).to_physical()]
    return frame.select(pl.struct(info.columns).alias(values.name)).to_series()


def unit_info(unit: IntoExpr) -> pl.Expr:
    """Struct ``{canonical, dimension, factor}`` of a unit: its canonical spelling (``千克`` →
    ``kg``; an unknown unit as written), that unit's dimension (``length``, ``mass`` …; null
    if unknown) and its factor to the dimension's base unit, in one lookup per batch (null
    unit: null fields)."""
    return to_expr(unit).map_batches(_info_batch, return_dtype=UNIT_INFO, is_elementwise=True)
