"""The cluster-sizing template: a workbook wired to benchsheet's functions, built by code.

Ten sheets (Read me, Sizing, Quotes, Sensitivity, TCO, Fleet, Compare, Claims, Curves, Sources), a hidden Lists
sheet that feeds the drop-down lists from the loaded table and a hidden xlwings.conf sheet that
names benchsheet's module for the xlwings add-in, described once in ``sheets/`` (a module a sheet). Every
number is a formula calling the catalogue's functions on the yellow input cells. The workbook
is written twice (``writer.py``): once as a draft that the formula engine computes
(``compute``), once more with each formula's computed value cached next to it, so that
LibreOffice, file viewers and Excel without the add-in show real numbers, and the native charts
have data.
"""

from __future__ import annotations

import os
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from benchsheet.analysis.choices import AVAILABILITY_CHOICES, benchmarks, families, scenarios, workload_units
from benchsheet.catalogue.engine import compute
from benchsheet.data.store import get_table
from benchsheet.data.table import Table
from benchsheet.templates.report import BuildReport, make_report
from benchsheet.templates.sheets import BOOK_PROPERTIES, LISTS, SHEETS, XLWINGS_CONF
from benchsheet.templates.writer import Choices, write_workbook
from excelcalc.files import WriteRefused, writable_target
from excelcalc.workbook.xlsxfile import cached_values, formula_texts, rewrite

__all__ = ["BuildReport", "build", "template_lists"]


def template_lists(table: Table) -> Choices:
    """The drop-down choices, by the Lists sheet's list names, taken from ``table``."""
    units = workload_units(table)
    return {
        "benchmarks": tuple(benchmarks(table)),
        "scenarios": tuple(scenarios(table)),
        "families": tuple(families(table)),
        "availability": AVAILABILITY_CHOICES,
        "workloads": tuple(w for w, _ in units),
        "units": tuple(u for _, u in units),
    }


def _check_folder(out: Path) -> None:
    """``WriteRefused`` unless a file can be made in ``out``'s folder: tried with a temporary file of its
    own, removed at once (modes alone do not say it: root ignores them, a read-only mount does not)."""
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    except OSError as exc:
        raise WriteRefused(out, f"cannot write in its folder ({exc.strerror}); nothing built") from None
    os.close(fd)
    Path(probe).unlink(missing_ok=True)


def build(out: Path, table: Table | None = None, *, replace: bool = False) -> BuildReport:
    """Write the template to ``out`` with every formula computed and cached. Prints nothing.

    ``table`` gives the drop-down lists (default: the loaded table, ``store.get_table()``). An
    existing ``out`` is replaced only with ``replace`` (``WriteRefused`` otherwise, before any work).
    A draft is written and computed by the formula engine; the workbook is then written again
    with each value cached next to its formula and charts holding the data, and finally passed
    through the same cached-value writer as ``template calc`` (which also types an empty text
    answer as text, where XlsxWriter leaves it untyped), into ``out`` atomically.
    """
    start = time.perf_counter()
    out = writable_target(Path(out), replace=replace)  # an edited workbook is never replaced unasked
    _check_folder(out)  # a folder it cannot write in fails now, not after the work (22 s)
    choices = template_lists(get_table() if table is None else table)
    built = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    with tempfile.TemporaryDirectory(prefix="benchsheet-template-") as tmp:
        draft, final = Path(tmp) / "draft.xlsx", Path(tmp) / "final.xlsx"
        write_workbook(str(draft), SHEETS, LISTS, choices, None, built, BOOK_PROPERTIES, XLWINGS_CONF)
        computed = compute(draft)
        count = write_workbook(str(final), SHEETS, LISTS, choices, computed, built, BOOK_PROPERTIES, XLWINGS_CONF)
        rewrite(final, out, cached_values(computed), replace=replace, formulas=formula_texts(computed), refit=False)
    return make_report(out, computed, count, time.perf_counter() - start)
