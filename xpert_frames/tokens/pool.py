"""jieba over large batches in two processes (the calling one and one worker).

jieba is pure Python (~15-20k strings/s per core), so a large batch of unique Chinese strings is
split: one worker process tokenizes one part while this process tokenizes the other. The worker
is a plain ``python -m xpert_frames.tokens._worker`` subprocess talking pickles over pipes
(not ``multiprocessing``, whose spawn/forkserver start methods re-import the caller's
``__main__`` and fail in scripts without an ``if __name__ == "__main__"`` guard). It is started
once and kept for the life of the process. Small batches stay in this process: below
:data:`MIN_PARALLEL` unique strings, starting the worker and pickling cost more than they save.
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xpert_frames.tokens import zh

#: Unique strings from which the second process is used.
MIN_PARALLEL = 20_000
_worker: subprocess.Popen[bytes] | None = None
_lock = threading.Lock()


def _start() -> subprocess.Popen[bytes] | None:
    global _worker
    if (os.cpu_count() or 1) < 2:
        return None
    if _worker is None or _worker.poll() is not None:
        # The worker imports this very package, wherever it was imported from.
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        _worker = subprocess.Popen(
            [sys.executable, "-m", "xpert_frames.tokens._worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        atexit.register(shutdown)
    return _worker


def prestart() -> None:
    """Start the worker now (its start-up then overlaps other work)."""
    with _lock:
        _start()


def shutdown() -> None:
    """Stop the worker process (it is restarted on demand)."""
    global _worker
    if _worker is not None:
        if _worker.stdin is not None:
            _worker.stdin.close()
        _worker.wait(timeout=10)
        if _worker.stdout is not None:
            _worker.stdout.close()
        _worker = None


def send(pipe: Any, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(len(data).to_bytes(8, "little"))
    pipe.write(data)
    pipe.flush()


def receive(pipe: Any) -> Any:
    head = pipe.read(8)
    if len(head) < 8:
        raise EOFError("tokenizer worker closed its pipe")
    return pickle.loads(pipe.read(int.from_bytes(head, "little")))


class Pending:
    """Chinese tokenization under way: the worker's share is sent at once, this process's share
    is tokenized by :meth:`finish`, so the caller can do other work in between (the worker
    stays busy meanwhile). Always call :meth:`finish` (or :meth:`close` on error)."""

    def __init__(self, texts: Sequence[str], share: float) -> None:
        self._texts = list(texts)
        self._worker: subprocess.Popen[bytes] | None = None
        self._writer: threading.Thread | None = None
        self._cut = 0
        if len(self._texts) >= MIN_PARALLEL:
            _lock.acquire()
            self._worker = _start()
            if self._worker is None:
                _lock.release()
                return
            self._cut = int(len(self._texts) * share)
            # Write from a thread: the pipe blocks until the worker reads.
            self._writer = threading.Thread(
                target=send, args=(self._worker.stdin, self._texts[: self._cut])
            )
            self._writer.start()

    def finish(self) -> list[list[str]]:
        """``jieba.lcut`` of every text, in order."""
        if self._worker is None:
            return zh.tokenize_many(self._texts)
        try:
            rest = zh.tokenize_many(self._texts[self._cut :])
            return self._collect() + rest
        finally:
            self._release()

    def close(self) -> None:
        """Abandon: drain the worker's answer so the next batch does not read it."""
        if self._worker is not None:
            try:
                self._collect()
            finally:
                self._release()

    def _collect(self) -> list[list[str]]:
        assert self._worker is not None and self._writer is not None  # internal invariant
        self._writer.join()
        return receive(self._worker.stdout)

    def _release(self) -> None:
        self._worker = None
        _lock.release()


def tokenize_zh(texts: Sequence[str], *, share: float = 0.45) -> list[list[str]]:
    """``jieba.lcut`` of every text, in order; with enough texts the worker takes ``share``
    of them (a bit less than half: this process also builds the result)."""
    return Pending(texts, share).finish()
