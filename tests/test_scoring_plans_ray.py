"""A scoring plan reads alike through Ray Data: the same frame and the same recorded plan as the
in-process CLI (local mode, ``ray.init(num_cpus=2)``)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import xpert_frames as xf
from xpert_frames.cli.main import main as cli_main

ray = pytest.importorskip("ray")
pytest.importorskip("aiohttp")
pytestmark = [pytest.mark.ray, pytest.mark.slow]


from tests.test_ray import ray_local  # noqa: E402  (module-scoped, autouse: Ray in local mode)

__all__ = ["ray_local"]


def test_plan_through_ray_equals_in_process(tmp_path: Path) -> None:
    from xpert_frames import ray_data
    from xpert_frames.cli import ray_engine

    plan = xf.load_sample_plan()
    sample = xf.load_sample()
    inputs = []
    for i in range(0, sample.height, 130):  # 3 files, in order
        path = tmp_path / f"part-{i:03d}.parquet"
        sample.slice(i, 130).write_parquet(path)
        inputs.append(str(path))
    local = tmp_path / "local.parquet"
    args = ["score", *inputs, "-o", str(local), "--plan", str(xf.api.SAMPLE_PLAN), "-q"]
    assert cli_main(args) == 0
    out = tmp_path / "ray.parquet"
    ray_engine.score_files(inputs, out, plan, None, address=None, row_id="row_id", quiet=True)
    assert_frame_equal(pl.read_parquet(out), pl.read_parquet(local))
    assert xf.Plan.from_scored(out) == plan == xf.Plan.from_scored(local)
    ds = ray_data.score_dataset(ray.data.from_arrow(sample.to_arrow()), plan, actors=1)
    got = pl.concat([pl.from_arrow(t) for t in ray.get(ds.to_arrow_refs())])  # type: ignore[misc]
    assert_frame_equal(got, xf.score(sample, plan))
    assert_frame_equal(
        ray_data.report_dataset(ds, "model"),
        xf.report(xf.score(sample, plan), "model", evaluators=plan.evaluators),
        check_exact=False,
        rel_tol=1e-12,
    )
