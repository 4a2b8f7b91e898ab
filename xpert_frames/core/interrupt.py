"""A request to stop (Ctrl-C, SIGTERM), seen wherever the work is.

The CLI's signal handlers call :func:`request`; they raise only where the main thread is in our
own code, never inside a Polars callback (an exception there can end in a Rust panic). Long work
looks at :func:`pending` between pieces (the scoring of a chunk, between pieces of rows; the
symbolic pool, while it waits for an answer) and stops early; the caller then calls
:func:`raise_pending` back in its own frame. Hooks registered with :func:`on_request` (killing
worker processes) run at once, from the handler. Outside the CLI nothing is ever requested.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable

__all__ = ["Terminated", "clear", "on_request", "pending", "raise_pending", "request"]

_pending: list[int] = []
_hooks: dict[str, Callable[[], None]] = {}


class Terminated(BaseException):
    """The process received SIGTERM or SIGHUP (SIGINT is ``KeyboardInterrupt``)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(self.name)


def request(signum: int) -> None:
    """Ask every piece of work to stop (first signal wins) and run the hooks."""
    if not _pending:
        _pending.append(signum)
    for hook in list(_hooks.values()):
        with contextlib.suppress(Exception):  # a hook must never stop the others
            hook()


def pending() -> int | None:
    """The signal that asked to stop, if one did."""
    return _pending[0] if _pending else None


def clear() -> None:
    """Forget a request (a new CLI run in the same process)."""
    _pending.clear()


def on_request(key: str, hook: Callable[[], None]) -> None:
    """Run ``hook`` (quick, lock-free: e.g. kill worker processes) when a stop is requested;
    one hook per ``key``."""
    _hooks[key] = hook


def raise_pending() -> None:
    """Raise ``KeyboardInterrupt`` (SIGINT) or :class:`Terminated` if a stop was requested."""
    signum = pending()
    if signum is None:
        return
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated(signum)
