"""Where the table lives: the bundled snapshot and the user cache.

The package ships ``data/results.json`` (made by ``benchsheet build-snapshot``
from the official files). ``benchsheet refresh`` writes a user cache in the
platform's user data folder (``BENCHSHEET_HOME`` overrides it), which then
wins. The table is loaded once per process; a user cache that cannot be read
falls back to the bundled snapshot, and the table's ``origin`` says why.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

from .errors import DataError
from .files import locked, write_atomic
from .importers import Imported
from .table import Row, RunInfo, Table, build_table, round_sort_key, runs_from_json, runs_to_json, table_from_json

BUNDLED = Path(__file__).with_name("data") / "results.json"
CACHE_NAME = "results.json"
RUNS_NAME = "runs.json"

_table: Table | None = None


def user_dir() -> Path:
    env = os.environ.get("BENCHSHEET_HOME")
    if env:
        return Path(env)
    import platformdirs  # imported here: only refresh and info need it

    return Path(platformdirs.user_data_dir("benchsheet", appauthor=False))


def user_cache() -> Path:
    return user_dir() / CACHE_NAME


def user_runs() -> Path:
    return user_dir() / RUNS_NAME


def load_runs() -> tuple[tuple[Row, ...], tuple[RunInfo, ...], int]:
    """Private entries from ``benchsheet import-run``; none when there is no file."""
    try:
        data = user_runs().read_bytes()
    except FileNotFoundError:
        return (), (), 0
    return runs_from_json(data, str(user_runs()))


def load_table() -> Table:
    """The official table (user cache, else bundled) with the private runs beside it."""
    if sys.platform == "emscripten":  # Pyodide (xlwings Lite): no user folder persists, so no cache or runs
        return load_bundled()
    official = load_official()
    try:
        rows, runs, issued = load_runs()
    except (DataError, OSError) as exc:
        return Table(official.rows, official.sources, f"{official.origin}; private runs unusable: {exc}")
    if not issued:
        return official
    return Table(official.rows + rows, official.sources, official.origin, runs, issued)


def load_official() -> Table:
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
    table = load_bundled()
    if note:
        table = Table(table.rows, table.sources, origin=f"bundled ({note})")
    return table


def load_bundled() -> Table:
    """The snapshot shipped in the package, read as package data (works from a wheel or a zip)."""
    data = (resources.files("benchsheet") / "data" / CACHE_NAME).read_bytes()
    return table_from_json(data, str(BUNDLED), origin="bundled")


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


def update_user_cache(change: Callable[[Table], Table]) -> Table:
    """Apply ``change`` to the current table and save it, under the lock.

    The new table is built, serialized and parsed back before anything is
    replaced; on any failure the previous cache stays as it was.
    """
    cache = user_cache()
    with locked(cache):
        set_table(None)
        new = change(load_official())
        text = new.to_json()
        table_from_json(text, "new cache")  # the file we write must load
        write_atomic(cache, text)
    return get_table()


RunsChange = Callable[[Table], tuple[Sequence[Row], Sequence[RunInfo], int]]


def update_runs(change: RunsChange) -> Table:
    """Replace the private runs with ``change(current table)``, atomically, under the cache lock."""
    with locked(user_cache()):
        set_table(None)
        try:
            load_runs()  # a file that cannot be read is never overwritten: it may hold runs and the ID count
        except DataError as exc:
            raise DataError(
                str(user_runs()),
                None,
                None,
                f"cannot read your private runs ({exc.reason}); fix it or move it "
                "aside to start afresh; nothing was written",
            ) from None
        rows, runs, issued = change(load_table())
        text = runs_to_json(rows, runs, issued)
        runs_from_json(text, "new runs file")  # the file we write must load
        write_atomic(user_runs(), text)
    return get_table()


def add_run(make: Callable[[str], tuple[Row, RunInfo]]) -> tuple[Row, RunInfo]:
    """Add a private entry; ``make`` gets the next free ID ("local-0001", ...)."""
    from .loadgen import LOCAL_PREFIX

    made: list[tuple[Row, RunInfo]] = []

    def change(current: Table) -> tuple[Sequence[Row], Sequence[RunInfo], int]:
        issued = current.runs_issued + 1  # never reused, so a workbook never silently changes meaning
        row, run = make(f"{LOCAL_PREFIX}{issued:04d}")
        made.append((row, run))
        return [*_private_rows(current), row], [*current.runs, run], issued

    update_runs(change)
    return made[0]


def forget_run(entry: str) -> None:
    key = entry.strip().lower()

    def change(current: Table) -> tuple[Sequence[Row], Sequence[RunInfo], int]:
        if current.run(key) is None:
            known = ", ".join(r.entry for r in current.runs) or "none"
            raise DataError(str(user_runs()), None, None, f"no private entry {entry.strip()} (yours: {known})")
        rows = [r for r in _private_rows(current) if r.entry != key]
        return rows, [r for r in current.runs if r.entry != key], current.runs_issued

    update_runs(change)


def _private_rows(table: Table) -> list[Row]:
    return [r for r in table.rows if r.id_source == "local"]
