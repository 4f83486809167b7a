"""Recompute a user-edited workbook without Excel, and make values-only copies.

``calc`` computes every formula of an .xlsx file with the engine's functions
(Excel's, and those an add-in registered: ``excelcalc.formula``) and writes the values back
into the file as the cached values next to the formulas: formulas, inputs,
styles, drop-downs, protection and charts stay as they were. ``freeze`` writes
a copy whose formulas are replaced by those values, for someone without the
add-in. A cell that cannot be computed gets the reason as its value
(``#N/A No family 'B999' ...``) and is listed in the report; nothing is written
unless the whole file was computed, and then atomically.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from excelcalc.errors import WorkbookError, WriteRefused
from excelcalc.files import writable_target
from excelcalc.workbook.compute import Computed, ComputeError, compute
from excelcalc.workbook.xlsxfile import (
    XlsxError,
    cached_values,
    damaged_part,
    formula_texts,
    has_macros,
    read_package,
    rewrite,
)


class CalcError(WorkbookError):
    """The workbook could not be computed or written; nothing was written."""


@dataclass(frozen=True, slots=True)
class CellError:
    where: str  # "Sizing!G18"
    text: str  # "#N/A No family 'B999': use one of ..."


@dataclass(frozen=True)
class CalcReport:
    source: Path
    path: Path
    formulas: int  # formula cells computed
    written: int  # cells whose cached value was written
    errors: tuple[CellError, ...]  # formula cells that answer an error, in sheet order
    seconds: float
    note: str = ""  # what the user should know about the file written (macros dropped)

    @property
    def ok(self) -> bool:
        return not self.errors


def _errors(c: Computed, sheet_order: Mapping[str, int]) -> tuple[CellError, ...]:
    def order(key: tuple[str, str]) -> tuple[int, int, int]:
        ref = key[1]
        letters = ref.rstrip("0123456789")  # "AB12": compute's keys are column letters, then the row
        return sheet_order.get(key[0], 999), int(ref[len(letters) :]), len(letters) * 1000 + sum(map(ord, letters))

    return tuple(CellError(c.where(k), c.errors[k]) for k in sorted(c.errors, key=order))


def open_in(path: Path) -> str | None:
    """The office program that has ``path`` open, from the owner file it keeps beside it while it
    does (Excel: ``~$name.xlsx``; LibreOffice:
    ``.~lock.name.xlsx#``), or None. Its next save writes its own copy over the file."""
    name = path.name
    if (path.parent / f".~lock.{name}#").exists():
        return f"LibreOffice (.~lock.{name}# beside it)"
    if (path.parent / f"~${name}").exists():
        return f"Excel (~${name} beside it)"
    return None


def _refuse_losing(src: Path, target: Path, package: Mapping[str, bytes], force: bool) -> str:
    """Refuse, before any work, a write that would lose what the user has; a warning to show when
    ``force`` lets it through."""
    if target.resolve() == src.resolve() and target.suffix.lower() == ".xlsx" and has_macros(package):
        raise CalcError(
            f"{src}: refused: it holds macros (a VBA project) though it is named .xlsx, and a .xlsx cannot "
            "keep them: computing it in place would drop them from this file. Write a copy that keeps them "
            f"with --out {src.with_suffix('.xlsm').name}"
        )
    program = open_in(target) if target.exists() else None
    if program is None:
        return ""
    why = f"{target} is open in {program}: its next save there would write its copy over the values computed here"
    if not force:
        raise CalcError(f"refused: {why}. Close it first, write elsewhere with --out, or replace it with --force")
    return f"warning: {why} (--force)"


@contextmanager
def _fewer_collections(young: int = 2_000_000) -> Iterator[None]:
    """Python's cycle collector runs after every 700 new objects by default, and each older-
    generation run walks every object made so far: a workbook's cells, formulas and values are
    hundreds of thousands, and collecting took a third of a calc. Here it runs after ``young``
    (memory stays bounded: cycles are still collected), and as before afterwards. At 100,000 it
    still ran twice in a calc of 15,000 formulas (250,000 objects), 22 ms each, finding nothing; at 500,000
    three times in a calc of 200,000 ``=B2`` (0.16-0.27 s of its CPU), finding fewer than 100 objects."""
    before = gc.get_threshold()
    gc.set_threshold(max(young, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _run(src: Path, out: Path, strip_formulas: bool, force: bool = False) -> CalcReport:
    with _fewer_collections():
        return _compute_and_write(src, out, strip_formulas, force)


def _compute_and_write(src: Path, out: Path, strip_formulas: bool, force: bool) -> CalcReport:
    start = time.perf_counter()
    src, out = Path(src), Path(out)
    if not src.is_file():
        raise CalcError(f"{src}: no such file")
    try:
        target = writable_target(out)  # a device, folder or read-only file is refused before any work
    except WriteRefused as exc:
        raise CalcError(str(exc)) from None
    if src.suffix.lower() not in (".xlsx", ".xlsm"):
        raise CalcError(f"{src}: only .xlsx or .xlsm workbooks can be computed")
    try:
        package = read_package(src)  # a clear message for a file that is no workbook, before the engine reads it
    except XlsxError as exc:
        raise CalcError(str(exc)) from None
    warning = _refuse_losing(src, target, package, force)
    try:
        computed = compute(src, parts=package, inputs=False)  # the formula cells are what it writes
    except XlsxError as exc:
        raise CalcError(str(exc)) from None
    except ComputeError as exc:
        raise CalcError(f"{src}: {exc}") from None
    except Exception as exc:  # the engine could not read the file: say so, write nothing
        damage = damaged_part(package)  # a part no XML that only openpyxl reads (comments, a sheet's links)
        if damage is not None:
            raise CalcError(f"{src}: refused: {damage}") from None
        first = str(exc).strip().splitlines()
        raise CalcError(f"{src}: cannot compute this workbook ({first[0] if first else type(exc).__name__})") from None
    order = {name: i for i, name in enumerate(computed.sheet_names)}
    # a .xlsx cannot hold macros (Excel refuses one that does): a copy so named leaves them out
    drop = target.suffix.lower() == ".xlsx" and has_macros(package)
    values, count = cached_values(computed), len(computed.formulas)
    # the formulas let a chart's title find its cell again: made where the workbook has a chart
    formulas = formula_texts(computed) if any(p.startswith("xl/charts/") for p in package) else None
    errors = _errors(computed, order)
    del computed  # what the report needs is taken: its cells' memory free for the writer's
    try:
        written = rewrite(
            src,
            target,
            values,
            strip_formulas=strip_formulas,
            drop_macros=drop,
            formulas=formulas,
            parts=package,
        )
    except (XlsxError, WriteRefused) as exc:
        raise CalcError(str(exc)) from None
    return CalcReport(
        source=src,
        path=target,
        formulas=count,
        written=written,
        errors=errors,
        seconds=time.perf_counter() - start,
        note="\n".join(
            n
            for n in (
                warning,
                f"{src.name}'s macros are left out: a .xlsx cannot hold them (name OUT .xlsm to keep them)"
                if drop
                else "",
            )
            if n
        ),
    )


def calc(src: Path, out: Path, *, force: bool = False) -> CalcReport:
    """Recompute ``src`` with the engine's functions and write it, values cached, to ``out``.

    ``out`` may be ``src`` itself: the file is replaced atomically. Raises ``CalcError``
    (and writes nothing) when the workbook cannot be read or written, when writing it in place
    would drop its macros, or (unless ``force``) when ``out`` is open in Excel or LibreOffice.
    """
    return _run(src, out, strip_formulas=False, force=force)


def freeze_report(src: Path, out: Path, *, force: bool = False) -> CalcReport:
    """``freeze`` that also says which cells hold errors."""
    if Path(out).resolve() == Path(src).resolve():
        raise CalcError("OUT must differ from IN: freezing replaces the formulas of the file it writes")
    return _run(src, out, strip_formulas=True, force=force)


def freeze(src: Path, out: Path) -> None:
    """Write a copy of ``src`` whose formulas are replaced by their values (computed afresh)."""
    freeze_report(src, out)
