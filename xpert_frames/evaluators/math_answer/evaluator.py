"""Math answers: the number (and unit) in the prediction against the reference's.

The number is found by :func:`xpert_frames.numeric.parse.extract_number` (``\\boxed{}`` → answer
statements → ``= n`` at the end → last number; or the first number with ``extract="first"``,
the seed's choice), in prediction and reference alike. Values are compared with the seed's rule:
absolute error when ``|reference| < tolerance``, else relative error, both ``<= tolerance``.

``normalize=True`` (default) reads full-width forms, Chinese numerals and fractions, LaTeX and
``×10^n``, compares units through their aliases (``千克`` = ``kg``), converts between known units
of one dimension when both sides have one (``1 km`` = ``1000 m``, ``90分钟`` = ``1.5 h``), and
accepts a percentage written with or without its sign (``50%`` matches ``50`` and ``0.5``).
``require_units=True`` also fails a row whose units differ and cannot be converted, or where
only one side has a unit. ``normalize=False`` turns all of that off: ASCII
numbers only, units compared as written, a percentage only as its value (``50%`` is 0.5).
"""

from __future__ import annotations

from typing import ClassVar

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.aliases import MathExtract
from xpert_frames.core.options import check_bool, check_choice, check_float
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.numeric.parse import EXTRACT_MODES, extract_number, parse_number_with_unit
from xpert_frames.numeric.units import canonical_unit, unit_dimension, unit_factor


def values_close(pred: pl.Expr, ref: pl.Expr, tolerance: float) -> pl.Expr:
    """The seed's rule: ``|p - r| <= tol`` when ``|r| < tol``, else ``|p - r| / |r| <= tol``
    (Boolean; null when either side is null). The relative test is written ``|p - r| <= tol·|r|``
    so that ``tolerance=0`` with a zero reference is exact equality (the seed divided by zero
    there and scored 0)."""
    diff = (pred - ref).abs()
    return (
        pl.when(ref.abs() < tolerance)
        .then(diff <= tolerance)
        .otherwise(diff <= tolerance * ref.abs())
    )


class MathEvaluator(BaseEvaluator):
    """Numeric answers: numbers, fractions, percentages, Chinese numerals and units."""

    key: ClassVar[str] = "math"
    metric: ClassVar[str] = "math_accuracy"
    binary_score: ClassVar[bool] = True
    answer_types: ClassVar[tuple[str, ...]] = ("number",)

    def __init__(
        self,
        *,
        tolerance: float = 1e-6,
        normalize: bool = True,
        require_units: bool = False,
        strict_format: bool = False,
        extract: MathExtract = "last",
        name: str | None = None,
    ) -> None:
        super().__init__(name=name)
        self.tolerance = check_float("tolerance", tolerance, low=0.0)
        self.normalize = check_bool("normalize", normalize)
        self.require_units = check_bool("require_units", require_units)
        self.strict_format = check_bool("strict_format", strict_format)
        self.extract = check_choice("extract", extract, EXTRACT_MODES)

    # ------------------------------------------------------------------ columns
    def prediction_number(self, prediction: str | pl.Expr = frames.PRED) -> pl.Expr:
        """Struct ``{value, unit, rule}`` read from the prediction under this evaluator's
        options (``strict_format``: the whole prediction must be one number, rule ``strict``)."""
        if not self.strict_format:
            return extract_number(prediction, mode=self.extract, normalize=self.normalize)  # type: ignore[arg-type]
        parsed = parse_number_with_unit(prediction, normalize=self.normalize)
        value = parsed.struct.field("value")
        rule = pl.when(value.is_not_null()).then(pl.lit("strict")).otherwise(pl.lit("none"))
        return pl.struct(value.alias("value"), parsed.struct.field("unit"), rule.alias("rule"))

    def reference_number(self, reference: str | pl.Expr = frames.ANSWER) -> pl.Expr:
        """Struct ``{value, unit, rule}`` read from the reference answer."""
        return extract_number(reference, mode=self.extract, normalize=self.normalize)  # type: ignore[arg-type]

    def prepare(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Read both numbers (and canonical units) once into temporary columns; :meth:`outputs`
        compares them with pure expressions."""
        pred, ref = self.temp("pred"), self.temp("ref")
        lf = lf.with_columns(
            self.prediction_number().alias(pred), self.reference_number().alias(ref)
        )
        if self.normalize:
            lf = lf.with_columns(
                canonical_unit(pl.col(pred).struct.field("unit")).alias(self.temp("pc")),
                canonical_unit(pl.col(ref).struct.field("unit")).alias(self.temp("rc")),
            )
        return lf

    def outputs(self) -> dict[str, pl.Expr]:
        """Expressions over the temporary columns that :meth:`prepare` adds."""
        pred, ref = pl.col(self.temp("pred")), pl.col(self.temp("ref"))
        pv, pu = pred.struct.field("value"), pred.struct.field("unit")
        rv, ru = ref.struct.field("value"), ref.struct.field("unit")
        return {
            "score": self._correct(pv, pu, rv, ru).fill_null(False).cast(pl.Float64),
            "value": pv,
            "unit": pu,
            "rule": pred.struct.field("rule"),
        }

    def _correct(self, pv: pl.Expr, pu: pl.Expr, rv: pl.Expr, ru: pl.Expr) -> pl.Expr:
        tol = self.tolerance
        if not self.normalize:
            ok = values_close(pv, rv, tol)
            return (ok & pu.eq_missing(ru)) if self.require_units else ok
        pc, rc = pl.col(self.temp("pc")), pl.col(self.temp("rc"))
        pf, rf = unit_factor(pc), unit_factor(rc)
        same = pc.eq_missing(rc)
        convertible = (
            ~same & unit_dimension(pc).eq(unit_dimension(rc)) & pf.is_not_null() & rf.is_not_null()
        ).fill_null(False)
        converted = convertible & values_close(pv * pf, rv * rf, tol)
        if self.require_units:
            return (same & values_close(pv, rv, tol)) | converted
        # A percentage against a bare number written as the same figure (50% and 50).
        p_pct, r_pct = pu.eq_missing(pl.lit("%")), ru.eq_missing(pl.lit("%"))
        alt_p = pl.when(p_pct & ~r_pct).then(pv * 100.0).otherwise(pv)
        alt_r = pl.when(r_pct & ~p_pct).then(rv * 100.0).otherwise(rv)
        plain = values_close(pv, rv, tol).fill_null(False) | values_close(alt_p, alt_r, tol)
        return pl.when(convertible).then(converted).otherwise(plain)
