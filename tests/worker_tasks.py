"""Tasks for the worker-pool tests (loaded by path in the workers; standard library only)."""

from __future__ import annotations

import os
import signal
import time


def work(task: tuple[str, float]) -> object:
    kind, value = task
    if kind == "echo":
        return value
    if kind == "sleep":  # interruptible: the worker's alarm reaches it
        time.sleep(value)
        return value
    if kind == "deaf":  # the alarm blocked: only the caller's deadline ends it
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            time.sleep(value)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        return value
    if kind == "die":
        os._exit(3)
    raise ValueError(f"no task {kind!r}")
