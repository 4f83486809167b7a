"""Writing files the user has: whole or not at all, and only where writing is what they asked for.

``write_atomic`` writes to a temporary file of its own beside the target, flushes it to disk and
renames it over the target, so a reader sees the old file or the new one, never half of one. Before
anything is written, ``writable_target`` says where the bytes will go and refuses what must not be
replaced: a device, FIFO or socket (``--out /dev/null`` must never become a regular file), a
folder, a read-only file, or (unless ``replace``) any existing file. A symbolic link is followed: the
file it points to is written and the link stays a link.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from excelcalc.errors import WriteRefused

__all__ = ["WriteRefused", "writable_target", "write_atomic"]


def writable_target(path: Path, *, replace: bool = True) -> Path:
    """The regular file that writing ``path`` writes (a symlink's target), or ``WriteRefused``."""
    path = Path(path).absolute()
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        st = target.stat()
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise WriteRefused(path, f"no such folder {target.parent}") from None
        return target
    if stat.S_ISDIR(st.st_mode):
        raise WriteRefused(path, "is a folder; give a file name")
    if not stat.S_ISREG(st.st_mode):
        raise WriteRefused(path, "is not a regular file (a device, pipe or socket); nothing is written there")
    if not replace:
        raise WriteRefused(path, "exists; nothing written (use --force to replace it)")
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise WriteRefused(path, "is read-only; nothing written (make it writable, or write elsewhere)")
    return target


def write_atomic(path: Path, data: str | bytes, *, replace: bool = True) -> Path:
    """Write ``data`` to ``path`` whole or not at all; returns the file written (a symlink's target).

    The file keeps the mode of the one it replaces (a new one gets 0o666 less the umask). Only the
    temporary file this call made is ever removed: nothing else in the folder is touched.
    """
    target = writable_target(path, replace=replace)
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    import tempfile  # here: a process that only reads (the first look-up) does without its imports

    with _terminated_as_exit():
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            os.fchmod(fd, mode)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data.encode("utf-8") if isinstance(data, str) else data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return target


@contextmanager
def _terminated_as_exit() -> Iterator[None]:
    """While the temporary file exists, SIGTERM (``kill``, ``timeout``, a closing terminal's SIGHUP)
    raises SystemExit, so the file is removed before the process ends; by default Python would end
    at once and leave it. Only the main thread can take signals; elsewhere nothing changes."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def leave(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    kinds = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    before = {s: signal.signal(s, leave) for s in kinds}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)
