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
    """md:## Plots (Polars `.plot` is Altair; images are saved offline with vl-convert)""",
    """import altair as alt

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
cmp""",
]

scale = [
    """md:# Scoring millions of rows lazily

Generate a multi-million-row Parquet file, score it with a streaming plan
(`scan_parquet` → score → `sink_parquet`), and watch time and memory. Set `XF_SCALE_ROWS` to change
the size (the test suite runs this notebook with a small size).""",
    """import os
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

import xpert_frames as xf

ROWS = int(os.environ.get("XF_SCALE_ROWS", "3000000"))
tmp = Path(tempfile.mkdtemp())
sample = xf.load_sample().select("model", "task", "answer_type", "answer", "choices", "prediction")
idx = np.random.default_rng(0).integers(0, sample.height, ROWS)
sample[idx].with_row_index("row").write_parquet(tmp / "answers.parquet", row_group_size=250_000)
print(f"{ROWS:,} rows, {(tmp / 'answers.parquet').stat().st_size / 1e6:.1f} MB on disk")""",
    """def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


before = peak_mb()
start = time.perf_counter()
plan = xf.score(pl.scan_parquet(tmp / "answers.parquet"), ["accuracy", "fuzzy", "math"])
plan.sink_parquet(tmp / "scored.parquet")
seconds = time.perf_counter() - start
print(
    f"scored {ROWS:,} rows in {seconds:.1f} s ({ROWS / seconds:,.0f} rows/s); "
    f"peak RSS {peak_mb():,.0f} MiB (before: {before:,.0f} MiB)"
)""",
    """report = xf.report(pl.scan_parquet(tmp / "scored.parquet"), by="model")
report.filter(pl.col("metric").is_in(["accuracy", "math_accuracy", "fuzzy"]))""",
    """out = pl.scan_parquet(tmp / "scored.parquet")
assert out.select(pl.len()).collect().item() == ROWS
assert out.select((pl.col("row").diff().fill_null(1) == 1).all()).collect().item()  # order kept""",
]
nbf.write(nb(quick), "notebooks/quickstart.ipynb")
nbf.write(nb(scale), "notebooks/scale.ipynb")
