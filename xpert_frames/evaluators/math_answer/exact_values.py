"""Exact values are compared exactly: Math-Verify compares numbers after rounding them
(``float_rounding``, ``numeric_precision``), so two different exact rationals that agree to
fifteen digits (``2^{1009}/(2^{1009}+2018)`` and ``2^{1009}/(2^{1009}+1009)``) are "equal"
to it. :func:`exact_differ` undoes such a verdict when both sides are exact rational numbers
(no float, no symbol; integers included, at any size) whose exact values differ. The powers
in them must have at most :data:`MAX_BITS` bits (``3^{2018^2}`` is not expanded: such a pair
keeps Math-Verify's verdict). Run inside the verification workers, on the pairs Math-Verify
called equal only."""

from __future__ import annotations

import math
from typing import Any

#: The largest power (in bits) expanded to compare two exact values.
MAX_BITS = 200_000


def _first_value(parsed: Any) -> Any:
    """The first parsed value of a Math-Verify ``parse`` result (a list), else None."""
    if isinstance(parsed, list | tuple):
        return parsed[0] if parsed else None
    return parsed


def _exact_rational(value: Any) -> Any:
    """The exact rational value of a number expression, else None."""
    import sympy  # type: ignore[import-untyped]

    if not isinstance(value, sympy.Basic) or not value.is_number:
        return None
    if value.atoms(sympy.Float) or value.is_rational is not True:
        return None
    for power in value.atoms(sympy.Pow):
        base, exp = power.as_base_exp()
        if not exp.is_Integer:
            return None
        # An integer base: its bits; another base (a sum, itself checked): a small exponent.
        bits = math.log2(abs(int(base)) or 1) if base.is_Integer else 64.0
        if abs(int(exp)) * max(1.0, bits) > MAX_BITS:
            return None
    exact = value.doit()
    return exact if exact.is_Rational else None


def exact_differ(gold: Any, target: Any) -> bool:
    """True when both are exact rational numbers and they differ."""
    g = _exact_rational(_first_value(gold))
    if g is None:
        return False
    t = _exact_rational(_first_value(target))
    return t is not None and bool(g != t)
