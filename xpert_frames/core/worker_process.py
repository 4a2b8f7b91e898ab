"""The worker side of :mod:`xpert_frames.core.workers`: one task after another, each answered.

Run as a script by its path (``python -u worker_process.py HANDLER``), so a worker imports
neither the caller's ``__main__`` (as ``multiprocessing``'s spawn would) nor this package unless
its handler needs it. ``HANDLER`` is ``module:function`` (imported) or ``/path/file.py:function``
(loaded from its file alone, e.g. a module that must not import Polars). Only the standard
library is imported here.

The protocol, on the worker's stdin and stdout: length-prefixed pickles. The worker first
answers ``(READY, None)`` once its handler is loaded, then reads ``(alarm, payload)`` tasks and
answers each with ``(OK, function(payload))``, ``(ERROR, message)`` when the function raised, or
``(TIMEOUT, None)`` when ``alarm`` (seconds, or None) ran out first: a ``SIGALRM`` timer in the
worker's main thread, raising a ``BaseException`` that libraries' ``except Exception`` handlers
let through. The caller's own deadline, a little later, covers what the alarm cannot reach
(code holding the interpreter in C).
"""

from __future__ import annotations

import importlib
import importlib.util
import pickle
import signal
import sys
from collections.abc import Callable
from typing import IO, Any

#: Statuses of an answer.
READY, OK, ERROR, TIMEOUT = "ready", "ok", "error", "timeout"


def send(pipe: IO[bytes], obj: Any) -> None:
    """Write one length-prefixed pickle and flush."""
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(len(data).to_bytes(8, "little"))
    pipe.write(data)
    pipe.flush()


def receive(pipe: IO[bytes]) -> Any:
    """Read one length-prefixed pickle; EOFError when the pipe is closed."""
    head = pipe.read(8)
    if len(head) < 8:
        raise EOFError("worker pipe closed")
    size = int.from_bytes(head, "little")
    data = pipe.read(size)
    if len(data) < size:
        raise EOFError("worker pipe closed")
    return pickle.loads(data)


class _Alarm(BaseException):
    """Raised by the task's alarm (a BaseException: ``except Exception`` lets it through)."""


def _expire(signum: int, frame: object) -> None:  # pragma: no cover - runs in the worker
    raise _Alarm


def load(spec: str) -> Callable[[Any], Any]:
    """The function named by ``module:function`` or ``/path/file.py:function``."""
    where, _, name = spec.rpartition(":")
    if where.endswith(".py"):
        module_spec = importlib.util.spec_from_file_location("_xf_worker_handler", where)
        if module_spec is None or module_spec.loader is None:
            raise ImportError(f"cannot load a worker handler from {where}")
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    function: Callable[[Any], Any] = getattr(module, name)
    return function


def answer(function: Callable[[Any], Any], payload: Any, alarm: float | None) -> tuple[str, Any]:
    """``function(payload)`` as a ``(status, value)`` answer, under ``alarm`` seconds."""
    if alarm is not None:
        signal.signal(signal.SIGALRM, _expire)
        signal.setitimer(signal.ITIMER_REAL, alarm)
    try:
        return OK, function(payload)
    except _Alarm:
        return TIMEOUT, None
    except Exception as exc:  # any failure of the library on one task
        return ERROR, f"{type(exc).__name__}: {exc}"
    finally:
        if alarm is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)


def serve(spec: str) -> None:  # pragma: no cover - runs in the worker
    """The worker's loop: load the handler, say ready, answer tasks until stdin closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller stops its workers itself
    out, tasks = sys.stdout.buffer, sys.stdin.buffer
    sys.stdout = sys.stderr  # whatever the handler prints stays off the protocol's pipe
    function = load(spec)
    send(out, (READY, None))
    while True:
        try:
            alarm, payload = receive(tasks)
        except EOFError:
            return
        send(out, answer(function, payload, alarm))


if __name__ == "__main__":  # pragma: no cover - the worker
    # Run by path, the script's folder heads sys.path: its modules must not shadow others.
    if sys.path and sys.path[0] and __file__.startswith(sys.path[0]):
        sys.path.pop(0)
    serve(sys.argv[1])
