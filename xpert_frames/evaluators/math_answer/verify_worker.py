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

from math_verify import parse, verify  # imported once, before the worker says it is ready

logging.getLogger("math_verify").setLevel(logging.ERROR)  # "timeout is disabled" notice


def verify_pair(pair: tuple[str, str]) -> str:
    """``equal`` when Math-Verify finds the prediction equal to the reference, else
    ``different`` (also when either side parses to nothing)."""
    prediction, reference = pair
    gold = parse(reference, parsing_timeout=None)
    target = parse(prediction, parsing_timeout=None)
    equal = bool(gold) and bool(target) and verify(gold, target, timeout_seconds=None)
    return "equal" if equal else "different"
