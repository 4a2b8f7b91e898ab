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

from typing import ClassVar

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.options import check_bool, check_fraction
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.evaluators.tcm.expressions import (
    KEYWORD_SEPARATORS,
    NAME_SUFFIX_KEPT,
    STRING_LIST,
    TermsSpec,
    disease_text,
    normalize_tcm_text,
    set_similarity,
    similarity_from_counts,
    tcm_terms,
    treatment_keywords,
)
from xpert_frames.evaluators.tcm.rules import Rules
from xpert_frames.evaluators.tcm.terms import TermTable, load_terms

# The expressions were defined here before they had a module of their own.
__all__ = [
    "KEYWORD_SEPARATORS",
    "NAME_SUFFIX_KEPT",
    "TcmDiagnosisEvaluator",
    "TermsSpec",
    "disease_text",
    "normalize_tcm_text",
    "set_similarity",
    "similarity_from_counts",
    "tcm_terms",
    "treatment_keywords",
]

_OUTPUTS = ("score", "matched", "missing")


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
    # rows of another sub-type, no list column is built for them) by its rule (.rules), every
    # text-side value once per distinct text; the parts are stacked, put back in row order and
    # placed beside the frame (a join would copy every column). outputs() reads the columns
    # prepare() adds.
    def _score_batch(self, column: pl.Series) -> pl.Series:
        """Score, matched and missing items of a whole column of (kind, prediction, answer)
        structs: the sub-types' plans run side by side, their rows are stacked and put back in
        row order."""
        rule = Rules(
            table=self._table,
            normalize_tcm_terms=self.normalize_tcm_terms,
            exact_match=self.exact_match,
            partial_credit=self.partial_credit,
            keywords_weight=self.keywords_weight,
            match_threshold=self.match_threshold,
        )
        rules = {"syndrome": rule.syndrome, "treatment": rule.treatment, "disease": rule.disease}
        frame = column.struct.unnest().with_row_index("row")
        decided = rule.by_option(frame, list(rules))
        # Only the committed conclusion is read: each rule reads it (:func:`.committed.committed`)
        # where it reads the prediction, once per distinct text of its rows.
        rows = frame.lazy()
        parts = []
        if decided is not None:
            rows = rows.join(decided.lazy().select("row"), on="row", how="anti")
            parts.append(decided.lazy())
        parts += [plan(rows.filter(pl.col("kind") == k)) for k, plan in rules.items()]
        # Another sub-type is scored null: no reference items, hence null shared and missing.
        null = pl.lit(None, dtype=STRING_LIST)
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
                self.temp("matched"): STRING_LIST,
                self.temp("missing"): STRING_LIST,
            }
        )
        out = self.temp("out")
        # One batch over the whole column (both engines): the sub-types run side by side.
        scored = packed.map_batches(self._score_batch, return_dtype=out_type)
        return lf.with_columns(scored.alias(out)).unnest(out)

    def outputs(self) -> dict[str, pl.Expr]:
        return {c: pl.col(self.temp(c)) for c in _OUTPUTS}
