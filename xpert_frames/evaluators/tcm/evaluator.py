"""TCM diagnosis: syndrome, disease and treatment scoring over term-set list columns.

Rules (one row, its sub-type from ``tcm_eval_type``; missing means ``syndrome``):

- **syndrome**: both texts are normalized with the synonym table (``str.replace_many``,
  leftmost-longest) and reduced to their sets of canonical syndrome terms (list columns); the
  score is the seed's ``_calculate_set_similarity`` of the two sets (:func:`set_similarity`).
  A reference that is not wholly made of known terms (it names none, or a compound such as
  脾虚肝旺 holds more than its known part 脾虚) is matched as itself: its name (without a final
  证/型) contained in the prediction (with ``exact_match``: equal to it) scores 1.0; else the
  fuzzy similarity of the two whole strings, counted only if ``>= match_threshold`` (with
  ``exact_match``: only equality).
- **disease**: both texts are normalized (:func:`disease_text`: width, ASCII case, punctuation,
  whitespace; and the reference name loses a final 证/病 that is not part of the name). The
  reference name contained in the prediction (an exact match included) scores 1.0; otherwise,
  with ``partial_credit`` and without ``exact_match``, the fuzzy similarity of the name and the
  prediction (final 证/病 stripped too) if ``>= match_threshold``; else 0.0.
- **treatment**: the reference splits on Chinese/ASCII list punctuation into keywords
  (:func:`treatment_keywords`); each is found in the normalized prediction or not; the score is
  :func:`set_similarity` of the found set and the keyword set.

Only the committed conclusion is read (:func:`.committed.committed_text`): sentences that
reject or set aside what they name ("其他选项如X、Y并不是…", "排除X", "B选项X…不符") are left
out. A question with options (the ``choices`` column, with ``read_options``) whose reference
is one of them is decided by the option the answer chose (:func:`.committed.option_picks`:
by letter, "因此选E", or by content, "所以，答案应该是秦艽"): 1.0 when it is the reference's
option, 0.0 for another or for two; rows where no option is stated are scored by the rules
above.

``matched``/``missing`` list the canonical terms (keywords, disease name) both sides share and
those of the reference the prediction lacks. A sub-type other than the three is scored null.
"""

from __future__ import annotations

from typing import Any, ClassVar

import polars as pl

from xpert_frames.core import frames, text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.distinct import distinct_apply, per_distinct
from xpert_frames.core.options import check_bool, check_fraction
from xpert_frames.distance.levenshtein import normalized_similarity
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.evaluators.tcm.committed import (
    committed,
    committed_column,
    option_picks,
    option_stem,
    reference_option,
)
from xpert_frames.evaluators.tcm.matching import TermMatcher
from xpert_frames.evaluators.tcm.terms import TermTable, load_terms

#: Treatment keyword separators: Chinese and ASCII list punctuation and whitespace.
KEYWORD_SEPARATORS = "，,、；;。.／/\\s"
#: Names whose final 证/病 is part of the name (kept by :func:`disease_text`). Besides these, the
#: suffix is kept whenever stripping it would leave fewer than two characters (淋证, 痹证).
NAME_SUFFIX_KEPT = (
    "糖尿病",
    "心脏病",
    "冠心病",
    "白血病",
    "肺心病",
    "帕金森病",
    "阿尔茨海默病",
    "克罗恩病",
    "艾滋病",
    "狂犬病",
)
# One pass, one reference to the input: a protected name is kept ($1), else a final 证/病
# after at least two characters is dropped ($2).
_SUFFIX_RE = f"(?s)^(.*(?:{'|'.join(NAME_SUFFIX_KEPT)}))$|^(.{{2,}})[证病]$"
# Full-width ASCII forms and the ideographic space to half-width, and A-Z to a-z, in one pass.
_FOLD_FROM = [chr(c) for c in range(0xFF01, 0xFF5F)] + ["\u3000"] + [chr(c) for c in range(65, 91)]
_FOLD_TO = [chr(c - 0xFEE0).lower() for c in range(0xFF01, 0xFF5F)] + [" "]
_FOLD_TO += [chr(c).lower() for c in range(65, 91)]
_LIST = pl.List(pl.String)
#: What a reference may hold besides its terms and still be their set: punctuation, the
#: suffixes 证/型/证候 and the words joining two syndromes (兼, 夹, 和, 及, 并, 伴, 或, 与).
_JOINERS = r"[\p{P}\p{S}\s]+|证候|证|型|兼|夹|和|及|并|伴|或|与"
_OUTPUTS = ("score", "matched", "missing")

TermsSpec = Any  # "default" | "seed" | path | pl.DataFrame | dict | TermTable


# --------------------------------------------------------------------------- expressions
def normalize_tcm_text(value: IntoExpr, *, terms: TermsSpec = "default") -> pl.Expr:
    """Replace every synonym by its canonical term, leftmost-longest, in one pass."""
    table = load_terms(terms)
    return text.replace_aliases(value, table.mapping)


def tcm_terms(value: IntoExpr, *, terms: TermsSpec = "default", normalize: bool = True) -> pl.Expr:
    """The canonical syndrome terms found in ``value`` (List(String), first-seen order, unique).

    With ``normalize`` every synonym counts, else only canonical terms written literally.
    Matching is leftmost-longest over all terms of the table; terms of category ``treatment``
    are matched (so they consume their text) but not returned.
    """
    table = load_terms(terms)
    check_bool("normalize", normalize)
    surface = table.mapping if normalize else {c: c for c in table.categories}
    names = [c if table.is_syndrome(c) else None for c in surface.values()]
    matcher = TermMatcher(list(surface), names)
    return text.to_expr(value).map_batches(matcher, return_dtype=_LIST, is_elementwise=True)


def set_similarity(
    prediction: IntoExpr,
    reference: IntoExpr,
    *,
    exact_match: bool = False,
    partial_credit: bool = True,
    keywords_weight: float = 0.6,
) -> pl.Expr:
    """The seed's ``_calculate_set_similarity`` of two List(String) columns (taken as sets).

    Both empty → 1.0; one empty → 0.0; ``exact_match`` → set equality; ``partial_credit`` →
    ``w·F1 + (1−w)·Jaccard``; else Jaccard.
    """
    p = text.to_expr(prediction).list.unique()
    r = text.to_expr(reference).list.unique()
    return similarity_from_counts(
        p.list.len(),
        r.list.len(),
        p.list.set_intersection(r).list.len(),
        exact_match=exact_match,
        partial_credit=partial_credit,
        keywords_weight=keywords_weight,
    )


def similarity_from_counts(
    n_pred: IntoExpr,
    n_ref: IntoExpr,
    n_shared: IntoExpr,
    *,
    exact_match: bool = False,
    partial_credit: bool = True,
    keywords_weight: float = 0.6,
) -> pl.Expr:
    """:func:`set_similarity` from the set sizes ``|P|``, ``|R|`` and ``|P ∩ R|``
    (``|P ∪ R| = |P| + |R| − |P ∩ R|``)."""
    exact_match = check_bool("exact_match", exact_match)
    partial_credit = check_bool("partial_credit", partial_credit)
    w = check_fraction("keywords_weight", keywords_weight)
    n_p = text.to_expr(n_pred).cast(pl.Float64)
    n_r = text.to_expr(n_ref).cast(pl.Float64)
    inter = text.to_expr(n_shared).cast(pl.Float64)
    if exact_match:
        graded = ((inter == n_p) & (inter == n_r)).cast(pl.Float64)
    else:
        jaccard = inter / (n_p + n_r - inter)
        if partial_credit:
            precision = inter / n_p
            recall = inter / n_r
            f1 = (
                pl.when(precision + recall > 0)
                .then(2 * precision * recall / (precision + recall))
                .otherwise(0.0)
            )
            graded = w * f1 + (1 - w) * jaccard
        else:
            graded = jaccard
    return (
        pl.when((n_p == 0) & (n_r == 0))
        .then(1.0)
        .when((n_p == 0) | (n_r == 0))
        .then(0.0)
        .otherwise(graded)
    )


def treatment_keywords(
    reference: IntoExpr, *, terms: TermsSpec = "default", normalize: bool = True
) -> pl.Expr:
    """Treatment keywords of a reference (List(String)): split on ``，,、；;。./／`` and
    whitespace, after synonym normalization when ``normalize``; unique, in order."""
    expr = text.to_expr(reference)
    if check_bool("normalize", normalize):
        expr = normalize_tcm_text(expr, terms=terms)
    return expr.str.extract_all(f"[^{KEYWORD_SEPARATORS}]+").list.unique(maintain_order=True)


def disease_text(value: IntoExpr, *, strip_suffix: bool = True) -> pl.Expr:
    """Disease-name normal form: half-width, ASCII lower case, no punctuation, symbols or
    whitespace, and (``strip_suffix``) a final 证/病 removed unless it is part of the name. The
    synonym table is not applied: it lists syndromes and treatments, not disease names."""
    expr = text.to_expr(value).str.replace_many(_FOLD_FROM, _FOLD_TO)
    expr = expr.str.replace_all(r"[\p{P}\p{S}\s]+", "")
    if check_bool("strip_suffix", strip_suffix):
        expr = expr.str.replace(_SUFFIX_RE, "${1}${2}")
    return expr


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


# --------------------------------------------------------------------------- evaluator
class TcmDiagnosisEvaluator(BaseEvaluator):
    """TCM diagnosis: syndrome sets, disease names and treatment keywords against a reference.

    The sub-type comes from the ``tcm_eval_type`` column (or ``reference.meta.tcm_eval_type``;
    ``syndrome`` when absent): ``syndrome`` and ``treatment`` rows compare sets of canonical
    terms, ``disease`` rows compare names by fuzzy similarity. Columns ``<name>_score``,
    ``<name>_matched`` and ``<name>_missing`` (the terms found and not found) and
    ``<name>_type``; report metrics ``<name>``, ``syndrome``, ``disease`` and ``treatment``.

    Parameters
    ----------
    match_threshold : float, default 0.7
        The fuzzy similarity a disease name (or a syndrome reference with no known term) needs
        to count.
    exact_match : bool, default False
        Syndrome and treatment sets must be equal.
    partial_credit : bool, default True
        Score sets by ``w·F1 + (1−w)·Jaccard`` (``w`` = ``keywords_weight``) and disease names
        by their similarity; ``False`` scores sets by Jaccard and names all or nothing.
    keywords_weight : float, default 0.6
        The weight ``w`` of F1 in the partial-credit set score.
    normalize_tcm_terms : bool, default True
        Map synonyms to canonical terms before comparing.
    terms : {"default", "seed"}, path, DataFrame or dict, default "default"
        The synonym table: ``"default"`` (95 syndromes and 15 treatment principles),
        ``"seed"`` (XpertEval's 9 terms), a CSV/Parquet path, a DataFrame or a dict.
    extra_terms : same as ``terms``, optional
        Entries added to ``terms``; a synonym mapped to two canonical terms is an error.
    read_options : bool, default True
        Rows with options (``choices``) whose reference is one of them are scored by the
        option the answer chose (by letter or by content); ``False`` reads them as text.
    name : str, optional
        The prefix of the output columns (default ``tcm_diagnosis``).

    Examples
    --------
    >>> import polars as pl
    >>> import xpert_frames as xf
    >>> df = pl.DataFrame(
    ...     {"prediction": ["辨证为肝郁脾虚证，治以疏肝健脾。"], "answer": ["肝郁脾虚证"]}
    ... )
    >>> out = xf.score(df, xf.TcmDiagnosisEvaluator())
    >>> out["tcm_diagnosis_score"].to_list(), out["tcm_diagnosis_matched"].to_list()
    ([1.0], [['肝郁脾虚']])
    """

    key: ClassVar[str] = "tcm_diagnosis"
    metric: ClassVar[str] = "tcm_diagnosis"
    answer_types: ClassVar[tuple[str, ...]] = ("text",)
    subtype_column: ClassVar[str | None] = frames.TCM_TYPE
    subtype_default: ClassVar[str | None] = "syndrome"
    subtype_metric: ClassVar[str] = "{}"

    def applicable(self) -> pl.Expr:
        """With answer types in the table, TCM scores the rows that have a TCM sub-type
        (``tcm_eval_type`` or ``meta.tcm_eval_type``)."""
        return pl.col(frames.TCM_TYPE).is_not_null()

    @classmethod
    def fits(cls) -> str:
        return "rows with a tcm_eval_type (syndrome / disease / treatment)"

    def __init__(
        self,
        *,
        match_threshold: float = 0.7,
        exact_match: bool = False,
        partial_credit: bool = True,
        keywords_weight: float = 0.6,
        normalize_tcm_terms: bool = True,
        terms: TermsSpec = "default",
        extra_terms: TermsSpec | None = None,
        read_options: bool = True,
        name: str | None = None,
    ) -> None:
        super().__init__(name=name)
        self.match_threshold = check_fraction("match_threshold", match_threshold)
        self.exact_match = check_bool("exact_match", exact_match)
        self.partial_credit = check_bool("partial_credit", partial_credit)
        self.keywords_weight = check_fraction("keywords_weight", keywords_weight)
        self.normalize_tcm_terms = check_bool("normalize_tcm_terms", normalize_tcm_terms)
        self.terms: TermTable = load_terms(terms)
        self.extra_terms: TermTable | None = (
            None if extra_terms is None else load_terms(extra_terms, option="extra_terms")
        )
        self._table = self.terms if self.extra_terms is None else self.terms.merge(self.extra_terms)
        self.read_options = check_bool("read_options", read_options)

    # Each sub-type is scored on its own rows (a filter of the frame: no expression runs on
    # rows of another sub-type, no list column is built for them), every text-side value once per
    # distinct text (core.distinct: real tables repeat their references and prediction
    # templates); the three parts are stacked, put back in row order and placed beside the
    # frame (a join would copy every column). outputs() reads the columns prepare() adds.
    def _fuzzy(self, a: pl.Expr, b: pl.Expr) -> pl.Expr:
        """The fuzzy fallback on two strings (null where either is null), as a score."""
        pair = pl.struct(a.alias("left"), b.alias("right"))
        sim = pair.map_batches(_similarity_of_pairs, return_dtype=pl.Float64, is_elementwise=True)
        if self.exact_match:
            return (sim == 1.0).cast(pl.Float64)
        return pl.when(sim >= self.match_threshold).then(sim).otherwise(0.0)

    def _by_sets(self, n_pred: pl.Expr, n_ref: pl.Expr, n_shared: pl.Expr) -> pl.Expr:
        return similarity_from_counts(
            n_pred,
            n_ref,
            n_shared,
            exact_match=self.exact_match,
            partial_credit=self.partial_credit,
            keywords_weight=self.keywords_weight,
        )

    def _surfaces(self) -> list[str]:
        """The surface strings the term matcher reads (all synonyms, or canonical terms)."""
        table = self._table
        return list(table.mapping) if self.normalize_tcm_terms else list(table.categories)

    def _syndrome(self, part: pl.LazyFrame) -> pl.LazyFrame:
        """Term sets of both sides and their similarity; a reference not wholly made of
        known terms is matched as itself (its name contained in the prediction), else by the
        fuzzy similarity of the whole strings. Shared terms in prediction order."""
        table, norm = self._table, self.normalize_tcm_terms
        keys = sorted(self._surfaces(), key=len, reverse=True)

        def terms_of(value: pl.Expr) -> pl.Expr:
            return tcm_terms(value, terms=table, normalize=norm)

        def said_terms(value: pl.Expr) -> pl.Expr:
            return terms_of(committed(value))

        def reference_side(value: pl.Expr) -> pl.Expr:
            rest = value.str.replace_many(keys, [""] * len(keys), leftmost=True)
            return pl.struct(
                terms_of(value).alias("terms"),
                (rest.str.replace_all(_JOINERS, "").str.len_chars() > 0).alias("whole"),
                option_stem(value).alias("stem"),
            )

        r_type = pl.Struct({"terms": _LIST, "whole": pl.Boolean, "stem": pl.String})
        part = part.with_columns(
            per_distinct(said_terms, [pl.col("prediction")], _LIST).alias("prediction_terms"),
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
        by_sets = self._by_sets(
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
        fuzzy = self._fuzzy(pl.when(fallback).then(pl.col("answer")), pl.col("said"))
        empty = pl.lit([], dtype=_LIST)
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

    def _found(self, column: pl.Series) -> pl.Series:
        """The reference keywords found in the (normalized) prediction, in keyword order, for a
        whole column of (prediction, reference_keywords) structs: every keyword of the column
        that occurs in a prediction (Aho-Corasick, overlapping: all occurrences), once per
        distinct prediction; then each row's keywords intersected with its prediction's."""
        rows = column.struct.unnest()
        vocabulary = rows["reference_keywords"].explode().drop_nulls().unique().sort().to_list()
        if not vocabulary:
            return rows["reference_keywords"]
        table, norm = self._table, self.normalize_tcm_terms

        def occurring(value: pl.Expr) -> pl.Expr:
            value = committed(value)
            value = normalize_tcm_text(value, terms=table) if norm else value
            return value.str.extract_many(vocabulary, overlapping=True)

        contained = distinct_apply(occurring, rows.select("prediction"), ["prediction"])
        return rows.select(
            pl.col("reference_keywords").list.set_intersection(contained)
        ).to_series()

    def _treatment(self, part: pl.LazyFrame) -> pl.LazyFrame:
        """The reference keywords found in the prediction (:meth:`_found`); they are
        reference keywords, so they are the shared items."""
        table, norm = self._table, self.normalize_tcm_terms

        def keywords(value: pl.Expr) -> pl.Expr:
            return treatment_keywords(value, terms=table, normalize=norm)

        part = part.with_columns(
            per_distinct(keywords, [pl.col("answer")], _LIST).alias("reference_keywords")
        )
        found = pl.struct("prediction", "reference_keywords").map_batches(
            self._found, return_dtype=_LIST
        )
        part = part.select("row", "reference_keywords", found.alias("found"))
        n_found = pl.col("found").list.len()
        return part.select(
            "row",
            self._by_sets(n_found, pl.col("reference_keywords").list.len(), n_found).alias("score"),
            pl.col("found").alias("matched"),
            pl.col("reference_keywords").list.set_difference(pl.col("found")).alias("missing"),
        )

    def _disease(self, part: pl.LazyFrame) -> pl.LazyFrame:
        """The reference name contained in the prediction scores 1.0; else (with partial
        credit, without exact match) the fuzzy similarity of the name and the prediction
        without its final 证/病; else 0.0."""

        def pred_side(value: pl.Expr) -> pl.Expr:
            name = disease_text(committed(value), strip_suffix=False)
            return pl.struct(
                name.alias("text"), name.str.replace(_SUFFIX_RE, "${1}${2}").alias("stem")
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
                pl.when(fuzzy).then(self._fuzzy(pl.when(fuzzy).then(name), stem)).otherwise(score)
            )
        empty = pl.lit([], dtype=_LIST)
        return part.select(
            "row",
            score.alias("score"),
            pl.when("hit").then(pl.concat_list(name)).otherwise(empty).alias("matched"),
            pl.when("hit").then(empty).otherwise(pl.concat_list(name)).alias("missing"),
        )

    def _by_option(self, frame: pl.DataFrame, kinds: list[str]) -> pl.DataFrame | None:
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
        empty = pl.lit([], dtype=_LIST)
        return rows.select(
            "row",
            pl.when(hit).then(1.0).otherwise(0.0).alias("score"),
            pl.when(hit).then(pl.concat_list("answer")).otherwise(empty).alias("matched"),
            pl.when(hit).then(empty).otherwise(pl.concat_list("answer")).alias("missing"),
        )

    def _score_batch(self, column: pl.Series) -> pl.Series:
        """Score, matched and missing items of a whole column of (kind, prediction, answer)
        structs: the sub-types' plans run side by side, their rows are stacked and put back in
        row order."""
        rules = {"syndrome": self._syndrome, "treatment": self._treatment, "disease": self._disease}
        frame = column.struct.unnest().with_row_index("row")
        decided = self._by_option(frame, list(rules))
        # Only the committed conclusion is read: each rule reads it (:func:`.committed.committed`)
        # where it reads the prediction, once per distinct text of its rows.
        rows = frame.lazy()
        parts = []
        if decided is not None:
            rows = rows.join(decided.lazy().select("row"), on="row", how="anti")
            parts.append(decided.lazy())
        parts += [rule(rows.filter(pl.col("kind") == k)) for k, rule in rules.items()]
        # Another sub-type is scored null: no reference items, hence null shared and missing.
        null = pl.lit(None, dtype=_LIST)
        parts.append(
            rows.filter(~pl.col("kind").is_in(list(rules))).select(
                "row",
                pl.lit(None, dtype=pl.Float64).alias("score"),
                null.alias("matched"),
                null.alias("missing"),
            )
        )
        # The in-memory engine runs the branches of a concatenation side by side (measured:
        # the streaming engine and collect_all ran them one after the other).
        stacked = pl.concat(parts).collect(engine="in-memory").sort("row")
        return stacked.select(
            pl.struct(pl.col(c).alias(self.temp(c)) for c in _OUTPUTS)
        ).to_series()

    def prepare(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        kind = pl.col(frames.TCM_TYPE).fill_null(pl.lit(self.subtype_default))
        fields = [
            kind.alias("kind"),
            pl.col(frames.PRED).alias("prediction"),
            pl.col(frames.ANSWER).alias("answer"),
        ]
        if self.read_options:
            fields.append(pl.col(frames.CHOICES).alias("choices"))
        packed = pl.struct(fields)
        out_type = pl.Struct(
            {
                self.temp("score"): pl.Float64,
                self.temp("matched"): _LIST,
                self.temp("missing"): _LIST,
            }
        )
        out = self.temp("out")
        # One batch over the whole column (both engines): the sub-types run side by side.
        scored = packed.map_batches(self._score_batch, return_dtype=out_type)
        return lf.with_columns(scored.alias(out)).unnest(out)

    def outputs(self) -> dict[str, pl.Expr]:
        return {c: pl.col(self.temp(c)) for c in _OUTPUTS}
