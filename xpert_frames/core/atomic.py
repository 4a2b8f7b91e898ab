"""Atomic file writes: a temporary file beside the target, renamed over it when complete.

Used by the CLI and by :func:`xpert_frames.provenance.write_scored`: a reader never sees a
half-written file, and a failed write leaves an existing file as it was.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["write_atomic", "write_text_atomic"]


def write_atomic(path: str | Path, write: Callable[[Path], None]) -> Path:
    """Call ``write(tmp)`` with a temporary file beside ``path``, then rename it to ``path``.

    On any failure (or interrupt) the temporary file is removed and ``path`` is untouched.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    return target


def _umask() -> int:
    """The process umask, read without changing it (``os.umask`` would set it for a moment,
    racing with other threads creating files): from ``/proc`` on Linux; elsewhere, from the
    mode of a file created here with ``0o666``."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    probe = Path(tempfile.mkdtemp(prefix=".xf-umask."))
    try:
        fd = os.open(probe / "f", os.O_CREAT | os.O_WRONLY, 0o666)
        os.close(fd)
        return 0o666 & ~os.stat(probe / "f").st_mode & 0o777
    finally:
        with contextlib.suppress(OSError):
            (probe / "f").unlink()
        probe.rmdir()


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically (:func:`write_atomic`)."""

    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding="utf-8")

    return write_atomic(path, write)
