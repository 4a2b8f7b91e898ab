"""The data contract: column mapping, the nested reference shape and the seed's record input.

Evaluators never see user column names. :func:`prepare` resolves the user's mapping (or the
XpertEval nested ``reference`` struct) into the canonical internal columns below, adds the
validity flag, and every evaluator reads only those. The caller drops them again, so the output
is the input, every row and column in order, plus the evaluators' own columns.

Which tables are accepted and how they become LazyFrames is :mod:`xpert_frames.core.kinds`;
its functions are importable from here too (``frames.to_lazy``, ...). The dtypes each input
column may have, and how each is brought to its canonical dtype, are
:mod:`xpert_frames.core.column_dtypes` (``frames.CHOICE_DTYPE`` is importable from here too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, cast

import polars as pl

from xpert_frames.core.aliases import Frame
from xpert_frames.core.column_dtypes import (
    CHOICE_DTYPE,  # re-exported: frames.CHOICE_DTYPE
    answer_expr,
    choices_expr,
    string_expr,
)
from xpert_frames.core.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    DuplicateColumnError,
    InvalidOptionError,
    OptionTypeError,
)
from xpert_frames.core.kinds import (  # noqa: F401 - re-exported (frames.to_lazy, ...)
    is_arrow_table,
    is_pandas,
    is_record_batch,
    like,
    schema_of,
    to_arrow_table,
    to_lazy,
)

# Canonical internal columns, read by evaluators (never by users).
PRED = "__xf_prediction"  #: String: the model's output.
ANSWER = "__xf_answer"  #: String, or List(String) for several references.
ANSWER_TYPE = "__xf_answer_type"  #: String or null: choice / text / number / ...
CHOICES = "__xf_choices"  #: List(Struct{id: String, content: String}) or null.
TCM_TYPE = "__xf_tcm_eval_type"  #: String or null: syndrome / disease / treatment.
VALID = "__xf_valid"  #: Boolean: prediction present and reference value non-empty.
#: Boolean: the row's own validity, kept while ``VALID`` is narrowed to the rows an evaluator fits.
VALID_ROW = "__xf_valid_row"
CANONICAL = (PRED, ANSWER, ANSWER_TYPE, CHOICES, TCM_TYPE, VALID, VALID_ROW)


@dataclass(frozen=True, slots=True)
class Columns:
    """Where each role lives in the user's table. Every name can be overridden per call.

    ``reference`` is the XpertEval nested struct ``{answer: {type, value}, choices, meta}``;
    it is used only when the ``answer`` column is absent. An ``answer`` column that is itself a
    ``{type, value}`` struct (XpertEval JSONL records) gives the answer and its type, and a
    ``meta`` struct column gives ``tcm_eval_type``.
    """

    prediction: str = "prediction"
    answer: str = "answer"
    answer_type: str = "answer_type"
    choices: str = "choices"
    tcm_eval_type: str = "tcm_eval_type"
    reference: str = "reference"
    meta: str = "meta"

    @classmethod
    def of(cls, columns: Columns | Mapping[str, str] | None = None, **names: str) -> Columns:
        """Build from a ``Columns``, a mapping and/or keyword names (keywords win)."""
        base = columns if isinstance(columns, Columns) else cls(**dict(columns or {}))
        if not names:
            return base
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(names) - known)
        if unknown:
            raise OptionTypeError(f"unknown column role(s) {unknown}; roles are {sorted(known)}")
        values = {f.name: getattr(base, f.name) for f in fields(cls)} | names
        return cls(**values)


# --------------------------------------------------------------------------- nested shape
def _struct_field(
    expr: pl.Expr, dtype: pl.DataType, *path: str
) -> tuple[pl.Expr, pl.DataType] | None:
    """Follow ``path`` through nested structs; ``None`` when a field is absent."""
    for name in path:
        if not isinstance(dtype, pl.Struct):
            return None
        inner: dict[str, Any] = {f.name: f.dtype for f in dtype.fields}
        if name not in inner:
            return None
        expr, dtype = expr.struct.field(name), inner[name]
    return expr, dtype


def flatten_references(frame: Frame, column: str = "reference") -> Frame:
    """Add flat ``answer``, ``answer_type``, ``choices`` and ``tcm_eval_type`` columns from the
    XpertEval nested ``reference`` struct (vectorized struct field access; no row loop).

    Fields absent from the struct give null columns. Existing columns of those names are an error.
    """
    lf = to_lazy(frame)
    schema = lf.collect_schema()
    exprs = _reference_exprs(schema, column)
    clash = [
        name for name in ("answer", "answer_type", "choices", "tcm_eval_type") if name in schema
    ]
    if clash:
        raise DuplicateColumnError(f"flatten_references would overwrite existing column(s) {clash}")
    out = lf.with_columns(
        exprs[ANSWER].alias("answer"),
        exprs[ANSWER_TYPE].alias("answer_type"),
        exprs[CHOICES].alias("choices"),
        exprs.get(TCM_TYPE, pl.lit(None, pl.String)).alias("tcm_eval_type"),
    )
    return like(frame, out)


def _reference_exprs(schema: pl.Schema, column: str) -> dict[str, pl.Expr]:
    if column not in schema:
        raise ColumnNotFoundError(column, "reference", schema.names())
    dtype = schema[column]
    if not isinstance(dtype, pl.Struct):
        raise ColumnTypeError(
            column, "reference", "a struct {answer: {type, value}, choices, meta}", dtype
        )
    root = pl.col(column)
    value = _struct_field(root, dtype, "answer", "value")
    kind = _struct_field(root, dtype, "answer", "type")
    choices = _struct_field(root, dtype, "choices")
    tcm = _struct_field(root, dtype, "meta", "tcm_eval_type")
    return {
        ANSWER: answer_expr(value[0], value[1], f"{column}.answer.value")
        if value
        else pl.lit(None, pl.String),
        ANSWER_TYPE: string_expr(*kind, f"{column}.answer.type")
        if kind
        else pl.lit(None, pl.String),
        CHOICES: choices_expr(*choices, f"{column}.choices")
        if choices
        else pl.lit(None, CHOICE_DTYPE),
        **({TCM_TYPE: string_expr(*tcm, f"{column}.meta.tcm_eval_type")} if tcm else {}),
    }


# --------------------------------------------------------------------------- prepare
def resolve(schema: pl.Schema, columns: Columns) -> dict[str, pl.Expr]:
    """Canonical column expressions for ``schema`` under ``columns``; raises on bad input."""
    names = schema.names()
    if columns.prediction not in schema:
        error = ColumnNotFoundError(columns.prediction, "prediction", names)
        if "response" in schema:
            error.args = (
                f"{error} XpertEval records keep it in 'response': map it with "
                "prediction='response' (CLI: --prediction response).",
            )
        raise error
    dtype = schema[columns.prediction]
    if not (dtype == pl.String or dtype == pl.Null or isinstance(dtype, pl.Categorical | pl.Enum)):
        raise ColumnTypeError(
            columns.prediction,
            "prediction",
            "a string column",
            dtype,
            "Model outputs are text; if this is the right column, cast it: "
            f"pl.col({columns.prediction!r}).cast(pl.String).",
        )
    out: dict[str, pl.Expr] = {PRED: pl.col(columns.prediction).cast(pl.String)}

    nested: dict[str, pl.Expr] = {}
    if columns.answer in schema and _is_answer_struct(schema[columns.answer]):
        # XpertEval JSONL records: answer = {type, value}, options in choices, meta = {...}.
        root, dtype = pl.col(columns.answer), schema[columns.answer]
        value = _struct_field(root, dtype, "value")
        kind = _struct_field(root, dtype, "type")
        # _is_answer_struct checked that the "value" field is there.
        value_expr, value_dtype = cast(tuple[pl.Expr, pl.DataType], value)
        out[ANSWER] = answer_expr(value_expr, value_dtype, f"{columns.answer}.value")
        if kind:
            nested[ANSWER_TYPE] = string_expr(*kind, f"{columns.answer}.type")
    elif columns.answer in schema:
        out[ANSWER] = answer_expr(pl.col(columns.answer), schema[columns.answer], columns.answer)
    elif columns.reference in schema:
        nested = _reference_exprs(schema, columns.reference)
        out[ANSWER] = nested[ANSWER]
    else:
        raise ColumnNotFoundError(columns.answer, "answer (or a nested 'reference' struct)", names)
    if TCM_TYPE not in nested and columns.meta in schema:
        tcm = _struct_field(pl.col(columns.meta), schema[columns.meta], "tcm_eval_type")
        if tcm:
            nested[TCM_TYPE] = string_expr(*tcm, f"{columns.meta}.tcm_eval_type")

    def optional(role: str, canonical: str, convert: Any, null: pl.Expr) -> None:
        name = getattr(columns, role)
        if name in schema:
            out[canonical] = convert(pl.col(name), schema[name], name)
        else:
            out[canonical] = nested.get(canonical, null)

    optional("answer_type", ANSWER_TYPE, string_expr, pl.lit(None, pl.String))
    optional("choices", CHOICES, choices_expr, pl.lit(None, CHOICE_DTYPE))
    optional("tcm_eval_type", TCM_TYPE, string_expr, pl.lit(None, pl.String))
    for canonical in (ANSWER_TYPE, TCM_TYPE):
        out[canonical] = subtype_expr(out[canonical])
    return out


def subtype_expr(expr: pl.Expr) -> pl.Expr:
    """Sub-type values as evaluators read them: stripped and lower-cased (``" Choice"`` is
    ``choice``); blank is null (the evaluator's default type)."""
    # One reference to the cleaned value (``when(...).then(cleaned)`` computed it twice: 0.10
    # vs 0.05 CPU-s per million rows).
    return expr.str.strip_chars().str.to_lowercase().replace({"": None})


def has_answer_types(schema: pl.Schema, columns: Columns) -> bool:
    """Whether the table says each row's answer type: an ``answer_type`` column, a
    ``{type, value}`` answer struct or a nested ``reference.answer.type``. Then each evaluator
    scores only the rows it fits (:meth:`BaseEvaluator.applicable`)."""
    if columns.answer_type in schema:
        return True
    if columns.answer in schema:
        dtype = schema[columns.answer]
        if not _is_answer_struct(dtype):
            return False
        return _struct_field(pl.col("answer"), dtype, "type") is not None
    if columns.reference in schema:
        dtype = schema[columns.reference]
        return _struct_field(pl.col("answer"), dtype, "answer", "type") is not None
    return False


def _is_answer_struct(dtype: pl.DataType) -> bool:
    return isinstance(dtype, pl.Struct) and "value" in {f.name for f in dtype.fields}


#: A character other than whitespace: the same test as ``strip_chars().str.len_chars() > 0``
#: (both mean Unicode's White_Space property), without building the stripped strings (about
#: a third of the cost).
NOT_BLANK = r"\S"


def valid_expr(answer_dtype: pl.DataType) -> pl.Expr:
    """The seed's ``_is_valid_sample``, made explicit: prediction present and a non-empty
    reference value (one character other than whitespace). Invalid rows are scored null and
    counted as skipped."""
    if isinstance(answer_dtype, pl.List):
        ref_ok = pl.col(ANSWER).list.eval(pl.element().str.contains(NOT_BLANK)).list.any()
    else:
        ref_ok = pl.col(ANSWER).str.contains(NOT_BLANK)
    return (pl.col(PRED).is_not_null() & ref_ok.fill_null(False)).alias(VALID)


def prepare(lf: pl.LazyFrame, columns: Columns) -> pl.LazyFrame:
    """``lf`` plus the canonical columns (validated against the schema first)."""
    schema = lf.collect_schema()
    clash = [name for name in CANONICAL if name in schema]
    if clash:
        raise DuplicateColumnError(f"input uses reserved internal column name(s) {clash}")
    exprs = resolve(schema, columns)
    lf = lf.with_columns(expr.alias(name) for name, expr in exprs.items())
    answer_dtype = lf.collect_schema()[ANSWER]
    return lf.with_columns(valid_expr(answer_dtype))


# --------------------------------------------------------------------------- seed records
def from_records(predictions: Sequence[str | None], references: Sequence[Any]) -> pl.DataFrame:
    """The seed's ``evaluate(predictions, references)`` input as a flat frame.

    Malformed references (not a dict, no ``answer`` dict, no ``value``) are kept with a null
    answer, so they are scored null and counted as skipped, exactly as the seed's
    ``_is_valid_sample`` skips them.
    """
    if len(predictions) != len(references):
        raise InvalidOptionError(
            f"predictions and references must have the same length, got "
            f"{len(predictions)} and {len(references)}"
        )
    answers: list[Any] = []
    types: list[str | None] = []
    choices: list[list[dict[str, str | None]] | None] = []
    tcm: list[str | None] = []
    for ref in references:  # input conversion of Python objects, not a scoring loop
        record = ref if isinstance(ref, dict) else {}
        answer = record.get("answer")
        answer = answer if isinstance(answer, dict) else {}
        answers.append(answer.get("value"))
        types.append(_str_or_none(answer.get("type")))
        choices.append(_record_choices(record.get("choices")))
        meta = record.get("meta")
        tcm.append(_str_or_none(meta.get("tcm_eval_type")) if isinstance(meta, dict) else None)
    return pl.DataFrame(
        [
            pl.Series(
                "prediction", [None if p is None else str(p) for p in predictions], pl.String
            ),
            _answer_series(answers),
            pl.Series("answer_type", types, pl.String),
            pl.Series("choices", choices, CHOICE_DTYPE),
            pl.Series("tcm_eval_type", tcm, pl.String),
        ]
    )


def _record_choices(raw: Any) -> list[dict[str, str | None]] | None:
    if not isinstance(raw, list):
        return None
    return [
        {"id": _str_or_none(c.get("id")), "content": _str_or_none(c.get("content"))}
        for c in raw
        if isinstance(c, dict)
    ]


def _answer_series(answers: list[Any]) -> pl.Series:
    """Reference values as strings, or lists of strings when any record holds several."""
    if not any(isinstance(a, list | tuple) for a in answers):
        return pl.Series("answer", [_str_or_none(a) for a in answers], dtype=pl.String)
    lists = [
        None if a is None else [str(x) for x in a] if isinstance(a, list | tuple) else [str(a)]
        for a in answers
    ]
    return pl.Series("answer", lists, dtype=pl.List(pl.String))


def _str_or_none(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return repr(value)
    return str(value)
