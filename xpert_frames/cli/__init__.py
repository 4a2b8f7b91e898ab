"""The ``xpert-frames`` console script and the file I/O behind it (reading Parquet, JSONL and
CSV; atomic writes; progress)."""
