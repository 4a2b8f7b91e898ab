"""How quickly Polars' allocator hands freed memory back to the system, for batch jobs.

Polars' wheels allocate with jemalloc and set it, when ``polars`` is first imported, to purge
freed pages after half a second (``dirty_decay_ms:500,muzzy_decay_ms:1000``: a notebook keeps
little memory it no longer uses). Scoring allocates and frees the same few hundred megabytes
again and again (every string step of the number reader makes a new column), so with that
setting about a tenth of its CPU time goes to the kernel zeroing pages it has just given
back. :func:`prefer_throughput` asks for ten seconds instead (jemalloc's default for dirty
pages; muzzy pages likewise), so freed pages are reused by the next step; freed memory is held
up to ten seconds longer, so the resident size can stay higher. It can only take effect before
Polars is imported (jemalloc reads it once, at start): the console script calls it first
thing; in your own program, set the variable yourself before ``import polars``.
"""

from __future__ import annotations

import os
import sys

#: What :func:`prefer_throughput` sets (appended after Polars' own; later options win).
THROUGHPUT_CONF = "dirty_decay_ms:10000,muzzy_decay_ms:10000"
#: The environment variable Polars' jemalloc reads its options from.
ENV = "_RJEM_MALLOC_CONF"


def prefer_throughput() -> bool:
    """Set :data:`THROUGHPUT_CONF` for Polars' allocator, unless Polars is already imported
    (too late: nothing is changed) or ``_RJEM_MALLOC_CONF`` is already set (the user's choice
    stands). Returns whether it was set."""
    if "polars" in sys.modules or ENV in os.environ:
        return False
    os.environ[ENV] = THROUGHPUT_CONF
    return True
