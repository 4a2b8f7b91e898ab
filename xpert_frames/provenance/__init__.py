"""The scoring configuration that travels with the scores.

A scored Parquet file (CLI, Ray output, :func:`write_scored`) or Arrow table (``xf.score`` of a
``pyarrow.Table``) carries, under the key-value metadata key :data:`METADATA_KEY`, a JSON list
with one entry per evaluator: its ``name``, ``class`` (``module:QualName``), ``registry`` name,
``options``, the ``package`` and ``version`` that define it, and its ``signature``. Reports
rebuild the evaluators from it, so a corpus metric is computed with the options the rows were
scored with: by registry name only (the ``class`` is never imported), with options checked
against the class before it is built, path-like text options refused, and the signature
compared (:mod:`~xpert_frames.provenance.rebuild`; bounds in
:data:`~xpert_frames.provenance.rebuild.MAX_CHARS` and its neighbours). The scoring plan's
row filters travel beside it under :data:`ROWS_KEY`
(:mod:`~xpert_frames.provenance.row_filters`). Writing the configuration is
:mod:`~xpert_frames.provenance.record`.
A table without it (a bare DataFrame) gives no configuration: a report then refuses
metrics that depend on options (see ``BaseEvaluator.report_options``) instead of guessing them.
"""

from xpert_frames.core.exceptions import ConfigurationError
from xpert_frames.provenance.rebuild import (
    build,
    from_metadata,
    merge,
    read_evaluators,
)
from xpert_frames.provenance.record import METADATA_KEY, describe, metadata, write_scored
from xpert_frames.provenance.row_filters import ROWS_KEY, read_rows, rows_metadata

__all__ = [
    "METADATA_KEY",
    "ROWS_KEY",
    "ConfigurationError",
    "build",
    "describe",
    "from_metadata",
    "merge",
    "metadata",
    "read_evaluators",
    "read_rows",
    "rows_metadata",
    "write_scored",
]
