"""``benchsheet addin install|status|uninstall`` (``remove``): the worksheet functions in Excel on Windows.

Each command prints what it did or found; an error prints one line and
returns 2. Nothing heavy is imported until a command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchsheet.commands import Command, opt


def _config_file(args: argparse.Namespace) -> Path:
    from benchsheet.addin.config import default_config_file

    return Path(args.config) if args.config else default_config_file()


def cmd_install(args: argparse.Namespace) -> int:
    from benchsheet.addin import manage

    platform = manage.this_platform()
    manage.install(
        _config_file(args),
        config_only=args.config_only,
        platform=platform,
        run=manage.run_xlwings,
        environ=manage.environment(),
        use_this_python=args.use_this_python,
        dry_run=args.dry_run,
        say=print,
    )
    if manage.is_windows(platform) and not args.dry_run:
        print("Next, in Excel:")
        print("\n".join(f"  {i}. {step}" for i, step in enumerate(manage.EXCEL_STEPS, start=1)))
    return 0


def cmd_uninstall(args: argparse.Namespace) -> int:
    from benchsheet.addin import manage

    manage.uninstall(
        _config_file(args),
        config_only=args.config_only,
        platform=manage.this_platform(),
        run=manage.run_xlwings,
        say=print,
    )
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from benchsheet.addin import manage

    found = manage.status(_config_file(args), platform=manage.this_platform(), environ=manage.environment())
    print("\n".join(manage.render(found)))
    return 0


CONFIG = opt(
    "--config",
    metavar="FILE",
    help="the xlwings user configuration (default: the one the add-in reads, ~/.xlwings/xlwings.conf)",
)

COMMANDS = (
    Command(
        "addin",
        "set up the worksheet functions in Excel on Windows (xlwings add-in)",
        description="Set up, inspect or remove the benchsheet worksheet functions in Excel on Windows: the "
        "xlwings add-in and the Python it starts. On macOS and Excel on the web, "
        "use `benchsheet lite` (xlwings Lite) or `benchsheet template build`.",
        metavar="ACTION",
        commands=(
            Command(
                "install",
                "install the xlwings add-in and choose the Python Excel starts",
                cmd_install,
                "Run `xlwings addin install` (Windows, Excel installed). Where the xlwings user configuration names "
                "no Python for Excel, name this one, as xlwings does (in an active conda environment \"CONDA PATH\" "
                "and \"CONDA ENV\", otherwise \"INTERPRETER_WIN\"); then run the Python Excel will start and say "
                "whether it imports benchsheet. \"UDF MODULES\" is not set (benchsheet's workbook names its module "
                "in its own xlwings.conf sheet); a \"UDF MODULES\" line already there stays as it is. Before it "
                "changes the file it shows the lines it takes out and adds, keeps a backup beside it "
                "(xlwings.conf.benchsheet-backup, -2, ...) and records the change for uninstall. Every other line "
                "stays; running it again changes nothing.",
                (
                    opt("--config-only", action="store_true", help="only edit the xlwings configuration; skip "
                        "`xlwings addin install` (works on any system)"),
                    opt("--use-this-python", action="store_true", help="make Excel start this Python even where "
                        "the configuration names another"),
                    opt("--dry-run", action="store_true", help="show what it would write; change nothing"),
                    CONFIG,
                ),
            ),
            Command(
                "status",
                "what is installed and which data the functions use",
                cmd_status,
                "Show whether the xlwings add-in is installed, which UDF modules the user configuration sets for "
                "every workbook, which Python the add-in starts and whether it imports benchsheet (it is run), "
                "and whether the functions answer from the bundled snapshot or the user cache.",
                (CONFIG,),
            ),
            Command(
                "uninstall",
                "put back what install changed and remove the xlwings add-in (alias: remove)",
                cmd_uninstall,
                "Put back in the xlwings configuration exactly what `benchsheet addin install` changed (the "
                "whole file where nobody changed it since, else each setting install changed and nobody changed "
                "since; the file as it was is backed up beside it), then run `xlwings addin remove`. A setting "
                "install did not change stays, \"UDF MODULES\" included. `benchsheet addin remove` is the same "
                "command.",
                (
                    opt("--config-only", action="store_true", help="only edit the xlwings configuration; keep "
                        "the xlwings add-in (e.g. other workbooks use it)"),
                    CONFIG,
                ),
                aliases=("remove",),
            ),
        ),
    ),
)  # fmt: skip
