"""The HTML report (self-contained, escaped) and Markdown reports (title, escaped cells)."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

import xpert_frames as xf
from tests.test_cli import run
from xpert_frames.api import SAMPLE, html_report
from xpert_frames.reporting.render import markdown

HOSTILE_MODEL = '<script>alert("m")</script>'
HOSTILE_PRED = "</td><img src=x onerror=alert(1)> & |pipe|"


@pytest.fixture(scope="module")
def scored() -> pl.DataFrame:
    sample = xf.load_sample()
    hostile = sample.with_columns(
        pl.when(pl.col("model") == "glm-4-9b-chat")
        .then(pl.lit(HOSTILE_MODEL))
        .otherwise(pl.col("model"))
        .alias("model"),
        pl.when(pl.col("answer_type") == "number")
        .then(pl.lit(HOSTILE_PRED))
        .otherwise(pl.col("prediction"))
        .alias("prediction"),
    )
    return xf.score(hostile, ["accuracy", "math", "bleu", "tcm_diagnosis", "fuzzy"])


@pytest.fixture(scope="module")
def page(scored: pl.DataFrame) -> str:
    return html_report(scored, by="model", baseline="qwen2.5-7b-instruct")


def test_everything_from_the_data_is_escaped(page: str) -> None:
    assert "<script" not in page.lower()
    assert "<img" not in page.lower()
    assert "&lt;script&gt;alert(&quot;m&quot;)&lt;/script&gt;" in page
    assert "&lt;/td&gt;&lt;img src=x onerror=alert(1)&gt; &amp; |pipe|" in page


def test_self_contained(page: str) -> None:
    # nothing is fetched: every src/href attribute is a fragment, no CSS import or url(), and a
    # policy that forbids loading anything
    assert re.findall(r"""<[^>]*\s(?:src|href)\s*=\s*(?!["']?#)""", page) == []
    assert "@import" not in page and "url(" not in page
    assert "default-src 'none'" in page
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</html>\n")


def test_sections_and_charts(page: str, scored: pl.DataFrame) -> None:
    for anchor in ("groups", "table", "types", "dist", "compare", "wrong", "config"):
        assert f'id="{anchor}"' in page
    # one chart per overall metric (accuracy, math_accuracy, bleu, corpus_bleu, tcm_diagnosis,
    # fuzzy, fuzzy_match_rate), per sub-type (4 answer types, 3 TCM types), per score column,
    # and per evaluator compared with the baseline
    assert page.count("<svg") == 7 + 7 + 5 + 5
    assert "difference to qwen2.5-7b-instruct" in page
    assert "bleu|nrefs:var|lang:auto" in page  # the signature
    assert "threshold=0.6" in page  # the fuzzy configuration


def test_wrong_answer_counts_match_the_data(page: str, scored: pl.DataFrame) -> None:
    wrong = scored.filter(pl.col("math_score") == 0).group_by("model").len()
    section = page[page.index('id="wrong"') : page.index('id="config"')]
    math_part = section[section.index(">math <") : section.index(">bleu <")]
    for model, n in wrong.iter_rows():
        escaped = model.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        escaped = escaped.replace('"', "&quot;")
        assert f"<summary>{escaped}: {n:,} wrong" in math_part


def test_report_without_model_or_items() -> None:
    frame = xf.score(pl.DataFrame({"prediction": ["a", "b"], "answer": ["a", "c"]}), "fuzzy")
    page = html_report(frame)
    assert "Needs a model column" in page and page.count("<svg") == 2 + 1


def test_markdown_report_is_a_document() -> None:
    rep = pl.DataFrame({"model": ["a|b", "line\nbreak", None], "metric": ["m"] * 3})
    rep = rep.with_columns(pl.Series("score", [0.5, 1 / 3, None]))
    text = markdown(rep, title="Scores")
    lines = text.split("\n")
    assert lines[0] == "# Scores" and text.endswith("|\n")
    assert "| a\\|b | m | 0.5 |" in lines
    assert "| line<br>break | m | 0.333333 |" in lines
    rows = [line for line in lines if line.startswith("|")]
    # every row has the same number of unescaped separators
    assert {len(re.findall(r"(?<!\\)\|", line)) for line in rows} == {4}
    assert rows[1] == "|---|---|---:|"


@pytest.mark.slow
def test_cli_writes_html_and_markdown(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    page = tmp_path / "report.html"
    args = ["-e", "accuracy", "-e", "fuzzy", "--by", "model", "--report", str(page), "-q"]
    assert run("score", str(SAMPLE), "-o", str(out), *args).returncode == 0
    assert page.read_text().count("<svg") > 5
    again = tmp_path / "again.html"
    proc = run("report", str(out), "--by", "model", "--format", "html", "-o", str(again))
    assert proc.returncode == 0, proc.stderr
    assert "difference to deepseek-v2-lite-chat" in again.read_text()
    md = run("report", str(out), "--by", "model", "--format", "markdown")
    assert md.stdout.startswith("# xpert-frames report\n") and md.stdout.endswith("|\n")
    proc = run("report", str(out), "--format", "html")
    assert proc.returncode == 2 and "-o report.html" in proc.stderr


@pytest.mark.slow
def test_unknown_baseline_is_a_clear_error(tmp_path: Path, scored: pl.DataFrame) -> None:
    from xpert_frames.core.exceptions import InvalidOptionError

    with pytest.raises(InvalidOptionError, match="Did you mean 'glm-4-9b-chat'"):
        html_report(scored.with_columns(pl.lit("glm-4-9b-chat").alias("model")), baseline="glm-4")
    out = tmp_path / "scored.parquet"
    assert run("score", str(SAMPLE), "-o", str(out), "-e", "fuzzy", "-q").returncode == 0
    page = tmp_path / "r.html"
    proc = run("report", str(out), "--format", "html", "-o", str(page), "--baseline", "gml-4")
    assert proc.returncode == 2 and "not a value of column 'model'" in proc.stderr
    assert not page.exists()
    proc = run("report", str(out), "--baseline", "glm-4-9b-chat")
    assert proc.returncode == 2 and "--baseline is for HTML reports" in proc.stderr


def test_distribution_charts_have_a_count_axis(page: str, scored: pl.DataFrame) -> None:
    section = page[page.index('<h2 id="dist">') : page.index('<h2 id="compare">')]
    charts = section.split("<svg")[1:]
    assert len(charts) == 5
    for chart in charts:
        ticks = [
            int(t.replace(",", "")) for t in re.findall(r'class="tick count">([\d,]+)<', chart)
        ]
        bars = [int(n) for n in re.findall(r"\): (\d+)</title></rect>", chart)]
        assert ticks[0] == 0 and max(bars) <= ticks[-1] < 3 * max(bars)
        assert ">rows</text>" in chart and ">score</text>" in chart
    fuzzy = charts[-1]
    bars = [int(n) for n in re.findall(r"\): (\d+)</title></rect>", fuzzy)]
    assert sum(bars) == scored["fuzzy_score"].drop_nulls().len()


def test_report_tables_stay_narrow(page: str) -> None:
    section = page[
        page.index('<h2 id="table">') : page.index("<details>", page.index('id="table"'))
    ]
    heads = [table.count("<th>") for table in section.split("<table>")[1:]]
    metrics = sum(h - 1 for h in heads)  # each table has its group column
    assert len(heads) >= 2 and max(heads) - 1 <= 7 and metrics >= 14
