"""Markdown reports render data as text: a model name holding an image link, a link, raw HTML,
an entity, emphasis or code shows as written and loads nothing."""

from __future__ import annotations

import html
import re
from pathlib import Path

import polars as pl
import pytest

import xpert_frames as xf
from xpert_frames.cli.main import main
from xpert_frames.reporting.render import markdown

PAYLOADS = [
    "![x](http://attacker.example/pixel.png)",
    "[click](http://attacker.example/)",
    '<img src="http://attacker.example/p.png">',
    "<script>alert(1)</script>",
    "&lt;b&gt; &#60;i&#62; &amp;",
    "**bold** _em_ `code` ~~gone~~ $x^2$",
    "a|b \\| c\\",
    "[ref]: http://attacker.example/",
    "![y][ref]",
    "# not a heading",
    "__init__ _x_ a_b_c 中_文_ x__y__",
]


def rendered(text: str) -> str:
    markdown_it = pytest.importorskip("markdown_it")
    # Raw HTML allowed, as many viewers do: the escaping alone must keep data as text.
    return markdown_it.MarkdownIt("commonmark", {"html": True}).enable("table").render(text)


def cells(page: str) -> list[str]:
    return [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", page, re.S)]


def test_markdown_payloads_render_as_the_text_they_are() -> None:
    rep = pl.DataFrame({"model": PAYLOADS, "metric": ["m"] * len(PAYLOADS)})
    page = rendered(markdown(rep.with_columns(score=pl.lit(0.5)), title="![t](http://a.example/)"))
    for tag in ("<img", "<a ", "<script", "<em", "<strong", "<code", "<del", "<b>", "<i>"):
        assert tag not in page, tag
    got = [c for c in cells(page) if c not in ("m", "0.5")]
    assert got == PAYLOADS
    assert "<h1>![t](http://a.example/)</h1>" in html.unescape(page)


def test_numbers_and_plain_names_stay_readable() -> None:
    rep = pl.DataFrame({"model": ["deepseek-v2-lite-chat"], "metric": ["a_b"], "count": [3]})
    text = markdown(rep.with_columns(score=pl.lit(-0.25)))
    assert "| deepseek-v2-lite-chat | a_b | 3 | -0.25 |" in text


def test_the_cli_markdown_report_escapes_model_names(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    name = "![x](http://attacker.example/pixel.png)"
    src.write_text(f'{{"prediction": "a", "answer": "a", "model": "{name}"}}\n')
    out = tmp_path / "s.parquet"
    report = tmp_path / "r.md"
    args = ["score", str(src), "-o", str(out), "-e", "accuracy", "--by", "model"]
    assert main([*args, "--report", str(report), "-q"]) == 0
    page = rendered(report.read_text())
    assert "<img" not in page and name in cells(page)
    assert xf.report(out, by="model")["model"][0] == name
