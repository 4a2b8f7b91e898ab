"""Every public expression function, in one place: ``str | pl.Expr`` in, ``pl.Expr`` out.

Each takes the prediction first and the reference second (where it takes both), options are
keyword-only and validated when the expression is built, before any data is touched. They
compose with your own queries, eager or lazy::

    df.with_columns(xfe.similarity("prediction", "answer").alias("sim"))

The evaluators use the same functions; these are re-exported wrappers with one argument order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from xpert_frames.core import text as _text
from xpert_frames.core.aliases import FuzzyNormalization, IntoExpr, MathExtract
from xpert_frames.evaluators.fuzzy import evaluator as _fuzzy
from xpert_frames.evaluators.tcm import expressions as _tcm
from xpert_frames.evaluators.tcm.expressions import TermsSpec
from xpert_frames.reading import choice as _choice
from xpert_frames.reading.markup import clean_prediction
from xpert_frames.reading.numeric import parse as _parse
from xpert_frames.tokens import columns as _tokens

__all__ = [
    "disease_name",
    "extract_choice",
    "extract_number",
    "full_to_half",
    "is_chinese",
    "parse_number",
    "set_similarity",
    "similarity",
    "tcm_terms",
]


def similarity(
    prediction: IntoExpr,
    reference: IntoExpr,
    *,
    normalization: Sequence[FuzzyNormalization] = (),
    aliases: Mapping[str, str] | None = None,
) -> pl.Expr:
    """Normalized Levenshtein similarity ``1 - distance / max(len)`` on Unicode code points.

    Parameters
    ----------
    prediction, reference
        String columns (names or expressions). Null on either side gives null.
    normalization
        Steps applied to both sides first: ``"case"``, ``"width"``, ``"whitespace"``,
        ``"punctuation"``.
    aliases
        Literal replacements applied to both sides after the steps.

    Returns
    -------
    pl.Expr
        Float64 in ``[0, 1]``; two empty strings give 1.0.

    Examples
    --------
    >>> import polars as pl
    >>> from xpert_frames import expr as xfe
    >>> df = pl.DataFrame({"prediction": ["kitten", "Paris"], "reference": ["sitting", "paris"]})
    >>> sim = xfe.similarity("prediction", "reference", normalization=["case"])
    >>> df.select(sim.round(4).alias("sim"))["sim"].to_list()
    [0.5714, 1.0]
    """
    return _fuzzy.similarity(reference, prediction, steps=normalization, aliases=aliases)


def extract_number(
    prediction: IntoExpr, *, mode: MathExtract = "last", normalize: bool = True
) -> pl.Expr:
    """The answer's number read out of free text: ``\\boxed{}``, then an answer statement,
    then ``= x`` at the end, then the last (or first) number. Markup and invented
    continuations are removed first (:func:`xpert_frames.reading.markup.clean_prediction`).

    Parameters
    ----------
    prediction
        String column.
    mode
        ``"last"`` or ``"first"``: which number to take when no rule applies.
    normalize
        Fold full-width digits, Chinese numerals, thousands separators and units first.

    Returns
    -------
    pl.Expr
        ``Struct{value: Float64, unit: String, rule: String}``; null value when none is found.

    Examples
    --------
    >>> import polars as pl
    >>> from xpert_frames import expr as xfe
    >>> df = pl.DataFrame({"prediction": ["3+4=7，所以答案是 7", "约 1,250 米", "无"]})
    >>> df.select(xfe.extract_number("prediction").struct.field("value"))["value"].to_list()
    [7.0, 1250.0, None]
    """
    return _parse.extract_number(clean_prediction(prediction), mode=mode, normalize=normalize)


def parse_number(reference: IntoExpr, *, normalize: bool = True) -> pl.Expr:
    """A reference written as one number (``"1/2"``, ``"50%"``, ``"三百"``, ``"１２"``).

    Parameters
    ----------
    reference
        String column.
    normalize
        Fold full-width digits, Chinese numerals and thousands separators first.

    Returns
    -------
    pl.Expr
        Float64; null when the text is not one number.

    Examples
    --------
    >>> import polars as pl
    >>> from xpert_frames import expr as xfe
    >>> df = pl.DataFrame({"answer": ["1/2", "三百", "abc"]})
    >>> df.select(xfe.parse_number("answer").alias("value"))["value"].to_list()
    [0.5, 300.0, None]
    """
    return _parse.parse_number(reference, normalize=normalize)


def extract_choice(
    prediction: IntoExpr,
    *,
    options: str | pl.Expr | None = None,
    choices: IntoExpr | None = None,
) -> pl.Expr:
    """The option letter(s) a free-text answer states, by a cascade of rules (boxed, answer
    statements, bold, conclusion, a bare letter, option content), negations understood;
    markup and invented continuations removed first, as the evaluators do.

    Parameters
    ----------
    prediction
        String column.
    options
        The valid letters (``"ABCD"``) or a column of them; default ``A``-``Z``.
    choices
        A ``List(Struct{id, content})`` column, so that an answer by content counts.

    Returns
    -------
    pl.Expr
        ``Struct{letters: String, rule: String}``: the sorted letters and the rule that found
        them (null letters when none).

    Examples
    --------
    >>> import polars as pl
    >>> from xpert_frames import expr as xfe
    >>> texts = ["答案是 C", "**Answer: B**", "A is wrong; the answer is D."]
    >>> df = pl.DataFrame({"prediction": texts})
    >>> out = df.select(xfe.extract_choice("prediction", options="ABCD").struct.field("letters"))
    >>> out["letters"].to_list()
    ['C', 'B', 'D']
    """
    return _choice.extract_choice(clean_prediction(prediction), options=options, choices=choices)


def tcm_terms(text: IntoExpr, *, terms: TermsSpec = "default", normalize: bool = True) -> pl.Expr:
    """The canonical TCM syndrome terms a text names, synonyms folded (``List(String)``).

    Parameters
    ----------
    text
        String column.
    terms
        ``"default"``, ``"seed"``, a path, a DataFrame or a dict of synonyms.
    normalize
        Count every synonym (else only canonical terms written literally).

    Returns
    -------
    pl.Expr
        ``List(String)``, sorted and unique.

    Examples
    --------
    >>> import polars as pl
    >>> from xpert_frames import expr as xfe
    >>> df = pl.DataFrame({"text": ["肝气郁结，脾气虚弱"]})
    >>> df.select(xfe.tcm_terms("text"))["text"].to_list()
    [['肝郁', '脾虚']]
    """
    return _tcm.tcm_terms(text, terms=terms, normalize=normalize)


def set_similarity(
    prediction: IntoExpr,
    reference: IntoExpr,
    *,
    exact_match: bool = False,
    partial_credit: bool = True,
    keywords_weight: float = 0.6,
) -> pl.Expr:
    """The XpertEval set similarity of two ``List(String)`` columns (term sets).

    Parameters
    ----------
    prediction, reference
        ``List(String)`` columns.
    exact_match
        Only equal sets score 1, anything else 0.
    partial_credit
        Score ``w * F1 + (1 - w) * Jaccard`` (else Jaccard). Both empty give 1, one empty 0.
    keywords_weight
        ``w`` above.

    Returns
    -------
    pl.Expr
        Float64 in ``[0, 1]``.

    Examples
    --------
    >>> import polars as pl
    >>> from xpert_frames import expr as xfe
    >>> df = pl.DataFrame({"predicted": [["肝郁", "脾虚"]], "expected": [["肝郁", "脾虚"]]})
    >>> df.select(xfe.set_similarity("predicted", "expected").alias("overlap"))["overlap"].to_list()
    [1.0]
    """
    return _tcm.set_similarity(
        prediction,
        reference,
        exact_match=exact_match,
        partial_credit=partial_credit,
        keywords_weight=keywords_weight,
    )


def disease_name(text: IntoExpr, *, strip_suffix: bool = True) -> pl.Expr:
    """A disease name normalized for comparison: width, ASCII case, punctuation, whitespace,
    and a final 证/病 removed unless it is part of the name (糖尿病 keeps it).

    Parameters
    ----------
    text
        String column.
    strip_suffix
        Remove the final 证/病 where it is not part of the name.

    Returns
    -------
    pl.Expr
        String.

    Examples
    --------
    >>> import polars as pl
    >>> from xpert_frames import expr as xfe
    >>> df = pl.DataFrame({"text": ["胸痹证", "糖尿病"]})
    >>> df.select(xfe.disease_name("text"))["text"].to_list()
    ['胸痹', '糖尿病']
    """
    return _tcm.disease_text(text, strip_suffix=strip_suffix)


def is_chinese(text: IntoExpr) -> pl.Expr:
    """Whether a text is Chinese (holds a CJK ideograph), as BLEU's ``language="auto"`` decides.

    Parameters
    ----------
    text
        String column.

    Returns
    -------
    pl.Expr
        Boolean.

    Examples
    --------
    >>> import polars as pl
    >>> from xpert_frames import expr as xfe
    >>> df = pl.DataFrame({"text": ["你好 world", "hello"]})
    >>> df.select(xfe.is_chinese("text"))["text"].to_list()
    [True, False]
    """
    return _tokens.is_chinese(text)


def full_to_half(text: IntoExpr) -> pl.Expr:
    """Full-width ASCII forms and the ideographic space to their half-width forms.

    Parameters
    ----------
    text
        String column.

    Returns
    -------
    pl.Expr
        String.

    Examples
    --------
    >>> import polars as pl
    >>> from xpert_frames import expr as xfe
    >>> pl.DataFrame({"text": ["ＡＢＣ１２３"]}).select(xfe.full_to_half("text"))["text"].to_list()
    ['ABC123']
    """
    return _text.full_to_half(text)
