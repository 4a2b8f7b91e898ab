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
from xpert_frames.evaluators.math_answer import symbolic as sym
from xpert_frames.evaluators.math_answer.answer_columns import read_columns
from xpert_frames.evaluators.math_answer.comparisons import compare
from xpert_frames.evaluators.math_answer.parts import in_parts
from xpert_frames.reading.markup import clean_prediction, clean_predictions
from xpert_frames.reading.numeric.parse import (
    DECIMAL_COMMAS,
    EXTRACT_MODES,
    DecimalComma,
    extract_number_detail,
    parse_number_with_unit,
)


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
        symbolic rows and verify them (once per distinct pair); :meth:`outputs` combines the
        temporary columns.

        The reading (:func:`~xpert_frames.evaluators.math_answer.answer_columns.read_columns`)
        and every comparison but the symbolic step
        (:func:`~xpert_frames.evaluators.math_answer.comparisons.compare`) run as one batch over
        the whole column, in one part per core side by side
        (:func:`~xpert_frames.evaluators.math_answer.parts.in_parts`); the symbolic step runs
        once over the whole column (its budget is per call)."""
        t = self.temp
        schema = lf.collect_schema()
        inputs = {c: schema[c] for c in (frames.PRED, frames.ANSWER, frames.VALID)}
        given = t("given_prediction")

        def plan(part: pl.LazyFrame) -> pl.LazyFrame:
            # ``part``: the prediction without markup and invented continuations (every reader
            # reads that), and as given (``given``).
            part = read_columns(self, part).with_columns(
                pl.col(frames.PRED).alias(t("cleaned_prediction"))
            )
            return compare(self, part, pl.col(given))

        shape = pl.LazyFrame(schema=inputs).with_columns(
            pl.col(frames.PRED).alias(given), clean_prediction(frames.PRED)
        )
        empty = plan(shape).collect_schema()
        added = [c for c in empty.names() if c not in inputs and c != given]
        dtype = pl.Struct({c: empty[c] for c in added})

        def read(part: pl.DataFrame) -> pl.DataFrame:
            # One chunk: an elementwise batch function runs once per chunk of its input.
            part = part.rechunk()
            part = part.with_columns(part[frames.PRED].alias(given))
            part = part.with_columns(clean_predictions(part[frames.PRED]))
            return plan(part.lazy()).select(added).collect(engine="in-memory")

        def batch(column: pl.Series) -> pl.Series:
            out = in_parts(read, column.struct.unnest())
            return out.select(pl.struct(added).alias(column.name)).to_series()

        packed = pl.struct(*(pl.col(c) for c in inputs))
        lf = lf.with_columns(packed.map_batches(batch, return_dtype=dtype).alias(t("read")))
        lf = lf.unnest(t("read"))
        verify = pl.col(t("verify"))
        outcome = sym.symbolic_outcome(
            pl.when(verify).then(pl.col(t("compared"))),
            pl.when(verify).then(pl.col(t("compared_reference"))),
            verify,
            mode=self.symbolic,
            timeout=self.symbolic_timeout,
            budget=None if math.isinf(self.symbolic_budget) else self.symbolic_budget,
        )
        return lf.with_columns(pl.coalesce(pl.col(t("decided")), outcome).alias(t("outcome")))

    def outputs(self) -> dict[str, pl.Expr]:
        """Expressions over the temporary columns that :meth:`prepare` adds."""
        t = self.temp
        pred, ref = pl.col(t("pred")), pl.col(t("ref"))
        pv, pu = pred.struct.field("value"), pred.struct.field("unit")
        rv = ref.struct.field("value")
        on, outcome = pl.col(t("symbolic")), pl.col(t("outcome"))
        ref_text = ref.struct.field("text")
        numeric = pl.col(t("numeric"))
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
