"""A label written with a variant (``消费者权益`` for 消费权益, ``工程建设`` for 建设工程).

When no label is stated as written, the stated span is compared with each Chinese label of at
least four characters: the label with one character inserted inside it, or its two halves
swapped. Exactly one label that fits is the answer (rule ``variant``); a deletion (``交通`` for
交通事故) never counts. Polars expressions over the rows left without a label.
"""

from __future__ import annotations

import polars as pl

#: A label compared by its variants: Chinese only, at least this many characters.
MIN_LENGTH = 4
#: Spans longer than this are not a variant of a label (a sentence, not a label).
MAX_SPAN = 16
_CJK = r"^[\u4e00-\u9fff]+$"


def _fits(span: pl.Expr, label: pl.Expr) -> pl.Expr:
    """``span`` is ``label`` with one character inserted inside it, or its halves swapped."""
    size = label.str.len_chars()
    usable = label.str.contains(_CJK) & (size >= MIN_LENGTH)
    inserted = [(span.str.slice(0, k) + span.str.slice(k + 1)) == label for k in range(1, MAX_SPAN)]
    one_more = (span.str.len_chars() == size + 1) & pl.any_horizontal(inserted)
    half = size // 2
    swapped = (size % 2 == 0) & (span == label.str.slice(half) + label.str.slice(0, half))
    return (usable & (one_more | swapped)).fill_null(False)


def variant_frame(df: pl.DataFrame, span: str, labels: str, width: int) -> pl.DataFrame:
    """``df`` with ``label`` and ``rule`` filled where they are null and ``span`` is a variant
    of exactly one of the first ``width`` labels (rule ``variant``)."""
    todo = df["label"].is_null() & (df[span].str.len_chars() <= MAX_SPAN).fill_null(False)
    index = df.select(pl.arg_where(todo)).to_series()
    if not index.len() or not width:
        return df
    sub = df[index].select(span, labels)
    # The span, and its part after a heading (``类别：劳动者纠纷``).
    spans = (pl.col(span), pl.col(span).str.replace(r"^.*[:：]\s*", ""))
    items = [pl.col(labels).list.get(i, null_on_oob=True) for i in range(width)]
    hits = [pl.when(_fits(spans[0], item) | _fits(spans[1], item)).then(item) for item in items]
    count = pl.sum_horizontal(h.is_not_null().cast(pl.UInt32) for h in hits)
    found = sub.select(pl.when(count == 1).then(pl.coalesce(hits)).alias("variant"))["variant"]
    label = df["label"].scatter(index, found)
    rule = df["rule"].scatter(
        index, found.is_not_null().replace_strict({True: "variant", False: None}, default=None)
    )
    return df.with_columns(
        pl.coalesce(label, df["label"]).alias("label"), pl.coalesce(rule, df["rule"]).alias("rule")
    )
