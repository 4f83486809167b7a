"""The user's data files: read only when regular, written by one process at a time.

``read_regular`` never blocks on a FIFO or device put where a cache file should be; ``locked``
serializes writers (refresh, import-run) across processes. Writing itself is
``excelcalc.files.write_atomic``: whole or not at all.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchsheet.errors import DataError

__all__ = ["locked", "read_regular"]


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file; a FIFO, device or socket in its place is a ``DataError`` (never read:
    a FIFO would block every command). Opened without blocking, then checked on the open file, so the
    check and the read are of one file. ``FileNotFoundError`` passes through."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise DataError(str(path), None, None, "not a regular file (a pipe, device or socket); not read")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    finally:
        os.close(fd)


@contextmanager
def locked(path: Path, timeout: float = 60.0) -> Iterator[None]:
    """Serialize writers of ``path`` across processes."""
    from filelock import FileLock

    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + ".lock", timeout=timeout):
        yield
