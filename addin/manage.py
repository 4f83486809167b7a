"""Install, inspect and remove what Excel on Windows needs for the benchsheet functions.

Two parts: the xlwings add-in itself (``xlwings addin install``/``remove``,
which copy ``xlwings.xlam`` into Excel's XLSTART folder and need Excel on
Windows) and the ``UDF MODULES`` entry of the xlwings user configuration
(``config.py``). Running xlwings is one injectable step (``run``), so the rest
is tested without Excel.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchsheet.errors import SetupError
from benchsheet.table import Origin

from .config import (
    MISSPELT_KEY,
    UDF_KEY,
    UDF_MODULE,
    add_module,
    read_settings,
    remove_module,
    set_setting,
    udf_lines,
    udf_modules,
)

Runner = Callable[[Sequence[str]], int]
ADDIN_NAME = "xlwings.xlam"
ALTERNATIVE = (
    "on macOS or Excel on the web, use `benchsheet template build` and `benchsheet template calc` "
    "for a workbook with computed values"
)


INTERPRETER_KEY = "INTERPRETER_WIN"

EXCEL_STEPS = (
    "File > Options > Trust Center > Trust Center Settings > Macro Settings: tick "
    '"Trust access to the VBA project object model". Restart Excel.',
    "In the workbook that should have the functions, saved as a macro-enabled .xlsm: press Alt+F11, "
    "choose Tools > References and tick xlwings; close the editor.",
    "On the xlwings tab, click Import Functions (once per workbook, and again after upgrading benchsheet).",
    'Type a formula: =PERGPU("5.1-0072","deepseek-r1","Server")',
)
"""What the user does in Excel after ``benchsheet addin install``: printed by it, and in the README."""


class AddinError(SetupError):
    """A step that cannot be done; the message is one line for the user."""


def run_xlwings(args: Sequence[str]) -> int:
    """``python -m xlwings.cli ARGS`` with this interpreter; its output goes to the terminal."""
    return subprocess.run([sys.executable, "-m", "xlwings.cli", *args], check=False).returncode


def this_platform() -> str:
    return sys.platform


def is_windows(platform: str) -> bool:
    return platform.startswith("win")


def addin_file(environ: Mapping[str, str]) -> Path | None:
    """Where ``xlwings addin install`` puts the add-in: Excel's default XLSTART folder of this user."""
    appdata = environ.get("APPDATA")
    return Path(appdata, "Microsoft", "Excel", "XLSTART", ADDIN_NAME) if appdata else None


def _needs_windows(platform: str, action: str) -> AddinError:
    return AddinError(
        f"`xlwings addin {action}` needs Excel on Windows and this is {platform}; "
        f"--config-only edits only the xlwings configuration; {ALTERNATIVE}"
    )


def install(
    config: Path, *, config_only: bool, platform: str, run: Runner, environ: Mapping[str, str] | None = None
) -> list[str]:
    """Install the xlwings add-in (unless ``config_only``), then add the UDF module; what was done."""
    done = []
    if not config_only:
        done.append(_install_addin(platform, run, os.environ if environ is None else environ))
    changed = add_module(config)
    done.append(f"{config}: {UDF_KEY} {'now includes' if changed else 'already includes'} {UDF_MODULE}")
    if is_windows(platform) and not read_settings(config).get(INTERPRETER_KEY.lower()):
        set_setting(config, INTERPRETER_KEY, sys.executable)  # xlwings writes it only into a new file
        done.append(f"{config}: {INTERPRETER_KEY} set to this Python, {sys.executable}")
    if not is_windows(platform):
        done.append(f"note: the worksheet functions need Excel on Windows; {ALTERNATIVE}")
    return done


def _install_addin(platform: str, run: Runner, environ: Mapping[str, str]) -> str:
    if not is_windows(platform):
        raise _needs_windows(platform, "install")
    code = run(["addin", "install"])
    if code != 0:
        raise AddinError(f"`xlwings addin install` failed (exit status {code}); the configuration is unchanged")
    where = addin_file(environ)
    if where is not None and not where.is_file():  # xlwings reports some failures with exit status 0
        raise AddinError(
            f"`xlwings addin install` did not install the add-in ({where} is missing; its message above says "
            "why, e.g. Excel was running); the configuration is unchanged"
        )
    return "xlwings add-in: installed with `xlwings addin install`"


def uninstall(config: Path, *, config_only: bool, platform: str, run: Runner) -> list[str]:
    """Take the UDF module out of the configuration, then remove the xlwings add-in (unless ``config_only``)."""
    if not config_only and not is_windows(platform):
        raise _needs_windows(platform, "remove")
    changed = remove_module(config)
    done = [f"{config}: {UDF_KEY} {'no longer includes' if changed else 'did not include'} {UDF_MODULE}"]
    if not config_only:
        code = run(["addin", "remove"])
        if code != 0:
            raise AddinError(f"`xlwings addin remove` failed (exit status {code}); {UDF_MODULE} is already unlisted")
        done.append("xlwings add-in: removed with `xlwings addin remove`")
    return done


# ------------------------------------------------------------------- status


@dataclass(frozen=True)
class Status:
    platform: str
    addin_file: Path | None  # None: not on Windows, or no APPDATA to find it by
    addin_installed: bool
    config_file: Path
    config_exists: bool
    udf_modules: list[str]  # as the add-in will read them
    python: str  # the Python the add-in starts, as the add-in works it out
    data_origin: Origin  # the bundled snapshot or the user cache, and why
    data_rounds: tuple[str, ...]
    data_rows: int
    user_cache: Path
    user_cache_exists: bool
    warnings: list[str] = field(default_factory=list)

    @property
    def configured(self) -> bool:
        return UDF_MODULE in self.udf_modules


def python_for_excel(settings: Mapping[str, str]) -> str:
    """The Python the add-in starts on Windows, worked out as its VBA does (INTERPRETER_WIN, then conda)."""
    python = settings.get("interpreter_win") or settings.get("interpreter") or "pythonw"
    conda_path, conda_env = settings.get("conda path"), settings.get("conda env")
    if python in ("python", "pythonw") and conda_path and conda_env:
        return f"the conda environment {conda_env} of {conda_path}"
    if python in ("python", "pythonw"):
        return f"`{python}` found on PATH; set INTERPRETER_WIN to the Python that has benchsheet"
    return python


def status(config: Path, *, platform: str, environ: Mapping[str, str]) -> Status:
    from benchsheet.store import get_table, user_cache

    settings = read_settings(config)
    lines = udf_lines(config)
    warnings = []
    if len(lines) > 1:
        warnings.append(f'{config} has {len(lines)} "{UDF_KEY}" lines; the add-in reads only the first')
    if MISSPELT_KEY in settings:
        warnings.append(f'xlwings ignores the "UDF_MODULES" line in {config}; the key it reads is "{UDF_KEY}"')
    if environ.get("BENCHSHEET_HOME"):
        warnings.append("BENCHSHEET_HOME is set here; Excel's Python sees it only if it is set for your user account")
    where = addin_file(environ) if is_windows(platform) else None
    table = get_table()
    cache = user_cache()
    return Status(
        platform=platform,
        addin_file=where,
        addin_installed=where is not None and where.is_file(),
        config_file=config,
        config_exists=config.is_file(),
        udf_modules=udf_modules(config),
        python=python_for_excel(settings),
        data_origin=table.origin,
        data_rounds=tuple(table.rounds),
        data_rows=len(table.rows),
        user_cache=cache,
        user_cache_exists=cache.is_file(),
        warnings=warnings,
    )


def render(s: Status) -> list[str]:
    """The status as lines for a terminal."""
    if not is_windows(s.platform):
        addin = f"not applicable on {s.platform}: the worksheet functions need Excel on Windows; {ALTERNATIVE}"
    elif s.addin_file is None:
        addin = "unknown (APPDATA is not set); `xlwings addin status` asks Excel"
    elif s.addin_installed:
        addin = f"installed ({s.addin_file})"
    else:
        addin = f"not found at {s.addin_file}; run `benchsheet addin install`"
    listed = ";".join(s.udf_modules) or "none"
    modules = (
        f"{UDF_MODULE} is configured ({UDF_KEY} = {listed})"
        if s.configured
        else f"{UDF_MODULE} is not configured ({UDF_KEY} = {listed}); run `benchsheet addin install`"
    )
    data = f"the user cache {s.user_cache}" if s.data_origin.kind == "user" else "the bundled snapshot"
    if s.data_origin.notes:
        data += f" ({'; '.join(s.data_origin.notes)})"
    lines = [
        f"xlwings add-in: {addin}",
        f"xlwings config: {s.config_file}{'' if s.config_exists else ' (does not exist yet)'}",
        f"UDF modules: {modules}",
        f"Python for Excel: {s.python}",
        f"benchsheet runs in: {sys.executable}",
        f"data: the functions answer from {data}; rounds {', '.join(s.data_rounds)}, {s.data_rows} rows",
        f"user cache: {s.user_cache}{'' if s.user_cache_exists else ' (none yet; `benchsheet refresh` makes it)'}",
    ]
    return lines + [f"warning: {w}" for w in s.warnings]


def environment() -> Mapping[str, str]:
    return os.environ
