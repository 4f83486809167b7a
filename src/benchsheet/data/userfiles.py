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

__all__ = ["MAX_FILE_BYTES", "check_folder", "locked", "read_regular", "too_large"]


MAX_FILE_BYTES = 64 * 1024 * 1024
"""The most bytes benchsheet reads of one of its files: the refresh cap. The bundled table is 1.4 MB; a
file far larger (a 1.5 GB sparse one took 15-18 s and 1.8-2.9 GB at every start) is damage, not data."""


def read_regular(path: Path, cap: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file; a FIFO, device or socket in its place is a ``DataError`` (never read:
    a FIFO would block every command), and so is a file of more than ``cap`` bytes (refused by its size
    before a byte is read). Opened without blocking, then checked on the open file, so the check and
    the read are of one file. ``FileNotFoundError`` passes through."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise DataError(str(path), None, None, "not a regular file (a pipe, device or socket); not read")
        if info.st_size > cap:
            raise DataError(str(path), None, None, too_large(info.st_size, cap))
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(cap + 1)  # a file that grew since: still no more than the cap
        if len(data) > cap:
            raise DataError(str(path), None, None, too_large(len(data), cap))
        return data
    finally:
        os.close(fd)


def too_large(size: int, cap: int, what: str = "benchsheet file") -> str:
    return f"{size:,} bytes, more than any {what} (at most {cap:,}); not read"


@contextmanager
def locked(path: Path, timeout: float = 60.0) -> Iterator[None]:
    """Serialize writers of ``path`` across processes."""
    from filelock import FileLock

    check_folder(path.parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + ".lock", timeout=timeout):
        yield


def check_folder(folder: Path) -> None:
    """The data folder can be made or is there: no file in its place or in a folder's above it (a
    ``DataError`` saying so, where Python would say "[Errno 17] File exists"). Nothing is created."""
    for at in (folder, *folder.parents):
        if at.exists():
            if not at.is_dir():
                where = "it is a file" if at == folder else f"{at} is a file"
                raise DataError(
                    str(folder),
                    None,
                    None,
                    f"not a folder ({where}): benchsheet keeps its data in a folder; move the file, or set "
                    "BENCHSHEET_HOME to a folder",
                )
            return
