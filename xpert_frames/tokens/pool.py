"""jieba over large batches in worker processes (as many as the cores this process may use).

jieba is pure Python (~5-20k strings/s per core), so a large batch of strings that need jieba
(most Chinese goes to rjieba, see :mod:`xpert_frames.tokens.zh`) is split: worker processes
tokenize parts while this process tokenizes its own part. Large batches of rjieba's blocks are
split the same way (rjieba holds the GIL while it segments). A worker is a plain
``python -m xpert_frames.tokens._worker`` subprocess talking pickles over pipes (not
``multiprocessing``, whose spawn/forkserver start methods re-import the caller's ``__main__`` and
fail in scripts without an ``if __name__ == "__main__"`` guard). Workers are started on first
need and kept for the life of the process. Small batches stay in this process: below
:data:`MIN_PARALLEL` strings, starting workers and pickling cost more than they save.

The number of workers is the core budget (:func:`xpert_frames.core.budget.available_cores`:
the affinity mask, Polars' thread pool, a Ray task's or actor's CPU allotment) minus one (this
process), so that jieba never runs more processes than the cores the caller was given.

Workers run in their own process group (a Ctrl-C typed in a terminal reaches this process
only); a stop request (:mod:`xpert_frames.core.interrupt`) kills them at once, so a batch
waiting on them ends with an error that the CLI replaces by the signal's exit.
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

from xpert_frames.core import interrupt
from xpert_frames.core.budget import available_cores
from xpert_frames.tokens import zh

#: Strings from which worker processes are used for jieba ...
MIN_PARALLEL = 20_000
#: ... and blocks from which they are used for rjieba (~13x faster: pickling weighs more, and
#: with the streaming engine the other batch's Polars work already overlaps this one's rjieba;
#: on a loaded 2-core machine 20k showed no gain, so only very large batches are split).
MIN_PARALLEL_RJIEBA = 100_000
JIEBA = "jieba"
RJIEBA = "rjieba"
#: Upper bound on worker processes.
MAX_WORKERS = 8
#: Share of a batch per part, relative to this process's (which also builds the result).
WORKER_WEIGHT = 0.8
_workers: list[subprocess.Popen[bytes]] = []
_lock = threading.Lock()


def worker_count() -> int:
    """Worker processes to use next to this one."""
    return min(MAX_WORKERS, available_cores() - 1)


def _spawn() -> subprocess.Popen[bytes]:
    # The worker imports this very package, wherever it was imported from.
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "xpert_frames.tokens._worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        process_group=0,
    )


def _start(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` running workers (started or restarted as needed); the caller holds ``_lock``."""
    global _workers
    alive = [w for w in _workers if w.poll() is None]
    if not _workers:
        atexit.register(shutdown)
        interrupt.on_request("jieba-workers", _kill_now)
    while len(alive) < count:
        alive.append(_spawn())
    _workers = alive
    return alive[:count]


def _kill_now() -> None:
    """Kill the workers without waiting or locking (from a signal handler)."""
    for worker in list(_workers):
        worker.kill()


def shutdown() -> None:
    """Stop the worker processes (they are restarted on demand)."""
    global _workers
    for worker in _workers:
        if worker.stdin is not None:
            worker.stdin.close()
    for worker in _workers:
        worker.wait(timeout=10)
        if worker.stdout is not None:
            worker.stdout.close()
    _workers = []


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


def _bounds(size: int, workers: int) -> list[int]:
    """Cut points of ``size`` texts into ``workers`` parts of weight :data:`WORKER_WEIGHT`
    followed by this process's part of weight 1."""
    total = workers * WORKER_WEIGHT + 1
    return [round(size * WORKER_WEIGHT * k / total) for k in range(workers + 1)]


def _split(texts: Sequence[str], kind: str, count: int) -> list[list[str]]:
    """``kind`` segmentation of ``texts`` by ``count`` workers and this process, in order."""
    own_fn = zh.tokenize_many if kind == JIEBA else _rjieba_many
    texts = list(texts)
    with _lock:
        workers = _start(count)
        cuts = _bounds(len(texts), len(workers))
        # Write from threads: a pipe blocks until its worker reads.
        writers = [
            threading.Thread(target=send, args=(w.stdin, (kind, texts[cuts[k] : cuts[k + 1]])))
            for k, w in enumerate(workers)
        ]
        for writer in writers:
            writer.start()
        try:
            own = own_fn(texts[cuts[-1] :])
        finally:
            # Always drain every answer, so that the next batch does not read this one's.
            out: list[list[str]] = []
            for writer, worker in zip(writers, workers, strict=True):
                writer.join()
                out += receive(worker.stdout)
        return out + own


def _rjieba_many(texts: Sequence[str]) -> list[list[str]]:
    """rjieba's segmentation, or jieba's where rjieba is missing (equal on the blocks rjieba is
    given: only those proven identical)."""
    out = zh.rjieba_many(texts)
    return zh.tokenize_many(texts) if out is None else out


def tokenize_zh(texts: Sequence[str]) -> list[list[str]]:
    """``jieba.lcut`` of every text, in order; with at least :data:`MIN_PARALLEL` texts and
    more than one available core, worker processes take parts of them."""
    count = worker_count() if len(texts) >= MIN_PARALLEL else 0
    if count < 1:
        return zh.tokenize_many(texts)
    return _split(texts, JIEBA, count)


def rjieba_zh(texts: Sequence[str]) -> list[list[str]] | None:
    """rjieba's segmentation of every block (only blocks proven to agree with jieba), in order;
    None when rjieba is not installed. From :data:`MIN_PARALLEL_RJIEBA` blocks, worker
    processes take parts of them (rjieba holds the GIL: threads would not help)."""
    if zh.rjieba_many([]) is None:
        return None
    count = worker_count() if len(texts) >= MIN_PARALLEL_RJIEBA else 0
    if count < 1:
        return zh.rjieba_many(texts)
    return _split(texts, RJIEBA, count)


def serve(stdin: Any, stdout: Any) -> None:
    """The worker's loop: ``(kind, texts)`` requests (or plain lists: jieba) until EOF."""
    while True:
        try:
            request = receive(stdin)
        except EOFError:
            return
        kind, texts = request if isinstance(request, tuple) else (JIEBA, request)
        send(stdout, _rjieba_many(texts) if kind == RJIEBA else zh.tokenize_many(texts))
