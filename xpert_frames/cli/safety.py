"""What the CLI does so that nothing the user owns is lost: output paths checked before any work,
and every signal that ends a run turned into an exception (so the temporary file is removed).

A signal asks every piece of work to stop (:mod:`xpert_frames.core.interrupt`: the symbolic
pool's workers are killed at once, scoring stops between pieces of rows). The exception is
raised at once when the main thread is in our own code, and never inside Polars (a Python
exception raised while Polars calls back into Python can end in a Rust panic): there the
request is kept and raised when the call returns to our code.

Exit codes: 2 for a refused path, 130 after Ctrl-C (SIGINT), ``128 + signal`` after SIGTERM or
SIGHUP.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import TypeVar

from xpert_frames.core import interrupt
from xpert_frames.core.exceptions import XpertFramesError
from xpert_frames.core.interrupt import Terminated as Terminated

T = TypeVar("T")

#: Output files the CLI writes, by extension.
OUTPUT_SUFFIXES = (".parquet", ".pq")
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class OutputPathError(XpertFramesError, ValueError):
    """An output path that would overwrite an input or another output, or a format the CLI
    cannot write under that name."""


class ReportFailedError(XpertFramesError, RuntimeError):
    """The scores were written, but the report on them failed."""


def _same(a: Path, b: Path) -> bool:
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)  # hard links, bind mounts
    except OSError:
        return False


def check_outputs(inputs: Sequence[Path], output: Path, report: Path | None = None) -> None:
    """Refuse, before anything is read or written, an output or report path that is an input
    or each other, and an output name whose extension is not Parquet's."""
    if output.suffix.lower() not in OUTPUT_SUFFIXES:
        raise OutputPathError(
            f"output {str(output)!r}: the scored file is written as Parquet, so its name must end "
            f"in {' or '.join(OUTPUT_SUFFIXES)} (got {output.suffix or 'no extension'!r}); "
            "convert it afterwards if you need another format"
        )
    named = [("output (-o)", output)] + ([("report (--report)", report)] if report else [])
    for role, path in named:
        for source in inputs:
            if _same(path, source):
                raise OutputPathError(
                    f"{role} {str(path)!r} is the input file {str(source)!r}: writing it would "
                    "destroy the input; choose another path"
                )
    if report is not None and _same(report, output):
        raise OutputPathError(
            f"report (--report) {str(report)!r} and output (-o) {str(output)!r} are the same "
            "file; one would overwrite the other"
        )


def received() -> int | None:
    """The signal that ended the run, if one did (a handler raising inside a library call may
    reach the caller wrapped in the library's own error)."""
    return interrupt.pending()


def _inside_polars(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside a Polars call (its own Python code, or ours called back
    from it): an exception raised there could reach Polars' Rust code."""
    import polars

    root = os.path.dirname(polars.__file__)
    while frame is not None:
        if frame.f_code.co_filename.startswith(root):
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def signals_as_exceptions() -> Iterator[None]:
    """Within the block, SIGINT raises ``KeyboardInterrupt`` and SIGTERM and SIGHUP raise
    :class:`Terminated`, so cleanup code (``finally``, ``except BaseException``) runs; first
    each signal asks running work to stop (:func:`xpert_frames.core.interrupt.request`). Inside
    a Polars call nothing is raised: :func:`xpert_frames.core.interrupt.raise_pending` raises
    it once back in our code. Outside the main thread, nothing is installed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        interrupt.request(signum)
        if not _inside_polars(frame):
            interrupt.raise_pending()

    interrupt.clear()
    watched = (*_SIGNALS, signal.SIGINT)
    previous = {s: signal.signal(s, handler) for s in watched}
    try:
        yield
        interrupt.raise_pending()  # a request kept while Polars ran
    finally:
        for s, old in previous.items():
            signal.signal(s, old)


#: Seconds the main thread waits, after a signal, for the work thread to stop between pieces.
STOP_GRACE = 10.0


def run_stoppable(work: Callable[[], T], grace: float = STOP_GRACE) -> T:
    """Run ``work`` on a thread while the main thread waits in our own code, where a signal's
    exception can be raised at once (never inside Polars). After a signal the work stops at its
    next check (:mod:`xpert_frames.core.interrupt`), and the signal's exception is raised here
    once it did (or after ``grace`` seconds: then a temporary file it may leave is removed
    by the next run). Returns what ``work`` returns."""
    failure: list[BaseException] = []
    result: list[T] = []
    done = threading.Event()  # not Thread.join: a join cut short by a signal can wrongly
    # report the thread as ended (CPython 3.11)

    def target() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=target, name="xpert-frames-work", daemon=True)
    thread.start()
    try:
        while not done.wait(0.1):
            interrupt.raise_pending()
    except BaseException:  # a signal's: the work stops at its next check
        done.wait(grace)
        raise
    if failure:
        raise failure[0]
    interrupt.raise_pending()
    return result[0]


def stopped(signum: int) -> int:
    """Say which signal stopped the run; its exit code (130 for SIGINT, else 128 + signal)."""
    import sys

    print(f"stopped by {signal.Signals(signum).name}", file=sys.stderr)
    return 130 if signum == signal.SIGINT else 128 + signum
