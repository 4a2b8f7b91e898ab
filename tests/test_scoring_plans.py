"""Scoring plans: row filters per evaluator (pl.Expr, SQL, TOML), applied on every path, recorded
with the scores and rebuilt from them."""

from __future__ import annotations

import json
import pickle
import statistics
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

import xpert_frames as xf
from tests.helpers import score_all_paths
from xpert_frames import provenance
from xpert_frames.cli.main import main as cli_main
from xpert_frames.core.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    ConfigurationError,
    DuplicateColumnError,
)
from xpert_frames.plans import Plan, PlanEntry

QA = ("knowledge_qa", "short_answer", "true_false", "classification", "math")
TOML = """
[evaluators.accuracy]
rows = "task IN ('knowledge_qa', 'short_answer', 'true_false', 'classification', 'math')"

[evaluators.fuzzy_strict]
evaluator = "fuzzy"
options = { threshold = 0.9 }
rows = "task = 'translation'"

[evaluators.math]
"""


@pytest.fixture(scope="module")
def sample() -> pl.DataFrame:
    return xf.load_sample()


def test_expr_sql_and_toml_plans_give_equal_frames(sample: pl.DataFrame, tmp_path: Path) -> None:
    by_expr = {
        "accuracy": pl.col("task").is_in(QA),
        "fuzzy": pl.col("task") == "translation",
        "math": None,
    }
    by_sql = {"accuracy": f"task IN {QA}", "fuzzy": "task = 'translation'", "math": None}
    plan_file = tmp_path / "plan.toml"
    plan_file.write_text(TOML.replace("fuzzy_strict", "fuzzy").replace("threshold = 0.9", ""))
    want = score_all_paths(sample, by_expr)  # eager, lazy, streaming and Arrow agree
    assert_frame_equal(score_all_paths(sample, by_sql), want)
    assert_frame_equal(score_all_paths(sample, Plan.read(plan_file)), want)
    entries = [PlanEntry("accuracy", f"task IN {QA}"), PlanEntry("fuzzy", by_expr["fuzzy"]), "math"]
    assert_frame_equal(xf.score(sample, entries), want)
    pandas_out = xf.score(sample.to_pandas(), by_sql)
    assert_frame_equal(pl.from_pandas(pandas_out), want, check_dtypes=False)


def test_rows_outside_a_filter_are_not_applicable(sample: pl.DataFrame) -> None:
    scored = xf.score(sample, {"fuzzy": "task = 'translation'", "accuracy": None})
    translation = scored["task"] == "translation"
    assert scored["fuzzy_applicable"].to_list() == translation.to_list()
    assert scored.filter(~translation)["fuzzy_score"].null_count() == (~translation).sum()
    assert scored.filter(translation)["fuzzy_score"].null_count() == 0
    # accuracy keeps today's rule (answer types) and gets no filter
    assert scored["accuracy_applicable"].sum() == sample.height
    rep = xf.report(scored, evaluators=[xf.get_evaluator("fuzzy")])
    row = rep.filter(pl.col("metric") == "fuzzy").row(0, named=True)
    assert (row["count"], row["skipped"], row["not_applicable"]) == (
        translation.sum(),
        0,
        (~translation).sum(),
    )


def test_filter_and_answer_type_rule_both_hold(sample: pl.DataFrame) -> None:
    # BLEU fits text rows; a filter over every task keeps only the text rows of those tasks
    scored = xf.score(sample, {"bleu": "task IN ('translation', 'math')"})
    applicable = scored.filter(pl.col("bleu_applicable"))
    assert set(applicable["task"]) == {"translation"}  # math rows are numbers, not text
    everything = xf.score(sample, {"bleu": "task IN ('translation', 'math')"}, all_rows=True)
    assert set(everything.filter(pl.col("bleu_applicable"))["task"]) == {"translation", "math"}


def test_report_equals_the_mean_computed_by_hand(sample: pl.DataFrame) -> None:
    """The oracle: score every row, then average by hand over the rows the plan names."""
    plan = xf.load_sample_plan()
    rep = xf.report(xf.score(sample, plan), by="model", evaluators=plan.evaluators)
    unfiltered = xf.score(sample, ["accuracy", "math", "bleu", "tcm_diagnosis", "fuzzy"])
    tasks = {
        "accuracy": QA,
        "math_accuracy": ("math",),
        "bleu": ("translation",),
        "tcm_diagnosis": ("tcm_diagnosis",),
        "fuzzy": ("translation",),
    }
    columns = {
        "accuracy": "accuracy_score",
        "math_accuracy": "math_score",
        "bleu": "bleu_score",
        "tcm_diagnosis": "tcm_diagnosis_score",
        "fuzzy": "fuzzy_score",
    }
    rows = unfiltered.to_dicts()
    for metric, keep in tasks.items():
        for model in sample["model"].unique():
            values = [
                r[columns[metric]]
                for r in rows
                if r["model"] == model and r["task"] in keep and r[columns[metric]] is not None
            ]
            got = rep.filter((pl.col("model") == model) & (pl.col("metric") == metric))
            assert got["count"].item() == len(values), (metric, model)
            assert got["score"].item() == pytest.approx(statistics.fmean(values), abs=1e-12)


def test_toml_plan_sets_names_options_and_rows() -> None:
    plan = Plan.from_toml(TOML)
    assert [e.name for e in plan] == ["accuracy", "fuzzy_strict", "math"]
    strict = plan.entries[1].evaluator
    assert type(strict) is xf.FuzzyEvaluator and strict.threshold == 0.9
    assert plan.sql() == {
        "accuracy": "task IN ('knowledge_qa', 'short_answer', 'true_false', 'classification', "
        "'math')",
        "fuzzy_strict": "task = 'translation'",
    }
    assert Plan.from_toml(plan.to_toml()) == plan  # written back, read again


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[evaluators.fuzzy]\nrow = \"task = 'x'\"", "Did you mean 'rows'"),
        ("[evaluator.fuzzy]", "Did you mean 'evaluators'"),
        ("[evaluators.fuzy]", "Did you mean 'fuzzy'"),
        ("[evaluators.fuzzy]\noptions = { treshold = 0.5 }", "Did you mean 'threshold'"),
        ('[evaluators.fuzzy]\nrows = "task = "', "cannot read 'task = ' as a SQL predicate"),
        ("[evaluators.fuzzy]\nrows = 3", "'rows' must be SQL text"),
        ("[evaluators.fuzzy", "not valid TOML"),
        ("", "at least one [evaluators.NAME] table"),
    ],
)
def test_bad_plan_files_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match="plan") as err:
        Plan.from_toml(text)
    assert message in str(err.value)


def test_filters_are_checked_when_built_and_against_the_table(sample: pl.DataFrame) -> None:
    with pytest.raises(ConfigurationError, match="SQL predicate"):
        PlanEntry("bleu", rows="task == ")  # at build time, before any table
    with pytest.raises(ColumnNotFoundError, match="Did you mean 'task'"):
        xf.score(sample, {"bleu": pl.col("tsak") == "translation"})
    with pytest.raises(ColumnTypeError, match="Boolean"):
        xf.score(sample, {"bleu": pl.col("task")})
    with pytest.raises(ColumnTypeError, match="cannot compare string with numeric"):
        xf.score(sample.lazy(), {"bleu": "task = 1"})  # before any row is read
    with pytest.raises(TypeError, match=r"pl\.Expr, SQL text or None"):
        PlanEntry("bleu", rows=3)  # type: ignore[arg-type]
    with pytest.raises(DuplicateColumnError, match="share the name"):
        Plan(["fuzzy", PlanEntry("fuzzy", rows="task = 'x'")])


def test_plan_is_recorded_and_rebuilt_from_the_scored_file(tmp_path: Path) -> None:
    plan_file = tmp_path / "plan.toml"
    plan_file.write_text(TOML)
    out = tmp_path / "scored.parquet"
    args = ["score", str(xf.api.SAMPLE), "-o", str(out), "--plan", str(plan_file), "-q"]
    assert cli_main(args) == 0
    rebuilt = Plan.from_scored(out)
    assert rebuilt == Plan.read(plan_file)
    meta = pl.read_parquet_metadata(out)
    assert json.loads(meta[provenance.ROWS_KEY]) == {
        "accuracy": {"sql": rebuilt.sql()["accuracy"]},
        "fuzzy_strict": {"sql": "task = 'translation'"},
    }
    # the same table scored in Python records the same plan in an Arrow table's metadata
    table = xf.score(xf.load_sample().to_arrow(), Plan.read(plan_file))
    assert Plan.from_metadata(table.schema.metadata) == rebuilt


def test_report_command_prints_the_recorded_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scored.parquet"
    sample = str(xf.api.SAMPLE)
    rows = ["--rows", "fuzzy: task = 'translation'"]
    assert (
        cli_main(["score", sample, "-o", str(out), "-e", "fuzzy", "-e", "math", *rows, "-q"]) == 0
    )
    capsys.readouterr()
    assert cli_main(["report", str(out), "--by", "model"]) == 0
    assert "fuzzy rows: task = 'translation'" in capsys.readouterr().out
    assert cli_main(["report", str(out), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == {"fuzzy": "task = 'translation'"}


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("fuzy: task = 'x'", "Did you mean 'fuzzy'"),
        ("fuzzy task = 'x'", "expected NAME:SQL"),
        ("fuzzy: task = ", "SQL predicate"),
    ],
)
def test_cli_rows_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rows: str, message: str
) -> None:
    out = tmp_path / "scored.parquet"
    args = ["score", str(xf.api.SAMPLE), "-o", str(out), "-e", "fuzzy", "--rows", rows, "-q"]
    assert cli_main(args) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_recorded_rows_are_validated_strictly_and_never_run_as_code() -> None:
    good = provenance.metadata([xf.get_evaluator("fuzzy")])
    for bad in (
        "[1, 2]",
        '{"fuzzy": "task = 1"}',
        '{"fuzzy": {"python": "__import__(\'os\')"}}',
        '{"fuzzy": {"sql": "a = 1", "polars": "x"}}',
        '{"fuzzy": {"sql": 3}}',
        "not json",
    ):
        with pytest.raises(ConfigurationError):
            Plan.from_metadata(good | {provenance.ROWS_KEY: bad})
    with pytest.raises(ConfigurationError, match="not among the recorded evaluators"):
        Plan.from_metadata(good | {provenance.ROWS_KEY: '{"bleu": {"sql": "a = 1"}}'})
    with pytest.raises(ConfigurationError, match="SQL predicate"):
        Plan.from_metadata(good | {provenance.ROWS_KEY: '{"fuzzy": {"sql": "drop table x"}}'})
    # a Polars expression is recorded as text, read back as text, and refused for scoring
    polars_text = '{"fuzzy": {"polars": "[(col(\\"task\\")) == (\\"x\\")]"}}'
    plan = Plan.from_metadata(good | {provenance.ROWS_KEY: polars_text})
    assert plan is not None and plan.entries[0].rows is None
    assert plan.describe_rows() == {"fuzzy": '[(col("task")) == ("x")]'}
    with pytest.raises(ConfigurationError, match="never run from a file"):
        plan.filters()


def test_batch_scorer_with_a_plan_pickles_and_scores_each_batch_alike(sample: pl.DataFrame) -> None:
    scorer = xf.BatchScorer({"fuzzy": pl.col("task") == "translation", "math": "task = 'math'"})
    table = sample.to_arrow()
    whole = scorer(table)
    clone = pickle.loads(pickle.dumps(scorer))  # what Ray ships to its workers
    parts = pa.concat_tables([clone(table.slice(0, 100)), clone(table.slice(100))])
    assert_frame_equal(pl.from_arrow(parts), pl.from_arrow(whole))  # type: ignore[arg-type]
    assert scorer.output_names(table.schema) == [
        n for n in whole.column_names if n not in table.column_names
    ]
    assert Plan.from_metadata(whole.schema.metadata) is not None


def test_cli_chunks_give_the_frame_of_one_pass(sample: pl.DataFrame, tmp_path: Path) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(TOML)
    inputs = tmp_path / "answers"
    inputs.mkdir()
    for i in range(0, sample.height, 100):  # 4 files, in order
        sample.slice(i, 100).write_parquet(inputs / f"part-{i:03d}.parquet")
    out = tmp_path / "scored.parquet"
    args = ["score", str(inputs), "-o", str(out), "--plan", str(plan), "--chunk-rows", "70", "-q"]
    assert cli_main(args) == 0
    want = xf.score(sample, Plan.read(plan)).with_columns(
        pl.int_range(sample.height, dtype=pl.Int64).alias("row_id")
    )
    got = pl.read_parquet(out)
    assert_frame_equal(got, want.select(got.columns))
