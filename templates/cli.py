"""``benchsheet template build|calc`` and ``benchsheet freeze``.

Exit status: 0 done; 1 written, but some cells hold errors (listed); 2 nothing
written (a clear one-line message says why).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchsheet.commands import Command, opt

MAX_LISTED = 20  # reasons
MAX_CELLS = 8  # cells per reason


def _err(message: str) -> None:
    from benchsheet.console import print_error

    print_error(message)


def _list_errors(errors: Sequence[Any]) -> None:
    """The cells that hold errors, grouped by reason: a bad input usually explains many cells."""
    stream = sys.stderr  # looked up at call time: tests and callers may swap it
    by_reason: dict[str, list[str]] = {}
    for e in errors:
        by_reason.setdefault(e.text, []).append(e.where)
    print(f"{len(errors)} cell(s) could not be computed, for {len(by_reason)} reason(s):", file=stream)
    for n, (reason, cells) in enumerate(by_reason.items()):
        if n == MAX_LISTED:
            print(f"  ... and {len(by_reason) - MAX_LISTED} more reasons", file=stream)
            break
        shown = ", ".join(cells[:MAX_CELLS]) + (f" and {len(cells) - MAX_CELLS} more" if len(cells) > MAX_CELLS else "")
        print(f"  {reason}\n      in {shown}", file=stream)


def cmd_build(args: argparse.Namespace) -> int:
    from benchsheet.templates.builder import build
    from benchsheet.templates.report import print_report

    out = Path(args.out)
    if out.is_dir():
        _err(f"{out} is a folder: give a file name such as {out / 'cluster-sizing.xlsx'}")
        return 2
    r = build(out, replace=args.force)  # WriteRefused (an existing OUT without --force) is printed by main
    print_report(r)
    if r.errors:
        from excelcalc.workbook.calc import CellError

        _list_errors([CellError(k, v) for k, v in r.errors.items()])
        return 1
    return 0


def _checked_input(path: str) -> Path | None:
    p = Path(path)
    if not p.is_file():
        _err(f"{p}: no such file")
        return None
    return p


def cmd_calc(args: argparse.Namespace) -> int:
    from benchsheet.catalogue.engine import calc
    from benchsheet.templates.report import every_error
    from excelcalc.workbook.calc import CalcError

    src = _checked_input(args.input)
    if src is None:
        return 2
    out = Path(args.out) if args.out else src
    try:
        r = calc(src, out, force=args.force)
    except CalcError as exc:
        _err(f"{exc} (nothing written)")
        return 2
    where = _where(src, out, r.path)
    print(f"computed {r.formulas} formulas of {src} and wrote their values {where} in {r.seconds:.1f} s")
    if r.note:
        print(r.note)
    errors = every_error(r.errors, r.path)  # the workbook's own error texts count too
    if errors:
        _list_errors(errors)
        return 1
    return 0


def _where(src: Path, out: Path, written: Path) -> str:
    """Where the values went, as the user should read it: in place, to a file, through a link."""
    link = f" (through the link {out}, to {written})" if out.is_symlink() else ""
    return ("in place" if written == src.resolve() else f"to {written}") + link


def cmd_freeze(args: argparse.Namespace) -> int:
    from benchsheet.catalogue.engine import freeze_report
    from benchsheet.templates.report import frozen_error_texts, not_gaps
    from excelcalc.workbook.calc import CalcError

    src = _checked_input(args.input)
    if src is None:
        return 2
    try:
        r = freeze_report(src, Path(args.output), force=args.force)
    except CalcError as exc:
        _err(f"{exc} (nothing written)")
        return 2
    print(f"wrote {r.path}: {r.written} formulas of {src} replaced by their values")
    if r.note:
        print(r.note)
    known = {e.where for e in r.errors}  # the workbook's own error texts count too, as for calc
    errors = not_gaps((*r.errors, *(e for e in frozen_error_texts(src, r.path) if e.where not in known)), src)
    if errors:
        _list_errors(errors)
        return 1
    return 0


COMMANDS = (
    Command(
        "template",
        "build or recompute the cluster-sizing workbook",
        description="The cluster-sizing workbook: sizing, vendor quotes, price sensitivity, family comparison, "
        "claims and sources, wired to benchsheet's functions.",
        commands=(
            Command(
                "build",
                "write the workbook from the loaded results and print its key outputs",
                cmd_build,
                "Write the cluster-sizing workbook with every formula computed and its value cached (so it shows "
                "numbers without the add-in), then print the key outputs.",
                (
                    opt("--out", default="cluster-sizing.xlsx", help="where to write (default: %(default)s)"),
                    opt("--force", action="store_true", help="replace OUT if it exists (an edited workbook is lost)"),
                ),
            ),
            Command(
                "calc",
                "recompute an edited workbook without Excel",
                cmd_calc,
                "Recompute every formula of IN with benchsheet's functions (the engine behind `benchsheet eval`) "
                "and store the values next to the formulas; formulas, inputs, styles and charts are kept. Without "
                "--out, IN is replaced (atomically). A cell answering an error gets Excel's error value (one of "
                "benchsheet's functions: its reason, as the add-in shows it); each is listed with its reason on "
                "stderr. Exit status 0: every cell computed without an error (the #N/A of cells named ChartGaps, "
                "points a chart leaves out, excepted); 1: written, some cells hold errors.",
                (
                    opt("input", metavar="IN", help="an .xlsx or .xlsm workbook, e.g. cluster-sizing.xlsx"),
                    opt("--out", metavar="OUT", help="write here instead of replacing IN"),
                    opt(
                        "--force",
                        action="store_true",
                        help="write even though the target is open in Excel or LibreOffice (its next save there "
                        "discards the values)",
                    ),
                ),
            ),
        ),
    ),
    Command(
        "freeze",
        "a values-only copy of a workbook, for someone without the add-in",
        cmd_freeze,
        "Recompute IN and write OUT with every formula replaced by its value; styles, layout and charts are kept. "
        "OUT must differ from IN; a .xlsx OUT leaves macros out.",
        (
            opt("input", metavar="IN", help="an .xlsx or .xlsm workbook"),
            opt("output", metavar="OUT", help="the values-only copy to write"),
            opt("--force", action="store_true", help="write even though OUT is open in Excel or LibreOffice"),
        ),
    ),
)


__all__ = ["COMMANDS"]
