"""How the math evaluator compares what it read: numbers by the seed's tolerance rule (units,
percentages, exact keys of integers) and, inside the parts read side by side, every column
:meth:`~xpert_frames.evaluators.math_answer.evaluator.MathEvaluator.outputs` needs but the
symbolic step's outcome (:func:`compare`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from xpert_frames.core import frames
from xpert_frames.evaluators.math_answer import as_written as written
from xpert_frames.evaluators.math_answer import pair_forms, set_forms, times, worded
from xpert_frames.reading.numeric import exact

if TYPE_CHECKING:
    from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator

_WHOLE_BELOW = exact.WHOLE_BELOW


def values_close(
    pred: pl.Expr,
    ref: pl.Expr,
    tolerance: float,
    pred_key: pl.Expr | None = None,
    ref_key: pl.Expr | None = None,
) -> pl.Expr:
    """The seed's rule: ``|p - r| <= tol`` when ``|r| < tol``, else ``|p - r| / |r| <= tol``
    (Boolean; null when either side is null). The relative test is written ``|p - r| <= tol·|r|``
    so that ``tolerance=0`` with a zero reference is exact equality (the seed divided by zero
    there and scored 0). Two whole numbers below 2**53 must be equal; where both ``pred_key``
    and ``ref_key`` are given (:func:`~xpert_frames.reading.numeric.exact.exact_keys`: integers at
    or
    above 2**53 or beyond Float64) their keys must be equal, and a number beyond Float64 with
    a key equals nothing without one (an infinity, a finite number)."""
    diff = (pred - ref).abs()
    close = (
        pl.when(ref.abs() < tolerance)
        .then(diff <= tolerance)
        .otherwise(diff <= tolerance * ref.abs())
    )
    whole = (pred.round(0) == pred) & (ref.round(0) == ref) & (ref.abs() < _WHOLE_BELOW)
    # Infinities are equal or not (inf <= tol·inf would pass any number).
    exact_ = (whole & (pred.abs() < _WHOLE_BELOW)) | ref.is_infinite() | pred.is_infinite()
    out = pl.when(exact_).then(pred == ref).otherwise(close)
    if pred_key is None or ref_key is None:
        return out
    both = pred_key.is_not_null() & ref_key.is_not_null()
    one = pred_key.is_not_null() | ref_key.is_not_null()
    beyond = pl.when(pred_key.is_not_null()).then(exact.beyond_float(pred)).otherwise(
        pl.lit(False)
    ) | pl.when(ref_key.is_not_null()).then(exact.beyond_float(ref)).otherwise(pl.lit(False))
    return pl.when(both).then(pred_key == ref_key).when(one & beyond).then(False).otherwise(out)


def numbers_equal(
    ev: MathEvaluator, pv: pl.Expr, pu: pl.Expr, rv: pl.Expr, ru: pl.Expr, pt: pl.Expr, rt: pl.Expr
) -> pl.Expr:
    """Whether the prediction's number (value ``pv``, unit ``pu``, exact key ``pt``) is the
    reference's (``rv``, ``ru``, ``rt``) under ``ev``'s options: :func:`values_close`, units
    converted within a dimension, a percentage against the same figure without its sign."""
    tol = ev.tolerance
    if not ev.normalize:
        ok = values_close(pv, rv, tol, pt, rt)
        return (ok & pu.eq_missing(ru)) if ev.require_units else ok
    # Canonical unit, dimension and factor of each side, looked up once (prepare).
    p_info, r_info = (
        pl.col(ev.temp("prediction_unit_info")).struct,
        pl.col(ev.temp("reference_unit_info")).struct,
    )
    pc, rc = p_info.field("canonical"), r_info.field("canonical")
    pf, rf = p_info.field("factor"), r_info.field("factor")
    same = pc.eq_missing(rc)
    dimensions = p_info.field("dimension").eq(r_info.field("dimension"))
    convertible = (~same & dimensions & pf.is_not_null() & rf.is_not_null()).fill_null(False)
    converted = convertible & values_close(pv * pf, rv * rf, tol)
    if ev.require_units:
        return (same & values_close(pv, rv, tol, pt, rt)) | converted
    # A percentage against a bare number written as the same figure (50% and 50).
    p_pct, r_pct = pu.eq_missing(pl.lit("%")), ru.eq_missing(pl.lit("%"))
    alt_p = pl.when(p_pct & ~r_pct).then(pv * 100.0).otherwise(pv)
    alt_r = pl.when(r_pct & ~p_pct).then(rv * 100.0).otherwise(rv)
    plain = values_close(pv, rv, tol, pt, rt).fill_null(False) | values_close(
        alt_p, alt_r, tol, pt, rt
    )
    return pl.when(convertible).then(converted).otherwise(plain)


def compare(ev: MathEvaluator, lf: pl.LazyFrame, given: pl.Expr) -> pl.LazyFrame:
    """Everything :meth:`MathEvaluator.outputs` needs but the symbolic step's outcome, over the
    columns :func:`~xpert_frames.evaluators.math_answer.answer_columns.read_columns` adds
    (``given``: the prediction as given): the numbers compared, the exact keys of integers, the
    spans fitted to one form, and the rows to verify."""
    t = ev.temp
    pred, ref = pl.col(t("pred")), pl.col(t("ref"))
    numeric = numbers_equal(
        ev,
        pred.struct.field("value"),
        pred.struct.field("unit"),
        ref.struct.field("value"),
        ref.struct.field("unit"),
        pl.col(t("prediction_exact_key")),
        pl.col(t("reference_exact_key")),
    )
    approx, rv = pred.struct.field("approx"), ref.struct.field("value")
    ref_text = pl.when(approx.is_not_null()).then(ref.struct.field("text"))
    decimal = ref_text.str.contains(r"[0-9]\.[0-9]")
    by_approx = decimal & (rv.round(0) != rv) & values_close(approx, rv, ev.tolerance)
    lf = lf.with_columns(
        (numeric.fill_null(False) | by_approx.fill_null(False)).alias(t("numeric"))
    )
    # Only symbolic rows are compared: the others are nulls, which every step skips.
    on = pl.col(t("symbolic"))
    span = pl.when(on).then(pl.col(t("pspan")))
    p_text = pl.col(t("cleaned_prediction"))
    # A prediction that is a bare list of numbers is maths too (set_forms.BARE_LIST).
    listed = pl.when(on & span.is_null()).then(p_text)
    listed = pl.when(listed.str.contains(set_forms.BARE_LIST)).then(listed)
    compared = pl.coalesce(
        pl.lit("$") + span + pl.lit("$"),
        pl.lit("$") + listed + pl.lit("$"),
        pl.when(on).then(p_text),
    )
    # Two integers (as written or powers of ten: 10^{5000}) compare by their exact keys,
    # at any size, without the symbolic step.
    # An integer beyond Float64 that the number reader read from a sentence with no math
    # span ("The answer is 99…9.") keeps the reader's exact key (its value is infinite).
    huge = (
        on
        & pl.col(t("pspan")).is_null()
        & exact.beyond_float(pred.struct.field("value"))
        & pl.col(t("prediction_exact_key")).is_not_null()
    )
    lf = lf.with_columns(
        pl.coalesce(
            exact.power_key(compared), pl.when(huge).then(pl.col(t("prediction_exact_key")))
        ).alias(t("prediction_power_key")),
        pl.coalesce(
            exact.power_key(pl.when(on).then(pl.col(t("rspan")))),
            pl.when(huge).then(pl.col(t("reference_exact_key"))),
        ).alias(t("reference_power_key")),
    )
    keyed = (
        pl.col(t("prediction_power_key")).is_not_null()
        & pl.col(t("reference_power_key")).is_not_null()
    )
    verify = on & ~keyed
    # Both spans in comparable forms (pair_forms); written identically they are equal.
    fitted = pair_forms.fit_pair(
        pl.when(verify).then(pl.col(t("pspan"))), pl.when(verify).then(pl.col(t("rspan")))
    )
    lf = lf.with_columns(fitted.alias(t("fit")), keyed.alias(t("keyed")))
    keyed = pl.col(t("keyed"))
    fit = pl.col(t("fit")).struct
    same_form = fit.field("same").fill_null(False)
    compared = pl.coalesce(pl.lit("$") + fit.field("prediction") + pl.lit("$"), compared)
    same = pl.col(t("prediction_power_key")) == pl.col(t("reference_power_key"))
    # The outcome decided here (exact keys, one form), else by the symbolic step.
    decided = (
        pl.when(keyed)
        .then(pl.when(same).then(pl.lit("equal")).otherwise(pl.lit("different")))
        .when(same_form)
        .then(pl.lit("equal"))
    )
    lf = lf.with_columns(
        (on & ~keyed & ~same_form).alias(t("verify")),
        compared.alias(t("compared")),
        pl.coalesce(fit.field("reference"), pl.col(t("rspan"))).alias(t("compared_reference")),
        decided.alias(t("decided")),
    ).drop(t("fit"), t("prediction_power_key"), t("reference_power_key"))
    if not (ev.normalize and not ev.strict_format):
        return lf.with_columns(
            pl.lit(False).alias(t("identical")),
            pl.lit(None, pl.String).alias(t("worded_kind")),
            pl.lit(None, pl.Boolean).alias(t("worded_score")),
            pl.lit(None, pl.Boolean).alias(t("colon")),
            pl.lit(None, pl.Boolean).alias(t("list")),
        )
    # An answer written exactly as the reference is right (rule ``identical``).
    plain = (ref.struct.field("text") == pl.col(t("rspan"))) & rv.is_not_null()
    as_written = written.identical(p_text, pl.col(t("pspan")), pl.col(t("rspan")), plain=plain)
    # A reference stated in words (``\\text{No}``, ``Converges``) is compared as a text
    # answer, never by a number of the prediction (module worded).
    answer = pl.col(frames.ANSWER).cast(pl.String)
    lf = lf.with_columns(
        (as_written & pl.col(frames.VALID)).alias(t("identical")),
        worded.worded_kind(answer).alias(t("worded_kind")),
    )
    # A clock time (``1:00`` vs ``12:00``) or a ratio (``12:1``) as such, and the same numbers
    # listed in another order (``110, 143, …``): module times.
    lf = lf.with_columns(
        worded.worded_score(given, pl.col(t("worded_kind"))).alias(t("worded_score")),
        times.colon_and_list(given, answer).alias(t("colon")),
    )
    read = pl.col(t("colon")).struct
    return lf.with_columns(
        read.field("colon").alias(t("colon")), read.field("list").alias(t("list"))
    )
