"""Paired comparison of models on the same items: the question users actually ask."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.aliases import Frame
from xpert_frames.core.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    EmptyInputError,
    InvalidOptionError,
    did_you_mean,
)
from xpert_frames.reporting import intervals

if TYPE_CHECKING:
    import numpy as np

_CHUNK = 100


def _score_column(schema: pl.Schema, metric: str) -> str:
    for candidate in (metric, f"{metric}_score"):
        if candidate in schema:
            dtype = schema[candidate]
            if not (dtype.is_numeric() or dtype == pl.Boolean):
                raise ColumnTypeError(candidate, "metric", "a numeric score column", dtype)
            return candidate
    raise ColumnNotFoundError(f"{metric}_score", "metric", schema.names())


def compare(
    scored: Frame,
    model: str = "model",
    metric: str = "accuracy",
    *,
    on: str | Sequence[str] = "question_id",
    baseline: str | None = None,
    n_boot: int = intervals.N_BOOT,
    seed: int = 0,
) -> pl.DataFrame:
    """Each model against ``baseline`` on the items both answered (rows matched on ``on``).

    ``metric`` is an evaluator name (its ``<name>_score`` column) or a column name. Per item the
    difference ``model − baseline`` is taken (skipped rows drop the item from that pair); the
    result gives both means, the mean difference, a paired bootstrap 95% interval (items
    resampled, ``n_boot`` replicates, seeded) and a two-sided bootstrap p-value for "no
    difference" (the share of centred replicates at least as far from 0 as the observed mean).
    ``baseline`` defaults to the first model in sorted order.
    """
    lf = frames.to_lazy(scored)
    keys = [on] if isinstance(on, str) else list(on)
    data, column = _per_item(lf, model, metric, keys)
    models = sorted(m for m in data[model].unique().to_list() if m is not None)
    baseline = _baseline(models, baseline, model)
    base = data.filter(pl.col(model) == baseline).drop(model).rename({column: "__base"})
    rows = []
    for name in models:
        if name == baseline:
            continue
        pair = (
            data.filter(pl.col(model) == name)
            .join(base, on=keys, how="inner", nulls_equal=True, maintain_order="left")
            .drop_nulls([column, "__base"])
        )
        rows.append(
            {
                "model": name,
                "baseline": baseline,
                **_paired_draws(pair[column], pair["__base"], n_boot, seed, name),
            }
        )
    return pl.DataFrame(rows, schema=_OUTPUT, orient="row")


_OUTPUT = {
    "model": pl.String,
    "baseline": pl.String,
    "items": pl.Int64,
    "score": pl.Float64,
    "baseline_score": pl.Float64,
    "diff": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "p_value": pl.Float64,
}


def _per_item(
    lf: pl.LazyFrame, model: str, metric: str, keys: list[str]
) -> tuple[pl.DataFrame, str]:
    """One score per (item, model): the mean of repeated answers, in a fixed item order (the
    bootstrap is seeded), and the score column it came from."""
    schema = lf.collect_schema()
    for column in [model, *keys]:
        if column not in schema:
            raise ColumnNotFoundError(column, "compare key", schema.names())
    column = _score_column(schema, metric)
    data = (
        lf.select(*keys, pl.col(model).cast(pl.String), pl.col(column).cast(pl.Float64))
        .group_by([*keys, model])
        .agg(pl.col(column).mean())
        .sort([*keys, model], nulls_last=True)
        .collect()
    )
    return data, column


def _baseline(models: list[str], baseline: str | None, model: str) -> str:
    if baseline is None:
        if not models:
            raise EmptyInputError(f"column {model!r} has no models to compare")
        return models[0]
    if baseline not in models:
        raise InvalidOptionError(
            f"baseline {baseline!r} not among the models {models}.{did_you_mean(baseline, models)}"
        )
    return baseline


def _paired_draws(
    scores: pl.Series, base: pl.Series, n_boot: int, seed: int, name: str
) -> dict[str, float | int | None]:
    import numpy as np

    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])  # per model: independent
    return _paired(scores.to_numpy(), base.to_numpy(), n_boot, rng)


def _paired(a: np.ndarray, b: np.ndarray, n_boot: int, rng: np.random.Generator) -> dict:
    import numpy as np

    n = len(a)
    if n == 0:
        return {
            "items": 0,
            "score": None,
            "baseline_score": None,
            "diff": None,
            "ci_low": None,
            "ci_high": None,
            "p_value": None,
        }
    d = a - b
    observed = float(d.mean())
    replicates = np.empty(n_boot)
    for start in range(0, n_boot, _CHUNK):  # bounded memory: _CHUNK × n indices at a time
        size = min(_CHUNK, n_boot - start)
        idx = rng.integers(0, n, size=(size, n))
        replicates[start : start + size] = d[idx].mean(axis=1)
    low, high = np.percentile(replicates, [2.5, 97.5])
    centred = replicates - observed
    p = float(np.mean(np.abs(centred) >= abs(observed) - 1e-15)) if observed else 1.0
    return {
        "items": n,
        "score": float(a.mean()),
        "baseline_score": float(b.mean()),
        "diff": observed,
        "ci_low": float(low),
        "ci_high": float(high),
        "p_value": p,
    }
