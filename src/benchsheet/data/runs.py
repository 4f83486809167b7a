"""Your own runs as private entries (``local-0001``, ...): adding, forgetting, and their file; MLPerf
Endpoints curves (a submission's, your own run's) added to and forgotten from curves.json.

Private runs live in ``runs.json`` beside the user cache, written atomically under the cache's lock.
A file that cannot be read is never overwritten: it may hold runs and the count of numbers given
out (numbers are never reused, so a workbook naming ``local-0002`` never silently changes meaning).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from benchsheet.data.endpoints import (
    curves_from_json,
    curves_to_json,
    import_report,
    import_submission,
    is_report,
    is_submission,
)
from benchsheet.data.loadgen import LOCAL_PREFIX, find_run_files, make_run
from benchsheet.data.snapshot import latency_bounds
from benchsheet.data.store import load_curves, load_official, load_runs, user_cache, user_curves, user_runs
from benchsheet.data.table import Curve, PrivateRuns, Row, RunInfo, round_sort_key, runs_from_json, runs_to_json
from benchsheet.data.userfiles import locked, read_regular
from benchsheet.errors import DataError
from excelcalc.files import write_atomic


def _must_load(read: Callable[[str, str], object], text: str, path: Path) -> None:
    """Refuse to write ``text`` to ``path`` unless it loads: the defect named at the user's file, nothing written."""
    try:
        read(text, str(path))
    except DataError as exc:
        raise DataError(
            exc.file, exc.row, exc.field, f"{exc.reason}; {path.name} would not load so: nothing was written"
        ) from None


def _update(change: Callable[[PrivateRuns], PrivateRuns]) -> PrivateRuns:
    """Replace the private runs with ``change(current runs)``, atomically, under the cache's lock."""
    with locked(user_cache()):
        try:
            current = load_runs()
        except DataError as exc:
            raise DataError(
                str(user_runs()),
                None,
                None,
                f"cannot read your private runs ({exc.reason}); fix it or move it aside to start afresh; "
                "nothing was written",
            ) from None
        new = change(current)
        text = runs_to_json(new)
        _must_load(runs_from_json, text, user_runs())
        write_atomic(user_runs(), text)
    return new


def import_run(
    path: Path, system: Path | None = None, benchmark: str | None = None, name: str = "", allow_invalid: bool = False
) -> tuple[Row, RunInfo]:
    """Add the loadgen run at ``path`` (a summary file or its folder) as the next private entry.

    A log that says INVALID is refused unless ``allow_invalid``; then every answer from it is flagged.
    """
    log, system_file, bench = find_run_files(path, system, benchmark)
    log_data, system_data = read_regular(log), read_regular(system_file)
    when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    official = load_official()

    def units(benchmark: str, scenario: str) -> str | None:
        """The units of the latest round's closed rows of the workload, where there are any."""
        rows = [r for r in official.bench_rows(benchmark, scenario) if r.division == "closed"]
        return max(rows, key=lambda r: round_sort_key(r.round)).units if rows else None

    def change(current: PrivateRuns) -> PrivateRuns:
        issued = current.issued + 1
        entry = f"{LOCAL_PREFIX}{issued:04d}"
        row, run = make_run(
            entry, log_data, str(log), system_data, str(system_file), bench, latency_bounds(), when, name, units
        )
        if not run.valid and not allow_invalid:
            raise DataError(
                str(log), None, "Result is", "the log says INVALID; not imported (--allow-invalid keeps it, flagged)"
            )
        return PrivateRuns((*current.rows, row), (*current.runs, run), issued)

    new = _update(change)
    return new.rows[-1], new.runs[-1]


def forget_run(entry: str) -> None:
    key = entry.strip().lower()

    def change(current: PrivateRuns) -> PrivateRuns:
        if key not in {r.entry for r in current.runs}:
            known = ", ".join(r.entry for r in current.runs) or "none"
            raise DataError(str(user_runs()), None, None, f"no private entry {entry.strip()} (yours: {known})")
        rows = tuple(r for r in current.rows if r.entry != key)
        return PrivateRuns(rows, tuple(r for r in current.runs if r.entry != key), current.issued)

    _update(change)


def _update_curves(change: Callable[[tuple[Curve, ...]], tuple[Curve, ...]]) -> None:
    """Replace the curves of curves.json with ``change(current curves)``, atomically, under the cache's lock."""
    with locked(user_cache()):
        try:
            current = load_curves()
        except DataError as exc:
            raise DataError(
                str(user_curves()), None, None, f"cannot read your Endpoints curves ({exc.reason}); nothing was written"
            ) from None
        text = curves_to_json(change(current))
        _must_load(curves_from_json, text, user_curves())
        write_atomic(user_curves(), text)


def import_curves(
    folder: Path, system: Path | None = None, benchmark: str | None = None, name: str = ""
) -> tuple[Curve, ...]:
    """Add the MLPerf Endpoints curves of a v1.0 submission folder, or your own run's report directories
    (one curve, marked as yours), to the user folder's curves.json (a curve imported again is replaced,
    its provenance the new files'); the curves imported."""
    curves = read_curves(folder, system, benchmark, name)
    add_curves(curves)
    return curves


def read_curves(
    folder: Path, system: Path | None = None, benchmark: str | None = None, name: str = ""
) -> tuple[Curve, ...]:
    """The curves ``import_curves`` adds, read and checked; nothing is written."""
    own = not is_submission(folder)
    return (import_report(folder, system, benchmark, name),) if own else import_submission(folder)


def add_curves(curves: tuple[Curve, ...]) -> None:
    """Add ``curves`` to curves.json, replacing those of the same IDs."""
    ids = {c.id.lower() for c in curves}
    _update_curves(lambda current: tuple(c for c in current if c.id.lower() not in ids) + curves)


def is_curve_folder(folder: Path) -> bool:
    """A folder ``import_curves`` reads: an Endpoints submission, or an own run's report directory."""
    return is_submission(folder) or is_report(folder)


def forget_curve(curve_id: str) -> Curve:
    """Remove an imported Endpoints curve from curves.json (as ``forget`` removes an own run); the curve removed."""
    key = curve_id.strip().lower()
    removed: list[Curve] = []

    def change(current: tuple[Curve, ...]) -> tuple[Curve, ...]:
        removed.extend(c for c in current if c.id.lower() == key)
        if not removed:
            known = ", ".join(c.id for c in current) or "none"
            raise DataError(str(user_curves()), None, None, f"no Endpoints curve {curve_id.strip()} (yours: {known})")
        return tuple(c for c in current if c.id.lower() != key)

    _update_curves(change)
    return removed[0]
