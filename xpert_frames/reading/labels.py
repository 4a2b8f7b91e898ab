"""Candidate labels of text rows and the label a prediction states (Polars only).

A row's labels are the ``content`` (else ``id``) of its ``choices``; the span rules of
:mod:`xpert_frames.reading.text_rules` run in order and the first span that
states a label decides (two labels: a hedge). Labels are looked up by a literal search of
run-wrapped text (:func:`wrap_marks`), so no regular expression is built per row.
"""

from __future__ import annotations

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.reading import text_rules as ap
from xpert_frames.reading.text import (
    cut,
    plain_frame,
    prepare,
    span,
    strip_marks,
    tidy,
)


def label_list(choices: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """Each row's distinct candidate labels (``content``, else ``id``, of ``choices``),
    prepared and tidied, in order; an empty list when there are none."""
    el = pl.element().struct
    raw = pl.coalesce(el.field("content"), el.field("id"))
    label = tidy(prepare(raw), case_sensitive=case_sensitive)
    found = text.to_expr(choices).list.eval(label).list.drop_nulls()
    return found.list.unique(maintain_order=True).fill_null([])


#: What wraps every run of ``a-z0-9`` when labels are looked up (so that a literal search
#: finds a label only where its Latin letters and digits are whole words).
_MARK = "\x00"


def wrap_marks(value: IntoExpr) -> pl.Expr:
    """``_MARK`` around every run of ``a-z0-9``: ``"is positive."`` -> ``"␀is␀ ␀positive␀."``.
    A wrapped label occurs in a wrapped text exactly where the label occurs and no ``a-z0-9``
    character touches a Latin letter or digit at its ends (``positive`` is not in
    ``nonpositive``; ``正面`` is in ``是正面的``)."""
    return text.to_expr(value).str.replace_all(r"[a-z0-9]+", f"{_MARK}$0{_MARK}")


def containment_frame(df: pl.DataFrame, labels: str, width: int, prefix: str) -> pl.DataFrame:
    """Columns ``<prefix><i>_<j>``: label ``i`` lies inside the longer label ``j``."""
    items = [pl.col(labels).list.get(i, null_on_oob=True) for i in range(width)]
    return df.with_columns(
        (
            (items[j].str.len_chars() > items[i].str.len_chars())
            & items[j].str.contains(items[i], literal=True)
        )
        .fill_null(False)
        .alias(f"{prefix}{i}_{j}")
        for i in range(width)
        for j in range(width)
        if i != j
    )


def labels_frame(
    df: pl.DataFrame, source: str, labels: str, wrapped: str, width: int, out: str
) -> pl.DataFrame:
    """Columns ``<out>`` (the one label ``source`` states, else null) and ``<out>n`` (how many
    distinct labels it states) over the first ``width`` labels; a label inside a longer
    stated label (``Guilty`` in ``Guilty of Romance``) does not count. ``source`` is
    lower-cased like the labels; ``wrapped`` holds the labels through :func:`wrap_marks` and
    :func:`containment_frame` columns ``<wrapped><i>_<j>`` exist."""
    items = [pl.col(labels).list.get(i, null_on_oob=True) for i in range(width)]
    marks = [pl.col(wrapped).list.get(i, null_on_oob=True) for i in range(width)]
    hit = [f"{out}h{i}" for i in range(width)]
    df = df.with_columns(wrap_marks(source).alias(f"{out}w"))
    src = pl.col(f"{out}w")
    df = df.with_columns(
        src.str.contains(mark, literal=True).fill_null(False).alias(h)
        for mark, h in zip(marks, hit, strict=True)
    )
    kept: list[pl.Expr] = []
    for i in range(width):
        inside = [pl.col(hit[j]) & pl.col(f"{wrapped}{i}_{j}") for j in range(width) if j != i]
        covered = pl.any_horizontal(inside) if inside else pl.lit(False)
        kept.append((pl.col(hit[i]) & ~covered).alias(hit[i]))
    if not kept:
        return df.with_columns(pl.lit(None, pl.String).alias(out), pl.lit(0).alias(f"{out}n"))
    # Labels are distinct (label_list), so counting kept hits counts distinct labels.
    df = df.with_columns(kept)
    stated = pl.coalesce(pl.when(h).then(item) for h, item in zip(hit, items, strict=True))
    count = pl.sum_horizontal(pl.col(h).cast(pl.UInt32) for h in hit)
    df = df.with_columns(count.alias(f"{out}n"), stated.alias(out))
    return df.drop(*hit, f"{out}w")


def label_stated_frame(
    df: pl.DataFrame, source: str, labels: str, width: int, *, case_sensitive: bool = False
) -> pl.DataFrame:
    """``df`` with columns ``label`` and ``rule`` for a prepared, negation-erased ``source``:
    the first span rule whose span states a label decides (then the whole text); a span
    stating two labels is a hedge (label null, rule ``hedge``); no label: rule null. Each
    span is read cut at its first clause first (``positive, though … negative remarks``),
    then whole (labels may hold commas: ``Paris, France``). Rules run in order, each only on
    the rows no earlier rule decided."""
    t = "__xf_label_"
    plain, wrapped = f"{t}plain", f"{t}wrapped"
    df = plain_frame(df, source, plain)
    df = df.with_columns(pl.col(labels).list.eval(wrap_marks(pl.element())).alias(wrapped))
    df = containment_frame(df, labels, width, wrapped)
    height = df.height
    label = pl.Series("label", [None] * height, dtype=pl.String)
    rule = pl.Series("rule", [None] * height, dtype=pl.String)
    open_rows = pl.Series("row", range(height), dtype=pl.UInt32)
    low = (lambda e: e) if case_sensitive else (lambda e: e.str.to_lowercase())
    for step in ap.LABEL_RULES:
        if not open_rows.len():
            break
        sub = df[open_rows]
        raw = (
            span(source if step.reads_marks else plain, step.pattern)
            if step.pattern
            else pl.col(source)
        )
        sub = sub.with_columns(raw.alias(f"{t}raw"), open_rows.alias(f"{t}i"))
        sub = sub.filter(pl.col(f"{t}raw").is_not_null())
        sub = sub.with_columns(
            low(strip_marks(f"{t}raw")).alias(f"{t}s"),
            cut(f"{t}raw", case_sensitive=case_sensitive).alias(f"{t}c"),
        )
        sub = labels_frame(sub, f"{t}c", labels, wrapped, width, f"{t}k")
        sub = labels_frame(sub, f"{t}s", labels, wrapped, width, f"{t}l")
        use_cut = pl.col(f"{t}kn") > 0
        count = pl.when(use_cut).then(pl.col(f"{t}kn")).otherwise(pl.col(f"{t}ln"))
        stated = pl.when(use_cut).then(pl.col(f"{t}k")).otherwise(pl.col(f"{t}l"))
        done = sub.filter(count > 0).select(
            pl.col(f"{t}i"),
            pl.when(count == 1).then(stated).alias("label"),
            pl.when(count == 1).then(pl.lit(step.name)).otherwise(pl.lit("hedge")).alias("rule"),
        )
        if done.height:
            label = label.scatter(done[f"{t}i"], done["label"])
            rule = rule.scatter(done[f"{t}i"], done["rule"])
            open_rows = open_rows.filter(~open_rows.is_in(done[f"{t}i"].implode()))
    out = df.select(pl.exclude(f"^{t}.*$"))
    return out.with_columns(label, rule)


def negated_label_frame(
    df: pl.DataFrame, source: str, labels: str, width: int, *, case_sensitive: bool = False
) -> pl.DataFrame:
    """Columns ``label`` and ``rule`` of :func:`label_stated_frame` corrected for labels holding
    a negation (``not guilty`` next to ``guilty``), which erasure removes from the text: when
    the un-erased ``source`` states exactly one such label and it holds the label found (or
    none was found), that longer label wins (rule ``negation``)."""
    t = "__xf_neg_"
    negated = pl.element().str.contains(ap.NEGATED_LABEL)
    df = df.with_columns(pl.col(labels).list.eval(pl.element().filter(negated)).alias(f"{t}l"))
    df = df.with_columns(pl.col(f"{t}l").list.eval(wrap_marks(pl.element())).alias(f"{t}w"))
    df = containment_frame(df, f"{t}l", width, f"{t}w")
    low = pl.col(source) if case_sensitive else pl.col(source).str.to_lowercase()
    df = df.with_columns(low.alias(f"{t}s"))
    df = labels_frame(df, f"{t}s", f"{t}l", f"{t}w", width, f"{t}k")
    found = pl.col(f"{t}k")
    wins = (pl.col(f"{t}kn") == 1) & (
        pl.col("label").is_null() | found.str.contains(pl.col("label"), literal=True)
    )
    df = df.with_columns(
        pl.when(wins).then(found).otherwise(pl.col("label")).alias("label"),
        pl.when(wins).then(pl.lit("negation")).otherwise(pl.col("rule")).alias("rule"),
    )
    return df.select(pl.exclude(f"^{t}.*$"))
