"""The TCM evaluator's rules, one lazy plan per sub-type over that sub-type's rows (module docs
of :mod:`.evaluator`): syndrome term sets (or the reference matched as itself), treatment
keywords, disease names, and the rows decided by the option the answer chose.

Each text-side value is computed once per distinct text (:mod:`xpert_frames.core.distinct`:
real tables repeat their references and prediction templates), and the committed conclusion
(:func:`.committed.committed`) is read where a rule reads the prediction.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from xpert_frames.core.distinct import distinct_apply, per_distinct
from xpert_frames.distance.levenshtein import normalized_similarity
from xpert_frames.evaluators.tcm.committed import (
    committed,
    committed_column,
    option_picks,
    option_stem,
    reference_option,
)
from xpert_frames.evaluators.tcm.expressions import (
    JOINERS,
    STRING_LIST,
    SUFFIX_PATTERN,
    disease_text,
    normalize_tcm_text,
    similarity_from_counts,
    tcm_terms,
    treatment_keywords,
)
from xpert_frames.evaluators.tcm.terms import TermTable


def _similarity_of_pairs(pair: pl.Series) -> pl.Series:
    """:func:`normalized_similarity` of the rows where both strings are present, null
    elsewhere: the rules mask the rows that need no fallback (most of them), which then never
    reach the kernel."""
    rows = pair.struct.unnest()
    present = rows["left"].is_not_null() & rows["right"].is_not_null()
    scored = rows.filter(present).select(normalized_similarity("left", "right")).to_series()
    out = pl.Series(pair.name, dtype=pl.Float64).extend_constant(None, len(pair))
    return out.scatter(present.arg_true(), scored) if len(scored) else out


def _committed_where(batch: pl.Series) -> pl.Series:
    """The committed conclusion (:func:`.committed.committed_column`) of the ``prediction``
    of the rows of a struct column whose field ``itself`` is true, null on the others."""
    rows = batch.struct.unnest()
    at = rows["itself"].arg_true()
    said = committed_column(rows["prediction"].gather(at))
    out = pl.Series(batch.name, dtype=pl.String).extend_constant(None, len(rows))
    return out.scatter(at, said) if len(at) else out


def _where(batch: pl.Series, flag: pl.Expr) -> pl.Series:
    """``flag`` (Boolean, not null) on the rows of a struct column whose field ``itself`` is
    true, false on the others, which are not read."""
    rows = batch.struct.unnest()
    at = rows["itself"].arg_true()
    found = rows[at].select(flag).to_series()
    return pl.repeat(False, len(rows), eager=True).scatter(at, found).alias(batch.name)


@dataclass(frozen=True)
class Rules:
    """The sub-type rules under one evaluator's (validated) options."""

    table: TermTable
    normalize_tcm_terms: bool
    exact_match: bool
    partial_credit: bool
    keywords_weight: float
    match_threshold: float

    def fuzzy(self, a: pl.Expr, b: pl.Expr) -> pl.Expr:
        """The fuzzy fallback on two strings (null where either is null), as a score."""
        pair = pl.struct(a.alias("left"), b.alias("right"))
        sim = pair.map_batches(_similarity_of_pairs, return_dtype=pl.Float64, is_elementwise=True)
        if self.exact_match:
            return (sim == 1.0).cast(pl.Float64)
        return pl.when(sim >= self.match_threshold).then(sim).otherwise(0.0)

    def by_sets(self, n_pred: pl.Expr, n_ref: pl.Expr, n_shared: pl.Expr) -> pl.Expr:
        return similarity_from_counts(
            n_pred,
            n_ref,
            n_shared,
            exact_match=self.exact_match,
            partial_credit=self.partial_credit,
            keywords_weight=self.keywords_weight,
        )

    def surfaces(self) -> list[str]:
        """The surface strings the term matcher reads (all synonyms, or canonical terms)."""
        table = self.table
        return list(table.mapping) if self.normalize_tcm_terms else list(table.categories)

    def syndrome(self, part: pl.LazyFrame) -> pl.LazyFrame:
        """Term sets of both sides and their similarity; a reference not wholly made of
        known terms is matched as itself (its name contained in the prediction), else by the
        fuzzy similarity of the whole strings. Shared terms in prediction order."""
        table, norm = self.table, self.normalize_tcm_terms
        keys = sorted(self.surfaces(), key=len, reverse=True)

        def terms_of(value: pl.Expr) -> pl.Expr:
            return tcm_terms(value, terms=table, normalize=norm)

        def said_terms(value: pl.Expr) -> pl.Expr:
            return terms_of(committed(value))

        def reference_side(value: pl.Expr) -> pl.Expr:
            rest = value.str.replace_many(keys, [""] * len(keys), leftmost=True)
            return pl.struct(
                terms_of(value).alias("terms"),
                (rest.str.replace_all(JOINERS, "").str.len_chars() > 0).alias("whole"),
                option_stem(value).alias("stem"),
            )

        r_type = pl.Struct({"terms": STRING_LIST, "whole": pl.Boolean, "stem": pl.String})
        part = part.with_columns(
            per_distinct(said_terms, [pl.col("prediction")], STRING_LIST).alias("prediction_terms"),
            per_distinct(reference_side, [pl.col("answer")], r_type).alias("ref"),
        ).unnest("ref")
        part = part.with_columns(pl.col("terms").alias("reference_terms"))
        # Matched as itself: no known term, or more than its known terms (脾虚肝旺). A row
        # with no reference (null) goes this way too (scored null there).
        itself = ((pl.col("reference_terms").list.len() == 0) | pl.col("whole")).fill_null(True)
        part = part.with_columns(itself.alias("itself"))
        # One pass over the rows, no filter and no concatenation: the set rule's list work is
        # cheap on every row; the name rule's text work (the prediction's stem, the fuzzy
        # fallback) is masked to its rows, so no other row's text is read.
        shared = pl.col("prediction_terms").list.set_intersection(pl.col("reference_terms"))
        part = part.with_columns(shared.alias("shared"))
        by_sets = self.by_sets(
            pl.col("prediction_terms").list.len(),
            pl.col("reference_terms").list.len(),
            pl.col("shared").list.len(),
        )
        # The committed conclusion of the name rule's rows (null on the others).
        part = part.with_columns(
            pl.struct("itself", "prediction")
            .map_batches(_committed_where, return_dtype=pl.String, is_elementwise=True)
            .alias("said")
        )
        said = option_stem(pl.col("said"))
        # With exact_match the prediction must be the name (with or without 证/型).
        found = (
            (said == pl.col("stem"))
            if self.exact_match
            else said.str.contains(pl.col("stem"), literal=True)
        )
        named_hit = ((pl.col("stem").str.len_chars() > 0) & found).fill_null(False)
        # On the name rule's rows only (string functions read masked-out values too).
        hit = pl.struct("itself", "said", "stem").map_batches(
            lambda batch: _where(batch, named_hit), return_dtype=pl.Boolean, is_elementwise=True
        )
        part = part.with_columns(hit.alias("hit"))
        fallback = pl.col("itself") & ~pl.col("hit")
        fuzzy = self.fuzzy(pl.when(fallback).then(pl.col("answer")), pl.col("said"))
        empty = pl.lit([], dtype=STRING_LIST)
        known = pl.col("reference_terms").list.len() > 0
        stem = pl.concat_list("stem")
        return part.select(
            "row",
            pl.when(~pl.col("itself"))
            .then(by_sets)
            .when(pl.col("hit"))
            .then(1.0)
            .otherwise(fuzzy)
            .alias("score"),
            pl.when(~pl.col("itself"))
            .then(pl.col("shared"))
            .when(pl.col("hit"))
            .then(stem)
            .otherwise(empty)
            .alias("matched"),
            pl.when(~pl.col("itself"))
            .then(pl.col("reference_terms").list.set_difference(pl.col("shared")))
            .when(~pl.col("hit") & known)
            .then(stem)
            .otherwise(empty)
            .alias("missing"),
        )

    def found(self, column: pl.Series) -> pl.Series:
        """The reference keywords found in the (normalized) prediction, in keyword order, for a
        whole column of (prediction, reference_keywords) structs: every keyword of the column
        that occurs in a prediction (Aho-Corasick, overlapping: all occurrences), once per
        distinct prediction; then each row's keywords intersected with its prediction's."""
        rows = column.struct.unnest()
        vocabulary = rows["reference_keywords"].explode().drop_nulls().unique().sort().to_list()
        if not vocabulary:
            return rows["reference_keywords"]
        table, norm = self.table, self.normalize_tcm_terms

        def occurring(value: pl.Expr) -> pl.Expr:
            value = committed(value)
            value = normalize_tcm_text(value, terms=table) if norm else value
            return value.str.extract_many(vocabulary, overlapping=True)

        contained = distinct_apply(occurring, rows.select("prediction"), ["prediction"])
        return rows.select(
            pl.col("reference_keywords").list.set_intersection(contained)
        ).to_series()

    def treatment(self, part: pl.LazyFrame) -> pl.LazyFrame:
        """The reference keywords found in the prediction (:meth:`_found`); they are
        reference keywords, so they are the shared items."""
        table, norm = self.table, self.normalize_tcm_terms

        def keywords(value: pl.Expr) -> pl.Expr:
            return treatment_keywords(value, terms=table, normalize=norm)

        part = part.with_columns(
            per_distinct(keywords, [pl.col("answer")], STRING_LIST).alias("reference_keywords")
        )
        found = pl.struct("prediction", "reference_keywords").map_batches(
            self.found, return_dtype=STRING_LIST
        )
        part = part.select("row", "reference_keywords", found.alias("found"))
        n_found = pl.col("found").list.len()
        return part.select(
            "row",
            self.by_sets(n_found, pl.col("reference_keywords").list.len(), n_found).alias("score"),
            pl.col("found").alias("matched"),
            pl.col("reference_keywords").list.set_difference(pl.col("found")).alias("missing"),
        )

    def disease(self, part: pl.LazyFrame) -> pl.LazyFrame:
        """The reference name contained in the prediction scores 1.0; else (with partial
        credit, without exact match) the fuzzy similarity of the name and the prediction
        without its final 证/病; else 0.0."""

        def pred_side(value: pl.Expr) -> pl.Expr:
            name = disease_text(committed(value), strip_suffix=False)
            return pl.struct(
                name.alias("text"), name.str.replace(SUFFIX_PATTERN, "${1}${2}").alias("stem")
            )

        p_type = pl.Struct({"text": pl.String, "stem": pl.String})
        part = part.select(
            "row",
            per_distinct(pred_side, [pl.col("prediction")], p_type).alias("prediction_name"),
            per_distinct(disease_text, [pl.col("answer")], pl.String).alias("reference_name"),
        ).unnest("prediction_name")
        name = pl.col("reference_name")
        # Equal names are a special case of containment (a stripped name is a prefix).
        hit = (name.str.len_chars() > 0) & pl.col("text").str.contains(name, literal=True)
        part = part.with_columns(hit.alias("hit"))
        score: pl.Expr = pl.when("hit").then(1.0).otherwise(0.0)
        if self.partial_credit and not self.exact_match:
            fuzzy = pl.col("hit").not_()
            stem = pl.when(fuzzy).then(pl.col("stem"))
            score = (
                pl.when(fuzzy).then(self.fuzzy(pl.when(fuzzy).then(name), stem)).otherwise(score)
            )
        empty = pl.lit([], dtype=STRING_LIST)
        return part.select(
            "row",
            score.alias("score"),
            pl.when("hit").then(pl.concat_list(name)).otherwise(empty).alias("matched"),
            pl.when("hit").then(empty).otherwise(pl.concat_list(name)).alias("missing"),
        )

    def by_option(self, frame: pl.DataFrame, kinds: list[str]) -> pl.DataFrame | None:
        """Score, matched and missing of the rows decided by the option the answer chose: rows
        of a known sub-type with options, whose reference is an option and whose prediction
        states one (:func:`option_picks`, once per distinct prediction and options); None
        when there are none."""
        if "choices" not in frame.columns:
            return None
        has = pl.col("choices").is_not_null() & (pl.col("choices").list.len() > 0)
        rows = frame.filter(has & pl.col("kind").is_in(kinds))
        if rows.height == 0:
            return None

        def picks(p: pl.Expr, c: pl.Expr) -> pl.Expr:
            return pl.struct(p.alias("prediction"), c.alias("choices")).map_batches(
                lambda s: option_picks(s.struct.unnest()), return_dtype=pl.String
            )

        rows = rows.with_columns(
            distinct_apply(reference_option, rows, ["choices", "answer"]).alias("ref_id"),
            distinct_apply(picks, rows, ["prediction", "choices"]).alias("pick"),
        ).filter(pl.col("ref_id").is_not_null() & pl.col("pick").is_not_null())
        hit = pl.col("pick") == pl.col("ref_id")
        empty = pl.lit([], dtype=STRING_LIST)
        return rows.select(
            "row",
            pl.when(hit).then(1.0).otherwise(0.0).alias("score"),
            pl.when(hit).then(pl.concat_list("answer")).otherwise(empty).alias("matched"),
            pl.when(hit).then(empty).otherwise(pl.concat_list("answer")).alias("missing"),
        )
