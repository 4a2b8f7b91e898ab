"""Atomic file writes: a temporary file beside the target, renamed over it when complete.

Used by the CLI and by :func:`xpert_frames.provenance.write_scored`: a reader never sees a
half-written file, and a failed write leaves an existing file as it was.

Temporary files are named ``.<target name>.xf-<pid>-<random>.tmp`` and held under an advisory
lock (``flock``) while written. A run killed outright (SIGKILL, power loss) cannot remove its
own: the next write of the same target removes every such file whose writer is gone (its
process no longer exists and its lock is free), and leaves those of live writers alone.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from xpert_frames.core import interrupt

__all__ = ["remove_stale", "temporary_beside", "write_atomic", "write_text_atomic"]

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


def _prefix(target: Path) -> str:
    return f".{target.name}.xf-"


def _writer_gone(path: Path, pid: int) -> bool:
    """Whether the writer of temporary file ``path`` (process ``pid``) is gone: no such
    process on this machine, and (where locks exist) nobody holds the file's lock."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
        return False
    except ProcessLookupError:
        pass
    except PermissionError:  # a process of another user has that id
        return False
    if fcntl is None:
        return True
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # locked: its writer lives (on another machine sharing the disk)
    finally:
        os.close(fd)
    return True


def remove_stale(target: str | Path) -> list[Path]:
    """Remove the temporary files that killed writers of ``target`` left beside it (module
    docs); returns the files removed."""
    target = Path(target)
    pattern = re.compile(re.escape(_prefix(target)) + r"([0-9]+)-[^/]*\.tmp$")
    removed: list[Path] = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        found = pattern.match(entry.name)
        if found and entry.is_file(follow_symlinks=False):
            path = Path(entry.path)
            if _writer_gone(path, int(found.group(1))):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                removed.append(path)
    return removed


@contextlib.contextmanager
def temporary_beside(target: str | Path, tag: str = "") -> Iterator[Path]:
    """A new, empty, locked temporary file beside ``target`` (module docs), removed when the
    block ends unless it was renamed away."""
    target = Path(target)
    fd, name = tempfile.mkstemp(
        prefix=f"{_prefix(target)}{os.getpid()}-", suffix=f"{tag}.tmp", dir=target.parent
    )
    tmp = Path(name)
    if fcntl is None:  # no lock to hold (and an open file could not be renamed)
        os.close(fd)
        fd = -1
    try:
        if fd >= 0:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield tmp
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        if fd >= 0:
            os.close(fd)


def write_atomic(path: str | Path, write: Callable[[Path], None]) -> Path:
    """Call ``write(tmp)`` with a temporary file beside ``path``, then rename it to ``path``.

    On any failure (or interrupt) the temporary file is removed and ``path`` is untouched; a
    stop requested while writing (:mod:`xpert_frames.core.interrupt`) is raised before the
    rename. Temporary files of killed earlier writers of ``path`` are removed first.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(target)
    with temporary_beside(target) as tmp:
        write(tmp)
        interrupt.raise_pending()
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, target)
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
