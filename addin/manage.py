"""Install, inspect and remove what Excel on Windows needs for the benchsheet functions.

Three parts, each decided the way xlwings 0.37.8 decides it (its ``cli.py`` and
the VBA of ``xlwings.xlam``, ``Main.bas`` and ``Config.bas``):

* the xlwings add-in itself (``xlwings addin install``/``remove``, which copy
  ``xlwings.xlam`` into Excel's XLSTART folder and need Excel on Windows);
* which Python Excel starts: ``INTERPRETER_WIN`` (else the legacy
  ``INTERPRETER``, else ``pythonw`` from PATH); only for ``python``/``pythonw``
  does the add-in activate the conda environment of ``CONDA PATH``/``CONDA ENV``
  first (``XLPyCommand``). Install writes a choice only where the user
  configuration has none (or ``--use-this-python``): in an active conda environment
  the two conda settings, as xlwings' ``config_create`` does, otherwise
  ``INTERPRETER_WIN``; then it runs that Python to check that it imports
  benchsheet's module. Every change is shown, backed up and recorded
  (``benchsheet.addin.changes``), and ``uninstall`` puts back exactly that;
* which modules Import Functions imports: ``UDF MODULES``, looked up in the
  workbook's ``xlwings.conf`` sheet, then an ``xlwings.conf`` file next to it,
  then the user configuration; only when none sets it, the workbook's own
  ``<name>.py`` (``GetConfig``, ``GetUdfModules``). A user-wide ``UDF MODULES``
  would take that default away from every other workbook, so benchsheet sets
  none: its workbook names the module in its own ``xlwings.conf`` sheet. A
  ``UDF MODULES`` line already there is the user's and stays as it is.

Running xlwings is one injectable step (``run``), so the rest is tested without Excel.
"""

from __future__ import annotations

import ntpath
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchsheet.addin.changes import Edit, Say, install_changes, put_back, recorded
from benchsheet.addin.config import (
    MISSPELT_KEY,
    UDF_KEY,
    UDF_MODULE,
    addin_settings,
    config_lines,
    udf_lines,
    udf_modules,
    xlwings_module,
)
from benchsheet.data.table import Origin
from benchsheet.errors import SetupError

Runner = Callable[[Sequence[str]], int]
ADDIN_NAME = "xlwings.xlam"
ALTERNATIVE = (
    "for Excel on Mac, the web or Windows without this add-in, `benchsheet lite` prints the module for "
    "xlwings Lite; `benchsheet template build` and `benchsheet template calc` make a workbook with computed values"
)
INTERPRETER_KEY, LEGACY_KEY, CONDA_PATH_KEY, CONDA_ENV_KEY = "INTERPRETER_WIN", "INTERPRETER", "CONDA PATH", "CONDA ENV"
PLAIN = ("python", "pythonw")  # Main.bas: names looked up on PATH; only these start a conda environment
SHEET_EXAMPLE = f'a sheet named xlwings.conf with "UDF Modules" in A1 and "{UDF_MODULE}" in B1'
INSTALL_FROM = "<benchsheet wheel or source folder>"

EXCEL_STEPS = (
    "File > Options > Trust Center > Trust Center Settings > Macro Settings: tick "
    '"Trust access to the VBA project object model". Restart Excel.',
    "Open the workbook that should have the functions and save it as a macro-enabled .xlsm. The "
    "cluster-sizing workbook (`benchsheet template build`) names benchsheet's module in its hidden "
    f"xlwings.conf sheet; a workbook of your own needs {SHEET_EXAMPLE} (list its own module too, "
    f'e.g. "mybook;{UDF_MODULE}", if it has a mybook.py).',
    "Press Alt+F11, choose Tools > References and tick xlwings; close the editor.",
    "On the xlwings tab, click Import Functions (once per workbook, and again after upgrading benchsheet).",
    'Type a formula: =PERGPU("5.1-0072","deepseek-r1","Server")',
)
"""What the user does in Excel after ``benchsheet addin install``: printed by it, and in docs/excel.md."""


class AddinError(SetupError):
    """A step of installing or removing the add-in that cannot be done; the message is one line for the user."""


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


# ------------------------------------------------------------ Excel's Python


@dataclass(frozen=True)
class ExcelPython:
    """The Python the add-in starts, and how to start it here to try it."""

    text: str  # which one, in the user's words
    command: tuple[str, ...] | None  # starts it on this computer; None where it cannot be found here
    pip: str = ""  # how to install benchsheet into it


@dataclass(frozen=True)
class Tried:
    """What running Excel's Python with ``-c "import benchsheet.udfs.functions"`` showed."""

    imports: bool | None  # None: it could not be run here
    text: str


def conda_settings() -> tuple[str, str] | None:
    """CONDA PATH and CONDA ENV of the active conda environment, by xlwings' own rule (``get_conda_settings``)."""
    xlwings_module()  # the user configuration's size checked before xlwings reads it
    from xlwings import cli

    settings: Callable[[], tuple[str | None, str | None]] = cli.get_conda_settings
    path, env = settings()
    return (str(path), str(env)) if path and env else None


def python_for_excel(settings: Mapping[str, str], which: Callable[[str], str | None] = shutil.which) -> ExcelPython:
    """The Python the add-in starts on Windows, worked out as Main.bas's ``XLPyCommand`` does."""
    python = settings.get(INTERPRETER_KEY.lower()) or settings.get(LEGACY_KEY.lower()) or "pythonw"
    key = next((k for k in (INTERPRETER_KEY, LEGACY_KEY) if settings.get(k.lower())), "")
    conda_path, conda_env = settings.get(CONDA_PATH_KEY.lower(), ""), settings.get(CONDA_ENV_KEY.lower(), "")
    if python in PLAIN and conda_path and conda_env:
        return _conda_python(conda_path, conda_env)
    if python in PLAIN:
        found = which(python)
        chosen = f"{key} = {python}" if key else f"no {INTERPRETER_KEY} set"
        here = f"here that is {found}; Excel's PATH may differ" if found else "there is none on PATH here"
        command = (found,) if found else None
        return ExcelPython(f"`{python}` from PATH ({chosen}); {here}", command, _pip(found or python))
    path = os.path.expandvars(python)  # the add-in expands %VARIABLES% (GetConfig)
    return ExcelPython(f"{python} ({key})", (path,) if Path(path).is_file() else None, _pip(path))


def _conda_python(conda_path: str, env: str) -> ExcelPython:
    # Main.bas, XLPyLoadDLL: "base" is CONDA PATH itself, a CONDA ENV with "\" is the folder, else CONDA PATH\envs\ENV
    folder = Path(conda_path) if env == "base" else Path(env) if "\\" in env else Path(conda_path, "envs", env)
    text = (
        f"the conda environment {env} of {conda_path} ({CONDA_PATH_KEY}, {CONDA_ENV_KEY}), started after "
        f"`{conda_path}\\condabin\\conda activate {env}`"
    )
    pip = f"`conda activate {env}`, then `python -m pip install {INSTALL_FROM}`"
    if os.name == "nt":  # activated, as the add-in starts it
        conda = str(Path(conda_path, "condabin", "conda.bat"))
        return ExcelPython(text, (conda, "run", "-p", str(folder), "python"), pip)
    python = folder / "bin" / "python"
    return ExcelPython(text, (str(python),) if python.is_file() else None, pip)


def _pip(python: str) -> str:
    folder, name = ntpath.split(python)  # a Windows path (ntpath also splits at "/")
    if name.lower().startswith("pythonw"):  # pythonw.exe has no console for pip: its python.exe sits next to it
        python = ntpath.join(folder, "python" + name[len("pythonw") :])
    return f'`"{python}" -m pip install {INSTALL_FROM}`'


PROBE = f"import {UDF_MODULE}, benchsheet; print(benchsheet.__version__)"


def try_python(python: ExcelPython, timeout: float = 300) -> Tried:
    """Run Excel's Python on ``-c PROBE`` with the environment a fresh process of this user gets."""
    if python.command is None:
        return Tried(None, "not tried: it is not on this computer")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    try:
        done = subprocess.run(
            [*python.command, "-c", PROBE],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            cwd=tempfile.gettempdir(),  # not a source tree that `-c` would put on sys.path
            check=False,
        )
    except OSError as exc:
        return Tried(False, f"it cannot be started: {exc.strerror or exc}")
    except subprocess.TimeoutExpired:
        return Tried(None, f"it did not answer within {timeout:.0f} s")
    if done.returncode == 0:
        version = (done.stdout.split() or ["?"])[-1]
        return Tried(True, f"it imports {UDF_MODULE} (benchsheet {version})")
    reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    return Tried(False, f"it cannot import {UDF_MODULE}: {reason}")


def python_lines(python: ExcelPython, tried: Tried) -> list[str]:
    """Which Python Excel starts, what trying it showed, and the fix where it will not work."""
    lines = [f"Python for Excel: {python.text}", f"  tried: {tried.text}"]
    if tried.imports is not True:
        lines.append(
            f"  fix: install benchsheet into that Python ({python.pip}), or make Excel start a Python "
            "that has benchsheet: run `python -m benchsheet addin install --use-this-python` with that one"
        )
    return lines


def _choose_python(config: Path, replace: bool) -> tuple[list[Edit], list[str]]:
    """The edits naming this Python where the configuration names none (or ``replace``), and notes."""
    settings = addin_settings(config)
    named = [k for k in (INTERPRETER_KEY, LEGACY_KEY, CONDA_PATH_KEY, CONDA_ENV_KEY) if settings.get(k.lower())]
    conda = conda_settings()
    if named and not replace:
        if conda is not None and any(settings.get(k.lower()) for k in (INTERPRETER_KEY, LEGACY_KEY)):
            return [], [
                f"note: {config} names a Python, so the add-in starts it without activating the conda environment "
                f"{conda[1]} (it activates one only for python/pythonw); `benchsheet addin install "
                f"--use-this-python` writes {CONDA_PATH_KEY} and {CONDA_ENV_KEY} instead and takes out "
                f"{INTERPRETER_KEY} and {LEGACY_KEY} (shown first, backed up; uninstall puts them back)"
            ]
        return [], []
    if conda is None:
        if settings.get(INTERPRETER_KEY.lower()) == sys.executable:
            return [], []
        return [Edit(INTERPRETER_KEY, sys.executable, f"{INTERPRETER_KEY} set to this Python, {sys.executable}")], []
    edits = [
        Edit(key, None, f"{key} taken out (it would start a Python without activating its conda environment)")
        for key in (INTERPRETER_KEY, LEGACY_KEY)  # either would keep the add-in from activating the environment
        if settings.get(key.lower())
    ]
    for key, value in zip((CONDA_PATH_KEY, CONDA_ENV_KEY), conda, strict=True):
        if settings.get(key.lower()) != value:
            edits.append(Edit(key, value, f"{key} set to {value} (this conda environment, as xlwings writes it)"))
    return edits, []


# ------------------------------------------------------------------ install


def install(
    config: Path,
    *,
    config_only: bool,
    platform: str,
    run: Runner,
    environ: Mapping[str, str] | None = None,
    use_this_python: bool = False,
    dry_run: bool = False,
    say: Say | None = None,
) -> list[str]:
    """Install the xlwings add-in (unless ``config_only``) and choose Excel's Python; what was done and found.

    Each line goes to ``say`` as it happens (before the change it announces), and all come back as a list.
    """
    done: list[str] = []

    def tell(line: str) -> None:
        done.append(line)
        if say is not None:
            say(line)

    if not config_only and not dry_run:
        existed = config.is_file()
        tell(_install_addin(platform, run, os.environ if environ is None else environ))
        if not existed and config.is_file():
            written = ", ".join(f"{key} = {value}" for key, value in config_lines(config))
            tell(f"{config}: created by `xlwings addin install` ({written or 'empty'})")
    if dry_run and not config_only:
        tell("xlwings add-in: `xlwings addin install` not run (--dry-run)")
    listed = udf_modules(config)
    tell(udf_text(config, listed))
    if UDF_MODULE in listed:
        tell(f"note: {_listed_for_every_workbook(config)}")
    if not is_windows(platform):
        tell(f"note: the worksheet functions need Excel on Windows; {ALTERNATIVE}")
        return done
    edits, notes = _choose_python(config, use_this_python)
    install_changes(config, edits, tell, dry_run=dry_run)
    for note in notes:
        tell(note)
    python = python_for_excel(addin_settings(config))
    for line in python_lines(python, try_python(python)):
        tell(line)
    return done


def _listed_for_every_workbook(config: Path) -> str:
    return (
        f"{config}: {UDF_KEY} lists {UDF_MODULE} for every workbook, so a workbook without its own "
        "xlwings.conf sheet imports it instead of its own <name>.py; benchsheet leaves the line as it is "
        "(benchsheet 0.1 put it there, or you did): if you do not want it, take it out of that line by hand"
    )


def udf_text(config: Path, listed: Sequence[str]) -> str:
    """What the user configuration's ``UDF MODULES`` means for every workbook."""
    if not listed:
        return (
            f"UDF modules: none set for every workbook in {config}, so Import Functions imports the modules of "
            "a workbook's own xlwings.conf sheet, else its own <name>.py (xlwings' default); the cluster-sizing "
            f"workbook's sheet names {UDF_MODULE}"
        )
    return (
        f"UDF modules: {UDF_KEY} = {';'.join(listed)} in {config}: every workbook whose own "
        "xlwings.conf sheet (or file next to it) sets no UDF Modules imports these instead of its own <name>.py"
    )


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
    return f"xlwings add-in: installed with `xlwings addin install`{f' ({where})' if where else ''}"


def uninstall(config: Path, *, config_only: bool, platform: str, run: Runner, say: Say | None = None) -> list[str]:
    """Put back what install changed in the configuration, then remove the xlwings add-in (unless ``config_only``)."""
    if not config_only and not is_windows(platform):
        raise _needs_windows(platform, "remove")
    done: list[str] = []

    def tell(line: str) -> None:
        done.append(line)
        if say is not None:
            say(line)

    put_back(config, tell)
    if not config_only:
        code = run(["addin", "remove"])
        if code != 0:
            raise AddinError(f"`xlwings addin remove` failed (exit status {code}); the configuration is put back")
        tell("xlwings add-in: removed with `xlwings addin remove`")
    return done


# ------------------------------------------------------------------- status


@dataclass(frozen=True)
class Status:
    platform: str
    addin_file: Path | None  # None: not on Windows, or no APPDATA to find it by
    addin_installed: bool
    config_file: Path
    config_exists: bool
    udf_modules: list[str]  # UDF MODULES of the user configuration, as the add-in reads it
    python: ExcelPython | None  # the Python the add-in starts, as the add-in works it out (None: not Windows)
    tried: Tried | None  # what running it showed
    data_origin: Origin  # the bundled snapshot or the user cache, and why
    data_rounds: tuple[str, ...]
    data_rows: int
    user_cache: Path
    user_cache_exists: bool
    warnings: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # the settings install changed, which uninstall puts back


def status(config: Path, *, platform: str, environ: Mapping[str, str]) -> Status:
    from benchsheet.data.store import get_table, user_cache

    settings = addin_settings(config)
    lines = udf_lines(config)
    warnings = []
    if len(lines) > 1:
        warnings.append(f'{config} has {len(lines)} "{UDF_KEY}" lines; the add-in reads only the first')
    if MISSPELT_KEY in settings:
        warnings.append(f'xlwings ignores the "UDF_MODULES" line in {config}; the key it reads is "{UDF_KEY}"')
    if UDF_MODULE in udf_modules(config):
        warnings.append(_listed_for_every_workbook(config))
    if environ.get("BENCHSHEET_HOME"):
        warnings.append("BENCHSHEET_HOME is set here; Excel's Python sees it only if it is set for your user account")
    where = addin_file(environ) if is_windows(platform) else None
    python = python_for_excel(settings) if is_windows(platform) else None
    table = get_table()
    cache = user_cache()
    return Status(
        platform=platform,
        addin_file=where,
        addin_installed=where is not None and where.is_file(),
        config_file=config,
        config_exists=config.is_file(),
        udf_modules=udf_modules(config),
        python=python,
        tried=try_python(python) if python else None,
        data_origin=table.origin,
        data_rounds=tuple(table.rounds),
        data_rows=len(table.rows),
        user_cache=cache,
        user_cache_exists=cache.is_file(),
        warnings=warnings,
        changed=recorded(config),
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
    data = f"the user cache {s.user_cache}" if s.data_origin.kind == "user" else "the bundled snapshot"
    if s.data_origin.notes:
        data += f" ({'; '.join(s.data_origin.notes)})"
    changed = f"; benchsheet changed {', '.join(s.changed)} (uninstall puts back)" if s.changed else ""
    lines = [
        f"xlwings add-in: {addin}",
        f"xlwings config: {s.config_file}{'' if s.config_exists else ' (does not exist yet)'}{changed}",
        udf_text(s.config_file, s.udf_modules),
        *(
            python_lines(s.python, s.tried)
            if s.python and s.tried
            else [
                f"Python for Excel: none on {s.platform} (Excel on Windows starts the Python its configuration names)"
            ]
        ),
        f"benchsheet runs in: {sys.executable}",
        f"data: the functions answer from {data}; rounds {', '.join(s.data_rounds)}, {s.data_rows} rows",
        f"user cache: {s.user_cache}{'' if s.user_cache_exists else ' (none yet; `benchsheet refresh` makes it)'}",
    ]
    return lines + [f"warning: {w}" for w in s.warnings]


def environment() -> Mapping[str, str]:
    return os.environ
