"""Write docs/img/html_report.png, the picture of the HTML report on the Reports page:
the bundled sample scored with its scoring plan (every evaluator on its rows), reported by
model, shown by headless Chromium 1,280 pixels wide (Debian's ``chromium`` package).

    python scripts/make_report_picture.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import xpert_frames as xf

ROOT = Path(__file__).resolve().parents[1]
PICTURE = ROOT / "docs" / "img" / "html_report.png"


def main() -> int:
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser"))), None)
    if browser is None:
        print("headless Chromium is needed: apt-get install chromium", file=sys.stderr)
        return 1
    plan = xf.load_sample_plan()
    scored = xf.score(xf.load_sample(), plan)
    with tempfile.TemporaryDirectory(prefix="xf-picture-") as tmp:
        page = Path(tmp) / "report.html"
        page.write_text(
            xf.html_report(scored, by="model", evaluators=plan.evaluators), encoding="utf-8"
        )
        PICTURE.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={Path(tmp) / 'profile'}",
                "--window-size=1280,1500",
                f"--screenshot={PICTURE}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )
    print(f"wrote {PICTURE.relative_to(ROOT)} ({PICTURE.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
