"""JSON read from a file the user did not write, within bounds on size and nesting.

A deeply nested document would otherwise end in a ``RecursionError`` (or a crash) and a huge
one in memory exhaustion; both are refused here with a :class:`ConfigurationError` that says
which bound was passed. ``NaN`` and ``Infinity`` (not JSON) are refused too.
"""

from __future__ import annotations

import json
from typing import Any

from xpert_frames.core.exceptions import (
    ConfigurationError,
)


def _no_constant(name: str) -> Any:
    raise ConfigurationError(f"{name} is not a JSON value")


def load(raw: str | bytes, where: str, *, max_chars: int, max_depth: int) -> Any:
    """``raw`` parsed, or a :class:`ConfigurationError` starting with ``where``."""
    if len(raw) > max_chars:
        raise ConfigurationError(
            f"{where}: {len(raw):,} characters of JSON, more than the {max_chars:,} a "
            "configuration may have"
        )
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ConfigurationError(
            f"{where}: JSON nested more deeply than the {max_depth} levels a configuration has"
        ) from None
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ConfigurationError(f"{where}: not valid JSON: {exc}") from None
    check_depth(value, where, max_depth)
    return value


def check_depth(value: Any, where: str, max_depth: int) -> None:
    """Refuse lists and objects nested more than ``max_depth`` levels (iteratively)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, list | dict):
            if depth > max_depth:
                raise ConfigurationError(
                    f"{where}: JSON nested more deeply than the {max_depth} levels a "
                    "configuration has"
                )
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
