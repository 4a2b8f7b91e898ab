# ruff: noqa: E501  (the strings are notebook cells, kept as they read in the notebook)
"""Write notebooks/*.ipynb (stored without outputs): python scripts/make_notebooks.py"""

import nbformat as nbf


def nb(cells):
    book = nbf.v4.new_notebook()
    book.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    book.cells = [
        nbf.v4.new_markdown_cell(c[3:]) if c.startswith("md:") else nbf.v4.new_code_cell(c)
        for c in cells
    ]
    return book


quick = [
    """md:# xpert_frames quickstart

Score the bundled sample (378 answers of 7 models to 54 questions: multiple choice, short text,
true/false, labels, numbers, translations and TCM diagnoses, in Chinese and English) with the
sample's scoring plan (each evaluator on the rows it is meant for: the same figures as
`xpert-frames score ... --plan xpert_frames/data/sample_plan.toml`),
report per model and answer type with confidence intervals, drill into wrong answers, join the
scores back to question metadata, and plot.""",
    """import os
from pathlib import Path

import polars as pl

import xpert_frames as xf

OUT = Path(os.environ.get("XF_NOTEBOOK_OUT", "notebook_output"))
OUT.mkdir(parents=True, exist_ok=True)
pl.Config.set_tbl_rows(20)
pl.Config.set_fmt_str_lengths(60)

answers = xf.load_sample()
answers.head()""",
    """md:## Every evaluator on its rows, in one lazy plan

`xf.list_evaluators()` reads the registry; the sample's plan (`xf.load_sample_plan()`, a TOML
file the CLI reads with `--plan`) says which rows each evaluator scores, as SQL over the table's
columns. Each evaluator adds `<name>_score` plus its own provenance columns (and
`<name>_applicable`); every input row and column is kept, in order.""",
    """print(xf.list_evaluators())
plan = xf.load_sample_plan()
print(plan.to_toml())
scored = xf.score(answers.lazy(), plan).collect()
assert scored.height == answers.height
assert scored.columns[: answers.width] == answers.columns
scored.select("model", "task", "prediction", pl.col("^.*_score$")).head()""",
    """md:## Reports: per model, per answer type, with 95% intervals

Each evaluator is reported on the rows of its plan (the others count as `not_applicable`).
`count` is the number of scored rows, `skipped` the rows with no prediction (or no reference),
which are never counted as wrong or right.""",
    """by_model = xf.report(scored, by="model", evaluators=plan.evaluators)
headline = ["accuracy", "math_accuracy", "bleu", "corpus_bleu", "tcm_diagnosis", "fuzzy"]
by_model.filter(pl.col("metric").is_in(headline))""",
    """accuracy_part = scored.filter(pl.col("accuracy_applicable"))
xf.report(accuracy_part, by=["model"], evaluators=[xf.get_evaluator("accuracy")]).filter(
    pl.col("metric").str.ends_with("_accuracy")
)""",
    """md:## Why was it wrong? Provenance columns

`accuracy_extracted` is what was taken from the answer and `accuracy_rule` the rule that found it,
so every score can be audited.""",
    """wrong = scored.filter(pl.col("task") == "knowledge_qa", pl.col("accuracy_score") == 0)
wrong.select("model", "answer", "accuracy_extracted", "accuracy_rule", "prediction").head(10)""",
    """scored.filter(pl.col("task") == "math").select(
    "model", "answer", "prediction", "math_value", "math_unit", "math_rule", "math_score"
).head(10)""",
    """md:## Join the scores back to an analysis table""",
    """questions = (
    answers.select("question_id", "task", "language", "question")
    .unique("question_id")
    .with_columns(
        difficulty=pl.when(pl.col("task").is_in(["math", "tcm_diagnosis"]))
        .then(pl.lit("hard"))
        .otherwise(pl.lit("easy"))
    )
)
joined = scored.join(questions.select("question_id", "difficulty"), on="question_id", how="left")
xf.report(
    joined.filter(pl.col("accuracy_applicable")),
    by=["difficulty", "language"],
    evaluators=[xf.get_evaluator("accuracy")],
).filter(pl.col("metric") == "accuracy")""",
    """md:## Plots (Polars `.plot` is Altair; shown inline as SVG and saved as PNG, both drawn offline by vl-convert)""",
    """import altair as alt

alt.renderers.enable("svg")  # inline SVG drawn by vl-convert: nothing loads from the network
acc = by_model.filter(pl.col("metric") == "accuracy")
bars = acc.plot.bar(x=alt.X("model:N", sort="-y"), y=alt.Y("score:Q", title="accuracy"))
rules = (
    alt.Chart(acc).mark_rule().encode(x=alt.X("model:N", sort="-y"), y="ci_low:Q", y2="ci_high:Q")
)
chart = (bars + rules).properties(title="Accuracy by model (95% Wilson interval)", width=360)
chart.save(OUT / "accuracy_by_model.png")
chart""",
    """per_type = xf.report(accuracy_part, by=["model"], evaluators=[xf.get_evaluator("accuracy")]).filter(
    pl.col("metric").str.ends_with("_accuracy")
)
chart = (
    alt.Chart(per_type)
    .mark_point(filled=True, size=60)
    .encode(x="score:Q", y="model:N", yOffset="metric:N", color="metric:N")
    + alt.Chart(per_type)
    .mark_rule()
    .encode(x="ci_low:Q", x2="ci_high:Q", y="model:N", yOffset="metric:N", color="metric:N")
).properties(title="Accuracy by model and answer type", width=360)
chart.save(OUT / "accuracy_by_type.png")
chart""",
    """dist = (
    scored.filter(pl.col("task") == "translation")
    .select("model", "fuzzy_score", "bleu_score")
    .unpivot(index="model", variable_name="metric", value_name="value")
)
chart = (
    alt.Chart(dist)
    .mark_bar(opacity=0.7)
    .encode(x=alt.X("value:Q", bin=alt.Bin(maxbins=20)), y="count()", color="metric:N")
    .properties(title="Fuzzy similarity and BLEU on translations", width=360)
)
chart.save(OUT / "distributions.png")
chart""",
    """md:## Model against model, on the same questions

`xf.compare` pairs the models' scores question by question and gives the mean difference with a
paired bootstrap interval and p-value.""",
    """baseline = "llama-3.1-8b-instruct"
cmp = xf.compare(accuracy_part, "model", "accuracy", on="question_id", baseline=baseline)
model = alt.Y("model:N", sort="-x")
chart = (
    alt.Chart(cmp).mark_point(filled=True, size=60).encode(x="diff:Q", y=model)
    + alt.Chart(cmp).mark_rule().encode(x="ci_low:Q", x2="ci_high:Q", y=model)
).properties(title="Accuracy difference vs llama-3.1-8b-instruct (paired)", width=360)
chart.save(OUT / "compare.png")
chart""",
    """cmp""",
]

scale = [
    """md:# Scoring millions of rows lazily

Generate a multi-million-row Parquet file, score growing slices of it with a streaming plan
(`scan_parquet` → score → `sink_parquet`), each in a fresh process, and plot rows per second and
peak memory against rows. Set `XF_SCALE_ROWS` to change the largest size (the test suite runs
this notebook with a small size). Everything is written to a temporary directory that the last
cell removes.""",
    """import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import altair as alt
import numpy as np
import polars as pl

import xpert_frames as xf

alt.renderers.enable("svg")  # inline SVG drawn by vl-convert: nothing loads from the network
ROWS = int(os.environ.get("XF_SCALE_ROWS", "3000000"))
OUT = Path(os.environ.get("XF_NOTEBOOK_OUT", "notebook_output"))
OUT.mkdir(parents=True, exist_ok=True)
workdir = tempfile.TemporaryDirectory(prefix="xf-scale-")
tmp = Path(workdir.name)
sample = xf.load_sample().select("model", "task", "answer_type", "answer", "choices", "prediction")
idx = np.random.default_rng(0).integers(0, sample.height, ROWS)
answers = sample[idx].with_row_index("row")
sizes = [ROWS // 8, ROWS // 4, ROWS // 2, ROWS]
for n in sizes:
    answers.head(n).write_parquet(tmp / f"answers_{n}.parquet", row_group_size=250_000)
print(f"{ROWS:,} rows, {(tmp / f'answers_{ROWS}.parquet').stat().st_size / 1e6:.1f} MB on disk")""",
    """md:## Rows per second and memory against rows

Each size is scored in its own Python process, so that its peak resident memory (`ru_maxrss`) is
its own; `startup_mib` is the process's peak after imports and a warm-up on two rows (jieba, NLTK,
the term tables), before the scoring.""",
    '''RUN = """
import json, resource, sys, time
import polars as pl
import xpert_frames as xf

source, target = sys.argv[1], sys.argv[2]
evaluators = ["accuracy", "fuzzy", "math"]
xf.score(pl.scan_parquet(source).head(2), evaluators).collect()  # warm-up: tokenizers, tables
startup = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
start = time.perf_counter()
xf.score(pl.scan_parquet(source), evaluators).sink_parquet(target)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "startup_mib": startup, "peak_mib": peak}))
"""


def run(n: int) -> dict:
    source, target = tmp / f"answers_{n}.parquet", tmp / f"scored_{n}.parquet"
    proc = subprocess.run(
        [sys.executable, "-c", RUN, str(source), str(target)],
        capture_output=True,
        text=True,
        check=True,
    )
    return {"rows": n, **json.loads(proc.stdout.strip().splitlines()[-1])}


runs = pl.DataFrame([run(n) for n in sizes]).with_columns(
    rows_per_s=pl.col("rows") / pl.col("seconds")
)
runs''',
    """rate = (
    alt.Chart(runs)
    .mark_line(point=True)
    .encode(x=alt.X("rows:Q", title="rows"), y=alt.Y("rows_per_s:Q", title="rows per second"))
    .properties(title="Throughput", width=300, height=220)
)
memory = (
    alt.Chart(
        runs.rename({"peak_mib": "peak", "startup_mib": "after start-up"}).unpivot(
            index="rows", on=["peak", "after start-up"], variable_name="measure"
        )
    )
    .mark_line(point=True)
    .encode(
        x=alt.X("rows:Q", title="rows"),
        y=alt.Y("value:Q", title="resident memory (MiB)"),
        color=alt.Color("measure:N", title=None),
    )
    .properties(title="Peak memory", width=300, height=220)
)
chart = alt.hconcat(rate, memory)
chart.save(OUT / "scale.png")
chart""",
    """scored = pl.scan_parquet(tmp / f"scored_{ROWS}.parquet")
report = xf.report(scored, by="model")
report.filter(pl.col("metric").is_in(["accuracy", "math_accuracy", "fuzzy"]))""",
    """assert scored.select(pl.len()).collect().item() == ROWS
assert scored.select((pl.col("row").diff().fill_null(1) == 1).all()).collect().item()  # order kept""",
    """md:## Clean up

The generated and scored files are removed (the chart stays in `OUT`).""",
    """del scored, report  # nothing holds the files open
workdir.cleanup()
assert not tmp.exists()""",
]
nbf.write(nb(quick), "notebooks/quickstart.ipynb")
nbf.write(nb(scale), "notebooks/scale.ipynb")
