"""Where the table lives, and loading it: the bundled snapshot, the user cache, your own runs.

The package ships ``results.json`` beside this module (``benchsheet/data/results.json``, made by
``benchsheet build-snapshot`` from the official files). ``benchsheet refresh`` writes a user cache
in the platform's user data folder (``BENCHSHEET_HOME`` overrides it), which then wins;
``benchsheet import-run`` keeps your own runs beside it (``benchsheet.data.runs``). A user cache
that cannot be read falls back to the bundled snapshot, and the table's ``origin`` says why.

Loading is a pure read: it never writes. The shells (the xlwings module, the Lite module, the
formula engine with the catalogue, ``benchsheet.catalogue.engine``, the CLI) ask ``get_table()``
for the table and pass it to the functions; it is loaded once per process and kept in
``_PROCESS_CACHE``, the one piece of module state. A command that changes the files returns the
table as it now loads (``load_table``); nothing here is reset as a side effect.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from benchsheet.data.table import (
    BUNDLED_ORIGIN,
    UNUSABLE,
    USER_ORIGIN,
    Curve,
    PrivateRuns,
    Table,
    runs_from_json,
    table_from_json,
)
from benchsheet.data.userfiles import read_regular
from benchsheet.errors import DataError, os_reason

BUNDLED = Path(__file__).with_name("results.json")
CACHE_NAME = "results.json"
RUNS_NAME = "runs.json"
CURVES_NAME = "curves.json"  # MLPerf Endpoints curves (benchsheet import-run of a submission folder)


_PROCESS_CACHE: dict[str, Table] = {}  # "table": the loaded table of this process


def user_dir() -> Path:
    env = os.environ.get("BENCHSHEET_HOME")
    if env:
        return Path(env)
    import platformdirs  # imported here: only commands that touch the user folder need it

    return Path(platformdirs.user_data_dir("benchsheet", appauthor=False))


def user_cache() -> Path:
    return user_dir() / CACHE_NAME


def user_runs() -> Path:
    return user_dir() / RUNS_NAME


def user_curves() -> Path:
    return user_dir() / CURVES_NAME


def load_curves() -> tuple[Curve, ...]:
    """MLPerf Endpoints curves from ``benchsheet import-run``; none when there is no file."""
    from benchsheet.data.endpoints import curves_from_json  # only a user folder with curves needs it

    try:
        data = read_regular(user_curves())
    except FileNotFoundError:
        return ()
    return curves_from_json(data, str(user_curves()))


def load_runs() -> PrivateRuns:
    """Private entries from ``benchsheet import-run``; none when there is no file."""
    try:
        data = read_regular(user_runs())
    except FileNotFoundError:
        return PrivateRuns()
    return runs_from_json(data, str(user_runs()))


def load_table() -> Table:
    """The official table (user cache, else bundled) with the private runs beside it."""
    if sys.platform == "emscripten":  # Pyodide (xlwings Lite): no user folder persists, so no cache or runs
        return load_bundled()
    official = load_official()
    try:
        private = load_runs()
    except (DataError, OSError) as exc:
        why = os_reason(exc) if isinstance(exc, OSError) else exc
        table = Table(official.rows, official.sources, official.origin.noting(f"{UNUSABLE[0]}: {why}"))
    else:
        table = official.with_runs(private) if private.issued else official
    try:
        curves = load_curves()
    except (DataError, OSError) as exc:
        note = table.origin.noting(f"{UNUSABLE[1]}: {os_reason(exc) if isinstance(exc, OSError) else exc}")
        return Table(table.rows, table.sources, note, table.runs, table.runs_issued)
    return table.with_curves(curves) if curves else table


def load_official() -> Table:
    """Read the user cache if there is one, else the bundled snapshot."""
    cache = user_cache()
    try:
        return table_from_json(read_regular(cache), str(cache), origin=USER_ORIGIN)
    except FileNotFoundError:
        return load_bundled()
    except OSError as exc:
        note = f"user cache {cache} unreadable ({exc.strerror})"
    except DataError as exc:
        note = f"user cache unusable: {exc}"
    bundled = load_bundled()
    return Table(bundled.rows, bundled.sources, bundled.origin.noting(note))


def load_bundled() -> Table:
    """The snapshot shipped in the package, read as package data (works from a wheel or a zip)."""
    return table_from_json(_bundled_bytes(), str(BUNDLED), origin=BUNDLED_ORIGIN)


def _bundled_bytes() -> bytes:
    """The bundled snapshot's bytes: from its file beside this module, where the package is a folder
    (installed from a wheel, or in Pyodide), else as package data (a package in a zip). importlib.resources
    is imported only then: it costs every start 5-10 ms, a tenth of the first look-up."""
    try:
        return BUNDLED.read_bytes()
    except OSError:
        from importlib import resources

        return (resources.files("benchsheet.data") / CACHE_NAME).read_bytes()


def get_table() -> Table:
    """The table of this process, loaded on first use."""
    table = _PROCESS_CACHE.get("table")
    if table is None:
        table = _PROCESS_CACHE["table"] = load_table()
    return table


def set_table(table: Table | None) -> None:
    """Replace this process's table (None: load again on next use); tests use it."""
    _PROCESS_CACHE.pop("table", None)
    if table is not None:
        _PROCESS_CACHE["table"] = table
