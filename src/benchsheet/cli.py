"""The ``benchsheet`` command: a thin shell over the library.

Each subcommand converts its arguments, calls the library and reports; no
analysis lives here. Errors print one clear line (never a bare traceback) and
exit non-zero: 1 for an error value from ``eval``, 2 for anything else.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__


def _err(message: str) -> None:
    from rich.console import Console

    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] {message}", markup=True)


# ---------------------------------------------------------------- commands


def cmd_info(args: argparse.Namespace) -> int:
    from .store import BUNDLED, get_table, user_cache

    table = get_table()
    print(f"benchsheet {__version__}")
    print(f"data: {table.origin}")
    print(f"user cache: {user_cache()}")
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
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from .engine import evaluate, format_value, is_error

    value = evaluate(args.formula)
    text = format_value(value)
    if is_error(value):
        print(text, file=sys.stderr)
        return 1
    print(text)
    return 0


def cmd_refresh(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

    from .refresh import DEFAULT_HOSTS, Policy, RefreshError, refresh, sources_for

    policy = Policy(hosts=DEFAULT_HOSTS + tuple(h.lower() for h in args.allow_host), timeout=args.timeout)
    try:
        sources = list(args.source) or sources_for(args.round)
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            transient=True,
            disable=not sys.stderr.isatty(),
        ) as bar:
            tasks: dict[str, Any] = {}

            def progress(src: str, got: int, total: int | None) -> None:
                if src not in tasks:
                    tasks[src] = bar.add_task(src.rsplit("/", 2)[-2] if "/" in src else src, total=total)
                bar.update(tasks[src], completed=got)

            table = refresh(sources, policy, progress)
    except RefreshError as exc:
        _err(f"refresh failed, the previous cache is unchanged: {exc}")
        return 2
    except TimeoutError:
        _err("another refresh holds the cache lock; try again when it has finished")
        return 2
    print(f"refreshed: {', '.join(table.rounds)} ({len(table.rows)} rows) -> user cache")
    for s in table.sources:
        print(f"  v{s.round}: {s.rows} rows, sha256 {s.sha256}")
    return 0


def cmd_build_snapshot(args: argparse.Namespace) -> int:
    from .snapshot import write_snapshot

    table = write_snapshot(Path(args.src), Path(args.out))
    print(f"wrote {args.out}: {len(table.rows)} rows from {len(table.sources)} files")
    return 0


def cmd_functions(args: argparse.Namespace) -> int:
    from .docs import function_reference

    print(function_reference())
    return 0


# ------------------------------------------------------------------ parser


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

    s = sub.add_parser("info", help="which results are loaded, from where, with their SHA-256")
    s.set_defaults(func=cmd_info)

    s = sub.add_parser(
        "eval",
        help="evaluate one Excel formula with the benchsheet functions",
        description="Evaluate an Excel formula (benchsheet functions and Excel's "
        "own) and print the value; an error prints its code and reason and "
        "exits 1.",
    )
    s.add_argument("formula", help='e.g. \'=PERGPU("6.1-0052","gpt-oss-120b","Server")\'')
    s.set_defaults(func=cmd_eval)

    s = sub.add_parser(
        "refresh",
        help="download or read official summary files into the user cache",
        description="Replace rounds in the user cache with "
        "official summary files. Without SOURCE, downloads the known rounds "
        "from MLCommons' results repositories. On any failure the previous "
        "cache is kept.",
    )
    s.add_argument("source", nargs="*", help="a local file or an https URL of a summary file")
    s.add_argument(
        "--round",
        action="append",
        default=[],
        help="a round to download (6.1); repeatable; default: all known rounds",
    )
    s.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="HOST",
        help="also allow downloads from HOST",
    )
    s.add_argument("--timeout", type=float, default=30.0, help="connect/read timeout, seconds")
    s.set_defaults(func=cmd_refresh)

    s = sub.add_parser(
        "build-snapshot",
        help="regenerate the bundled snapshot from the official files",
        description="Import the official files of every "
        "known round from a results folder and write the package's bundled "
        "snapshot.",
    )
    s.add_argument(
        "--from",
        dest="src",
        default="../shared/mlperf",
        help="folder holding v5.1/, v6.0/, v6.1/ and latency_bounds.csv",
    )
    s.add_argument(
        "--out",
        default=str(Path(__file__).with_name("data")),
        help="where to write results.json and latency_bounds.json",
    )
    s.set_defaults(func=cmd_build_snapshot)

    s = sub.add_parser("functions", help="print the function reference (Markdown)")
    s.set_defaults(func=cmd_functions)

    # benchsheet.addin and benchsheet.templates live in the top-level addin/ and
    # templates/ folders (pyproject's package-dir); mypy checks them there.
    from benchsheet.addin.cli import add_commands as addin_commands  # type: ignore[import-not-found,unused-ignore]
    from benchsheet.templates.cli import add_commands as template_commands  # type: ignore[import-not-found,unused-ignore]

    template_commands(sub)
    addin_commands(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except Exception as exc:  # the CLI never shows a bare traceback
        from .errors import DataError

        if isinstance(exc, DataError | OSError):
            _err(str(exc))
        else:
            _err(f"{type(exc).__name__}: {exc} (please report this)")
        return 2


if __name__ == "__main__":
    sys.exit(main())
