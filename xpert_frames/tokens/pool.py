"""jieba over large batches in worker processes (as many as the cores this process may use).

jieba is pure Python (~5-20k strings/s per core), so a large batch of strings that need jieba
(most Chinese goes to rjieba, see :mod:`xpert_frames.tokens.zh`) is split: worker processes
tokenize parts while this process tokenizes its own part. Large batches of rjieba's blocks are
split the same way (rjieba holds the GIL while it segments). The workers are those of
:mod:`xpert_frames.core.workers` (plain subprocesses with the handler :func:`segment`; started
on first need and kept for the life of the process; killed at once by a stop request, so a batch
waiting on them ends with an error that the CLI replaces by the signal's exit). Small batches
stay in this process: below :data:`MIN_PARALLEL` strings, starting workers and pickling cost
more than they save.

The number of workers is the core budget (:func:`xpert_frames.core.budget.available_cores`:
the affinity mask, Polars' thread pool, a Ray task's or actor's CPU allotment) minus one (this
process), so that jieba never runs more processes than the cores the caller was given.
"""

from __future__ import annotations

from collections.abc import Sequence

from xpert_frames.core.budget import available_cores
from xpert_frames.core.workers import Miss, WorkerPool
from xpert_frames.tokens import zh

__all__ = ["available_cores", "rjieba_zh", "segment", "shutdown", "tokenize_zh", "worker_count"]

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
#: The worker processes (none run until a batch needs them).
POOL: WorkerPool[list[list[str]]] = WorkerPool(
    "xpert_frames.tokens.pool:segment", size=MAX_WORKERS, name="tokenizer"
)


def worker_count() -> int:
    """Worker processes to use next to this one."""
    return min(MAX_WORKERS, available_cores() - 1)


def shutdown() -> None:
    """Stop the worker processes (they are restarted on demand)."""
    POOL.close()


def segment(request: tuple[str, list[str]]) -> list[list[str]]:
    """The workers' handler: ``(kind, texts)`` segmented by jieba or rjieba."""
    kind, texts = request
    return _rjieba_many(texts) if kind == RJIEBA else zh.tokenize_many(texts)


def _bounds(size: int, workers: int) -> list[int]:
    """Cut points of ``size`` texts into ``workers`` parts of weight :data:`WORKER_WEIGHT`
    followed by this process's part of weight 1."""
    total = workers * WORKER_WEIGHT + 1
    return [round(size * WORKER_WEIGHT * k / total) for k in range(workers + 1)]


def _split(texts: Sequence[str], kind: str, count: int) -> list[list[str]]:
    """``kind`` segmentation of ``texts`` by ``count`` workers and this process, in order."""
    own_fn = zh.tokenize_many if kind == JIEBA else _rjieba_many
    texts = list(texts)
    cuts = _bounds(len(texts), count)
    parts = [(kind, texts[cuts[k] : cuts[k + 1]]) for k in range(count)]
    answers, own = POOL.run(parts, workers=count, alongside=lambda: own_fn(texts[cuts[-1] :]))
    out: list[list[str]] = []
    for answer in answers:
        if isinstance(answer, Miss):
            raise RuntimeError(
                f"expected the tokenizer workers' segmentation, received none ({answer.value}); "
                "Hint: a stop request (Ctrl-C, SIGTERM) or a worker that died ends the batch"
            )
        out += answer
    assert own is not None
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
