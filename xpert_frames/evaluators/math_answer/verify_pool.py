"""Math-Verify (the optional ``symbolic`` extra) in a worker process with a per-pair deadline.

Math-Verify's own time limits use ``signal.alarm``, which works only in a process's main
thread: in a thread, a Ray actor or a Polars worker a pathological pair could hang the caller.
Here every pair is verified in a separate worker process: this file run as a script
(``python math_verify_pool.py --worker``), so the worker imports neither the caller's
``__main__`` nor Polars. The caller waits at most ``timeout`` seconds per pair; a worker that
does not answer in time is killed, the pair is marked as timed out and a fresh worker goes on
with the rest of the batch.

Pairs are sent in chunks (JSON lines); the worker answers pair by pair, so one slow pair costs
only its own deadline. The worker calls Math-Verify in its main thread, with Math-Verify's own
(signal) limits as a first guard.
"""

from __future__ import annotations

import atexit
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Sequence

#: Outcomes of one pair.
EQUAL, DIFFERENT, TIMEOUT, ERROR = "equal", "different", "timeout", "error"
_CHUNK = 64


def available() -> bool:
    """Whether Math-Verify is installed (``pip install xpert-frames[symbolic]``)."""
    from importlib.util import find_spec

    return find_spec("math_verify") is not None


def _verify_one(prediction: str, reference: str, timeout: int) -> str:
    from math_verify import parse, verify

    gold = parse(reference, parsing_timeout=timeout)
    target = parse(prediction, parsing_timeout=timeout)
    if not gold or not target:
        return DIFFERENT
    return EQUAL if verify(gold, target, timeout_seconds=timeout) else DIFFERENT


def _worker(timeout: int) -> None:  # pragma: no cover - runs in the child
    import math_verify  # noqa: F401  (imported once, before the first pair)

    print("ready", flush=True)
    for line in sys.stdin:
        prediction, reference = json.loads(line)
        try:
            outcome = _verify_one(prediction, reference, timeout)
        except Exception:  # any failure of the library on one pair
            outcome = ERROR
        print(outcome, flush=True)


class _Worker:
    """A worker process and a thread that queues its answers."""

    def __init__(self, inner: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-u", __file__, "--worker", str(inner)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        self.answers: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.answers.put(line.strip())
        self.answers.put(None)  # the worker ended

    def send(self, pairs: Sequence[tuple[str, str]]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(json.dumps(list(p)) + "\n" for p in pairs))
        self.proc.stdin.flush()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


class VerifyPool:
    """One worker process; :meth:`verify` is thread-safe (calls are serialized)."""

    def __init__(self, timeout: float = 5.0, start_timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.start_timeout = start_timeout
        self._lock = threading.Lock()
        self._worker: _Worker | None = None

    def _start(self) -> _Worker:
        worker = _Worker(max(1, int(self.timeout // 3)))  # two parses and a verify per pair
        try:
            ready = worker.answers.get(timeout=self.start_timeout)
        except queue.Empty:
            ready = None
        if ready != "ready":
            worker.kill()
            raise RuntimeError(
                f"expected a Math-Verify worker within {self.start_timeout} s, received "
                f"{ready!r}. Hint: check that `{sys.executable} -c 'import math_verify'` works."
            )
        self._worker = worker
        return worker

    def _kill(self) -> None:
        if self._worker is not None:
            self._worker.kill()
        self._worker = None

    def verify(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        """Outcome of each ``(prediction, reference)`` pair: equal, different, timeout or
        error."""
        out: list[str] = []
        with self._lock:
            while len(out) < len(pairs):
                worker = self._worker or self._start()
                chunk = pairs[len(out) : len(out) + _CHUNK]
                try:
                    worker.send(chunk)
                except OSError:  # the worker is gone: start another
                    self._kill()
                    continue
                for _ in chunk:
                    try:
                        answer = worker.answers.get(timeout=self.timeout)
                    except queue.Empty:
                        answer = TIMEOUT
                    out.append(answer or ERROR)
                    if answer in (None, TIMEOUT):
                        self._kill()  # the rest of the chunk goes to a fresh worker
                        break
        return out

    def close(self) -> None:
        with self._lock:
            self._kill()


_POOLS: dict[float, VerifyPool] = {}
_POOLS_LOCK = threading.Lock()


def pool(timeout: float) -> VerifyPool:
    """The process-wide pool for ``timeout`` (created on first use, closed at exit)."""
    with _POOLS_LOCK:
        if timeout not in _POOLS:
            _POOLS[timeout] = VerifyPool(timeout)
        return _POOLS[timeout]


@atexit.register
def _close_all() -> None:
    for p in _POOLS.values():
        p.close()


if __name__ == "__main__":  # pragma: no cover - the worker
    if sys.argv[1:2] == ["--worker"]:
        _worker(int(sys.argv[2]))
