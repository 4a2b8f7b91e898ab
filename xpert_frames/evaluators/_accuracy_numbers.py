"""Number reading for the accuracy evaluator: a minimal private parser.

Placeholder until the shared parser :mod:`xpert_frames.numbers` lands; same shape as its
``extract_number`` (struct ``{value, unit, rule}``) and ``parse_number``. Reads signs, decimals,
thousands separators, scientific notation and ``a/b``, after full-width folding.
"""

from __future__ import annotations

import polars as pl

from xpert_frames import text
from xpert_frames._typing import IntoExpr

_NUM = r"[-+−]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
_CANDIDATE = rf"{_NUM}(?:\s*/\s*{_NUM})?"
_WHOLE = rf"^\s*(?P<num>{_NUM})(?:\s*/\s*(?P<den>{_NUM}))?\s*$"
NUMBER_DTYPE = pl.Struct({"value": pl.Float64, "unit": pl.String, "rule": pl.String})


def _value(groups: pl.Expr) -> pl.Expr:
    def as_float(field: str) -> pl.Expr:
        raw = groups.struct.field(field).str.replace_all(",", "").str.replace("−", "-")
        return raw.cast(pl.Float64, strict=False)

    num, den = as_float("num"), as_float("den")
    return pl.when(den.is_null()).then(num).when(den != 0).then(num / den).otherwise(None)


def last_number(prediction: IntoExpr) -> pl.Expr:
    """The last number of the text: struct ``{value, unit, rule}`` (rule ``last``/``none``)."""
    norm = text.full_to_half(text.to_expr(prediction))
    last = norm.str.extract_all(_CANDIDATE).list.last()
    value = _value(last.str.extract_groups(_WHOLE))
    rule = pl.when(value.is_not_null()).then(pl.lit("last")).otherwise(pl.lit("none"))
    return pl.struct(
        value.alias("value"), pl.lit(None, pl.String).alias("unit"), rule.alias("rule")
    )


def whole_number(reference: IntoExpr) -> pl.Expr:
    """Float64 of a string that is exactly one number (else null)."""
    return _value(text.full_to_half(text.to_expr(reference)).str.extract_groups(_WHOLE))
