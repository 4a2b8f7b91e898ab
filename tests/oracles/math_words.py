"""Oracle side of the math rules added for real answers: references stated in words, clock
times and ratios, span forms before verification, exact rationals.

Each rule is the oracle's own, written apart from the package's and shown equal to it on the
test data and generated texts: references in words (:mod:`tests.oracles.math_worded`) and
the span forms fitted before verification (:mod:`tests.oracles.math_pair_forms`) by
tests/test_oracle_math_word_and_pair_forms.py, clock times, ratios and number lists
(:mod:`tests.oracles.math_times`) by tests/test_oracle_math_times.py. Exact rationals are
checked here with sympy directly."""

from __future__ import annotations

import itertools
import math
from typing import Any

from tests.oracles.math_pair_forms import fit_pair_of
from tests.oracles.math_times import colon_equal_of
from tests.oracles.math_worded import worded_answer_of, worded_equal_of, worded_kind_of

__all__ = ["colon_equal_of", "exact_differ", "fit_pair_of", "words"]


def words(prediction: str, answer: str) -> bool | None:
    """The worded rule's verdict, None when the reference is not worded."""
    if not any(
        a.isascii() and a.isalpha() and b.isascii() and b.isalpha()
        for a, b in itertools.pairwise(answer)
    ):
        return None
    kind = worded_kind_of(answer)
    if kind is None:
        return None
    return worded_equal_of(kind, worded_answer_of(prediction))


def _exact(value: Any) -> Any:
    import sympy

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
        bits = math.log2(abs(int(base)) or 1) if base.is_Integer else 64.0
        if abs(int(exp)) * max(1.0, bits) > 200_000:
            return None
    exact = value.doit()
    return exact if exact.is_Rational else None


def exact_differ(gold: Any, target: Any) -> bool:
    g, t = _exact(gold), _exact(target)
    return g is not None and t is not None and bool(g != t)
