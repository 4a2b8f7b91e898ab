"""A choice answered by an option's content in the conclusion (``所以，答案应该是秦艽``).

When no rule of the cascade finds a letter, the option whose content the *concluding* sentence
names is the answer (``content:conclusion``), else the option the first sentence with a copula
names (``content:statement``: ``饭后服用的药物通常是健胃药``); clauses that name options to
reject them (``其他选项如驱虫药、泻下药…并不…``) are erased first, and exactly one option must be
named: every part of its content (``任脉、冲脉`` is named by ``任脉和冲脉``). The patterns are in
:mod:`xpert_frames.reading.choice_rules`. Polars over the rows that need it, no Python per row.
"""

from __future__ import annotations

import polars as pl

from xpert_frames.core import text
from xpert_frames.reading import choice_rules as cp

#: The candidate columns :func:`content_in_sentences` returns, in rule order, and whether the
#: conclusion names several options (then no content rule reads the row: two answers).
CONCLUSION_COLUMN, STATEMENT_COLUMN = "__xf_content_conclusion", "__xf_content_statement"
SEVERAL_COLUMN = "__xf_content_several"


def _kept(sentence: pl.Expr) -> pl.Expr:
    return sentence.str.replace_all(cp.REJECTED_CLAUSE, cp.GONE)


def content_in_sentences(df: pl.DataFrame, prediction: str, choices: str) -> list[pl.Series]:
    """Per row of ``df``: the option named in the conclusion, the option named in the first
    stated sentence (null where not exactly one option is), and whether the conclusion names
    several options."""
    low = text.full_to_half(pl.col(prediction)).str.to_lowercase()
    sentences = df.select(
        pl.int_range(pl.len(), dtype=pl.UInt32).alias("row"),
        _kept(low.str.extract_all(cp.CONTENT_CONCLUSION).list.last()).alias("conclusion"),
        _kept(low.str.extract_all(cp.CONTENT_STATEMENT).list.first()).alias("statement"),
    )
    parts = (
        df.select(pl.int_range(pl.len(), dtype=pl.UInt32).alias("row"), pl.col(choices))
        .explode(choices)
        .select(
            "row",
            pl.col(choices).struct.field("id").str.strip_chars().str.to_uppercase().alias("letter"),
            text.full_to_half(pl.col(choices).struct.field("content"))
            .str.strip_chars()
            .str.to_lowercase()
            .str.extract_all(cp.CONTENT_PART)
            .alias("part"),
        )
        .filter(pl.col("letter").str.contains(r"^[A-Z]$"))
        .explode("part")
        .with_columns(pl.col("part").str.strip_chars())
        .filter(pl.col("part").str.len_chars() > 0)
        .join(sentences, on="row")
    )
    named = parts.group_by("row", "letter").agg(
        *(
            pl.col(s).str.contains(pl.col("part"), literal=True).fill_null(False).all().alias(s)
            for s in ("conclusion", "statement")
        )
    )
    one = named.group_by("row").agg(
        (pl.col("conclusion").sum() > 1).alias("several"),
        *(
            pl.when(pl.col(s).sum() == 1).then(pl.col("letter").filter(pl.col(s)).first()).alias(s)
            for s in ("conclusion", "statement")
        ),
    )
    out = sentences.select("row").join(one, on="row", how="left", maintain_order="left")
    return [
        out["conclusion"].alias(CONCLUSION_COLUMN),
        out["statement"].alias(STATEMENT_COLUMN),
        out["several"].fill_null(False).alias(SEVERAL_COLUMN),
    ]
