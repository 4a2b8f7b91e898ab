"""What a report row is computed from: declared by evaluators, aggregated by ``report``.

Every metric reduces to *additive* per-group statistics, so a report over a whole table equals the
merge of reports over its parts (batches, files, Ray blocks) — exact, not sampled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class ColumnMetric:
    """The mean (with min, max, count, CI) of a per-row column, null rows counted as skipped.

    ``split`` names a column whose values split the metric into one row per value; ``metric``
    is then a template in which ``{}`` is replaced by the value (``"{}_accuracy"``).
    """

    metric: str
    column: str
    split: str | None = None
    #: 0/1 scores: Wilson interval. Otherwise a (Poisson) bootstrap interval. Declared, never
    #: guessed from the data, so every batch of a distributed report agrees.
    binary: bool = False
    #: Boolean column, false on rows the evaluator does not fit (counted as not applicable).
    applicable: str | None = None


@dataclass(frozen=True)
class CorpusMetric:
    """A metric computed from per-row statistics summed over the group (corpus BLEU).

    ``stats`` are per-row numeric expressions over the scored table (null on skipped rows);
    ``finalize`` maps an array of summed statistics, one row per group, to one score per group.
    ``column`` is the per-row score column whose nulls count as skipped.
    """

    metric: str
    column: str
    stats: tuple[pl.Expr, ...]
    finalize: Callable[[np.ndarray], np.ndarray]
    #: Boolean column, false on rows the evaluator does not fit (counted as not applicable).
    applicable: str | None = None
