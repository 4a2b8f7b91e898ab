"""Validation of evaluator options, called from ``__init__`` before any data is touched."""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from xpert_frames.core.exceptions import InvalidOptionError, OptionTypeError, did_you_mean


def check_bool(option: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise OptionTypeError(
            f"option {option!r} must be a bool, got {value!r} ({type(value).__name__})"
        )
    return value


def check_float(
    option: str,
    value: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
) -> float:
    """A real number (bools rejected) within ``[low, high]`` (``(low, high]`` if ``low_open``)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise OptionTypeError(
            f"option {option!r} must be a number, got {value!r} ({type(value).__name__})"
        )
    value = float(value)
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and value > high
    if math.isnan(value) or too_low or too_high:
        left = "(" if low_open else "["
        lo = "-inf" if low is None else repr(low)
        hi = "inf" if high is None else repr(high)
        raise InvalidOptionError(f"option {option!r} must be in {left}{lo}, {hi}], got {value!r}")
    return value


def check_fraction(option: str, value: Any) -> float:
    """A number in ``[0, 1]``: thresholds and weights."""
    return check_float(option, value, low=0.0, high=1.0)


def check_int(option: str, value: Any, *, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionTypeError(
            f"option {option!r} must be an int, got {value!r} ({type(value).__name__})"
        )
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidOptionError(f"option {option!r} must be in [{low}, {high}], got {value!r}")
    return value


def check_choice(option: str, value: Any, allowed: Collection[str]) -> str:
    if not isinstance(value, str):
        raise OptionTypeError(
            f"option {option!r} must be one of {sorted(allowed)}, "
            f"got {value!r} ({type(value).__name__})"
        )
    if value not in allowed:
        raise InvalidOptionError(
            f"option {option!r} must be one of {sorted(allowed)}, got {value!r}."
            f"{did_you_mean(value, allowed)}"
        )
    return value


def check_name(value: Any) -> str:
    """An evaluator name, used as the prefix of its output columns."""
    if not isinstance(value, str) or not value.strip() or value.startswith("__"):
        raise InvalidOptionError(
            f"option 'name' must be a non-empty string such as 'fuzzy_strict', not starting "
            f"with '__' "
            f"(it prefixes the output columns), got {value!r}"
        )
    return value
