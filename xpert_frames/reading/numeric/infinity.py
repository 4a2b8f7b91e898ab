"""Infinite numbers, which the number grammar has no word for: ``inf``, ``-Infinity``, ``+∞``
(how float columns write their infinite values), read as ±inf so that they compare as
infinities."""

from __future__ import annotations

import polars as pl

#: A text that is exactly an infinity (``inf``, ``-Infinity``, ``+∞``): how float columns
#: write their infinite values.
_INFINITY = r"(?i)^\s*([+-]?)\s*(?:inf|infinity|∞)\s*$"


def with_infinity(texts: pl.Series, parsed: pl.Series) -> pl.Series:
    """``parsed`` with ±inf where the text is exactly an infinity (the grammar has no word for
    it), so that infinite references compare as infinities."""
    # An infinity holds no number the grammar reads (no digit, numeral or number word): only
    # the rows without a value are read.
    todo = parsed.struct.field("value").is_null()
    if not todo.any():
        return parsed
    texts = texts.cast(pl.String)
    sign = pl.repeat(None, len(texts), dtype=pl.String, eager=True)
    sign = sign.scatter(todo.arg_true(), texts.filter(todo).str.extract(_INFINITY, 1))
    if sign.null_count() == len(sign):
        return parsed
    value = pl.when(pl.col("sign") == "-").then(float("-inf")).otherwise(float("inf"))
    fields = []
    for field in parsed.dtype.fields:  # type: ignore[attr-defined]
        if field.name == "value":
            fields.append(value.alias("value"))
        elif field.name == "rule":
            fields.append(pl.lit("last").alias("rule"))
        else:
            fields.append(pl.lit(None, field.dtype).alias(field.name))
    frame = pl.DataFrame({"sign": sign, "parsed": parsed})
    out = (
        pl.when(pl.col("sign").is_not_null())
        .then(pl.struct(fields).cast(parsed.dtype))
        .otherwise(pl.col("parsed"))
    )
    return frame.select(out.alias(parsed.name)).to_series()
