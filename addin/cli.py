"""``benchsheet addin install|status|uninstall``: the worksheet functions in Excel on Windows.

Each command prints what it did or found; an error prints one line and
returns 2. Nothing heavy is imported until a command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def _config_file(args: argparse.Namespace) -> Path:
    from .config import default_config_file

    return Path(args.config) if args.config else default_config_file()


def cmd_install(args: argparse.Namespace) -> int:
    from . import manage

    platform = manage.this_platform()
    done = manage.install(
        _config_file(args),
        config_only=args.config_only,
        platform=platform,
        run=manage.run_xlwings,
        environ=manage.environment(),
    )
    print("\n".join(done))
    if manage.is_windows(platform):
        print("Next, in Excel:")
        print("\n".join(f"  {i}. {step}" for i, step in enumerate(manage.EXCEL_STEPS, start=1)))
    return 0


def cmd_uninstall(args: argparse.Namespace) -> int:
    from . import manage

    done = manage.uninstall(
        _config_file(args), config_only=args.config_only, platform=manage.this_platform(), run=manage.run_xlwings
    )
    print("\n".join(done))
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from . import manage

    found = manage.status(_config_file(args), platform=manage.this_platform(), environ=manage.environment())
    print("\n".join(manage.render(found)))
    return 0


def _add_config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="the xlwings user configuration (default: the one the add-in reads, ~/.xlwings/xlwings.conf)",
    )


def add_commands(sub: Any) -> None:
    """Add ``addin`` and its actions to the ``benchsheet`` parser."""
    p = sub.add_parser(
        "addin",
        help="set up the worksheet functions in Excel on Windows (xlwings add-in)",
        description="Set up, inspect or remove the benchsheet worksheet functions in Excel on "
        "Windows: the xlwings add-in plus benchsheet's module in the xlwings configuration. "
        "On macOS and Excel on the web, use `benchsheet template build` instead.",
    )
    actions = p.add_subparsers(dest="addin_action", metavar="ACTION", required=True)

    s = actions.add_parser(
        "install",
        help="install the xlwings add-in and list benchsheet's functions in its configuration",
        description="Run `xlwings addin install` (Windows, Excel installed) and add "
        '"benchsheet.udfs.functions" to "UDF MODULES" in the xlwings user configuration, '
        "keeping every other setting and module. Running it again changes nothing.",
    )
    s.add_argument(
        "--config-only",
        action="store_true",
        help="only edit the xlwings configuration; skip `xlwings addin install` (works on any system)",
    )
    _add_config_option(s)
    s.set_defaults(func=cmd_install)

    s = actions.add_parser(
        "status",
        help="what is installed and which data the functions use",
        description="Show whether the xlwings add-in is installed, whether benchsheet's module is "
        "configured, which Python the add-in starts, and whether the functions answer from the "
        "bundled snapshot or the user cache.",
    )
    _add_config_option(s)
    s.set_defaults(func=cmd_status)

    s = actions.add_parser(
        "uninstall",
        help="take benchsheet out of the xlwings configuration and remove the xlwings add-in",
        description='Remove "benchsheet.udfs.functions" from "UDF MODULES" (other modules stay), '
        "then run `xlwings addin remove`.",
    )
    s.add_argument(
        "--config-only",
        action="store_true",
        help="only edit the xlwings configuration; keep the xlwings add-in (e.g. other workbooks use it)",
    )
    _add_config_option(s)
    s.set_defaults(func=cmd_uninstall)
