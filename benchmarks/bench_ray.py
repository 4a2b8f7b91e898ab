"""Ray Data in local mode vs in-process scoring and reports, on the same data (fuzzy).

Ray is started once (not timed) with every core of this machine; the timed Ray runs include
actor start-up, moving blocks through the object store and collecting the results on the
driver, which is what a user pays on one machine.
"""

from __future__ import annotations

import math
import os

import pyarrow as pa

import xpert_frames as xf
from benchmarks.common import Row, peak_rss_mb, size, timed
from benchmarks.data import answers

BENCH = "ray"
BENCH_REPORT = "ray report"


def run(quick: bool) -> list[Row]:
    try:
        import ray
        import ray.data

        from xpert_frames import ray_data as xray
    except ImportError:
        return [Row(BENCH, "skipped: pip install 'xpert-frames[ray]'", 0, 0.0)]
    n = size(quick, 20_000, 1_000_000)
    table = answers(n).to_arrow()
    cores = os.cpu_count() or 1
    ev = xf.get_evaluator("fuzzy")
    rows: list[Row] = []

    t, local = timed(lambda: xf.score(table, ev), repeat=2)
    rows.append(Row(BENCH, "in-process xf.score (Arrow)", n, t, "baseline"))

    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        step = math.ceil(n / (4 * cores))
        blocks = [table.slice(i, step) for i in range(0, n, step)]

        def score_on_ray() -> pa.Table:
            ds = xray.score_dataset(ray.data.from_arrow(blocks), ev, actors=cores)
            return pa.concat_tables(ray.get(ds.to_arrow_refs()))

        t, remote = timed(score_on_ray, repeat=2)
        same = remote.sort_by("id").column("fuzzy_score").equals(local.column("fuzzy_score"))
        rows.append(
            Row(
                BENCH,
                f"Ray Data local, {cores} actors",
                n,
                t,
                f"scores identical: {same}; driver peak RSS {peak_rss_mb():,.0f} MiB",
            )
        )

        # The fixed cost: starting the actor pool and moving a few blocks, on 1% of the rows.
        small = [b.slice(0, max(1, b.num_rows // 100)) for b in blocks]
        t, _ = timed(
            lambda: ray.get(
                xray.score_dataset(ray.data.from_arrow(small), ev, actors=cores).to_arrow_refs()
            ),
            repeat=2,
        )
        rows.append(
            Row(
                BENCH,
                f"Ray Data local, {cores} actors, 1% of rows",
                sum(len(b) for b in small),
                t,
                "fixed cost: actor start-up and scheduling",
            )
        )

        t, want = timed(lambda: xf.report(local, by="model"), repeat=2)
        rows.append(Row(BENCH_REPORT, "in-process xf.report by model", n, t, "baseline"))
        scored_blocks = [local.slice(i, step) for i in range(0, n, step)]
        t, got = timed(
            lambda: xray.report_dataset(ray.data.from_arrow(scored_blocks), by="model"), repeat=2
        )
        same_counts = got["count"].to_list() == want["count"].to_list()
        rows.append(
            Row(BENCH_REPORT, "Ray report_dataset by model", n, t, f"counts equal: {same_counts}")
        )
    finally:
        if started:
            ray.shutdown()
    return rows
