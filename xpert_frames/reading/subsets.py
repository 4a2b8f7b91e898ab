"""Run a step of a reader only on the rows that can match it: every reader's rules are chained
this way (each rule on the rows that no earlier rule answered and that its trigger admits)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import polars as pl


def on_subset(
    df: pl.DataFrame,
    cond: pl.Expr | pl.Series,
    fn: Callable[[pl.DataFrame], pl.DataFrame],
    added: Mapping[str, pl.DataType] | None = None,
) -> pl.DataFrame:
    """``fn`` on the rows where ``cond`` (an expression, or a Boolean mask) holds; the other
    rows get null ``added`` columns. Row order changes (callers join or sort afterwards). ``fn``
    keeps the columns it is given in place and appends ``added`` in that order (so that no row
    needs no call: a call on an empty frame would still compile every regex)."""
    if isinstance(cond, pl.Series):
        mask = cond.fill_null(False)
    else:
        mask = df.select(cond.fill_null(False)).to_series()
    nulls = [pl.lit(None, dt).alias(k) for k, dt in (added or {}).items()]
    hits = mask.sum()
    if hits == df.height:  # no copy when all or no rows match
        return fn(df)
    if hits == 0:
        return df.with_columns(nulls)
    hit = fn(df.filter(mask))
    miss = df.filter(~mask).with_columns(nulls)
    return pl.concat([hit, miss.select(hit.columns)])
