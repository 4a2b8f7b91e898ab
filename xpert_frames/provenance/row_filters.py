"""The scoring plan's row filters in key-value metadata, beside the evaluators' configuration:
recorded as text, read back strictly validated (SQL is compiled by :mod:`xpert_frames.plans`,
never run as code here)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from xpert_frames.core.exceptions import ConfigurationError

#: Key-value metadata key of the scoring plan's row filters: a JSON object
#: ``{evaluator name: {"sql": text}}`` (a filter given as SQL, rebuilt with ``pl.sql_expr``) or
#: ``{evaluator name: {"polars": text}}`` (a Polars expression, recorded as its text for
#: reading only: it is never evaluated).
ROWS_KEY = "xpert_frames.rows"
_ROW_KINDS = ("sql", "polars")
_MAX_ROWS_TEXT = 10_000


def rows_metadata(rows: Mapping[str, tuple[str, str]]) -> dict[str, str]:
    """Key-value metadata recording row filters: ``{name: (kind, text)}``, kind ``"sql"`` or
    ``"polars"``; empty when there are none."""
    if not rows:
        return {}
    entries = {name: {kind: text} for name, (kind, text) in rows.items()}
    return {ROWS_KEY: json.dumps(entries, ensure_ascii=False, sort_keys=True)}


def read_rows(
    meta: Mapping[Any, Any] | None, where: str = "metadata"
) -> dict[str, tuple[str, str]]:
    """The row filters recorded in key-value metadata as ``{name: (kind, text)}`` (empty when
    none), strictly validated: a JSON object of evaluator names to ``{"sql": text}`` or
    ``{"polars": text}``. Anything else is a :class:`ConfigurationError`; the text is returned
    as text (SQL is compiled by :mod:`xpert_frames.plans` with ``pl.sql_expr``, never run as
    code)."""
    raw = None
    for key, value in (meta or {}).items():
        if (key.decode() if isinstance(key, bytes) else key) == ROWS_KEY:
            raw = value
    if raw is None:
        return {}
    problem = "expected a JSON object {evaluator name: {'sql' or 'polars': text}}"
    try:
        entries = json.loads(raw)
    except ValueError as exc:
        raise ConfigurationError(
            f"{where}: unreadable row filters under {ROWS_KEY!r}: {exc}"
        ) from None
    if not isinstance(entries, dict):
        raise ConfigurationError(f"{where}: row filters under {ROWS_KEY!r}: {problem}")
    out: dict[str, tuple[str, str]] = {}
    for name, entry in entries.items():
        ok = isinstance(entry, dict) and len(entry) == 1
        kind, text = next(iter(entry.items())) if ok else (None, None)
        if not (
            ok and kind in _ROW_KINDS and isinstance(text, str) and 0 < len(text) <= _MAX_ROWS_TEXT
        ):
            raise ConfigurationError(
                f"{where}: row filter of {name!r} under {ROWS_KEY!r}: {problem}, got {entry!r}"
            )
        out[name] = (str(kind), str(text))
    return out
