"""Where the table lives: the bundled snapshot and the user cache.

The package ships ``data/results.json`` (made by ``benchsheet build-snapshot``
from the official files). ``benchsheet refresh`` writes a user cache in the
platform's user data folder (``BENCHSHEET_HOME`` overrides it), which then
wins. The table is loaded once per process; a user cache that cannot be read
falls back to the bundled snapshot, and the table's ``origin`` says why.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .errors import DataError
from .importers import Imported
from .table import Table, build_table, round_sort_key, table_from_json

BUNDLED = Path(__file__).with_name("data") / "results.json"
CACHE_NAME = "results.json"

_table: Table | None = None


def user_dir() -> Path:
    env = os.environ.get("BENCHSHEET_HOME")
    if env:
        return Path(env)
    import platformdirs  # imported here: only refresh and info need it

    return Path(platformdirs.user_data_dir("benchsheet", appauthor=False))


def user_cache() -> Path:
    return user_dir() / CACHE_NAME


def load_table() -> Table:
    """Read the user cache if there is one, else the bundled snapshot."""
    cache = user_cache()
    note = ""
    try:
        data = cache.read_bytes()
    except FileNotFoundError:
        data = None
    except OSError as exc:
        data, note = None, f"user cache {cache} unreadable ({exc.strerror})"
    if data is not None:
        try:
            return table_from_json(data, str(cache), origin="user")
        except DataError as exc:
            note = f"user cache unusable: {exc}"
    table = table_from_json(BUNDLED.read_bytes(), str(BUNDLED), origin="bundled")
    if note:
        table = Table(table.rows, table.sources, origin=f"bundled ({note})")
    return table


def get_table() -> Table:
    """The process-wide table, loaded on first use."""
    global _table
    if _table is None:
        _table = load_table()
    return _table


def set_table(table: Table | None) -> None:
    """Replace the process-wide table (None: load again on next use)."""
    global _table
    _table = table


def merge(current: Table, imported: Sequence[Imported], origin: str) -> Table:
    """``current`` with the imported rounds replaced by the new rows."""
    new_rounds = {i.source.round for i in imported}
    rows = [r for r in current.rows if r.round not in new_rounds]
    sources = [s for s in current.sources if s.round not in new_rounds]
    for imp in imported:
        rows.extend(imp.rows)
        sources.append(imp.source)
    sources.sort(key=lambda s: round_sort_key(s.round))
    return build_table(rows, sources, origin)


@contextmanager
def locked(path: Path, timeout: float = 60.0) -> Iterator[None]:
    """Serialize writers of ``path`` across processes."""
    from filelock import FileLock

    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + ".lock", timeout=timeout):
        yield


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file in the same folder, flush to disk, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def update_user_cache(change: Callable[[Table], Table]) -> Table:
    """Apply ``change`` to the current table and save it, under the lock.

    The new table is built, serialized and parsed back before anything is
    replaced; on any failure the previous cache stays as it was.
    """
    cache = user_cache()
    with locked(cache):
        set_table(None)
        new = change(load_table())
        text = new.to_json()
        table_from_json(text, "new cache")  # the file we write must load
        write_atomic(cache, text)
    set_table(new)
    return new
