"""Ctrl-C and SIGTERM stop a CLI run within seconds wherever the work is (slow symbolic maths
included), with exit code 130/143, no temporary file and no worker process left; a signal that
lands inside a Polars callback is raised after it; temporary files of a killed run are removed
by the next run on the same output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from tests.test_cli import EXE, run
from xpert_frames.cli import safety
from xpert_frames.core import atomic, interrupt
from xpert_frames.evaluators.math_answer import verify_pool

needs_math_verify = pytest.mark.skipif(
    not verify_pool.available(), reason="needs the symbolic extra (Math-Verify)"
)


def _tower(base: int, top: int) -> str:
    return f"${base}^{{{base}^{{{base}^{{{base}^{{{base}^{{{top}}}}}}}}}}}$"


def _slow_math(path: Path, pairs: int = 40) -> None:
    """Distinct pathological towers of powers: each one costs Math-Verify its whole deadline."""
    rows = [{"prediction": _tower(2, 10 + k), "answer": _tower(3, 10 + k)} for k in range(pairs)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _workers_of(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (the symbolic pool's workers)."""
    out = subprocess.run(["ps", "-eo", "pid=,ppid="], capture_output=True, text=True).stdout
    return [int(a) for a, b in (line.split() for line in out.splitlines()) if int(b) == pid]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for our purpose
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


def _start_slow_run(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], list[int]]:
    src = tmp_path / "slow.jsonl"
    _slow_math(src)
    out = tmp_path / "out.parquet"
    proc = subprocess.Popen(
        [*EXE, "score", str(src), "-o", str(out), "-e", "math", "-q", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 180
    workers: list[int] = []
    while time.monotonic() < deadline:  # until the symbolic pool's workers are at work
        assert proc.poll() is None, proc.communicate()
        workers = _workers_of(proc.pid)
        if workers and list(tmp_path.glob(".out.parquet.xf-*.tmp")):
            break
        time.sleep(0.1)
    assert workers, "the symbolic pool never started"
    time.sleep(3.0)  # well inside the slow pairs (each takes its whole 5 s deadline)
    return proc, workers


@pytest.mark.slow
@needs_math_verify
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_stops_slow_symbolic_maths_at_once(
    tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    proc, workers = _start_slow_run(tmp_path)
    sent = time.monotonic()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    latency = time.monotonic() - sent
    assert proc.returncode == code, err
    assert latency < 10, f"took {latency:.1f} s to stop"  # generous: the machine may be loaded
    assert "panic" not in err and "Traceback" not in err, err
    assert not list(tmp_path.glob(".out.parquet*")) and not (tmp_path / "out.parquet").exists()
    time.sleep(0.5)
    assert not [w for w in workers if _alive(w)], "a symbolic worker outlived the run"


@pytest.mark.slow
@needs_math_verify
def test_temp_file_of_a_killed_run_is_removed_by_the_next(tmp_path: Path) -> None:
    proc, _ = _start_slow_run(tmp_path)
    proc.kill()
    proc.communicate(timeout=60)
    left = list(tmp_path.glob(".out.parquet.xf-*.tmp"))
    assert left, "SIGKILL left no temporary file to clean up"
    src = tmp_path / "in.jsonl"
    src.write_text('{"prediction": "4", "answer": "4"}\n')
    assert run("score", str(src), "-o", str(tmp_path / "out.parquet"), "-e", "math", "-q")
    assert not list(tmp_path.glob(".out.parquet.xf-*.tmp"))
    assert pl.read_parquet(tmp_path / "out.parquet")["math_score"].to_list() == [1.0]


@pytest.mark.slow
def test_stale_temp_files_go_and_live_ones_stay(tmp_path: Path) -> None:
    target = tmp_path / "out.parquet"
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = tmp_path / f".out.parquet.xf-{gone.pid}-abc.tmp"
    stale_input = tmp_path / f".out.parquet.xf-{gone.pid}-def.input.tmp"
    live = tmp_path / f".out.parquet.xf-{os.getppid()}-ghi.tmp"  # a running process
    other = tmp_path / f".other.parquet.xf-{gone.pid}-jkl.tmp"  # another target's
    for path in (stale, stale_input, live, other):
        path.write_bytes(b"partial")
    with atomic.temporary_beside(target) as mine:  # held by this process: never stale
        assert sorted(atomic.remove_stale(target)) == sorted([stale, stale_input])
        assert mine.exists()
    assert live.exists() and other.exists() and not stale.exists()
    atomic.write_text_atomic(target, "done")
    assert target.read_text() == "done" and not mine.exists()


def test_signal_inside_a_polars_callback_is_raised_after_it() -> None:
    calls: list[int] = []

    def callback(batch: pl.Series) -> pl.Series:
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs here, inside Polars
        for _ in range(100):  # give the handler every chance to run inside the callback
            time.sleep(0.001)
        calls.append(len(batch))
        return batch * 2

    frame = pl.DataFrame({"a": [1, 2, 3]})
    with pytest.raises(interrupt.Terminated), safety.signals_as_exceptions():
        for engine in ("in-memory", "streaming"):
            lf = frame.lazy().select(pl.col("a").map_batches(callback))
            out = lf.collect(engine=engine)  # type: ignore[call-overload]
            assert out["a"].to_list() == [2, 4, 6]  # the callback finished undisturbed
    assert calls  # the callback ran to its end: nothing was raised inside it
    assert interrupt.pending() == signal.SIGTERM
    interrupt.clear()


@pytest.mark.slow
def test_report_command_stops_at_once_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`xpert-frames report` runs its work beside the main thread: a signal while the report is
    being made stops the command (exit 143) without waiting for it, and no report file appears."""
    import threading

    from xpert_frames.cli import main as cli
    from xpert_frames.cli import report_command

    scored = tmp_path / "scored.parquet"
    _score_sample(tmp_path, scored)
    started = threading.Event()

    def slow_report(*args: object, **kwargs: object) -> pl.DataFrame:
        started.set()
        for _ in range(600):  # far longer than the test waits: it must not be waited for
            if interrupt.pending() is not None:
                break
            time.sleep(0.05)
        raise AssertionError("unreachable: the command has already stopped")

    monkeypatch.setattr(report_command, "report_parquet", slow_report)
    sender = threading.Timer(0.0, lambda: started.wait(30) and os.kill(os.getpid(), signal.SIGTERM))
    sender.start()
    try:
        code = cli.main(["report", str(scored), "-o", str(tmp_path / "report.md")])
    finally:
        sender.join()
        interrupt.clear()
    assert code == 128 + signal.SIGTERM
    assert not (tmp_path / "report.md").exists()
    assert started.is_set()


@pytest.mark.slow
def test_report_in_slices_sees_a_stop_request_between_slices(tmp_path: Path) -> None:
    from xpert_frames import get_evaluator
    from xpert_frames.reporting.report import report_parquet

    scored = tmp_path / "scored.parquet"
    _score_sample(tmp_path, scored)
    evaluators = [get_evaluator("fuzzy")]
    whole = report_parquet(scored, [], evaluators, chunk_rows=1)
    assert whole.height > 0
    interrupt.request(signal.SIGINT)
    try:
        with pytest.raises(KeyboardInterrupt):
            report_parquet(scored, [], evaluators, chunk_rows=1)
    finally:
        interrupt.clear()


def _score_sample(tmp_path: Path, scored: Path) -> None:
    src = tmp_path / "in.jsonl"
    rows = [{"prediction": f"answer {k}", "answer": f"answer {k % 3}"} for k in range(5)]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert run("score", str(src), "-o", str(scored), "-e", "fuzzy", "-q").returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)]
)
def test_signals_remove_the_temp_file(tmp_path: Path, sig: signal.Signals, code: int) -> None:
    src = tmp_path / "in.parquet"
    n = 400_000
    pl.DataFrame(
        {"prediction": [f"answer number {i}" for i in range(n)], "answer": ["answer"] * n}
    ).write_parquet(src, row_group_size=5_000)
    out = tmp_path / "out.parquet"
    proc = subprocess.Popen(
        [*EXE, "score", str(src), "-o", str(out), "-e", "fuzzy", "--chunk-rows", "5000", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".out.parquet.*")) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    assert list(tmp_path.glob(".out.parquet.*")), "the run never started writing"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert not list(tmp_path.glob(".out.parquet.*")) and not out.exists()
