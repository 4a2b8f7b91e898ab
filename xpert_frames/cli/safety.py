"""What the CLI does so that nothing the user owns is lost: output paths checked before any work,
and every signal that ends a run turned into an exception (so the temporary file is removed).

Exit codes: 2 for a refused path, 130 after Ctrl-C (SIGINT), ``128 + signal`` after SIGTERM or
SIGHUP.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType

from xpert_frames.core.exceptions import XpertFramesError

#: Output files the CLI writes, by extension.
OUTPUT_SUFFIXES = (".parquet", ".pq")
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class OutputPathError(XpertFramesError, ValueError):
    """An output path that would overwrite an input or another output, or a format the CLI
    cannot write under that name."""


class ReportFailedError(XpertFramesError, RuntimeError):
    """The scores were written, but the report on them failed."""


class Terminated(BaseException):
    """The process received SIGTERM or SIGHUP."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(self.name)


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
    return _received[0] if _received else None


_received: list[int] = []


@contextlib.contextmanager
def signals_as_exceptions() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` (SIGINT raises
    ``KeyboardInterrupt`` as usual), so cleanup code (``finally``, ``except BaseException``)
    runs. Outside the main thread, nothing is installed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        _received.append(signum)
        raise Terminated(signum)

    def interrupt(signum: int, frame: FrameType | None) -> None:
        _received.append(signum)
        raise KeyboardInterrupt

    previous = {s: signal.signal(s, handler) for s in _SIGNALS}
    previous[signal.SIGINT] = signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old)


def stopped(signum: int) -> int:
    """Say which signal stopped the run; its exit code (130 for SIGINT, else 128 + signal)."""
    import sys

    print(f"stopped by {signal.Signals(signum).name}", file=sys.stderr)
    return 130 if signum == signal.SIGINT else 128 + signum
