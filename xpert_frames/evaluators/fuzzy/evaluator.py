"""Fuzzy matching: normalized Levenshtein similarity on Unicode code points.

The columnar path runs rapidfuzz's Levenshtein over whole batches, each distinct pair once, in
pieces that let Ctrl-C through (:func:`xpert_frames.distance.levenshtein.levenshtein_similarity`:
the Arrow buffers straight to rapidfuzz's C scorer when the optional extension is built, else
``rapidfuzz.process.cpdist``); a pair whose lengths
multiply past 10^10 (two strings of 100,000 characters) is not scored: null, counted as
skipped, with a ``LongPairWarning``. The seed's pure-Python ``FuzzyMatcher`` API is in
:mod:`xpert_frames.evaluators.fuzzy.matcher`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, get_args

import polars as pl

from xpert_frames.core import frames, text
from xpert_frames.core.aliases import FuzzyNormalization, IntoExpr
from xpert_frames.core.exceptions import OptionTypeError
from xpert_frames.core.metrics import ColumnMetric, CorpusMetric
from xpert_frames.core.options import check_choice, check_fraction
from xpert_frames.distance.levenshtein import normalized_similarity
from xpert_frames.evaluators.base import BaseEvaluator

NORMALIZATIONS: tuple[str, ...] = get_args(FuzzyNormalization)


def normalize(
    value: IntoExpr,
    *,
    steps: Sequence[FuzzyNormalization] = (),
    aliases: Mapping[str, str] | None = None,
) -> pl.Expr:
    """Apply the chosen normalizations (in a fixed order), then the alias table."""
    expr = text.to_expr(value)
    if "width" in steps:
        expr = text.full_to_half(expr)
    if "case" in steps:
        expr = expr.str.to_lowercase()
    if "punctuation" in steps:
        expr = text.strip_punctuation(expr)
    if "whitespace" in steps:
        expr = text.collapse_whitespace(expr)
    if aliases:
        expr = text.replace_aliases(expr, aliases)
    return expr


def similarity(
    reference: IntoExpr,
    prediction: IntoExpr,
    *,
    steps: Sequence[FuzzyNormalization] = (),
    aliases: Mapping[str, str] | None = None,
    whole_column: bool = False,
) -> pl.Expr:
    """Normalized Levenshtein similarity of two string columns (Float64, null if either is, or
    if the pair is over the kernel's length cap: :data:`~xpert_frames.distance.levenshtein.
    MAX_PAIR_CELLS`); ``whole_column``: one batch over the whole column (see
    :func:`~xpert_frames.distance.levenshtein.normalized_similarity`)."""
    steps = _check_steps(steps)
    aliases = _check_aliases(aliases)
    return normalized_similarity(
        normalize(reference, steps=steps, aliases=aliases),
        normalize(prediction, steps=steps, aliases=aliases),
        whole_column=whole_column,
    )


def _check_steps(steps: Any) -> tuple[FuzzyNormalization, ...]:
    if isinstance(steps, bool):
        return NORMALIZATIONS if steps else ()  # type: ignore[return-value]
    if isinstance(steps, str) or not isinstance(steps, Sequence | set | frozenset):
        raise OptionTypeError(
            f"option 'normalize' must be a list drawn from {list(NORMALIZATIONS)} (or True/False), "
            f"got {steps!r}"
        )
    for step in steps:
        check_choice("normalize", step, NORMALIZATIONS)
    return tuple(s for s in NORMALIZATIONS if s in steps)  # type: ignore[misc]


def _check_aliases(aliases: Any) -> dict[str, str]:
    if aliases is None:
        return {}
    if not isinstance(aliases, Mapping) or not all(
        isinstance(k, str) and k and isinstance(v, str) for k, v in aliases.items()
    ):
        raise OptionTypeError(
            f"option 'aliases' must map non-empty strings to strings, e.g. {{'人工智能': 'AI'}}, "
            f"got {aliases!r}"
        )
    return dict(aliases)


# --------------------------------------------------------------------------- evaluator
class FuzzyEvaluator(BaseEvaluator):
    """Normalized Levenshtein similarity of prediction and reference, with a match threshold.

    ``similarity = 1 - Levenshtein(reference, prediction) / max(len)`` on Unicode code points
    (Chinese by character); both empty give 1.0, exactly one empty 0.0. Columns
    ``<name>_score`` (the similarity) and ``<name>_match`` (similarity at least ``threshold``);
    report metrics ``<name>`` and ``<name>_match_rate``.

    Parameters
    ----------
    threshold : float, default 0.6
        ``<name>_match`` is true where the similarity is at least this.
    normalize : sequence of {"case", "width", "whitespace", "punctuation"} or bool, default ()
        Normalizations applied to both sides first (none by default; ``True`` means all).
    aliases : mapping of str to str, optional
        Equivalences edit distance cannot see, e.g. ``{"人工智能": "AI"}``, replaced
        leftmost-longest on both sides.
    name : str, optional
        The prefix of the output columns (default ``fuzzy``).

    Examples
    --------
    >>> import polars as pl
    >>> import xpert_frames as xf
    >>> df = pl.DataFrame({"prediction": ["kitten", "人工智能"], "answer": ["sitting", "AI"]})
    >>> out = xf.score(df, xf.FuzzyEvaluator(aliases={"人工智能": "AI"}))
    >>> out["fuzzy_score"].round(4).to_list(), out["fuzzy_match"].to_list()
    ([0.5714, 1.0], [False, True])
    """

    key: ClassVar[str] = "fuzzy"
    metric: ClassVar[str] = "fuzzy"
    answer_types: ClassVar[tuple[str, ...]] = ("text",)
    accepts_list_answer: ClassVar[bool] = True
    best_of_answers: ClassVar[bool] = True  # several references: the most similar one

    def __init__(
        self,
        *,
        threshold: float = 0.6,
        normalize: Sequence[FuzzyNormalization] | bool = (),
        aliases: Mapping[str, str] | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(name=name)
        self.threshold = check_fraction("threshold", threshold)
        self.normalize = _check_steps(normalize)
        self.aliases = _check_aliases(aliases)

    def prepare(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """The similarity as a temporary column, one batch over the whole column (each
        distinct pair of the table scored once, whichever engine collects it)."""
        sim = similarity(
            frames.ANSWER,
            frames.PRED,
            steps=self.normalize,
            aliases=self.aliases,
            whole_column=True,
        )
        return lf.with_columns(sim.alias(self.temp("similarity")))

    def outputs(self) -> dict[str, pl.Expr]:
        sim = pl.col(self.temp("similarity"))
        return {"score": sim, "match": sim >= self.threshold}

    def report_metrics(self) -> list[ColumnMetric | CorpusMetric]:
        rate = ColumnMetric(f"{self.name}_match_rate", self.column("match"), binary=True)
        return [*super().report_metrics(), rate]
