"""TCM diagnosis expressions: synonym normalization, term sets, set similarity, treatment
keywords and disease-name normal forms, each a ``pl.Expr`` over whole columns (the evaluator's
rules, :mod:`.rules`, are built from them; :mod:`xpert_frames.expr` re-exports the public
ones)."""

from __future__ import annotations

from typing import Any

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.options import check_bool, check_fraction
from xpert_frames.evaluators.tcm.matching import TermMatcher
from xpert_frames.evaluators.tcm.terms import load_terms

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
#: A final 证/病 that is not part of the name, in one pass with one reference to the input: a
#: protected name is kept ($1), else a final 证/病 after at least two characters is dropped ($2).
SUFFIX_PATTERN = f"(?s)^(.*(?:{'|'.join(NAME_SUFFIX_KEPT)}))$|^(.{{2,}})[证病]$"
# Full-width ASCII forms and the ideographic space to half-width, and A-Z to a-z, in one pass.
_FOLD_FROM = [chr(c) for c in range(0xFF01, 0xFF5F)] + ["\u3000"] + [chr(c) for c in range(65, 91)]
_FOLD_TO = [chr(c - 0xFEE0).lower() for c in range(0xFF01, 0xFF5F)] + [" "]
_FOLD_TO += [chr(c).lower() for c in range(65, 91)]
#: The type of term lists.
STRING_LIST = pl.List(pl.String)
#: What a reference may hold besides its terms and still be their set: punctuation, the
#: suffixes 证/型/证候 and the words joining two syndromes (兼, 夹, 和, 及, 并, 伴, 或, 与).
JOINERS = r"[\p{P}\p{S}\s]+|证候|证|型|兼|夹|和|及|并|伴|或|与"

TermsSpec = Any  # "default" | "seed" | path | pl.DataFrame | dict | TermTable


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
    return text.to_expr(value).map_batches(matcher, return_dtype=STRING_LIST, is_elementwise=True)


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
        expr = expr.str.replace(SUFFIX_PATTERN, "${1}${2}")
    return expr
