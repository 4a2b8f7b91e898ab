"""The labelled math sets score as labelled and match the per-row oracle under every option set:
``math_labelled.jsonl`` (against the seed too), ``math_labelled_answers.jsonl`` (the answer
classes real models write, each with its neighbours) and ``math_labelled_forms.jsonl`` (number
and symbolic forms, with a held-out split), in both symbolic modes."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from tests.helpers import score_all_paths
from tests.math_checks import (
    MODES,
    MODES_SLOW,
    OPTION_SETS,
    OPTION_SETS_SLOW,
    answers_set,
    assert_matches_oracle,
    forms_set,
    labelled,
)
from tests.oracles.math_seed import SeedMathEvaluator
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator


def test_labelled_set_accuracy() -> None:
    df = labelled()
    assert df.height >= 120
    assert (df["lang"] == "zh").sum() >= df.height / 2
    out = score_all_paths(df, [MathEvaluator()])
    ours = (out["math_score"] == out["correct"].cast(pl.Float64)).sum()
    seed = SeedMathEvaluator()
    seed_right = sum(
        (seed._evaluate_math_answer(p, a) == 1.0) == c
        for p, a, c in df.select("prediction", "answer", "correct").iter_rows()
    )
    count = f"xpert_frames {ours}/{df.height}, seed {seed_right}/{df.height}"
    assert ours / df.height >= 0.98, count


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_labelled_set_matches_oracle(options: dict[str, Any]) -> None:
    assert_matches_oracle(labelled(), options)


CLASSES = {
    "angle",
    "bigint",
    "span",
    "words",
    "glued",
    "aside",
    "roots",
    "rhs",
    "interval",
    "boxstep",
    "verify",
    "conclusion",
    "colloquial",
    "approxword",
    "repeating",
    "ctxafter",
    "digitscale",
    "vector",
    "emptyset",
    "textroots",
    "setbuilder",
    "clause",
    "mixed_you",
    "empty_text",
    "ineq_or",
    "roots_gold",
}


def test_answers_set_shape() -> None:
    df = answers_set()
    assert df.height >= 60
    assert set(df["class"]) == CLASSES
    for cls in CLASSES:
        rows = df.filter(pl.col("class") == cls)
        assert rows["correct"].sum() >= 5 and (~rows["correct"]).sum() >= 5, cls
    assert (df["lang"] == "zh").sum() >= 15


@pytest.mark.parametrize("mode", MODES_SLOW)
def test_answers_set(mode: str) -> None:
    df = answers_set()
    out = score_all_paths(df, [MathEvaluator(symbolic=mode)])
    right = out.with_columns(ok=pl.col("math_score") == pl.col("correct").cast(pl.Float64))
    by_class = right.group_by("class").agg(pl.col("ok").sum()).sort("class").rows()
    count = f"math answers set ({mode}): {right['ok'].sum()}/{df.height} {by_class}"
    false_credit = right.filter((pl.col("math_score") == 1.0) & ~pl.col("correct"))
    assert false_credit.height == 0, (count, false_credit)
    numeric = right.filter(pl.col("kind") == "numeric")
    assert numeric["ok"].all(), (count, numeric.filter(~pl.col("ok")))
    if mode == "math_verify":
        assert right["ok"].all(), (count, right.filter(~pl.col("ok")))


@pytest.mark.parametrize("options", OPTION_SETS_SLOW, ids=str)
def test_answers_set_matches_oracle(options: dict[str, Any]) -> None:
    assert_matches_oracle(answers_set().select("prediction", "answer"), options)


def test_forms_set_shape() -> None:
    df = forms_set()
    assert df.height >= 80
    assert set(df["kind"]) == {"numeric", "symbolic"}
    assert 0.3 <= (df["split"] == "holdout").mean() <= 0.5  # type: ignore[operator]
    assert (~df["correct"]).sum() >= 30  # wrong answers too


def _agreement(out: pl.DataFrame) -> tuple[int, int]:
    right = int((out["math_score"] == out["correct"].cast(pl.Float64)).sum())
    symbolic_golds = out.filter(pl.col("kind") == "symbolic")
    false_credit = int(((symbolic_golds["math_score"] == 1.0) & ~symbolic_golds["correct"]).sum())
    return right, false_credit


@pytest.mark.parametrize("mode", MODES)
def test_forms_set(mode: str) -> None:
    df = forms_set()
    out = score_all_paths(df, [MathEvaluator(symbolic=mode)])
    right, false_credit = _agreement(out)
    hold = out.filter(pl.col("split") == "holdout")
    hold_right, _ = _agreement(hold)
    count = f"math forms set ({mode}): {right}/{df.height}, held out {hold_right}/{hold.height}"
    assert false_credit == 0, count
    numeric = out.filter(pl.col("kind") == "numeric")
    assert (numeric["math_score"] == numeric["correct"].cast(pl.Float64)).all(), count
    if mode == "math_verify":
        assert right == df.height, count


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_forms_set_matches_oracle(options: dict[str, Any]) -> None:
    # The four paths are compared on this set by test_forms_set (both symbolic modes) and under
    # every option set on math_labelled.jsonl (test_labelled_set_matches_oracle): here one
    # path, except with defaults.
    df = forms_set().select("prediction", "answer")
    assert_matches_oracle(df, options, all_paths=not options)
