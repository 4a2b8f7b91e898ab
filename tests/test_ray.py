"""Ray Data gives the same scores and the same reports as in-process scoring.

Local mode, ``ray.init(num_cpus=2)`` once per module. Generic over the evaluator registry: every
registered evaluator scores the generated data (which has every column role) both ways.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

import xpert_frames as xf
from xpert_frames import registry
from xpert_frames.api import SAMPLE
from xpert_frames.cli.main import main as cli_main
from xpert_frames.core.exceptions import ColumnNotFoundError
from xpert_frames.core.frames import CHOICE_DTYPE
from xpert_frames.evaluators.base import BaseEvaluator
from xpert_frames.evaluators.fuzzy.kernel import kernel_threads

ray = pytest.importorskip("ray")
xray = pytest.importorskip("xpert_frames.ray_data")
ray_engine = pytest.importorskip("xpert_frames.cli.ray_engine")

pytestmark = [pytest.mark.ray, pytest.mark.slow]

N_ROWS = 3_000
BATCH = 400  # several batches per block, several blocks per dataset
EXACT = ("count", "skipped", "min", "max")
FLOATS = ("score", "stderr", "ci_low", "ci_high")
REL = 1e-12  # float sums added in another order (per batch, then merged)

_WORDS = ["北京", "上海", "人工智能", "the answer", "machine learning", "42", "3.5", "一百二十"]
_TCM = ["肝郁脾虚", "气血两虚", "湿热蕴结", "疏肝健脾", "胃痛", "感冒"]


def generate(n: int = N_ROWS, seed: int = 7) -> pl.DataFrame:
    """Rows with every column role: mixed answer types, choices, TCM sub-types, invalid rows."""
    rng = np.random.default_rng(seed)
    kinds = rng.choice(["choice", "text", "number", "tcm"], size=n)
    letters = ["A", "B", "C", "D"]
    preds: list[str | None] = []
    answers: list[str] = []
    choices: list[list[dict[str, str]] | None] = []
    tcm: list[str | None] = []
    for i, kind in enumerate(kinds):
        r = rng.random()
        if kind == "choice":
            options = [{"id": c, "content": str(rng.choice(_WORDS))} for c in letters]
            gold = str(rng.choice(letters))
            guess = gold if r < 0.5 else str(rng.choice(letters))
            preds.append(f"答案是{guess}" if r < 0.8 else f"I think ({guess})")
            answers.append(gold)
            choices.append(options)
            tcm.append(None)
        elif kind == "tcm":
            gold = "；".join(rng.choice(_TCM, size=2, replace=False).tolist())
            preds.append(gold if r < 0.4 else "，".join(rng.choice(_TCM, size=2).tolist()))
            answers.append(gold)
            choices.append(None)
            tcm.append(str(rng.choice(["syndrome", "disease", "treatment"])))
        else:
            gold = str(rng.choice(_WORDS))
            preds.append(gold if r < 0.3 else f"{rng.choice(_WORDS)} {rng.choice(_WORDS)}")
            answers.append(gold)
            choices.append(None)
            tcm.append(None)
        if i % 37 == 0:
            preds[-1] = None
        if i % 53 == 0:
            answers[-1] = ""
    return pl.DataFrame(
        {
            "id": np.arange(n),
            "model": [f"m{i % 3}" for i in range(n)],
            "prediction": preds,
            "answer": answers,
            "answer_type": [None if k == "tcm" else str(k) for k in kinds],
            "choices": choices,
            "tcm_eval_type": tcm,
        },
        schema_overrides={"choices": CHOICE_DTYPE},
    )


def registered() -> list[BaseEvaluator]:
    return [xf.get_evaluator(name) for name in xf.list_evaluators()]


def as_dataset(table: pa.Table, blocks: int = 4) -> Any:
    step = math.ceil(table.num_rows / blocks)
    return ray.data.from_arrow([table.slice(i, step) for i in range(0, table.num_rows, step)])


def collect(ds: Any) -> pl.DataFrame:
    return pl.DataFrame(pa.concat_tables(ray.get(ds.to_arrow_refs())))


def assert_reports_equal(got: pl.DataFrame, want: pl.DataFrame) -> None:
    assert got.columns == want.columns and got.schema == want.schema
    keys = got.columns[: got.columns.index("score")]
    assert_frame_equal(got.select(*keys, *EXACT), want.select(*keys, *EXACT))
    for column in FLOATS:
        for g, w in zip(got[column].to_list(), want[column].to_list(), strict=True):
            assert (g is None) == (w is None), column
            if g is not None:
                assert math.isclose(g, w, rel_tol=REL, abs_tol=1e-15), (column, g, w)


@pytest.fixture(scope="module", autouse=True)
def ray_local() -> Iterator[None]:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def data() -> pl.DataFrame:
    return generate()


@pytest.fixture(scope="module")
def local_scored(data: pl.DataFrame) -> pl.DataFrame:
    return xf.score(data, registered())


@pytest.fixture(scope="module")
def scored_ds(data: pl.DataFrame) -> Any:
    """Scored by Ray once, kept in Ray's object store (never collected on the driver)."""
    ds = xray.score_dataset(as_dataset(data.to_arrow()), registered(), actors=2, batch_size=BATCH)
    return ds.materialize()


@pytest.fixture(scope="module")
def ray_scored(scored_ds: Any) -> pl.DataFrame:
    return collect(scored_ds)


# --------------------------------------------------------------------------- fuzzy kernel threads
def test_fuzzy_kernel_threads_in_ray_tasks() -> None:
    """The fuzzy kernel uses the CPUs Ray gave the task (here, on this module's cluster).
    First in the module: a task asking for both CPUs must not wait on actors of other tests."""
    one = ray.remote(num_cpus=1)(kernel_threads)
    two = ray.remote(num_cpus=2)(kernel_threads)
    cores = min(2, len(os.sched_getaffinity(0)), pl.thread_pool_size())
    assert ray.get([one.remote(), two.remote()]) == [1, cores]


# --------------------------------------------------------------------------- scores
def test_scores_equal_in_process(local_scored: pl.DataFrame, ray_scored: pl.DataFrame) -> None:
    assert ray_scored.columns == local_scored.columns
    assert_frame_equal(ray_scored.sort("id"), local_scored)


def test_score_columns_named_like_batch_scorer(
    ray_scored: pl.DataFrame, data: pl.DataFrame
) -> None:
    # the data has answer types: each evaluator's <name>_applicable follows its columns
    outputs = xf.BatchScorer(registered()).output_names(data.to_arrow().schema)
    assert any(name.endswith("_applicable") for name in outputs)
    assert ray_scored.columns[-len(outputs) :] == outputs


def test_errors_on_the_driver_before_any_work(data: pl.DataFrame) -> None:
    ds = as_dataset(data.to_arrow())
    with pytest.raises(ColumnNotFoundError, match="gold"):
        xray.score_dataset(ds, "fuzzy", answer="gold")
    with pytest.raises(TypeError, match="unknown column role"):
        xray.score_dataset(ds, "fuzzy", gold="answer")
    with pytest.raises(ValueError, match="actors"):
        xray.score_dataset(ds, "fuzzy", actors=0)
    with pytest.raises(ColumnNotFoundError, match="nope"):
        xray.report_dataset(ds, by="nope", evaluators=["fuzzy"])


# --------------------------------------------------------------------------- reports
@pytest.mark.parametrize("by", [None, "model", ["model", "answer_type"]])
def test_report_equals_in_process(local_scored: pl.DataFrame, by: Any) -> None:
    ds = as_dataset(local_scored.to_arrow(), blocks=3)
    evs = registered()  # a bare table does not record BLEU's options: given, as in-process
    got = xray.report_dataset(ds, by=by, evaluators=evs, batch_size=BATCH)
    assert_reports_equal(got, xf.report(local_scored, by=by, evaluators=evs))


def test_report_of_ray_scored_dataset(scored_ds: Any, local_scored: pl.DataFrame) -> None:
    """Score and report on Ray; the score columns never reach the driver."""
    evs = registered()
    got = xray.report_dataset(scored_ds, by="model", evaluators=evs, batch_size=BATCH)
    assert_reports_equal(got, xf.report(local_scored, by="model", evaluators=evs))
    # Batches scored on Ray carry the scoring configuration: no evaluators needed.
    recorded = xray.report_dataset(scored_ds, by="model", batch_size=BATCH)
    assert_reports_equal(recorded, got)


def test_report_of_empty_dataset(local_scored: pl.DataFrame) -> None:
    ds = ray.data.from_arrow(local_scored.head(0).to_arrow())
    evs = registered()
    assert_reports_equal(
        xray.report_dataset(ds, evaluators=evs), xf.report(local_scored.head(0), evaluators=evs)
    )


class _DriverOnly(BaseEvaluator):
    """Registered in this process only: Ray workers do not know it."""

    key = "driver_only"
    metric = "driver_only_metric"

    def outputs(self) -> dict[str, pl.Expr]:
        return {"score": pl.lit(1.0, pl.Float64)}


@pytest.fixture
def ship_this_module() -> Iterator[None]:
    """Evaluators defined here reach workers by value: workers cannot import test modules."""
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield
    ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


@pytest.mark.usefixtures("ship_this_module")
def test_report_refuses_evaluators_the_workers_do_not_know() -> None:
    table = pa.table({"driver_only_score": [0.5, 1.0, None]})
    xf.register_evaluator("driver_only", _DriverOnly)
    try:
        with pytest.raises(ValueError, match="pass evaluators="):
            xray.report_dataset(ray.data.from_arrow(table))
        got = xray.report_dataset(ray.data.from_arrow(table), evaluators=[_DriverOnly()])
    finally:
        registry._REGISTRY.pop("driver_only")
    assert_reports_equal(got, xf.report(table, evaluators=[_DriverOnly()]))


# --------------------------------------------------------------------------- per-worker setup
_STATE = {"setups": 0}


class _SetupProbe(BaseEvaluator):
    """Records how often its per-process setup ran, and in which process each batch ran."""

    key = "probe"

    def outputs(self) -> dict[str, pl.Expr]:
        if _STATE["setups"] == 0:  # the expensive part (a dictionary, a tokenizer) goes here
            _STATE["setups"] += 1
        return {
            "score": pl.lit(1.0, pl.Float64),
            "pid": pl.lit(os.getpid(), pl.Int64),
            "setups": pl.lit(_STATE["setups"], pl.Int64),
        }


@pytest.mark.usefixtures("ship_this_module")
def test_setup_once_per_worker_not_per_batch(data: pl.DataFrame) -> None:
    ds = xray.score_dataset(as_dataset(data.to_arrow()), [_SetupProbe()], actors=2, batch_size=100)
    out = collect(ds)
    assert out.height == data.height  # 30 batches ...
    pids = out["probe_pid"].drop_nulls()  # invalid rows are null
    assert 1 <= pids.n_unique() <= 2  # ... in at most two worker processes ...
    assert out["probe_setups"].drop_nulls().unique().to_list() == [1]  # ... each set up once
    assert os.getpid() not in pids.to_list()


# --------------------------------------------------------------------------- files (CLI path)
@pytest.mark.parametrize("kind", ["parquet", "jsonl", "csv"])
def test_score_files_equals_in_process_cli(tmp_path: Path, data: pl.DataFrame, kind: str) -> None:
    flat = data.drop("choices") if kind == "csv" else data
    inputs = []
    for i in range(0, flat.height, 700):  # 5 files, in order
        path = tmp_path / f"part-{i}.{kind}"
        part = flat.slice(i, 700)
        {"parquet": part.write_parquet, "jsonl": part.write_ndjson, "csv": part.write_csv}[kind](
            path
        )
        inputs.append(str(path))
    names = ["fuzzy"]  # every evaluator is compared above; this is about files and order
    local = tmp_path / "local.parquet"
    assert cli_main(["score", *inputs, "-o", str(local), "-q", *(f"-e{n}" for n in names)]) == 0
    out = tmp_path / "out" / "scored.parquet"
    seen: list[bool] = []
    ray_engine.score_files(
        inputs,
        out,
        names,
        None,
        address=None,
        row_id="row_id",
        after_write=lambda tmp: seen.append(tmp.exists() and not out.exists()),
    )
    got = pl.read_parquet(out)
    assert got["id"].cast(pl.Int64).to_list() == list(range(data.height))  # input order
    assert_frame_equal(got, pl.read_parquet(local), check_dtypes=kind != "csv")
    assert seen == [True]  # after_write ran on the temporary file, before the rename
    assert [p.name for p in out.parent.iterdir()] == ["scored.parquet"]  # no temp file left


def test_score_files_keeps_an_input_row_id(tmp_path: Path, data: pl.DataFrame) -> None:
    path = tmp_path / "in.jsonl"
    data.head(50).rename({"id": "row_id"}).write_ndjson(path)
    out = tmp_path / "o.parquet"
    ray_engine.score_files([str(path)], out, ["fuzzy"], None, address=None, row_id="row_id")
    got = pl.read_parquet(out)
    assert got.columns[: data.width] == ["row_id", *data.columns[1:]]
    assert got["row_id"].to_list() == list(range(50))


def test_cli_engine_ray_equals_polars(tmp_path: Path) -> None:
    from xpert_frames.cli.main import score as score_command

    if "engine" not in {p.name for p in score_command.params}:
        pytest.skip("--engine is not wired into the CLI yet")
    sample = str(SAMPLE)
    args = ["score", sample, "-q", "--by", "model", "-e", "fuzzy", "-e", "bleu"]
    ray_out, local_out = tmp_path / "ray.parquet", tmp_path / "local.parquet"
    ray_rep, local_rep = tmp_path / "ray.json", tmp_path / "local.json"
    assert cli_main([*args, "-o", str(ray_out), "--report", str(ray_rep), "--engine", "ray"]) == 0
    assert cli_main([*args, "-o", str(local_out), "--report", str(local_rep)]) == 0
    assert_frame_equal(pl.read_parquet(ray_out), pl.read_parquet(local_out))
    ray_json, local_json = json.loads(ray_rep.read_text()), json.loads(local_rep.read_text())
    assert ray_json["signatures"] == local_json["signatures"]
    assert_reports_equal(pl.DataFrame(ray_json["report"]), pl.DataFrame(local_json["report"]))
    assert cli_main(["score", sample, "-o", str(tmp_path / "x.parquet"), "-e", "fuzzy",
                     "--address", "auto"]) == 2  # fmt: skip


def test_score_files_rejects_address_when_connected(tmp_path: Path, data: pl.DataFrame) -> None:
    path = tmp_path / "in.parquet"
    data.head(10).write_parquet(path)
    with pytest.raises(ValueError, match="already connected"):
        ray_engine.score_files([str(path)], tmp_path / "o.parquet", ["fuzzy"], None, address="auto")
    assert not (tmp_path / "o.parquet").exists()


# --------------------------------------------------------------------------- packaging
def test_core_package_does_not_import_ray() -> None:
    code = "import sys, xpert_frames; print('ray' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_missing_ray_says_how_to_install() -> None:
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "try:\n    import xpert_frames.ray_data\nexcept ImportError as exc:\n    print(exc)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert "pip install 'xpert-frames[ray]'" in result.stdout
