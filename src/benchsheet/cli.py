"""The ``benchsheet`` command: a thin shell over the library.

Each subcommand converts its arguments, calls the library and reports; no
analysis lives here. Errors print one clear line (never a bare traceback) and
exit non-zero: 1 for an error value from ``eval``, 2 for anything else.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchsheet import __version__
from benchsheet.commands import Command, add, opt
from benchsheet.console import escaping, print_error, raw
from benchsheet.errors import BenchsheetError, DataError, RefreshError, os_reason
from excelcalc.errors import ExcelCalcError

if TYPE_CHECKING:
    from benchsheet.data.table import Curve

# ---------------------------------------------------------------- commands


def cmd_info(args: argparse.Namespace) -> int:
    from benchsheet.catalogue.functions import CATALOGUE
    from benchsheet.data.store import BUNDLED, get_table, user_cache

    table = get_table()
    cache = user_cache()
    print(f"benchsheet {__version__}")
    print(f"data: {table.origin}")
    print(f"user cache: {cache}" + ("" if cache.exists() else " (none yet: `benchsheet refresh` writes it)"))
    print(f"bundled snapshot: {BUNDLED}")
    print(f"rounds: {', '.join(table.rounds)}  rows: {len(table.rows)}")
    for s in table.sources:
        print(f"  v{s.round}: {s.rows} rows from {s.file}")
        print(f"        sha256 {s.sha256}")
        print(f"        imported {s.imported_at}  {s.url}")
    print(
        "Per-GPU values are derived metrics, not official MLPerf results. "
        "MLPerf is a trademark of MLCommons Association."
    )
    example = CATALOGUE[0].example
    print(f"Next: `benchsheet eval '{example}'`, or `benchsheet functions` for every function")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from benchsheet.catalogue.literal import answer, failed, literal_call
    from excelcalc.formula_text import errors_in, shown

    literal = literal_call(args.formula)  # one of benchsheet's functions of literal arguments: no engine
    if literal is not None:
        value, is_error = answer(*literal), failed
    else:
        from benchsheet.catalogue.engine import evaluate
        from excelcalc.values import is_error

        value = evaluate(args.formula)
    text = _printed(value, lambda v: shown(v, is_error))
    if is_error(value):
        print(text, file=sys.stderr)
        return 1
    print(text)
    errors = errors_in(value, is_error)
    if errors:  # an array answer holding errors: shown in full, and the exit status says so
        print(f"{errors} of the answer's cells {'is an error' if errors == 1 else 'are errors'}", file=sys.stderr)
        return 1
    return 0


def cmd_refresh(args: argparse.Namespace) -> int:
    """Every source read and checked first (Endpoints folders' curves, summary files, where each file goes);
    then the user cache written, then curves.json. On a failure before the first write nothing is written."""
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

    from benchsheet.data.refresh import DEFAULT_HOSTS, Policy, fetch_all, replace_cache, sources_for
    from benchsheet.data.runs import add_curves
    from benchsheet.data.store import load_curves, user_cache, user_curves

    policy = Policy(hosts=DEFAULT_HOSTS + tuple(h.lower() for h in args.allow_host), timeout=args.timeout)
    folders = [s for s in args.source if _is_curve_folder(s)]  # MLPerf Endpoints: read as import-run reads them
    files = [s for s in args.source if s not in folders]
    try:
        read = {c.id.lower(): c for folder in folders for c in _read_curves(Path(folder), args)}
        curves = tuple(read.values())  # a curve in two folders: the later one, as two imports leave it
        if curves:
            load_curves()  # curves.json readable, so that adding to it cannot fail after the cache is written
            _writable(user_curves())
        imported = []
        if files or not folders:
            with Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                DownloadColumn(),
                console=Console(file=raw(sys.stderr)),  # its own cursor moves, on stderr
                transient=True,
                disable=not sys.stderr.isatty(),
            ) as bar:
                tasks: dict[str, Any] = {}

                def progress(src: str, got: int, total: int | None) -> None:
                    if src not in tasks:
                        tasks[src] = bar.add_task(src.rsplit("/", 2)[-2] if "/" in src else src, total=total)
                    bar.update(tasks[src], completed=got)

                imported = fetch_all(files or sources_for(args.round), policy, progress)
    except BenchsheetError as exc:
        raise RefreshError(f"refresh failed, nothing was written (the previous cache is unchanged): {exc}") from None
    written: list[str] = []
    try:
        if imported:
            table = replace_cache(imported)
            written.append(f"the user cache {user_cache()}")
        if curves:
            add_curves(curves)
    except (BenchsheetError, TimeoutError) as exc:
        what = (
            "another refresh holds the cache lock; try again when it has finished"
            if isinstance(exc, TimeoutError)
            else str(exc)
        )
        done = f"{' and '.join(written)} was written" if written else "nothing was written"
        raise RefreshError(f"refresh failed, {done}: {what}") from None
    _print_curves(curves)
    if imported:
        print(f"refreshed: {', '.join(table.rounds)} ({len(table.rows)} rows) -> user cache {user_cache()}")
        for s in table.sources:
            print(f"  v{s.round}: {s.rows} rows, sha256 {s.sha256}")
    return 0


def _writable(path: Path) -> None:
    from benchsheet.data.userfiles import check_folder
    from excelcalc.files import WriteRefused, writable_target

    check_folder(path.parent)
    try:
        writable_target(path)
    except WriteRefused as exc:
        raise DataError(str(path), None, None, exc.reason) from None


def cmd_build_snapshot(args: argparse.Namespace) -> int:
    from benchsheet.data.snapshot import write_snapshot

    table = write_snapshot(Path(args.src), Path(args.out))
    print(f"wrote {args.out}: {len(table.rows)} rows from {len(table.sources)} files")
    return 0


def _printed(value: Any, show: Callable[[Any], str]) -> str:
    """``eval``'s answer as printed: arrays as TSV rows, and every control character in a cell (an ESC or
    U+202E from a results file, a CHAR(7), a carriage return) escaped as ``\\x1b``, so no answer reaches
    the terminal raw; a line break or tab in a text is printed as it is, as before."""
    from benchsheet.data.values import escaped

    if isinstance(value, list):
        return "\n".join("\t".join(_printed(v, show) for v in row) for row in value)
    return escaped(show(value), keep="\n\t")


def _is_curve_folder(path: str) -> bool:
    """An MLPerf Endpoints submission folder or an own run's report directory (not an https URL)."""
    from benchsheet.data.runs import is_curve_folder

    return "://" not in path and is_curve_folder(Path(path))


def _read_curves(folder: Path, args: argparse.Namespace) -> tuple[Curve, ...]:
    """The curves of an Endpoints folder, read and checked; nothing written."""
    from benchsheet.data.runs import read_curves

    system = getattr(args, "system", None)
    return read_curves(folder, system and Path(system), getattr(args, "benchmark", None), getattr(args, "name", ""))


def _print_curves(curves: Sequence[Curve]) -> None:
    """One line per curve imported."""
    from benchsheet.analysis.curves import flagged
    from benchsheet.data.values import escaped

    for c in curves:
        own = " (your own run)" if c.own else " (a TEST submission, not an MLPerf result)" if c.test else ""
        print(escaped(f"{c.id}: {len(c.points)} points ({flagged(c)} flagged) on {c.gpus} x {c.accelerator}{own}"))


def _import_curves(folder: Path, args: argparse.Namespace) -> None:
    """The curves of an Endpoints folder into curves.json, one line printed per curve."""
    from benchsheet.data.runs import add_curves

    curves = _read_curves(folder, args)
    add_curves(curves)
    _print_curves(curves)


def cmd_import_run(args: argparse.Namespace) -> int:
    from benchsheet.data.runs import import_run
    from benchsheet.data.values import escaped

    if _is_curve_folder(args.path):  # MLPerf Endpoints: a submission's curves, or your own run's
        _import_curves(Path(args.path), args)
        return 0
    row, run = import_run(
        Path(args.path), args.system and Path(args.system), args.benchmark, args.name, args.allow_invalid
    )
    flag = "" if run.valid else "  [INVALID run: every answer for it is flagged]"
    print(escaped(f"{row.entry}: {row.benchmark} {row.scenario}, {row.result:g} {row.units}"), end="")
    print(escaped(f" on {f'{row.gpus} x {row.accelerator}' if row.accelerator else 'CPU only'}{flag}"))
    return 0


def cmd_runs(args: argparse.Namespace) -> int:
    from benchsheet.analysis.curves import flagged
    from benchsheet.data.store import get_table
    from benchsheet.data.table import UNUSABLE
    from benchsheet.data.values import escaped

    table = get_table()
    if not table.runs:
        print("no private entries (add one with: benchsheet import-run PATH)")
    for run in table.runs:
        for r in table.entry_rows(run.entry):
            valid = "valid" if run.valid else "INVALID"
            cells = (r.entry, r.benchmark, r.scenario, f"{r.result:g} {r.units}", f"{r.gpus} x {r.accelerator}")
            print("\t".join(escaped(cell) for cell in (*cells, valid, run.name)))
    for c in table.curves:  # MLPerf Endpoints curves (benchsheet forget <curve> removes one)
        shown = (c.id, c.model, f"{len(c.points)} points ({flagged(c)} flagged)", f"{c.gpus} x {c.accelerator}")
        what = (
            "your own run" if c.own else "TEST submission, not an MLPerf result" if c.test else "Endpoints submission"
        )
        print("\t".join(escaped(cell) for cell in (*shown, what)))
    unusable = [note for note in table.origin.notes if note.startswith(UNUSABLE)]
    for note in unusable:  # the list is short of what the file held: say why, and exit 1
        print(f"warning: {note}", file=sys.stderr)
    return 1 if unusable else 0


def cmd_forget(args: argparse.Namespace) -> int:
    from benchsheet.data.runs import forget_curve, forget_run

    if "/" in args.entry:  # an MLPerf Endpoints curve: <submission>/<system>/<model> (no entry ID has a "/")
        forget_curve(args.entry)
    else:
        forget_run(args.entry)
    print(f"forgot {args.entry}")
    return 0


def cmd_functions(args: argparse.Namespace) -> int:
    from benchsheet.catalogue.docs import update_page
    from benchsheet.catalogue.wizard import function_list

    if args.name:
        from benchsheet.catalogue.wizard import function_help

        if args.update:
            raise BenchsheetError("--update rewrites the whole reference: give it without a function's name")
        print(function_help(args.name))
        return 0
    if args.update:
        update_page(Path(args.update), build_parser())
        print(f"updated the function and command references in {args.update}")
    else:
        print(function_list())
    return 0


def cmd_lite(args: argparse.Namespace) -> int:
    from benchsheet.data.values import CONTROL, escaped
    from benchsheet.lite import main_py, requirement_paths

    if args.file == "main.py":
        print(main_py(), end="")
        return 0
    if args.wheel_url is not None and (CONTROL.search(args.wheel_url) or any(c.isspace() for c in args.wheel_url)):
        raise BenchsheetError(
            "--wheel-url must not hold spaces or control characters (write a space as %20):"
            f" {escaped(args.wheel_url)!r}"
        )
    line, paths = requirement_paths(args.wheel_url)
    if args.file == "requirements.txt":  # the file's line alone on stdout; which path it is, on stderr
        print("\n".join(paths), file=sys.stderr)
        print(line)
    else:
        print("# ---- main.py: paste into the main.py tab of the xlwings Lite editor ----")
        print(main_py())
        print("\n".join(f"# {p}" for p in paths))  # comments: harmless if pasted with main.py
        print("# ---- requirements.txt: add below the xlwings line of the requirements.txt tab ----")
        print(line)
    return 0


# ------------------------------------------------------------------ parser


COMMANDS = (
    Command("info", "which results are loaded, from where, with their SHA-256", cmd_info),
    Command(
        "eval",
        "evaluate one Excel formula with the benchsheet functions",
        cmd_eval,
        "Evaluate an Excel formula (benchsheet functions and Excel's own) and print the value; an array "
        "prints as tab-separated rows. Exit status: 0 for a value; 1 for an error value (its code and reason "
        "on stderr) or an array holding at least one error (the array on stdout, the count on stderr); 2 for "
        "bad usage. A formula may start with '-' (benchsheet eval -1+2).",
        (opt("formula", help='e.g. \'=PERGPU("6.1-0052","gpt-oss-120b","Server")\''),),
    ),
    Command(
        "refresh",
        "download or read official summary files into the user cache",
        cmd_refresh,
        "Replace rounds in the user cache with official summary files. Without SOURCE, downloads the known "
        "rounds from MLCommons' results repositories. On any failure the previous cache is kept. A SOURCE that "
        "is an MLPerf Endpoints submission folder (or your own run's report directory) is read again as "
        "import-run reads it: its curves replaced, with the files' new SHA-256.",
        (
            opt("source", nargs="*", help="a local file or an https URL of a summary file; or an Endpoints folder"),
            opt("--round", action="append", default=[], help="a round to download (6.1); repeatable; default: all"),
            opt("--allow-host", action="append", default=[], metavar="HOST", help="also allow downloads from HOST"),
            opt("--timeout", type=float, default=30.0, help="seconds for the whole download of each file"),
        ),
    ),
    Command(
        "build-snapshot",
        "regenerate the bundled snapshot from the official files",
        cmd_build_snapshot,
        "Import the official files of every known round from a results folder and write the package's "
        "bundled snapshot.",
        (
            opt(
                "--from",
                dest="src",
                default="../shared/mlperf",
                help="folder holding v5.1/, v6.0/, v6.1/ and latency_bounds.csv",
            ),
            opt(
                "--out",
                default=str(Path(__file__).with_name("data")),  # the package benchsheet.data
                help="where to write results.json and latency_bounds.json",
            ),
        ),
    ),
    Command(
        "import-run",
        "add your own loadgen run as a private entry (local-0001, ...)",
        cmd_import_run,
        "Import an MLPerf loadgen result (mlperf_log_summary.txt, or a folder holding it) with a submission-style "
        "system.json as a private entry that every function accepts; or an MLPerf Endpoints v1.0 submission "
        "folder (results/<system>/<model>/r<N>/) as curves for CURVES, CURVEAT and BESTCURVE; or your own "
        "Endpoints run's report directory (performance/result_summary.json, config.yaml), or a folder of them "
        "one per concurrency, as a curve marked as yours (own/<name>/<model>) with --system system_desc.json.",
        (
            opt("path", help="mlperf_log_summary.txt or the folder holding it; or an Endpoints folder"),
            opt(
                "--system",
                help="system.json (default: the nearest one in PATH's folder or above); for an Endpoints run "
                "its system_desc.json (default: one in PATH or beside it)",
            ),
            opt("--name", default="", help="a label for the run (default: the system name)"),
            opt("--benchmark", help="benchmark name (default: taken from the folder names)"),
            opt("--allow-invalid", action="store_true", help="keep a run whose log says INVALID, flagged"),
        ),
    ),
    Command("runs", "list your private entries and imported Endpoints curves", cmd_runs),
    Command(
        "forget",
        "remove a private entry or an imported Endpoints curve",
        cmd_forget,
        options=(opt("entry", help="e.g. local-0001, or a curve: sub_a/system_a/gpt-oss-120b"),),
    ),
    Command(
        "functions",
        "list the functions, or print one function's help; --update rewrites the references of docs/functions.md",
        cmd_functions,
        "List every function with what it answers, or with NAME print one function's help as Excel's function "
        "wizard shows it: its signature, what it answers, each argument (required or its default, what it takes "
        "and the values the loaded results hold), the example with its answer, and the errors it answers, "
        "computed on the loaded results. --update PAGE rewrites the function and command references of PAGE.",
        options=(
            opt("name", nargs="?", metavar="NAME", help="one function, e.g. BREAKEVEN (any case)"),
            opt(
                "--update",
                metavar="PAGE",
                help="rewrite both references between their markers in PAGE (docs/functions.md)",
            ),
        ),
    ),
    Command(
        "lite",
        "print the main.py and requirements.txt of xlwings Lite (Excel on Mac and the web)",
        cmd_lite,
        "Print what to paste into the xlwings Lite editor so that benchsheet's functions work in Excel on "
        "Windows, Mac and the web: main.py and the line for requirements.txt (for PyPI, a company's own "
        "package index or a wheel's address: it prints each and says which one it assumes).",
        (
            opt("file", nargs="?", choices=("main.py", "requirements.txt"), help="print only this file"),
            opt(
                "--wheel-url",
                metavar="URL",
                help="the https address of benchsheet's wheel (`pip wheel --no-deps -w dist .` builds it), or of "
                "its folder (ending in /); the server must allow cross-origin requests (CORS). Without it, "
                "requirements.txt installs this version from a package index: PyPI, or a company's own",
            ),
        ),
    ),
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="benchsheet",
        description="MLPerf Inference results as spreadsheet functions: per-GPU values, "
        "break-even prices and cluster sizing, from the official summaries.",
        epilog="MLPerf is a trademark of MLCommons Association. Per-GPU values are derived "
        "metrics, not official MLPerf results.",
    )
    p.add_argument("--version", action="version", version=f"benchsheet {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    # benchsheet.addin and benchsheet.templates live in the top-level addin/ and
    # templates/ folders (pyproject's package-dir); mypy checks them there.
    from benchsheet.addin.cli import COMMANDS as ADDIN
    from benchsheet.templates.cli import COMMANDS as TEMPLATE

    for command in (*COMMANDS, *TEMPLATE, *ADDIN):
        add(sub, command)
    return p


def _formula_first(argv: Sequence[str]) -> list[str]:
    """``eval -1+2``: a formula starting with "-" is the formula, not an option."""
    out = list(argv)
    if len(out) >= 2 and out[0] == "eval" and out[1].startswith("-") and out[1] not in ("-h", "--help", "--"):
        out.insert(1, "--")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    if not argv:  # `benchsheet` alone: someone asking what it does
        parser.print_help()
        return 0
    args = parser.parse_args(_formula_first(argv))
    try:
        with escaping():
            code: int = args.func(args)
        return code
    except (
        BenchsheetError,
        ExcelCalcError,
    ) as exc:  # the library raises, the CLI prints: one line, and the exit status
        print_error(str(exc))
        return exc.exit_status
    except KeyboardInterrupt:
        print_error("interrupted")
        return 130
    except BrokenPipeError:  # e.g. `benchsheet eval ... | head`: the reader has gone, nothing to say
        sys.stderr.close()
        return 0
    except OSError as exc:  # a file the user named: the system's reason, with the file
        print_error(os_reason(exc))
        return 2
    except Exception as exc:  # a defect: still one line, never a bare traceback
        print_error(f"{type(exc).__name__}: {exc} (please report this)")
        return 2


if __name__ == "__main__":
    sys.exit(main())
