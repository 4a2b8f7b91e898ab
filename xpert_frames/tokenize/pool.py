"""jieba over large batches in two processes (the calling one and one worker).

jieba is pure Python (~15-20k strings/s per core), so a large batch of unique Chinese strings is
split: one worker process (spawned once, kept for the life of the process) tokenizes one part
while this process tokenizes the other. Small batches stay in this process: starting the worker
and pickling strings costs more than it saves below :data:`MIN_PARALLEL`.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from xpert_frames.tokenize import zh

#: Unique strings from which the second process is used.
MIN_PARALLEL = 20_000
_executor: ProcessPoolExecutor | None = None


def _worker_init() -> None:
    zh.tokenize("")


def _executor_or_none() -> ProcessPoolExecutor | None:
    global _executor
    if (os.cpu_count() or 1) < 2:
        return None
    if _executor is None:
        ctx = multiprocessing.get_context("spawn")
        _executor = ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_worker_init)
        atexit.register(shutdown)
    return _executor


def shutdown() -> None:
    """Stop the worker process (it is restarted on demand)."""
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=True, cancel_futures=True)
        _executor = None


def tokenize_zh(texts: Sequence[str]) -> list[list[str]]:
    """``jieba.lcut`` of every text, in order."""
    executor = _executor_or_none() if len(texts) >= MIN_PARALLEL else None
    if executor is None:
        return zh.tokenize_many(texts)
    # The worker takes a bit less than half: this process also builds the result.
    cut = len(texts) * 9 // 20
    future: Future[list[list[str]]] = executor.submit(zh.tokenize_many, list(texts[:cut]))
    rest = zh.tokenize_many(texts[cut:])
    return future.result() + rest
