"""Several accepted answers: an ``answer`` that is a list of strings means any one counts
(TriviaQA-style aliases) for the accuracy and fuzzy evaluators, in every path; BLEU reads the
list as its references; evaluators that cannot take a list say so."""

from __future__ import annotations

import json
import os
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import xpert_frames as xf
from xpert_frames.cli.main import main as cli_main
from xpert_frames.core.exceptions import ColumnTypeError

_KEEP = ("prediction", "answer", "answer_type", "row")


def _table() -> pl.DataFrame:
    """Rows of every accuracy kind with alias lists, including blank, null and empty lists."""
    rows = [
        ("The answer is Paris.", ["Lyon", "Paris"], "text"),
        ("The answer is Paris.", ["Lyon", "Marseille"], "text"),
        ("答案是：北京", ["北京市", "北京"], "text"),
        ("Final answer: Portugal. The Man", ["Portugal. The Man.", "Portugal. The Man"], "text"),
        ("The answer is (B).", ["C", "B"], "choice"),
        ("The answer is (B).", ["C", "D"], "choice"),
        ("So the answer is no.", ["yes", "no"], "judge"),
        ("So the answer is 12 apples.", ["11", "12.0"], "number"),
        ("So the answer is 12 apples.", ["11", "13"], "number"),
        ("The answer is Paris.", ["", "  ", "Paris"], "text"),
        ("The answer is Paris.", ["", "  "], "text"),
        ("The answer is Paris.", [], "text"),
        ("The answer is Paris.", None, "text"),
        (None, ["Paris"], "text"),
        ("The answer is Rome.", ["Paris", None, "Rome"], "text"),
    ]
    return pl.DataFrame(
        {
            "prediction": [r[0] for r in rows],
            "answer": pl.Series([r[1] for r in rows], dtype=pl.List(pl.String)),
            "answer_type": [r[2] for r in rows],
            "row": list(range(len(rows))),
        }
    )


def _oracle(table: pl.DataFrame, name: str) -> list[float | None]:
    """Plain Python: score each (row, reference) pair as a string reference, keep the best;
    blank and null references are not references; a row without one is skipped (null)."""
    pairs = [
        (i, p, a, t)
        for i, (p, refs, t) in enumerate(
            zip(table["prediction"], table["answer"], table["answer_type"], strict=True)
        )
        for a in (refs if refs is not None else [])
        if a is not None and a.strip()
    ]
    flat = pl.DataFrame(
        {
            "prediction": pl.Series([p for _, p, _, _ in pairs], dtype=pl.String),
            "answer": [a for _, _, a, _ in pairs],
            "answer_type": [t for _, _, _, t in pairs],
        }
    )
    scores = xf.score(flat, [name], all_rows=True)[f"{name}_score"].to_list()
    best: list[float | None] = [None] * table.height
    for (i, _, _, _), s in zip(pairs, scores, strict=True):
        if s is not None and (best[i] is None or s > best[i]):
            best[i] = s
    return best


@pytest.mark.parametrize("name", ["accuracy", "fuzzy"])
def test_best_over_references_equals_plain_python(name: str) -> None:
    table = _table()
    got = xf.score(table, [name], all_rows=True)
    assert got.select(_KEEP).equals(table.select(_KEEP))  # every row and column, in order
    assert got[f"{name}_score"].to_list() == _oracle(table, name)


def test_accuracy_any_reference_counts_and_outputs_come_from_it() -> None:
    got = xf.score(_table(), ["accuracy"])
    assert got["accuracy_score"].to_list() == [
        1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, None, None, None, None, 1.0,
    ]  # fmt: skip
    assert got["accuracy_extracted"][0] == "paris" and got["accuracy_extracted"][4] == "B"
    assert got["accuracy_rule"][0] is not None
    report = xf.report(got)
    overall = report.filter(pl.col("metric") == "accuracy").row(0, named=True)
    assert overall["count"] == 11 and overall["skipped"] == 4  # once per row, not per reference


def test_a_list_of_one_equals_the_string_reference() -> None:
    table = _table().filter(pl.col("answer").list.len() > 0)
    single = table.with_columns(pl.col("answer").list.last())
    listed = table.with_columns(pl.concat_list(pl.col("answer").list.last()))
    for name in ("accuracy", "fuzzy"):
        a = xf.score(single, [name], all_rows=True).drop("answer")
        b = xf.score(listed, [name], all_rows=True).drop("answer")
        assert_frame_equal(a, b)


def test_eager_lazy_streaming_pandas_arrow_give_equal_frames() -> None:
    table = _table()
    names = ["accuracy", "fuzzy", "bleu"]
    eager = xf.score(table, names)
    assert_frame_equal(xf.score(table.lazy(), names).collect(), eager)
    assert_frame_equal(xf.score(table.lazy(), names).collect(engine="streaming"), eager)
    assert_frame_equal(pl.DataFrame(xf.score(table.to_arrow(), names)), eager)
    pandas = xf.score(table.to_pandas(), names)
    assert (
        pandas["accuracy_score"].fillna(-1).tolist()
        == eager["accuracy_score"].fill_null(-1).to_list()
    )


def test_seed_evaluate_takes_reference_lists() -> None:
    ev = xf.get_evaluator("accuracy")
    out = ev.evaluate(
        ["The answer is Paris.", "The answer is Rome."],
        [["Lyon", "Paris"], {"answer": {"type": "text", "value": ["Milan", "Turin"]}}],
    )
    assert out["accuracy"]["score"] == 0.5 and out["accuracy"]["count"] == 2


@pytest.mark.parametrize("suffix", ["parquet", "jsonl"])
def test_cli_reads_list_columns(tmp_path: Path, suffix: str) -> None:
    table = _table()
    source = tmp_path / f"answers.{suffix}"
    if suffix == "parquet":
        table.write_parquet(source)
    else:
        source.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in table.to_dicts()),
            encoding="utf-8",
        )
    out = tmp_path / "out.parquet"
    assert cli_main(["score", str(source), "-o", str(out), "-q", "-e", "accuracy"]) == 0
    got = pl.read_parquet(out)
    want = xf.score(table, ["accuracy"])
    assert got["accuracy_score"].to_list() == want["accuracy_score"].to_list()
    assert got["accuracy_extracted"].to_list() == want["accuracy_extracted"].to_list()


def test_other_list_types_are_refused_naming_the_column() -> None:
    bad = _table().with_columns(pl.col("answer").list.eval(pl.struct(pl.element().alias("v"))))
    with pytest.raises(ColumnTypeError, match=r"'answer'.*list of strings"):
        xf.score(bad, ["accuracy"])
    numbers = pl.DataFrame({"prediction": ["so 12"], "answer": [[11, 12]], "answer_type": "number"})
    assert xf.score(numbers, ["accuracy"])["accuracy_score"].to_list() == [1.0]


@pytest.mark.parametrize("name", ["math", "tcm_diagnosis"])
def test_evaluators_without_several_references_say_so(name: str) -> None:
    with pytest.raises(ColumnTypeError, match=f"string column for evaluator {name!r}"):
        xf.score(_table(), [name], all_rows=True)


@pytest.mark.slow
@pytest.mark.ray
def test_ray_equals_eager() -> None:
    ray = pytest.importorskip("ray")
    from xpert_frames.ray_data import score_dataset

    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        table = _table()
        ds = ray.data.from_arrow([table.slice(0, 7).to_arrow(), table.slice(7).to_arrow()])
        ds.context.execution_options.preserve_order = True
        got = pl.concat(
            pl.DataFrame(t)
            for t in ray.get(score_dataset(ds, ["accuracy", "fuzzy"]).to_arrow_refs())
        )
        assert_frame_equal(got, xf.score(table, ["accuracy", "fuzzy"]))
    finally:
        ray.shutdown()


def test_a_plugin_gets_best_of_answers_by_declaring_it(clean_registry: None) -> None:
    """The mechanism is the evaluator contract's: a plugin that declares it scores lists too."""

    class Equal(xf.BaseEvaluator):
        key = "equal"
        accepts_list_answer = True
        best_of_answers = True

        def outputs(self) -> dict[str, pl.Expr]:
            hit = pl.col("__xf_prediction") == pl.col("__xf_answer")
            return {"score": hit.cast(pl.Float64), "which": pl.col("__xf_answer")}

    xf.register_evaluator("equal", Equal)
    table = pl.DataFrame({"prediction": ["b", "z"], "answer": [["a", "b", "c"], ["x", "y"]]})
    got = xf.score(table, ["equal"])
    assert got["equal_score"].to_list() == [1.0, 0.0]
    assert got["equal_which"].to_list() == ["b", "x"]  # the winner's outputs; first on ties

    class Unreadable(Equal):
        accepts_list_answer = False

    with pytest.raises(TypeError, match="best_of_answers needs accepts_list_answer"):
        xf.register_evaluator("unreadable", Unreadable)
