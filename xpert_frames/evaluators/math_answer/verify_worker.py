"""The Math-Verify worker's handler (loaded by its path in a worker of
:mod:`xpert_frames.core.workers`, without this package, so the worker imports neither Polars nor
the caller's ``__main__``): one ``(prediction, reference)`` pair, ``equal`` or ``different``.

Math-Verify's own time limits are off: they use ``signal.alarm`` (main thread only) and turn a
timed-out parse into "nothing parsed" and a timed-out comparison into "not equal", a silent 0
that depends on how loaded the machine is. The worker's alarm answers "timeout" instead.
Only the standard library and Math-Verify are imported here.
"""

from __future__ import annotations

import logging
import math
import re
from typing import Any

from math_verify import parse, verify  # imported once, before the worker says it is ready

logging.getLogger("math_verify").setLevel(logging.ERROR)  # "timeout is disabled" notice

_OPENER = re.compile(r"\\(?:boxed|fbox)\s*\{")
#: The largest power (in bits) expanded to compare two exact values (:func:`exact_differ`).
MAX_BITS = 200_000


def _exact_rational(value: Any) -> Any:
    """The exact rational value of a number expression (a sympy one), else None."""
    import sympy  # type: ignore[import-untyped]  # Math-Verify's own dependency

    if isinstance(value, list | tuple):
        value = value[0] if value else None
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
    """True when both parsed values are exact rational numbers (no float, no symbol; powers up
    to :data:`MAX_BITS` bits expanded) whose exact values differ: Math-Verify compares numbers
    after rounding them, so ``2^{1009}/(2^{1009}+2018)`` and ``2^{1009}/(2^{1009}+1009)`` are
    "equal" to it."""
    g = _exact_rational(gold)
    if g is None:
        return False
    t = _exact_rational(target)
    return t is not None and bool(g != t)


def from_unclosed_box(text: str) -> str:
    """``text`` from its last ``\\boxed``/``\\fbox`` on when that box never closes, else
    ``text``: Math-Verify reads the last *well-formed* box, which there is an earlier answer the
    model went on to replace (``\\boxed{x^2}. Hmm, redo: \\boxed{x^{3``); from the last box on it
    reads that box or nothing (:mod:`xpert_frames.reading.boxes`: only the last box counts)."""
    start = max(text.rfind("\\boxed"), text.rfind("\\fbox"))
    if start < 0:
        return text
    opener = _OPENER.match(text, start)
    if opener is None:
        return text[start:]  # an opener without its brace
    depth = 0
    for ch in text[opener.end() - 1 :]:
        depth += 1 if ch == "{" else -1 if ch == "}" else 0
        if depth == 0:
            return text
    return text[start:]


def verify_pair(pair: tuple[str, str]) -> str:
    """``equal`` when Math-Verify finds the prediction equal to the reference, else
    ``different`` (also when either side parses to nothing). A prediction whose last box never
    closes is read from that box on (:func:`from_unclosed_box`)."""
    prediction, reference = pair
    prediction = from_unclosed_box(prediction)
    gold = parse(reference, parsing_timeout=None)
    target = parse(prediction, parsing_timeout=None)
    equal = bool(gold) and bool(target) and verify(gold, target, timeout_seconds=None)
    if equal:  # two different exact rationals are never equal by a rounding
        equal = not exact_differ(gold, target)
    return "equal" if equal else "different"
