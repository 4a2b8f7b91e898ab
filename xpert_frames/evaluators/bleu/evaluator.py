"""BLEU: NLTK-identical sentence BLEU over Chinese and English, vectorized, with corpus BLEU.

The seed's ``BLEUEvaluator`` tokenized each row (jieba for Chinese, NLTK for English) and called
``nltk.translate.bleu_score.sentence_bleu``. Here each unique string is tokenized once per
language (English through a Polars fast path proven identical to ``NLTKWordTokenizer``), n-gram
statistics are counted vectorized, and the score is computed from the statistics, so that
reports can also give true corpus BLEU per group (summed statistics).

Output columns: ``<name>_score`` (sentence BLEU, equal to NLTK's within 1e-9) and
``<name>_stats`` (struct: ``matches`` and ``denominators`` per order, ``hyp_len``, ``ref_len``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any, ClassVar

import polars as pl

from xpert_frames.core import frames
from xpert_frames.core.aliases import Language
from xpert_frames.core.exceptions import InvalidOptionError, OptionTypeError
from xpert_frames.core.metrics import ColumnMetric, CorpusMetric
from xpert_frames.core.options import check_bool, check_choice, check_int
from xpert_frames.evaluators.base import BaseEvaluator

if TYPE_CHECKING:  # numpy and the BLEU kernels load on first use, not with the package
    import numpy as np

LANGUAGES = ("auto", "en", "zh")
MAX_N_GRAM = 16


def check_weights(weights: Any, n_gram: int) -> tuple[float, ...]:
    """Weights per n-gram order: ``n_gram`` non-negative finite numbers (default uniform)."""
    if weights is None:
        return (1.0 / n_gram,) * n_gram
    if isinstance(weights, str) or not isinstance(weights, Sequence):
        raise OptionTypeError(
            f"option 'weights' must be a list of {n_gram} numbers (one per n-gram order), "
            f"got {weights!r}"
        )
    out = []
    for w in weights:
        if isinstance(w, bool) or not isinstance(w, int | float):
            raise OptionTypeError(f"option 'weights' must hold numbers, got {w!r} in {weights!r}")
        if not math.isfinite(w) or w < 0:
            raise InvalidOptionError(
                f"option 'weights' must hold non-negative finite numbers, got {w!r}"
            )
        out.append(float(w))
    if len(out) != n_gram:
        raise InvalidOptionError(
            f"option 'weights' must have n_gram={n_gram} entries (one per order), got "
            f"{len(out)}: {list(weights)!r}. Hint: omit weights for uniform 1/n_gram."
        )
    return tuple(out)


def _dist(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"


def bleu_signature(
    *,
    n_gram: int = 4,
    weights: Sequence[float] | None = None,
    smoothing: bool = True,
    language: Language = "auto",
) -> str:
    """A reproducibility signature, like sacrebleu's: what produced a BLEU number."""
    ws = check_weights(weights, n_gram)
    from xpert_frames.evaluators.bleu.stats import EPSILON

    smooth = f"method1-eps{EPSILON}" if smoothing else "none"
    from xpert_frames.tokens import zh

    tok = f"en=nltk-{_dist('nltk')}:NLTKWordTokenizer,zh={zh.segmenter()}"
    return (
        f"bleu|nrefs:var|lang:{language}|tok:{tok}|n:{n_gram}|"
        f"w:{','.join(repr(w) for w in ws)}|smooth:{smooth}|"
        f"version:xpert_frames-{_dist('xpert_frames')}"
    )


class BLEUEvaluator(BaseEvaluator):
    """Sentence BLEU of prediction against one or several references (NLTK-identical).

    ``answer`` may be a string or a list of references. Columns ``<name>_score`` (equal to
    NLTK's ``sentence_bleu`` on the same tokens) and ``<name>_stats`` (clipped matches and totals
    per order, hypothesis length, closest reference length); report metrics ``<name>`` (mean of
    the sentence scores) and ``corpus_bleu`` (corpus BLEU from the summed statistics, per
    group). :attr:`signature` records the tokenizers and their versions, the order, the weights
    and the smoothing.

    Parameters
    ----------
    n_gram : int, default 4
        The highest n-gram order.
    weights : sequence of float, optional
        One weight per order (uniform by default); length, sign and finiteness are checked.
    smoothing : bool, default True
        NLTK's ``method1`` smoothing; ``False`` means none.
    language : {"auto", "en", "zh"}, default "auto"
        The tokenizer: NLTK's word tokenizer for English, jieba for Chinese; ``"auto"`` picks
        Chinese when CJK characters are more than 20% of the prediction.
    name : str, optional
        The prefix of the output columns (default ``bleu``).

    Examples
    --------
    >>> import polars as pl
    >>> import xpert_frames as xf
    >>> hyp, ref = "the cat sat on the mat", "the cat sat on a mat"
    >>> df = pl.DataFrame({"prediction": [hyp], "answer": [ref]})
    >>> xf.score(df, xf.BLEUEvaluator(n_gram=2))["bleu_score"].round(4).to_list()
    [0.7071]
    >>> round(xf.BLEUEvaluator().evaluate([hyp], [ref])["bleu"]["score"], 4)
    0.5373
    """

    key: ClassVar[str] = "bleu"
    metric: ClassVar[str] = "bleu"
    answer_types: ClassVar[tuple[str, ...]] = ("text",)
    accepts_list_answer: ClassVar[bool] = True
    report_options: ClassVar[tuple[str, ...]] = ("n_gram", "weights", "smoothing")

    def __init__(
        self,
        *,
        n_gram: int = 4,
        weights: Sequence[float] | None = None,
        smoothing: bool = True,
        language: Language = "auto",
        name: str | None = None,
    ) -> None:
        super().__init__(name=name)
        self.n_gram = check_int("n_gram", n_gram, low=1, high=MAX_N_GRAM)
        self.weights = check_weights(weights, self.n_gram)
        self.smoothing = check_bool("smoothing", smoothing)
        self.language: Language = check_choice("language", language, LANGUAGES)  # type: ignore[assignment]

    @property
    def signature(self) -> str:
        """Reproducibility signature (tokenizers and versions, n, weights, smoothing)."""
        return bleu_signature(
            n_gram=self.n_gram,
            weights=self.weights,
            smoothing=self.smoothing,
            language=self.language,
        )

    def prepare(self, lf: pl.LazyFrame) -> pl.LazyFrame:
        """Tokenize and count once per batch (Python work once per unique string, valid rows
        only) into one temporary struct column ``{score, stats}``."""
        from xpert_frames.evaluators.bleu.batch import result_dtype, score_batch

        fn = partial(
            score_batch,
            n=self.n_gram,
            weights=self.weights,
            smoothing=self.smoothing,
            language=self.language,
        )
        result = pl.struct(frames.PRED, frames.ANSWER, frames.VALID).map_batches(
            fn, return_dtype=result_dtype(self.n_gram), is_elementwise=True
        )
        # Materialized once as a column: two field expressions over the map_batches expression
        # itself would make the optimizer run the Python batch function twice.
        return lf.with_columns(result.alias(self.temp("result")))

    def outputs(self) -> dict[str, pl.Expr]:
        result = pl.col(self.temp("result"))
        return {"score": result.struct.field("score"), "stats": result.struct.field("stats")}

    def report_metrics(self) -> list[ColumnMetric | CorpusMetric]:
        """``bleu``: mean sentence BLEU (the seed's); ``corpus_bleu``: NLTK's corpus BLEU of
        each group, from summed statistics (``corpus_<name>`` for a renamed instance)."""
        stats = pl.col(self.column("stats"))
        # As arrays whatever the table came through (pandas and some Arrow readers give lists).
        shape = pl.Array(pl.Float64, self.n_gram)
        m = stats.struct.field("matches").cast(shape)
        d = stats.struct.field("denominators").cast(shape)
        exprs = (
            *(m.arr.get(i) for i in range(self.n_gram)),
            *(d.arr.get(i) for i in range(self.n_gram)),
            stats.struct.field("hyp_len"),
            stats.struct.field("ref_len"),
        )
        corpus = CorpusMetric(
            metric=f"corpus_{self.name}",
            column=self.score_column,
            stats=exprs,
            finalize=partial(
                corpus_scores, n=self.n_gram, weights=self.weights, smoothing=self.smoothing
            ),
        )
        return [*super().report_metrics(), corpus]


def corpus_scores(
    sums: np.ndarray, *, n: int, weights: Sequence[float], smoothing: bool
) -> np.ndarray:
    """Corpus BLEU per row of summed statistics ``[matches..., denominators..., hyp, ref]``."""
    import numpy as np

    from xpert_frames.evaluators.bleu.stats import bleu_numpy

    sums = np.asarray(sums, dtype=np.float64).reshape(-1, 2 * n + 2)
    return bleu_numpy(
        sums[:, :n],
        sums[:, n : 2 * n],
        sums[:, 2 * n],
        sums[:, 2 * n + 1],
        weights,
        smoothing=smoothing,
    )
