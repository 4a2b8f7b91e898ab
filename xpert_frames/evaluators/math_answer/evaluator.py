"""Math answers: the number (and unit) in the prediction against the reference's, and
symbolic answers decided symbolically.

The number is found by :func:`xpert_frames.reading.numeric.parse.extract_number` (``\\boxed{}`` →
answer
statements → ``= n`` at the end → a conclusion followed only by context sentences → last
number, a final answer statement after the last box winning over it; or the first number
with ``extract="first"``, the seed's choice), in prediction and reference alike. Values are
compared with the seed's rule: absolute error when ``|reference| < tolerance``, else relative
error, both ``<= tolerance``; two whole numbers
must be equal, at any size: at or above 2**53 (where Float64 no longer holds every integer)
and beyond Float64's range two numbers written as integers (plain, thousands, ``万``/``亿``)
compare by their exact keys (:mod:`xpert_frames.reading.numeric.exact`), and so do two answers that
are integers or powers of ten (``\\boxed{10^{5000}}`` and 1 followed by 5,000 zeros; rule
``<source>:integer``); scientific notation keeps the tolerance (it writes approximations)
unless beyond Float64. A last number that is part
of the expression ending the prediction (``… gives 2x``, ``$3x + 2$``, ``x^2``) is not the
answer: that expression is, compared symbolically. An approximation written right after the answer
(``x = 1/3 ≈ 0.33``) counts too when the reference is a decimal.

A row whose reference or prediction answer is not a plain number (powers, roots, π, variables,
intervals, tuples, matrices, equations: :mod:`xpert_frames.evaluators.math_answer.symbolic`) never
gets credit from a number taken out of it: Math-Verify decides it (the ``symbolic`` extra;
rule ``<source>:symbolic``, ``:symbolic-timeout`` or ``:symbolic-error``, the last two
scoring 0) or, without the extra or with ``symbolic="latex"``, an exact comparison of
normalized LaTeX (rule ``<source>:latex-exact``). Math-Verify gets ``symbolic_timeout``
seconds per distinct pair (default 5) and ``symbolic_budget`` seconds per call (default 60:
per scoring call through the API, per piece of at most 100,000 rows in the CLI;
``float("inf")``: no budget). Once
the budget is spent, the pairs not yet verified score 0 with rule
``<source>:symbolic-budget``, and one ``RuntimeWarning`` gives their count: a file of
pathological answers costs at most the budget, not their number times the timeout.
``<name>_extracted`` and ``<name>_expected`` show what was compared: the numbers as written,
or the two answer spans. An answer written exactly as the reference (its answer span, or a
short prediction whole, equal to the reference span but for whitespace, ``$``, LaTeX spacing and
a final period) scores 1 whatever the other rules read (rule ``identical``).

``normalize=True`` (default) reads full-width forms, Chinese numerals and fractions, LaTeX and
``×10^n``, mixed numbers, space and LaTeX thousands, decimal commas (``decimal_comma``),
percent words and English number words, compares units through their aliases
(``千克`` = ``kg``), converts between known units of one dimension when both sides have one
(``1 km`` = ``1000 m``, ``90分钟`` = ``1.5 h``), and accepts a percentage written with or
without its sign (``50%`` matches ``50`` and ``0.5``). ``require_units=True`` also fails a
row whose units differ and cannot be converted, or where only one side has a unit.
``normalize=False`` turns all of that off: ASCII numbers only, units compared as written, a
percentage only as its value (``50%`` is 0.5).
"""

from __future__ import annotations

import math
from typing import ClassVar

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.aliases import MathExtract
from xpert_frames.core.options import check_bool, check_choice, check_float
from xpert_frames.core.text import to_expr
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.evaluators.math_answer import as_written as written
from xpert_frames.evaluators.math_answer import pair_forms, set_forms, several_boxes, times, worded
from xpert_frames.evaluators.math_answer import symbolic as sym
from xpert_frames.evaluators.math_answer.parts import in_parts
from xpert_frames.reading.boxes import box_tail
from xpert_frames.reading.markup import clean_prediction, clean_predictions
from xpert_frames.reading.numeric import exact
from xpert_frames.reading.numeric.grammar import grammar
from xpert_frames.reading.numeric.parse import (
    DECIMAL_COMMAS,
    EXTRACT_MODES,
    DecimalComma,
    extract_number_detail,
    extract_number_pair,
    parse_number_with_unit,
)
from xpert_frames.reading.numeric.units import unit_info
from xpert_frames.reading.vocabulary import CLAUSE_CONCLUSION


def concluded(prediction: pl.Expr, rule: pl.Expr) -> pl.Expr:
    """Whether the statement rule read a conclusion after the last box that has no answer
    statement after it (:func:`xpert_frames.reading.numeric.rules.candidates`)."""
    statement = pl.when(rule == "statement").then(prediction)  # the others are not read
    boxed = statement.str.contains_any(["\\boxed", "\\fbox"])
    after = box_tail(pl.when(boxed).then(prediction))
    late = after.str.contains(CLAUSE_CONCLUSION) & ~after.str.contains(grammar(True).marker)
    return (boxed & late).fill_null(False)


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


class MathEvaluator(BaseEvaluator):
    r"""Numeric answers (numbers, fractions, percentages, Chinese numerals, units) and symbolic
    answers (through Math-Verify when installed).

    The answer is read from ``\boxed{}``, then answer statements (答案是, 所以, the answer
    is, ``####`` ...), then ``= n`` at the end, then the last number (``extract``). Columns
    ``<name>_score``, ``<name>_value`` and ``<name>_unit`` (the number and unit read),
    ``<name>_rule`` (how the answer was found and compared), ``<name>_extracted`` and
    ``<name>_expected`` (what was compared); report metric ``<name>_accuracy``.

    Parameters
    ----------
    tolerance : float, default 1e-6
        Absolute error allowed when ``|reference| < tolerance``, relative error otherwise;
        two whole numbers always compare exactly.
    normalize : bool, default True
        Full-width folding, Chinese numerals, LaTeX clean-up, unit aliases and conversion;
        ``False`` turns all of them off.
    require_units : bool, default False
        Also fail a row whose units differ and cannot be converted, or where only one side
        has a unit.
    strict_format : bool, default False
        The whole prediction must be one number (rule ``strict``).
    extract : {"last", "first"}, default "last"
        Where the answer is taken from; ``"first"`` keeps the seed's first-number choice.
    decimal_comma : {"auto", "always", "never"}, default "auto"
        Whether ``2,74`` is a decimal comma: where unambiguous, always, or never.
    symbolic : {"auto", "math_verify", "latex"}, default "auto"
        How non-numeric answers are decided: Math-Verify when installed (the ``symbolic``
        extra), else exact comparison of normalized LaTeX. ``"math_verify"`` without the
        extra installed is an ``ImportError``.
    symbolic_timeout : float, default 5.0
        Seconds allowed per (prediction, reference) pair on the symbolic path; a slower pair
        scores 0 with rule ``…:symbolic-timeout``.
    symbolic_budget : float, default 60.0
        Seconds the symbolic path may spend per scoring call (per piece of at most 100,000
        rows in the CLI; ``float("inf")``: no budget). Once it is spent, the pairs not yet
        verified score 0 with rule ``…:symbolic-budget`` and one ``RuntimeWarning`` gives
        their count.
    name : str, optional
        The prefix of the output columns (default ``math``).

    Examples
    --------
    >>> import polars as pl
    >>> import xpert_frames as xf
    >>> df = pl.DataFrame(
    ...     {
    ...         "prediction": ["所以答案是 1/2", "x = 3 kg", "答案：三百"],
    ...         "answer": ["0.5", "3000 g", "300"],
    ...     }
    ... )
    >>> xf.score(df, xf.MathEvaluator())["math_score"].to_list()
    [1.0, 1.0, 1.0]
    >>> xf.score(df, xf.MathEvaluator(normalize=False))["math_score"].to_list()
    [1.0, 0.0, 0.0]
    """

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
        decimal_comma: DecimalComma = "auto",
        symbolic: str = "auto",
        symbolic_timeout: float = 5.0,
        symbolic_budget: float = 60.0,
        name: str | None = None,
    ) -> None:
        super().__init__(name=name)
        self.tolerance = check_float("tolerance", tolerance, low=0.0)
        self.normalize = check_bool("normalize", normalize)
        self.require_units = check_bool("require_units", require_units)
        self.strict_format = check_bool("strict_format", strict_format)
        self.extract = check_choice("extract", extract, EXTRACT_MODES)
        self.decimal_comma = check_choice("decimal_comma", decimal_comma, DECIMAL_COMMAS)
        self.symbolic = check_choice("symbolic", symbolic, sym.SYMBOLIC_MODES)
        if self.symbolic == "math_verify" and sym.resolve_mode("auto") != "math_verify":
            raise ImportError(
                "symbolic='math_verify' needs Math-Verify. Hint: pip install "
                "'xpert-frames[symbolic]', or use symbolic='auto' (falls back to exact "
                "comparison of normalized LaTeX)."
            )
        self.symbolic_timeout = check_float("symbolic_timeout", symbolic_timeout, low=0.1)
        self.symbolic_budget = check_float(
            "symbolic_budget", symbolic_budget, low=0.0, low_open=True
        )

    # ------------------------------------------------------------------ columns
    def _number(self, text: str | pl.Expr) -> pl.Expr:
        return extract_number_detail(
            text,
            mode=self.extract,  # type: ignore[arg-type]
            normalize=self.normalize,
            decimal_comma=self.decimal_comma,  # type: ignore[arg-type]
        )

    def prediction_number(self, prediction: str | pl.Expr = frames.PRED) -> pl.Expr:
        """Struct ``{value, unit, rule, text, approx}`` read from the prediction under this
        evaluator's options (``strict_format``: the whole prediction must be one number, rule
        ``strict``)."""
        if not self.strict_format:
            return self._number(prediction)
        parsed = parse_number_with_unit(
            prediction,
            normalize=self.normalize,
            decimal_comma=self.decimal_comma,  # type: ignore[arg-type]
        )
        value = parsed.struct.field("value")
        rule = pl.when(value.is_not_null()).then(pl.lit("strict")).otherwise(pl.lit("none"))
        text = pl.when(value.is_not_null()).then(to_expr(prediction).str.strip_chars())
        return pl.struct(
            value.alias("value"),
            parsed.struct.field("unit"),
            rule.alias("rule"),
            text.alias("text"),
            pl.lit(None, pl.Float64).alias("approx"),
        )

    def reference_number(self, reference: str | pl.Expr = frames.ANSWER) -> pl.Expr:
        """Struct ``{value, unit, rule, text, approx}`` read from the reference answer."""
        return self._number(reference)

    def prepare(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Read both numbers (and canonical units) once into temporary columns, find the
        symbolic rows and verify them (once per distinct pair); :meth:`outputs` compares with
        pure expressions over the temporary columns.

        The reading (:meth:`_read`) runs as one batch over the whole column, in one part per
        core read side by side (:func:`~xpert_frames.evaluators.math_answer.parts.in_parts`)."""
        t = self.temp
        schema = lf.collect_schema()
        inputs = {c: schema[c] for c in (frames.PRED, frames.ANSWER, frames.VALID)}
        cleaned = t("cleaned_prediction")

        def cleaned_read(part: pl.LazyFrame) -> pl.LazyFrame:
            # Every reader reads the prediction without markup and invented continuations
            # (cleaned here: inside the parts read side by side).
            part = part.with_columns(clean_prediction(frames.PRED))
            return self._read(part).with_columns(pl.col(frames.PRED).alias(cleaned))

        empty = cleaned_read(pl.LazyFrame(schema=inputs)).collect_schema()
        added = [c for c in empty.names() if c not in inputs]
        dtype = pl.Struct({c: empty[c] for c in added})

        def read(part: pl.DataFrame) -> pl.DataFrame:
            # One chunk: an elementwise batch function runs once per chunk of its input.
            part = part.rechunk()
            part = part.with_columns(clean_predictions(part[frames.PRED]))
            lf = self._read(part.lazy()).with_columns(pl.col(frames.PRED).alias(cleaned))
            return lf.select(added).collect(engine="in-memory")

        def batch(column: pl.Series) -> pl.Series:
            out = in_parts(read, column.struct.unnest())
            return out.select(pl.struct(added).alias(column.name)).to_series()

        packed = pl.struct(*(pl.col(c) for c in inputs))
        lf = lf.with_columns(packed.map_batches(batch, return_dtype=dtype).alias(t("read")))
        lf = lf.unnest(t("read"))
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
            & exact.beyond_float(pl.col(t("pred")).struct.field("value"))
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
        lf = lf.with_columns(fitted.alias(t("fit")))
        fit = pl.col(t("fit")).struct
        same_form = fit.field("same").fill_null(False)
        compared = pl.coalesce(pl.lit("$") + fit.field("prediction") + pl.lit("$"), compared)
        verify = verify & ~same_form
        outcome = sym.symbolic_outcome(
            pl.when(verify).then(compared),
            pl.when(verify).then(pl.coalesce(fit.field("reference"), pl.col(t("rspan")))),
            verify,
            mode=self.symbolic,
            timeout=self.symbolic_timeout,
            budget=None if math.isinf(self.symbolic_budget) else self.symbolic_budget,
        )
        outcome = pl.when(same_form).then(pl.lit("equal")).otherwise(outcome)
        same = pl.when(pl.col(t("prediction_power_key")) == pl.col(t("reference_power_key"))).then(
            pl.lit("equal")
        )
        outcome = pl.when(keyed).then(same.otherwise(pl.lit("different"))).otherwise(outcome)
        lf = lf.with_columns(outcome.alias(t("outcome")), keyed.alias(t("keyed")))
        if not (self.normalize and not self.strict_format):
            return lf.with_columns(
                pl.lit(False).alias(t("identical")),
                pl.lit(None, pl.String).alias(t("worded_kind")),
                pl.lit(None, pl.Boolean).alias(t("worded_score")),
                pl.lit(None, pl.Boolean).alias(t("colon")),
                pl.lit(None, pl.Boolean).alias(t("list")),
            )
        # An answer written exactly as the reference is right (rule ``identical``).
        ref = pl.col(t("ref")).struct
        plain = (ref.field("text") == pl.col(t("rspan"))) & ref.field("value").is_not_null()
        as_written = written.identical(p_text, pl.col(t("pspan")), pl.col(t("rspan")), plain=plain)
        # A reference stated in words (``\\text{No}``, ``Converges``) is compared as a text
        # answer, never by a number of the prediction (module worded).
        lf = lf.with_columns(
            (as_written & pl.col(frames.VALID)).alias(t("identical")),
            worded.worded_kind(pl.col(frames.ANSWER).cast(pl.String)).alias(t("worded_kind")),
        )
        # A clock time (``1:00`` vs ``12:00``) or a ratio (``12:1``) as such (module times).
        return lf.with_columns(
            worded.worded_score(pl.col(frames.PRED), pl.col(t("worded_kind"))).alias(
                t("worded_score")
            ),
            times.colon_equal(pl.col(frames.PRED), pl.col(frames.ANSWER).cast(pl.String)).alias(
                t("colon")
            ),
            # The same numbers listed in another order (``110, 143, …``).
            times.same_numbers(pl.col(frames.PRED), pl.col(frames.ANSWER).cast(pl.String)).alias(
                t("list")
            ),
        )

    def _read(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Both numbers, the answer spans, which rows are symbolic and (``normalize``) the
        canonical units, as temporary columns."""
        t = self.temp
        pred, ref = t("pred"), t("ref")
        # Several boxes that end a text state one answer together (module several_boxes).
        joined = [several_boxes.joined_boxes(pl.col(c)) for c in (frames.PRED, frames.ANSWER)]
        lf = lf.with_columns(joined)
        if self.strict_format:
            lf = lf.with_columns(
                self.prediction_number().alias(pred), self.reference_number().alias(ref)
            )
        else:  # both read in one batch call
            both = extract_number_pair(
                frames.PRED,
                frames.ANSWER,
                mode=self.extract,  # type: ignore[arg-type]
                normalize=self.normalize,
                decimal_comma=self.decimal_comma,  # type: ignore[arg-type]
            )
            lf = lf.with_columns(both.alias(t("both"))).with_columns(
                pl.col(t("both")).struct.field("first").alias(pred),
                pl.col(t("both")).struct.field("second").alias(ref),
            )
        pv, rv = pl.col(pred).struct.field("value"), pl.col(ref).struct.field("value")
        p_number, r_number = pl.col(pred).struct.field("text"), pl.col(ref).struct.field("text")
        lf = lf.with_columns(
            exact.exact_keys(pv, rv, p_number, r_number).alias(t("prediction_exact_key")),
            exact.exact_keys(rv, pv, r_number, p_number).alias(t("reference_exact_key")),
        )
        p_text, r_text = pl.col(frames.PRED), pl.col(frames.ANSWER).cast(pl.String)
        rule = pl.col(pred).struct.field("rule")
        classify = self.normalize and not self.strict_format
        pspan, rspan = sym.answer_spans(p_text, r_text, rule, pl.col(ref))
        lf = lf.with_columns(pspan.alias(t("pspan")), rspan.alias(t("rspan")))
        # A conclusion after the last box (``\\boxed{12} … So she baked 60 cookies``) is a
        # statement without a marker: against a plain-number reference it has no span (its
        # number is the answer); against a symbolic one the span is the conclusion's maths.
        # Read only where there is a span (elsewhere the outcome is no span either way).
        has_span = pl.col(t("pspan")).is_not_null()
        ref_number = pl.col(ref).struct
        stripped = pl.when(has_span).then(r_text).str.strip_chars(" \t\n\r$")
        ref_plain = (ref_number.field("text") == stripped) & ref_number.field("value").is_not_null()
        spanned = pl.when(has_span).then(p_text)
        pspan = pl.when(~(concluded(spanned, rule) & ref_plain.fill_null(False))).then(
            pl.col(t("pspan"))
        )
        # A last number that is part of the expression ending the prediction (``2x``) is
        # not the answer: that expression is, decided symbolically.
        if classify:
            glued = sym.glued_span(p_text, rule, pl.col(pred).struct.field("text"))
            lf = lf.with_columns(glued.alias(t("glued")))
            pspan = pl.coalesce(pspan, pl.col(t("glued")))
        lf = lf.with_columns(pspan.alias(t("pspan")))
        ref_known = pl.col(ref).struct.field("text") == pl.col(t("rspan"))
        ref_known = ref_known & pl.col(ref).struct.field("value").is_not_null()
        lf = set_forms.fit_sets(lf, p_text, t("pspan"), t("rspan"), ref_known)
        if classify:
            known = [
                (c.struct.field("text") == pl.col(span)) & c.struct.field("value").is_not_null()
                for c, span in ((pl.col(pred), t("pspan")), (pl.col(ref), t("rspan")))
            ]
            symbolic = sym.symbolic_rows(pl.col(t("pspan")), pl.col(t("rspan")), rule, *known)
            symbolic = symbolic | pl.col(t("glued")).is_not_null()
        else:
            symbolic = pl.lit(False)
        lf = lf.with_columns((symbolic & pl.col(frames.VALID)).alias(t("symbolic")))
        if self.normalize:  # canonical units, looked up here: inside the parts read side by side
            lf = lf.with_columns(
                unit_info(pl.col(pred).struct.field("unit")).alias(t("prediction_unit_info")),
                unit_info(pl.col(ref).struct.field("unit")).alias(t("reference_unit_info")),
            )
        return lf

    def outputs(self) -> dict[str, pl.Expr]:
        """Expressions over the temporary columns that :meth:`prepare` adds."""
        t = self.temp
        pred, ref = pl.col(t("pred")), pl.col(t("ref"))
        pv, pu = pred.struct.field("value"), pred.struct.field("unit")
        rv, ru = ref.struct.field("value"), ref.struct.field("unit")
        on, outcome = pl.col(t("symbolic")), pl.col(t("outcome"))
        ref_text = ref.struct.field("text")
        numeric = self._correct(
            pv, pu, rv, ru, pl.col(t("prediction_exact_key")), pl.col(t("reference_exact_key"))
        )
        approx = pred.struct.field("approx")
        decimal = pl.when(approx.is_not_null()).then(ref_text).str.contains(r"[0-9]\.[0-9]")
        by_approx = decimal & (rv.round(0) != rv) & values_close(approx, rv, self.tolerance)
        numeric = numeric.fill_null(False) | by_approx.fill_null(False)
        method = sym.method_name(self.symbolic)
        suffix = (
            pl.when(pl.col(t("keyed")))
            .then(pl.lit("integer"))
            .when(outcome.is_in(["equal", "different"]))
            .then(pl.lit(method))
            .otherwise(pl.lit("symbolic-") + outcome)
        )
        source = pred.struct.field("rule")
        symbolic_side = [
            pl.when(on).then(pl.col(t("pspan"))),
            pl.when(on).then(pl.col(t("cleaned_prediction"))),
        ]
        # A reference that is one number as written ("seven") is no worded answer (read only
        # where the reference is worded).
        kind = pl.col(t("worded_kind"))
        answer = pl.when(kind.is_not_null()).then(pl.col(frames.ANSWER).cast(pl.String))
        whole = rv.is_not_null() & (ref_text == answer.str.strip_chars(" \t\n\r$"))
        words = kind.is_not_null() & pl.col(frames.VALID) & ~whole.fill_null(False)
        colon = pl.col(t("colon")).is_not_null() & pl.col(frames.VALID)
        listed = pl.col(t("list")).is_not_null() & pl.col(frames.VALID) & ~on
        score = (
            pl.when(words)
            .then(pl.col(t("worded_score")))
            .when(colon)
            .then(pl.col(t("colon")))
            .when(listed)
            .then(pl.col(t("list")))
            .when(on)
            .then(outcome == "equal")
            .otherwise(numeric)
            .fill_null(False)
        )
        # Written exactly as the reference: right, whatever the other rules read.
        identical = pl.col(t("identical")) & ~score
        return {
            "score": (score | identical).cast(pl.Float64),
            "value": pl.when(~on).then(pv),
            "unit": pl.when(~on).then(pu),
            "rule": pl.when(identical)
            .then(pl.lit("identical"))
            .when(words)
            .then(pl.lit("worded"))
            .when(colon)
            .then(pl.lit("colon"))
            .when(listed)
            .then(pl.lit("list"))
            .otherwise(pl.coalesce(pl.when(on).then(source) + ":" + suffix, source)),
            "extracted": pl.coalesce(*symbolic_side, pred.struct.field("text")),
            "expected": pl.coalesce(pl.when(on).then(pl.col(t("rspan"))), ref_text),
        }

    def _correct(
        self, pv: pl.Expr, pu: pl.Expr, rv: pl.Expr, ru: pl.Expr, pt: pl.Expr, rt: pl.Expr
    ) -> pl.Expr:
        tol = self.tolerance
        if not self.normalize:
            ok = values_close(pv, rv, tol, pt, rt)
            return (ok & pu.eq_missing(ru)) if self.require_units else ok
        # Canonical unit, dimension and factor of each side, looked up once (prepare).
        p_info, r_info = (
            pl.col(self.temp("prediction_unit_info")).struct,
            pl.col(self.temp("reference_unit_info")).struct,
        )
        pc, rc = p_info.field("canonical"), r_info.field("canonical")
        pf, rf = p_info.field("factor"), r_info.field("factor")
        same = pc.eq_missing(rc)
        dimensions = p_info.field("dimension").eq(r_info.field("dimension"))
        convertible = (~same & dimensions & pf.is_not_null() & rf.is_not_null()).fill_null(False)
        converted = convertible & values_close(pv * pf, rv * rf, tol)
        if self.require_units:
            return (same & values_close(pv, rv, tol, pt, rt)) | converted
        # A percentage against a bare number written as the same figure (50% and 50).
        p_pct, r_pct = pu.eq_missing(pl.lit("%")), ru.eq_missing(pl.lit("%"))
        alt_p = pl.when(p_pct & ~r_pct).then(pv * 100.0).otherwise(pv)
        alt_r = pl.when(r_pct & ~p_pct).then(rv * 100.0).otherwise(rv)
        plain = values_close(pv, rv, tol, pt, rt).fill_null(False) | values_close(
            alt_p, alt_r, tol, pt, rt
        )
        return pl.when(convertible).then(converted).otherwise(plain)
