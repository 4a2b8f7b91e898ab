"""The same scores and the same reports on Ray Data, from one laptop to a cluster.

Import it explicitly (``from xpert_frames.ray_data import score_dataset``); ``import xpert_frames``
never imports Ray. Install with ``pip install 'xpert-frames[ray]'``.

- :func:`score_dataset` maps :class:`~xpert_frames.scoring.BatchScorer` over a dataset with a
  pool of actors: each worker process unpickles the evaluators once and keeps its per-process
  setup (jieba dictionary, tokenizers) for every batch it scores.
- :func:`report_dataset` reduces every batch to the additive statistics of
  :func:`xpert_frames.reporting.steps.partials`, adds them up on the driver and finalizes
  them: the report equals ``xf.report`` of the whole table (floating-point sums up to
  summation order).

The ``--engine ray`` CLI path (files in, one Parquet file out) is
:mod:`xpert_frames.cli.ray_engine`.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl
import pyarrow as pa

from xpert_frames import provenance
from xpert_frames.api import BatchScorer, EvaluatorLike, refuse_unknown_options
from xpert_frames.core import frames
from xpert_frames.core.exceptions import ConfigurationError, EmptyInputError, OptionTypeError
from xpert_frames.core.options import check_int
from xpert_frames.plans import PlanLike
from xpert_frames.registry import detect_evaluators, resolve_evaluators
from xpert_frames.reporting import intervals
from xpert_frames.reporting.report import (
    Metric,
    finalize,
    merge_partials,
    partials,
    report_plan,
)

try:
    import ray
    import ray.data
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "xpert_frames.ray_data needs Ray Data, which is not installed; "
        "install it with: pip install 'xpert-frames[ray]'"
    ) from exc

if TYPE_CHECKING:
    from xpert_frames.evaluators.base import BaseEvaluator

__all__ = ["BATCH_SIZE", "report_dataset", "score_dataset"]

#: Rows per batch. Below the jieba two-process threshold (``tokenize.pool.MIN_PARALLEL``), so a
#: worker actor never starts processes of its own, and small enough to bound worker memory.
BATCH_SIZE = 10_000
_SCHEMA_KEY = b"xpert_frames.schema"
_METRICS_KEY = b"xpert_frames.metrics"

Actors = int | tuple[int, int] | None


# --------------------------------------------------------------------------- scoring
class _ScoreBatches:
    """The callable class Ray Data instantiates once per worker actor."""

    def __init__(self, scorer: BatchScorer) -> None:
        self.scorer = scorer

    def __call__(self, batch: pa.Table) -> pa.Table:
        return self.scorer(batch)


def score_dataset(
    ds: ray.data.Dataset,
    evaluators: PlanLike,
    *,
    columns: frames.Columns | Mapping[str, str] | None = None,
    actors: Actors = None,
    batch_size: int = BATCH_SIZE,
    all_rows: bool = False,
    **names: str,
) -> ray.data.Dataset:
    """``ds`` with score columns appended, computed lazily by a pool of worker actors.

    Same arguments as :func:`xpert_frames.score` (names or instances, or a scoring plan with row
    filters, e.g. ``xf.Plan.read("plan.toml")``; column roles as keywords).
    ``actors`` is the pool size: an int, ``(min, max)`` to autoscale, or ``None`` for Ray's
    default (autoscaling from 1). Rows keep their input order only when the dataset's
    ``context.execution_options.preserve_order`` is set; otherwise blocks may come back in
    completion order (rows inside a block keep their order).

    >>> scored = score_dataset(ray.data.read_parquet("answers/"), ["fuzzy"])  # doctest: +SKIP
    """
    scorer = BatchScorer(evaluators, columns=columns, all_rows=all_rows, **names)
    schema = _known_schema(ds)
    if schema is not None:  # fail on the driver, before any worker starts
        scorer(schema.empty_table())
    return ds.map_batches(
        _ScoreBatches,
        fn_constructor_args=(scorer,),
        batch_format="pyarrow",
        batch_size=check_int("batch_size", batch_size, low=1),
        compute=_pool(actors),
        udf_modifying_row_count=False,
    )


def _pool(actors: Actors) -> ray.data.ActorPoolStrategy:
    if actors is None:
        return ray.data.ActorPoolStrategy(min_size=1, max_size=None)
    if isinstance(actors, tuple) and len(actors) == 2:
        low = check_int("actors[0]", actors[0], low=1)
        high = check_int("actors[1]", actors[1], low=low)
        return ray.data.ActorPoolStrategy(min_size=low, max_size=high)
    if isinstance(actors, int) and not isinstance(actors, bool):
        return ray.data.ActorPoolStrategy(size=check_int("actors", actors, low=1))
    raise OptionTypeError(f"actors must be an int, a (min, max) tuple or None, got {actors!r}")


def _known_schema(ds: ray.data.Dataset) -> pa.Schema | None:
    """The dataset's Arrow schema if Ray knows it without running anything, else ``None``."""
    return arrow_schema(ds.schema(fetch_if_missing=False))


def arrow_schema(schema: ray.data.Schema | None) -> pa.Schema | None:
    """A Ray schema as an Arrow schema (``None`` if unknown or not expressible in Arrow)."""
    if schema is None:
        return None
    base = schema.base_schema
    if isinstance(base, pa.Schema):
        return base
    types = schema.types
    if all(isinstance(t, pa.DataType) for t in types):  # pandas blocks with Arrow-typed columns
        return pa.schema(list(zip(schema.names, types, strict=True)))
    return None


# --------------------------------------------------------------------------- reports
def _plan(
    schema: pl.Schema,
    by: list[str],
    evaluators: list[BaseEvaluator] | None,
    metadata: Mapping[Any, Any] | None = None,
) -> list[Metric]:
    """Metrics of the evaluators given, else recorded in ``metadata`` (scored files, batches
    of ``score_dataset``), else found from the score columns (refusing option-dependent ones)."""
    evs = evaluators
    if evs is None:
        evs = provenance.from_metadata(metadata, "the scored dataset")
    if evs is None:
        evs = detect_evaluators(schema)
        refuse_unknown_options(evs)
    return report_plan(schema, by, evs)


def _partials_of(
    batch: pa.Table,
    by: list[str],
    evaluators: list[BaseEvaluator] | None,
) -> pa.Table:
    """One batch's additive statistics, with the batch schema and metric names as metadata."""
    metrics = _plan(frames.schema_of(batch), by, evaluators, batch.schema.metadata)
    out = partials(batch.replace_schema_metadata(None), by, metrics).to_arrow()
    return out.replace_schema_metadata(
        {
            _SCHEMA_KEY: base64.b64encode(batch.schema.serialize().to_pybytes()),
            _METRICS_KEY: json.dumps([m.metric for m in metrics]).encode(),
        }
    )


def report_dataset(
    ds: ray.data.Dataset,
    by: str | Sequence[str] | None = None,
    *,
    evaluators: Sequence[EvaluatorLike] | None = None,
    n_boot: int = intervals.N_BOOT,
    batch_size: int = BATCH_SIZE,
) -> pl.DataFrame:
    """``xf.report`` of a scored dataset, computed where the data is.

    Each batch is reduced to per-group sums, sums of squares, min, max, counts and bootstrap
    sums (corpus metrics: their summed statistics) by Ray tasks; only those small tables reach
    the driver, which merges and finalizes them. Exact, not sampled: counts, skipped, min and
    max equal ``xf.report`` of the whole table; means, standard errors and intervals agree to
    1e-12 relative (the same sums, added in another order). Evaluators are found from
    ``<name>_score`` columns unless given (pass them when one was registered at runtime: workers
    only know the evaluators their own import registers).
    """
    group = [by] if isinstance(by, str) else list(by or [])
    evs = resolve_evaluators(evaluators) if evaluators is not None else None
    n_boot = check_int("n_boot", n_boot, low=1)
    known = _known_schema(ds)
    if known is not None:  # fail on the driver, before any task starts
        _plan(_polars_schema(known), group, evs, known.metadata)
    parts = ds.map_batches(
        _partials_of,  # type: ignore[arg-type]  # Ray types the batch as a union of formats
        fn_kwargs={"by": group, "evaluators": evs},
        batch_format="pyarrow",
        batch_size=check_int("batch_size", batch_size, low=1),
    )
    tables = [t for t in ray.get(parts.to_arrow_refs()) if t.num_rows]
    if not tables:  # an empty dataset: the report of an empty table
        return _empty_report(ds, group, evs, n_boot)
    metrics = _driver_metrics(tables, group, evs)
    merged = merge_partials([pl.DataFrame(t.replace_schema_metadata(None)) for t in tables])
    return finalize(merged, metrics, n_boot=n_boot)


def _driver_metrics(
    tables: list[pa.Table], by: list[str], evaluators: list[BaseEvaluator] | None
) -> list[Metric]:
    """The workers' metric list, rebuilt here from the batch schema they sent back."""
    meta = [t.schema.metadata or {} for t in tables]
    if any(_SCHEMA_KEY not in m for m in meta):
        raise RuntimeError("a partial report came back without its batch schema (Ray bug?)")
    names = {m[_METRICS_KEY] for m in meta}
    if len(names) > 1:
        raise ConfigurationError(
            "batches of the dataset have different score columns, so their reports cannot be "
            f"merged: {sorted(n.decode() for n in names)}"
        )
    arrow = pa.ipc.read_schema(pa.py_buffer(base64.b64decode(meta[0][_SCHEMA_KEY])))
    metrics = _plan(_polars_schema(arrow), by, evaluators, arrow.metadata)
    if json.dumps([m.metric for m in metrics]).encode() not in names:
        raise ConfigurationError(
            "the Ray workers found different evaluators for the score columns than this process "
            "(an evaluator registered at runtime?); pass evaluators=[...] to report_dataset"
        )
    return metrics


def _empty_report(
    ds: ray.data.Dataset, by: list[str], evs: list[BaseEvaluator] | None, n_boot: int
) -> pl.DataFrame:
    schema = arrow_schema(ds.schema())
    if schema is None:
        raise EmptyInputError("cannot report on an empty dataset whose schema Ray does not know")
    empty = schema.empty_table()
    metrics = _plan(frames.schema_of(empty), by, evs, schema.metadata)
    return finalize(partials(empty, by, metrics), metrics, n_boot=n_boot)


def _polars_schema(schema: pa.Schema) -> pl.Schema:
    return frames.schema_of(schema.empty_table())
