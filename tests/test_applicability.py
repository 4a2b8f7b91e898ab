"""Each evaluator scores the rows it fits when the table has answer types (issue 16, part 2)."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import xpert_frames as xf
from tests.helpers import score_all_paths

EVALUATORS = ["accuracy", "math", "bleu", "tcm_diagnosis", "fuzzy"]


def fits(evaluator: str, answer_type: str | None, tcm_type: str | None) -> bool:
    """The rule in plain Python, as the README states it."""
    kind = "text" if answer_type is None else answer_type.strip().lower()
    if evaluator == "tcm_diagnosis":
        return tcm_type is not None
    return (
        kind
        in {
            "accuracy": {"choice", "text", "number", "judge"},
            "math": {"number"},
            "bleu": {"text"},
            "fuzzy": {"text"},
        }[evaluator]
    )


def check_rule(frame: pl.DataFrame, scored: pl.DataFrame, everything: pl.DataFrame) -> None:
    rows = frame.select("answer_type", "tcm_eval_type").rows()
    for name in EVALUATORS:
        expected = [fits(name, a, t) for a, t in rows]
        assert scored[f"{name}_applicable"].to_list() == expected, name
        for column in (c for c in everything.columns if c.startswith(f"{name}_")):
            want = [
                v if ok else None
                for v, ok in zip(everything[column].to_list(), expected, strict=True)
            ]
            assert scored[column].to_list() == want, column


def test_sample_follows_the_rule() -> None:
    sample = xf.load_sample()
    scored = score_all_paths(sample, EVALUATORS)  # eager, lazy, streaming and Arrow agree
    everything = xf.score(sample, EVALUATORS, all_rows=True)
    assert not any(c.endswith("_applicable") for c in everything.columns)
    check_rule(sample, scored, everything)
    rep = xf.report(scored, by="model", evaluators=EVALUATORS)
    rep = rep.filter(pl.col("model") == "glm-4-9b-chat")
    counts = {r["metric"]: r for r in rep.iter_rows(named=True)}
    # 54 questions per model: 10 number questions, 3 syndrome questions, 24 text questions.
    assert counts["math_accuracy"]["count"] + counts["math_accuracy"]["skipped"] == 10
    assert counts["math_accuracy"]["not_applicable"] == 44
    assert counts["tcm_diagnosis"]["count"] == 7 and counts["syndrome"]["count"] == 3
    assert counts["fuzzy"]["not_applicable"] == 54 - 24
    assert counts["accuracy"]["not_applicable"] == 0
    overall = ["accuracy", "math_accuracy", "bleu", "corpus_bleu", "tcm_diagnosis", "fuzzy"]
    for metric in overall:  # every row of the model is scored, skipped or not applicable
        row = counts[metric]
        assert row["count"] + row["skipped"] + row["not_applicable"] == 54, metric


def test_without_answer_types_every_row_is_scored() -> None:
    frame = pl.DataFrame({"prediction": ["3", "北京"], "answer": ["3", "北京"]})
    scored = xf.score(frame, EVALUATORS)
    assert not any(c.endswith("_applicable") for c in scored.columns)
    assert_frame_equal(scored, xf.score(frame, EVALUATORS, all_rows=True))
    assert xf.report(scored, evaluators=EVALUATORS)["not_applicable"].sum() == 0


def test_renamed_columns_and_nested_types() -> None:
    frame = pl.DataFrame({"out": ["42", "42"], "gold": ["42", "42"], "kind": ["number", "text"]})
    scored = xf.score(frame, ["math", "fuzzy"], prediction="out", answer="gold", answer_type="kind")
    assert scored["math_score"].to_list() == [1.0, None]
    assert scored["fuzzy_score"].to_list() == [None, 1.0]
    rep = xf.report(scored)
    assert dict(rep.select("metric", "not_applicable").iter_rows())["math_accuracy"] == 1


def test_invalid_rows_are_skipped_not_not_applicable() -> None:
    frame = pl.DataFrame(
        {
            "prediction": [None, "1", "x"],
            "answer": ["1", "", "x"],
            "answer_type": ["number", "number", "choice"],
        }
    )
    row = xf.report(xf.score(frame, "math")).row(0, named=True)
    assert (row["count"], row["skipped"], row["not_applicable"]) == (0, 2, 1)


def test_report_parts_add_up() -> None:
    from xpert_frames.reporting.report import finalize, merge_partials, partials, report_plan

    evs = [xf.get_evaluator("math"), xf.get_evaluator("fuzzy")]
    scored = xf.score(xf.load_sample(), evs)
    metrics = report_plan(scored.collect_schema(), ["model"], evs)
    parts = [partials(scored.slice(i, 50), ["model"], metrics) for i in range(0, scored.height, 50)]
    whole = xf.report(scored, by="model")
    merged = finalize(merge_partials(parts), metrics)
    assert_frame_equal(merged, whole, check_exact=False, rel_tol=1e-12)


types = st.sampled_from([None, "choice", "text", "number", "judge", " Number ", "essay"])
tcm = st.sampled_from([None, "syndrome", "disease", "treatment"])
words = st.sampled_from(["3", "答案是B", "北京", "气虚血瘀证", "the answer is 4 kg", "", None])


# The rule is per row: fewer tables (each is scored three times with all five evaluators, the
# cost), more rows in each.
@settings(max_examples=10, deadline=None)
@given(st.lists(st.tuples(types, tcm, words, words), min_size=1, max_size=40))
def test_rule_matches_plain_python(rows: list[tuple]) -> None:
    frame = pl.DataFrame(
        rows,
        schema={
            "answer_type": pl.String,
            "tcm_eval_type": pl.String,
            "prediction": pl.String,
            "answer": pl.String,
        },
        orient="row",
    )
    scored = xf.score(frame, EVALUATORS)
    everything = xf.score(frame, EVALUATORS, all_rows=True)
    check_rule(frame, scored, everything)
    lazy = xf.score(frame.lazy(), EVALUATORS).collect(engine="streaming")
    assert_frame_equal(lazy, scored)


def test_cli_flag_and_seed_api_score_all_rows() -> None:
    ev = xf.get_evaluator("math")
    refs = [{"answer": {"type": "choice", "value": "3"}}]
    # the seed API scored every valid row with every evaluator: it still does
    assert ev.evaluate(["3"], refs)["math_accuracy"]["count"] == 1


@pytest.mark.parametrize("name", EVALUATORS)
def test_registry_describes_the_rows(name: str) -> None:
    from xpert_frames.registry import get_record

    record = get_record(name)
    assert record.cls.fits().startswith("rows")
    if name != "tcm_diagnosis":
        assert all(t in record.cls.fits() for t in record.answer_types)
