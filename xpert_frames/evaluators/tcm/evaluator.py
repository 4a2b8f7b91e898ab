"""TCM diagnosis: syndrome, disease and treatment scoring over term-set list columns.

Rules (one row, its sub-type from ``tcm_eval_type``; missing means ``syndrome``):

- **syndrome**: both texts are normalized with the synonym table (``str.replace_many``,
  leftmost-longest) and reduced to their sets of canonical syndrome terms (list columns); the
  score is the seed's ``_calculate_set_similarity`` of the two sets (:func:`set_similarity`).
  When the reference holds no known term at all, the score is the fuzzy similarity of the two
  whole strings, counted only if ``>= match_threshold`` (with ``exact_match``: only equality).
- **disease**: both texts are normalized (:func:`disease_text`: width, ASCII case, punctuation,
  whitespace; and the reference name loses a final 证/病 that is not part of the name). The
  reference name contained in the prediction (an exact match included) scores 1.0; otherwise,
  with ``partial_credit`` and without ``exact_match``, the fuzzy similarity of the name and the
  prediction (final 证/病 stripped too) if ``>= match_threshold``; else 0.0.
- **treatment**: the reference splits on Chinese/ASCII list punctuation into keywords
  (:func:`treatment_keywords`); each is found in the normalized prediction or not; the score is
  :func:`set_similarity` of the found set and the keyword set.

``matched``/``missing`` list the canonical terms (keywords, disease name) both sides share and
those of the reference the prediction lacks. A sub-type other than the three is scored null.
"""

from __future__ import annotations

from typing import Any, ClassVar

import polars as pl

from xpert_frames.core import frames, text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.distinct import per_distinct
from xpert_frames.core.options import check_bool, check_fraction
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.evaluators.fuzzy.evaluator import similarity
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
    # Longest first: Aho-Corasick's leftmost-first match is then the leftmost-longest one.
    keys = sorted(surface, key=len, reverse=True)
    canonical = [surface[k] if table.is_syndrome(surface[k]) else None for k in keys]
    to_term = pl.element().replace_strict(keys, canonical, default=None, return_dtype=pl.String)
    found = text.to_expr(value).str.extract_many(keys, leftmost=True)
    return found.list.eval(to_term.drop_nulls()).list.unique(maintain_order=True)


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


# --------------------------------------------------------------------------- evaluator
class TcmDiagnosisEvaluator(BaseEvaluator):
    """TCM diagnosis: syndrome sets, disease names and treatment keywords against a reference."""

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

    # The rules share sub-expressions (term sets, disease names, keyword lists). prepare()
    # computes them stage by stage as temporary columns, each text-side value once per distinct
    # (sub-type, text) (core.distinct: real tables repeat their references and prediction
    # templates). Pair stages (keywords found, shared items, fuzzy fallback) run per row.
    # outputs() reads those columns, so it is only meaningful after prepare().
    def _col(self, part: str) -> pl.Expr:
        return pl.col(self.temp(part))

    def _pred_side(self, kind: pl.Expr, pred: pl.Expr) -> pl.Expr:
        """Per (sub-type, prediction): the term set (syndrome); the text (disease: the name,
        treatment: normalized); the name without a final 证/病 (the fuzzy rule: the prediction
        is a sentence, so the whole name is kept for containment)."""
        table, norm, temp = self._table, self.normalize_tcm_terms, self.temp
        p_dis = disease_text(pl.when(kind == "disease").then(pred), strip_suffix=False)
        trt: pl.Expr = pl.when(kind == "treatment").then(pred)
        p_trt = normalize_tcm_text(trt, terms=table) if norm else trt
        syn = pl.when(kind == "syndrome").then(pred)
        return pl.struct(
            tcm_terms(syn, terms=table, normalize=norm).alias(temp("p_set")),
            pl.coalesce(p_dis, p_trt).alias(temp("p_text")),
            p_dis.str.replace(_SUFFIX_RE, "${1}${2}").alias(temp("p_stem")),
        )

    def _answer_side(self, kind: pl.Expr, answer: pl.Expr) -> pl.Expr:
        """Per (sub-type, reference): its items (syndrome: the term set, treatment: the
        keywords, disease: the name) and the disease name."""
        table, norm, temp = self._table, self.normalize_tcm_terms, self.temp
        r_dis = disease_text(pl.when(kind == "disease").then(answer))
        items = (
            pl.when(kind == "syndrome")
            .then(tcm_terms(answer, terms=table, normalize=norm))
            .when(kind == "treatment")
            .then(treatment_keywords(answer, terms=table, normalize=norm))
            .when(kind == "disease")
            .then(pl.concat_list(r_dis))
        )
        return pl.struct(items.alias(temp("r_items")), r_dis.alias(temp("r_dis")))

    def _texts(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Stage 1: both sides' texts, each on its sub-type only, once per distinct text (the
        two sides in one context: Polars runs them side by side)."""
        kind, temp = self._col("kind"), self.temp
        p_type = pl.Struct(
            {temp("p_set"): _LIST, temp("p_text"): pl.String, temp("p_stem"): pl.String}
        )
        a_type = pl.Struct({temp("r_items"): _LIST, temp("r_dis"): pl.String})
        return lf.with_columns(
            per_distinct(self._pred_side, [kind, pl.col(frames.PRED)], p_type).alias(temp("p")),
            per_distinct(self._answer_side, [kind, pl.col(frames.ANSWER)], a_type).alias(temp("a")),
        ).unnest(temp("p"), temp("a"))

    def _found(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Stage 2: the reference keywords found in the prediction (in keyword order). One
        literal ``str.contains`` per (row, keyword) pair on the exploded keyword lists, grouped
        back in row order and placed beside the frame (a join would copy every column)."""
        row, kw, pred, found = (self.temp(p) for p in ("row", "r_items", "p_text", "found"))
        keywords = pl.when(self._col("kind") == "treatment").then(pl.col(kw)).alias(kw)
        hits = (
            lf.select(keywords, pred)
            .with_row_index(row)
            .explode(kw, empty_as_null=True, keep_nulls=True)  # one row or more per row
            .group_by(row, maintain_order=True)
            .agg(pl.col(kw).filter(pl.col(pred).str.contains(pl.col(kw), literal=True)))
            .select(pl.col(kw).alias(found))
        )
        return pl.concat([lf, hits], how="horizontal")

    def _items(self) -> dict[str, pl.Expr]:
        """Stage 3: the prediction's items (syndrome: its terms, treatment: the keywords found,
        disease: the name if found), whether the name was found, whether the fuzzy rule
        applies (a syndrome reference without terms, a disease name not found)."""
        col = self._col
        kind, r_dis = col("kind"), col("r_dis")
        # Equal names are a special case of containment (a stripped name is a prefix).
        hit = (r_dis.str.len_chars() > 0) & col("p_text").str.contains(r_dis, literal=True)
        is_syn, is_dis = kind == "syndrome", kind == "disease"
        return {
            "pred_items": pl.when(is_syn)
            .then(col("p_set"))
            .when(kind == "treatment")
            .then(col("found"))
            .when(hit)
            .then(pl.concat_list(r_dis))
            .otherwise(pl.lit([], dtype=_LIST)),
            "hit": hit,
            "need_syn": is_syn & (col("r_items").list.len() == 0),
            "need_dis": is_dis & ~hit & pl.lit(self.partial_credit and not self.exact_match),
        }

    def prepare(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        col = self._col
        kind = pl.col(frames.TCM_TYPE).fill_null(pl.lit(self.subtype_default))
        lf = self._texts(lf.with_columns(kind.alias(self.temp("kind"))))
        lf = self._found(lf)
        lf = lf.with_columns(e.alias(self.temp(k)) for k, e in self._items().items())
        need_syn, need_dis = col("need_syn"), col("need_dis")
        # The shared items, in prediction order (the found keywords are in keyword order).
        shared = col("pred_items").list.set_intersection(col("r_items"))
        lf = lf.with_columns(
            shared.alias(self.temp("shared")),
            pl.when(need_syn)
            .then(pl.col(frames.ANSWER))
            .when(need_dis)
            .then(col("r_dis"))
            .alias(self.temp("fa")),
            pl.when(need_syn)
            .then(pl.col(frames.PRED))
            .when(need_dis)
            .then(col("p_stem"))
            .alias(self.temp("fb")),
        )
        # The fuzzy similarity (rapidfuzz), on the unresolved rows only. Once per distinct pair
        # was measured slower: the pairs are few and mostly distinct.
        return lf.with_columns(similarity(col("fa"), col("fb")).alias(self.temp("sim")))

    def outputs(self) -> dict[str, pl.Expr]:
        col = self._col
        kind, sim, shared, r_items = col("kind"), col("sim"), col("shared"), col("r_items")
        if self.exact_match:
            fuzzy = (sim == 1.0).cast(pl.Float64)
        else:
            fuzzy = pl.when(sim >= self.match_threshold).then(sim).otherwise(0.0)
        by_sets = similarity_from_counts(
            col("pred_items").list.len(),
            r_items.list.len(),
            shared.list.len(),
            exact_match=self.exact_match,
            partial_credit=self.partial_credit,
            keywords_weight=self.keywords_weight,
        )
        score = (
            pl.when(col("need_syn") | col("need_dis"))
            .then(fuzzy)
            .when(col("hit"))
            .then(1.0)
            .when(kind == "disease")
            .then(0.0)
            .when(kind.is_in(["syndrome", "treatment"]))
            .then(by_sets)
            .cast(pl.Float64)
        )
        # Another sub-type has no reference items (null), hence null shared and missing items.
        return {"score": score, "matched": shared, "missing": r_items.list.set_difference(shared)}
