"""The HTML report in a real browser: headless Chromium loads it offline with no console
errors, and a screenshot shows the charts.

Chromium comes from the distribution's packages (``.ci/run`` installs it with apt-get); without it
these tests skip and say so. Console messages are read from Chromium's own log
(``--enable-logging=stderr``: one ``INFO:CONSOLE`` line per message, errors and CSP violations
included); a control page proves that the log is read.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

import xpert_frames as xf
from xpert_frames.api import html_report
from xpert_frames.reporting.svg import COLORS

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="headless Chromium is not installed (apt-get install chromium; .ci/run installs it)",
    ),
]


def chromium(page: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    command = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *args,
        page.as_uri(),
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=180)


def console(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]


def test_console_errors_are_seen(tmp_path: Path) -> None:
    bad = tmp_path / "bad.html"
    bad.write_text(
        "<!DOCTYPE html><html><head><meta http-equiv='Content-Security-Policy' "
        "content=\"default-src 'none'\"></head><body><script>console.error('boom')</script>"
        "<img src='https://example.invalid/x.png'></body></html>"
    )
    lines = console(chromium(bad, tmp_path, "--dump-dom"))
    assert lines, "the control page's console messages were not captured"


def pixels_of(png: bytes, color: tuple[int, int, int], stop: int) -> int:
    """Count pixels of exactly ``color`` in an 8-bit RGB/RGBA PNG (stops at ``stop``)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, data = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        header = data if kind == b"IHDR" else header
        idat += data if kind == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, ctype = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and ctype in (2, 6)
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    prev, found, target = bytearray(stride), 0, bytes(color)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):  # PNG's per-row filters
            a = row[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        found += sum(row[i : i + 3] == target for i in range(0, stride, bpp))
        if found >= stop:
            return found
        prev = row
    return found


def test_report_opens_offline_without_errors_and_shows_charts(tmp_path: Path) -> None:
    scored = xf.score(xf.load_sample(), ["accuracy", "math", "fuzzy"])
    page = tmp_path / "report.html"
    page.write_text(html_report(scored, by="model"), encoding="utf-8")
    dom = chromium(page, tmp_path, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert console(dom) == []
    assert dom.stdout.count("<svg") >= 10 and dom.stdout.count("<circle") >= 7 * 3
    shot = tmp_path / "report.png"
    proc = chromium(page, tmp_path, "--window-size=900,700", f"--screenshot={shot}")
    assert proc.returncode == 0 and shot.exists(), proc.stderr[-2000:]
    assert console(proc) == []
    color = tuple(int(COLORS[0][i : i + 2], 16) for i in (1, 3, 5))
    # the first chart (accuracy by model, dots and interval lines) is in the first screenful
    assert pixels_of(shot.read_bytes(), color, stop=200) >= 200  # type: ignore[arg-type]


#: Appended to a copy of the report (without its no-script policy): every folded section opened,
#: then each box that scrolls sideways (the page itself, or an element that clips or scrolls
#: its overflow) written into the body's ``data-overflow`` attribute.
PROBE = """<script>
document.querySelectorAll("details").forEach((d) => { d.open = true; });
const boxes = [document.documentElement, ...document.body.querySelectorAll("*")];
const over = boxes.filter((e) =>
  (e === document.documentElement || getComputedStyle(e).overflowX !== "visible")
  && e.scrollWidth > e.clientWidth + 1);
const seen = over.map((e) => `${e.tagName}.${e.className}:${e.scrollWidth}>${e.clientWidth}`);
document.body.dataset.overflow = seen.join(" ") || "none";
</script>"""


def overflow(page: str, width: int, tmp_path: Path) -> str:
    probe = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
    path = tmp_path / f"probe_{width}.html"
    path.write_text(probe.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = chromium(path, tmp_path, f"--window-size={width},900", "--dump-dom")
    found = re.search(r'data-overflow="([^"]*)"', dom.stdout)
    assert found is not None, dom.stderr[-2000:]
    return found.group(1)


def test_report_fits_1280_pixels_without_sideways_scrolling(tmp_path: Path) -> None:
    evaluators = ["accuracy", "math", "bleu", "tcm_diagnosis", "fuzzy"]
    page = html_report(xf.score(xf.load_sample(), evaluators), by="model")
    assert overflow(page, 1280, tmp_path) == "none"
    # The probe sees sideways scrolling where there is some: a window narrower than a table.
    assert "DIV.wide" in overflow(page, 560, tmp_path)
