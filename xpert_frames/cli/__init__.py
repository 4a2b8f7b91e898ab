"""The ``xpert-frames`` console script and the file I/O behind it (reading Parquet, JSONL and
CSV; atomic writes; progress).

Imported before anything loads Polars, the package asks Polars' allocator to keep freed pages
for reuse (:func:`xpert_frames.core.allocator.prefer_throughput`: a scoring job frees and
allocates the same memory again and again); ``_RJEM_MALLOC_CONF`` set by the user stands."""

from xpert_frames.core.allocator import prefer_throughput

prefer_throughput()
