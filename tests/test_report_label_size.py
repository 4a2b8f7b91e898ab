"""Long values from the data neither blow up the HTML report nor get clipped in its charts:
labels are cut (with ``…``) to what fits, and the tooltip holds the value up to a stated limit."""

from __future__ import annotations

import re
from html import unescape

import polars as pl

import xpert_frames as xf
from xpert_frames.reporting import svg
from xpert_frames.reporting.html_page import SHOWN


def scored(models: list[str]) -> pl.DataFrame:
    rows = [(m, f"q{i}", p) for m in models for i, p in enumerate(["a", "b", "a", "c"])]
    frame = pl.DataFrame(rows, schema=["model", "question_id", "prediction"], orient="row")
    return xf.score(frame.with_columns(answer=pl.lit("a")), "accuracy")


def test_a_megabyte_model_name_keeps_the_page_small() -> None:
    huge = "M" * 1_000_000
    page = xf.html_report(scored([huge, "small"]), by="model")
    assert len(page) < 200_000, len(page)  # was about 30 MB
    assert page.count("M" * (svg.TIP_LIMIT + 1)) == 0
    assert "(1,000,000 characters)" in page  # the tooltip says how long the value is
    assert "small" in page


def test_labels_shown_are_cut_with_the_value_in_a_tooltip() -> None:
    name = "model-" + "x" * 150
    page = xf.html_report(scored([name, "b"]), by="model")
    cut = name[: SHOWN - 1] + "…"
    assert f'<span title="{name}">{cut}</span>' in page
    assert f'<td class="g">{cut}' not in page  # only inside its span


def test_chart_labels_fit_the_label_margin_and_keep_a_tooltip() -> None:
    names = ["A" * 40, "中文模型名称" * 6, "gpt-4o-2024-08-06-with-a-long-suffix"]
    page = xf.html_report(scored(names), by="model")
    labels = re.findall(r'<text [^>]*class="label">(?:<title>([^<]*)</title>)?([^<]*)</text>', page)
    shown = {unescape(text): unescape(full) for full, text in labels if text != "rows"}
    for name in names:
        cut = [s for s, full in shown.items() if full == name]
        assert cut, (name, shown)  # the full value is the tooltip of a shortened label
        assert all(s.endswith("…") and svg.units(s) <= svg.LABEL_UNITS for s in cut)
        # about 6px per unit at 11px: the label fits the margin left of the axis
        assert all(svg.units(s) * 6.5 <= svg.LABEL - 8 for s in cut)


def test_short_labels_are_left_whole() -> None:
    page = xf.html_report(scored(["m1", "m2"]), by="model")
    assert '<text x="162.0" y="44.0" text-anchor="end" class="label">m1</text>' in page


def test_ellipsize_counts_wide_and_capital_characters() -> None:
    assert svg.ellipsize("abc", 24) == "abc"
    assert svg.units(svg.ellipsize("字" * 40, 24)) <= 24
    assert svg.units(svg.ellipsize("W" * 40, 24)) <= 24
    assert svg.ellipsize("a" * 30, 24) == "a" * 23 + "…"
    assert svg.tip("x" * 5) == "x" * 5
    assert svg.tip("x" * 2000).endswith("… (2,000 characters)")
