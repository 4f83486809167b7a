"""``benchsheet addin``: the xlwings configuration edits, the add-in step, the commands.

Every test works on a configuration file in a temporary folder; xlwings' own
default (``xlwings.USER_CONFIG_FILE``) is pointed there too, so the real
``~/.xlwings/xlwings.conf`` is never touched. Running ``xlwings addin install``
(which needs Excel) is replaced by a recorder; the platform is passed in (or
patched for the commands). What xlwings decides is taken from xlwings itself:
its ``config_create`` and ``get_conda_settings``, and the VBA of the
``xlwings.xlam`` it installs, read with oletools. The Python Excel would start
is really run: this interpreter, and a fresh virtual environment without
benchsheet.
"""

from __future__ import annotations

import locale
import os
import re
import shutil
import subprocess
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import pytest
import xlwings
from xlwings import cli as xlwings_cli
from xlwings.utils import read_user_config

import benchsheet
from benchsheet import cli
from benchsheet.addin import config, manage
from benchsheet.addin.config import UDF_MODULE, ConfigError, udf_lines, udf_modules
from benchsheet.addin.manage import AddinError, install, render, status, uninstall
from benchsheet.data import store
from benchsheet.templates import sheets as S
from tests import ROOT

EXISTING = (
    '"INTERPRETER_WIN","C:\\Users\\me\\venv\\Scripts\\pythonw.exe"\n'
    '"UDF MODULES","mymod;other.mod"\n'
    '"CONDA ENV","base"\n'
    '"SHOW CONSOLE","True"\n'
)
EARLIER = EXISTING.replace("mymod;other.mod", f"mymod;other.mod;{UDF_MODULE}")  # as benchsheet 0.1's install left it


class Recorder:
    """Stands in for running ``python -m xlwings.cli``: records each call, answers ``code``."""

    def __init__(self, code: int = 0) -> None:
        self.code = code
        self.calls: list[list[str]] = []

    def __call__(self, args: Sequence[str]) -> int:
        self.calls.append(list(args))
        return self.code


@pytest.fixture
def conf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The xlwings user configuration of a temporary home; xlwings' default points at it."""
    path = tmp_path / "home" / ".xlwings" / "xlwings.conf"
    monkeypatch.setattr(xlwings, "USER_CONFIG_FILE", str(path))
    return path


def _xlwings_reads(path: Path) -> dict[str, str]:
    """The settings as xlwings' own reader sees them."""
    saved = xlwings.USER_CONFIG_FILE
    xlwings.USER_CONFIG_FILE = str(path)
    try:
        settings: dict[str, str] = read_user_config()  # type: ignore[no-untyped-call]  # xlwings has no annotations
        return settings
    finally:
        xlwings.USER_CONFIG_FILE = saved


# ------------------------------------------------------------ configuration


def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary home for the processes this test starts (xlwings reads ~ when it is imported)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    return home


def test_the_default_file_is_the_one_xlwings_uses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = _home(tmp_path, monkeypatch)
    # xlwings' own command line writes the user configuration where xlwings reads it
    subprocess.run([sys.executable, "-m", "xlwings.cli", "config", "create"], check=True, capture_output=True)
    written = [p for p in home.rglob("*") if p.is_file()]
    ask = "from benchsheet.addin.config import default_config_file; print(default_config_file())"
    ours = subprocess.run([sys.executable, "-c", ask], check=True, capture_output=True, text=True).stdout.strip()
    assert written == [Path(ours)]


def test_module_lists_are_trimmed_and_deduplicated() -> None:
    assert config.split_modules(" a ; b;;a;") == ["a", "b"]


def test_other_spellings_of_the_key_are_read_as_the_add_in_reads_them(tmp_path: Path) -> None:
    # The add-in compares keys case-insensitively and reads the first match only.
    path = tmp_path / "xlwings.conf"
    path.write_text(f'"UDF Modules","mymod;{UDF_MODULE}"\n"INTERPRETER_WIN","py"\n"udf modules","second;mymod"\n')
    assert udf_lines(path) == [("UDF Modules", f"mymod;{UDF_MODULE}"), ("udf modules", "second;mymod")]
    assert udf_modules(path) == ["mymod", UDF_MODULE]


def test_a_udf_modules_line_with_an_underscore_is_not_the_key(tmp_path: Path) -> None:
    path = tmp_path / "xlwings.conf"
    path.write_text(f'"UDF_MODULES","{UDF_MODULE}"\n')
    assert udf_modules(path) == []


def test_a_folder_as_the_configuration_is_a_config_error(tmp_path: Path, conf: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    with pytest.raises(ConfigError, match="a-folder"):
        install(folder, config_only=True, platform="win32", run=Recorder(), environ={})
    assert str(conf) == xlwings.USER_CONFIG_FILE


# ----------------------------------------------------- install and uninstall


def _xlstart(tmp_path: Path) -> dict[str, str]:
    """An APPDATA whose XLSTART folder holds xlwings.xlam, as `xlwings addin install` leaves it."""
    xlstart = tmp_path / "AppData" / "Microsoft" / "Excel" / "XLSTART"
    xlstart.mkdir(parents=True, exist_ok=True)
    (xlstart / "xlwings.xlam").write_bytes(b"")
    return {"APPDATA": str(tmp_path / "AppData")}


@pytest.fixture(autouse=True)
def no_conda(monkeypatch: pytest.MonkeyPatch) -> None:
    """No conda environment is active unless a test activates one (xlwings reads these two)."""
    for name in ("CONDA_DEFAULT_ENV", "CONDA_EXE", "CONDA_PREFIX"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A real Python without benchsheet: a fresh virtual environment of this interpreter."""
    folder = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    return str(folder / "bin" / "python")


def _fix(python: str) -> str:
    return (
        f'  fix: install benchsheet into that Python (`"{python}" -m pip install {manage.INSTALL_FROM}`), '
        "or make Excel start a Python that has benchsheet: run `python -m benchsheet addin install --use-this-python` "
        "with that one"
    )


NO_BENCHSHEET = f"  tried: it cannot import {UDF_MODULE}: ModuleNotFoundError: No module named 'benchsheet'"
IMPORTS = f"  tried: it imports {UDF_MODULE} (benchsheet {benchsheet.__version__})"


def test_install_runs_xlwings_and_names_this_python_without_touching_udf_modules(tmp_path: Path, conf: Path) -> None:
    run = Recorder()
    done = install(conf, config_only=False, platform="win32", run=run, environ=_xlstart(tmp_path))
    assert run.calls == [["addin", "install"]]
    assert conf.read_text() == f'"INTERPRETER_WIN","{sys.executable}"\n'  # no UDF MODULES for every workbook
    assert done == [
        f"xlwings add-in: installed with `xlwings addin install` ({tmp_path / 'AppData'}"
        f"{os.sep}Microsoft{os.sep}Excel{os.sep}XLSTART{os.sep}xlwings.xlam)",
        f"UDF modules: none set for every workbook in {conf}, so Import Functions imports the modules of a "
        "workbook's own xlwings.conf sheet, else its own <name>.py (xlwings' default); the cluster-sizing "
        f"workbook's sheet names {UDF_MODULE}",
        f"{conf}: INTERPRETER_WIN set to this Python, {sys.executable}",
        f"{conf}: benchsheet will write (a new file):",
        f'  + "INTERPRETER_WIN","{sys.executable}"',
        f"Python for Excel: {sys.executable} (INTERPRETER_WIN)",
        IMPORTS,
    ]


class XlwingsConfigCreate(Recorder):
    """`xlwings addin install` ends with its own `config_create`: this runs the real one (`xlwings config create`)."""

    def __call__(self, args: Sequence[str]) -> int:
        super().__call__(args)
        return manage.run_xlwings(["config", "create"])


def test_install_says_what_xlwings_wrote_into_a_new_configuration(
    tmp_path: Path, conf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _home(tmp_path, monkeypatch)  # the home of `conf`, for the xlwings that runs
    done = install(conf, config_only=False, platform="win32", run=XlwingsConfigCreate(), environ=_xlstart(tmp_path))
    assert conf.read_text() == f'"INTERPRETER_WIN","{sys.executable}"\n'  # written by xlwings, so nothing to add
    assert done[1] == f"{conf}: created by `xlwings addin install` (INTERPRETER_WIN = {sys.executable})"
    assert done[2].startswith("UDF modules: none set") and done[3:] == [
        f"Python for Excel: {sys.executable} (INTERPRETER_WIN)",
        IMPORTS,
    ]


def test_install_leaves_the_udf_modules_entry_of_benchsheet_0_1_and_says_so(conf: Path) -> None:
    """benchsheet 0.1 listed itself there without a record: install cannot tell it from the user's own entry."""
    conf.parent.mkdir(parents=True)
    conf.write_text(EARLIER)
    done = install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
    assert conf.read_text() == EARLIER
    assert done[0] == (
        f"UDF modules: UDF MODULES = mymod;other.mod;{UDF_MODULE} in {conf}: every workbook whose own "
        "xlwings.conf sheet (or file next to it) sets no UDF Modules imports these instead of its own <name>.py"
    )
    assert done[1] == (
        f"note: {conf}: UDF MODULES lists {UDF_MODULE} for every workbook, so a workbook without its own "
        "xlwings.conf sheet imports it instead of its own <name>.py; benchsheet leaves the line as it is "
        "(benchsheet 0.1 put it there, or you did): if you do not want it, take it out of that line by hand"
    )


def test_install_names_this_python_only_where_the_configuration_names_none(
    tmp_path: Path, conf: Path, bare_python: str
) -> None:
    """xlwings writes INTERPRETER_WIN only into a configuration it creates; an existing one may have none."""
    conf.parent.mkdir(parents=True)
    conf.write_text('"SHOW CONSOLE","True"\n')
    install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
    assert _xlwings_reads(conf) == {"show console": "True", "interpreter_win": sys.executable}
    for chosen in (
        f'"INTERPRETER_WIN","{bare_python}"\n',
        f'"INTERPRETER","{bare_python}"\n',
        '"CONDA PATH","C:\\\\conda"\n"CONDA ENV","bench"\n',
    ):
        conf.write_text(chosen)
        install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
        assert conf.read_text() == chosen  # kept
    install(tmp_path / "linux.conf", config_only=True, platform="linux", run=Recorder(), environ={})
    assert not (tmp_path / "linux.conf").exists()  # not Excel's Python


def test_install_keeps_another_python_says_it_cannot_import_benchsheet_and_the_fix(
    conf: Path, bare_python: str
) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(f'"INTERPRETER_WIN","{bare_python}"\n')
    done = install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
    assert conf.read_text() == f'"INTERPRETER_WIN","{bare_python}"\n'
    assert done[-3:] == [f"Python for Excel: {bare_python} (INTERPRETER_WIN)", NO_BENCHSHEET, _fix(bare_python)]
    done = install(conf, config_only=True, platform="win32", run=Recorder(), environ={}, use_this_python=True)
    assert _xlwings_reads(conf) == {"interpreter_win": sys.executable}
    backup = conf.with_name("xlwings.conf.benchsheet-backup")
    assert done[-7:] == [
        f"{conf}: INTERPRETER_WIN set to this Python, {sys.executable}",
        f"{conf}: benchsheet will write:",
        f'  - "INTERPRETER_WIN","{bare_python}"',
        f'  + "INTERPRETER_WIN","{sys.executable}"',
        f"{conf}: backup of the file as it was: {backup}",
        f"Python for Excel: {sys.executable} (INTERPRETER_WIN)",
        IMPORTS,
    ]
    assert backup.read_text() == f'"INTERPRETER_WIN","{bare_python}"\n'


def test_the_legacy_interpreter_setting_is_the_one_tried_when_interpreter_win_is_empty(
    conf: Path, bare_python: str
) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(f'"INTERPRETER_WIN",""\n"INTERPRETER","{bare_python}"\n"INTERPRETER_WIN","{sys.executable}"\n')
    lines = render(status(conf, platform="win32", environ={}))
    # the add-in reads the first INTERPRETER_WIN line (empty), then INTERPRETER
    assert lines[3:6] == [f"Python for Excel: {bare_python} (INTERPRETER)", NO_BENCHSHEET, _fix(bare_python)]


def test_a_python_that_is_not_on_this_computer_is_named_and_not_tried(conf: Path) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(EXISTING)
    lines = render(status(conf, platform="win32", environ={}))
    python = "C:\\Users\\me\\venv\\Scripts\\pythonw.exe"
    assert lines[3:6] == [
        f"Python for Excel: {python} (INTERPRETER_WIN)",
        "  tried: not tried: it is not on this computer",
        _fix("C:\\Users\\me\\venv\\Scripts\\python.exe"),  # pip runs in python.exe, next to pythonw.exe
    ]


@pytest.fixture
def conda_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """An active conda environment "bench": the variables conda's activation sets and xlwings reads."""
    root = tmp_path / "miniconda3"
    monkeypatch.setenv("CONDA_EXE", str(root / "bin" / "conda"))  # Windows: ...\Scripts\conda.exe
    monkeypatch.setenv("CONDA_DEFAULT_ENV", "bench")
    monkeypatch.setenv("CONDA_PREFIX", str(root / "envs" / "bench"))
    return str(root), "bench"


def _xlwings_config_create(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lines xlwings' own `config_create` (run by `xlwings addin install`) writes on Windows, here."""
    with monkeypatch.context() as m:
        m.setattr(xlwings, "USER_CONFIG_FILE", str(path))
        m.setattr(sys, "platform", "win32")  # config_create writes CONDA PATH/ENV on Windows only
        xlwings_cli.config_create(None)  # type: ignore[no-untyped-call]  # xlwings has no annotations
    return path.read_text().splitlines()


def test_install_in_conda_writes_the_conda_settings_as_xlwings_does_and_no_interpreter(
    tmp_path: Path, conf: Path, conda_env: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, env = conda_env
    by_xlwings = _xlwings_config_create(tmp_path / "by-xlwings.conf", monkeypatch)
    assert by_xlwings == [f'"CONDA PATH","{root}"', f'"CONDA ENV","{env}"']  # and no INTERPRETER_WIN
    conf.parent.mkdir(parents=True)
    conf.write_text('"SHOW CONSOLE","True"\n')  # a configuration without a Python: xlwings leaves it alone
    done = install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
    assert conf.read_text().splitlines() == ['"SHOW CONSOLE","True"', *by_xlwings]
    assert manage.python_for_excel(config.addin_settings(conf)).text == (
        f"the conda environment bench of {root} (CONDA PATH, CONDA ENV), started after "
        f"`{root}\\condabin\\conda activate bench`"
    )
    assert done[-2] == "  tried: not tried: it is not on this computer"
    assert install(conf, config_only=True, platform="win32", run=Recorder(), environ={})[1:-3] == []  # no change


def test_install_in_conda_keeps_the_interpreter_an_earlier_benchsheet_wrote_unless_asked(
    tmp_path: Path, conf: Path, conda_env: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, env = conda_env
    by_xlwings = _xlwings_config_create(tmp_path / "by-xlwings.conf", monkeypatch)
    conf.parent.mkdir(parents=True)
    text = "\n".join([*by_xlwings, f'"UDF MODULES","{UDF_MODULE}"', f'"INTERPRETER_WIN","{sys.executable}"'])
    conf.write_text(text)
    # benchsheet 0.1's INTERPRETER_WIN makes the add-in start that Python without activating the environment:
    # install says so and how to change it, and changes nothing
    done = install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
    assert conf.read_text() == text
    assert f"note: {conf} names a Python, so the add-in starts it without activating the conda environment bench " \
        "(it activates one only for python/pythonw); `benchsheet addin install --use-this-python` writes CONDA PATH " \
        "and CONDA ENV instead and takes out INTERPRETER_WIN and INTERPRETER (shown first, backed up; uninstall " \
        "puts them back)" in done  # fmt: skip
    done = install(conf, config_only=True, platform="win32", run=Recorder(), environ={}, use_this_python=True)
    assert conf.read_text().splitlines() == [*by_xlwings, f'"UDF MODULES","{UDF_MODULE}"']
    taken = "INTERPRETER_WIN taken out (it would start a Python without activating its conda environment)"
    assert f"{conf}: {taken}" in done
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", f"{root}/envs/{env}"], check=True, timeout=120)
    lines = render(status(conf, platform="win32", environ={}))
    assert lines[3].startswith("Python for Excel: the conda environment bench of ")
    assert lines[4:6] == [NO_BENCHSHEET, "  fix: install benchsheet into that Python (`conda activate bench`, then "
        "`python -m pip install <benchsheet wheel or source folder>`), or make Excel start a Python that has "
        "benchsheet: run `python -m benchsheet addin install --use-this-python` with that one"]  # fmt: skip


def test_install_in_conda_keeps_a_python_the_user_chose(
    conf: Path, conda_env: tuple[str, str], bare_python: str
) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(f'"INTERPRETER_WIN","{bare_python}"\n')
    done = install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
    assert conf.read_text() == f'"INTERPRETER_WIN","{bare_python}"\n'  # the add-in ignores conda for it
    assert done[-3:] == [f"Python for Excel: {bare_python} (INTERPRETER_WIN)", NO_BENCHSHEET, _fix(bare_python)]
    install(conf, config_only=True, platform="win32", run=Recorder(), environ={}, use_this_python=True)
    root, env = conda_env
    assert conf.read_text().splitlines() == [f'"CONDA PATH","{root}"', f'"CONDA ENV","{env}"']


@pytest.mark.parametrize(
    ("settings", "python"),
    [
        ({"interpreter_win": "C:\\py\\pythonw.exe", "interpreter": "other"}, "C:\\py\\pythonw.exe (INTERPRETER_WIN)"),
        ({"interpreter": "C:\\legacy\\python.exe"}, "C:\\legacy\\python.exe (INTERPRETER)"),
        ({"conda path": "C:\\conda", "conda env": "bench"}, "the conda environment bench of C:\\conda"),
        ({"interpreter_win": "C:\\py\\python.exe", "conda path": "C:\\conda", "conda env": "x"}, "C:\\py\\python.exe"),
        ({"interpreter_win": "pythonw", "conda path": "C:\\conda", "conda env": "x"}, "the conda environment x of"),
        ({"conda path": "C:\\conda"}, "`pythonw` from PATH (no INTERPRETER_WIN set); there is none on PATH here"),
        ({}, "`pythonw` from PATH (no INTERPRETER_WIN set); there is none on PATH here"),
    ],
)
def test_the_python_the_add_in_starts(settings: dict[str, str], python: str) -> None:
    assert manage.python_for_excel(settings, which=lambda name: None).text.startswith(python)


def test_pythonw_from_path_is_the_one_path_finds(tmp_path: Path) -> None:
    found = manage.python_for_excel({}, which=lambda name: sys.executable)
    assert (
        found.text
        == f"`pythonw` from PATH (no INTERPRETER_WIN set); here that is {sys.executable}; Excel's PATH may differ"
    )
    assert manage.try_python(found).imports is True
    nothing = manage.python_for_excel({}, which=lambda name: None)
    assert (nothing.command, manage.try_python(nothing).imports) == (None, None)


def test_install_fails_when_xlwings_left_no_add_in(tmp_path: Path, conf: Path) -> None:
    with pytest.raises(AddinError, match=r"did not install the add-in \(.*xlwings.xlam is missing"):
        install(conf, config_only=False, platform="win32", run=Recorder(), environ={"APPDATA": str(tmp_path)})
    assert not conf.exists()


def test_a_failed_xlwings_install_leaves_the_configuration_alone(conf: Path) -> None:
    with pytest.raises(AddinError, match=r"`xlwings addin install` failed \(exit status 1\)"):
        install(conf, config_only=False, platform="win32", run=Recorder(code=1), environ={})
    assert not conf.exists()


@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_install_off_windows_says_so_and_touches_nothing(conf: Path, platform: str) -> None:
    run = Recorder()
    with pytest.raises(AddinError) as caught:
        install(conf, config_only=False, platform=platform, run=run, environ={})
    message = str(caught.value)
    assert f"needs Excel on Windows and this is {platform}" in message
    assert "--config-only" in message and "benchsheet template build" in message
    assert "`benchsheet lite` prints the module for xlwings Lite" in message
    assert "\n" not in message
    assert run.calls == [] and not conf.exists()


def test_config_only_works_anywhere_without_running_xlwings(conf: Path) -> None:
    run = Recorder()
    done = install(conf, config_only=True, platform="linux", run=run, environ={})
    assert run.calls == [] and not conf.exists()
    assert done[-1].startswith("note: the worksheet functions need Excel on Windows")
    assert install(conf, config_only=True, platform="win32", run=run, environ={})[1:] == [
        f"{conf}: INTERPRETER_WIN set to this Python, {sys.executable}",
        f"{conf}: benchsheet will write (a new file):",
        f'  + "INTERPRETER_WIN","{sys.executable}"',
        f"Python for Excel: {sys.executable} (INTERPRETER_WIN)",
        IMPORTS,
    ]
    assert install(conf, config_only=True, platform="win32", run=run, environ={})[1:] == [
        f"Python for Excel: {sys.executable} (INTERPRETER_WIN)",
        IMPORTS,
    ]


def test_uninstall_leaves_a_udf_modules_entry_install_did_not_make_then_removes_the_add_in(conf: Path) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(EARLIER)
    run = Recorder()
    done = uninstall(conf, config_only=False, platform="win32", run=run)
    assert run.calls == [["addin", "remove"]]
    assert conf.read_text() == EARLIER
    assert done == [
        f"{conf}: nothing of benchsheet's to put back (install changed nothing here)",
        "xlwings add-in: removed with `xlwings addin remove`",
    ]


def test_uninstall_config_only_keeps_the_xlwings_add_in(conf: Path) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text('"SHOW CONSOLE","True"\n')
    install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
    run = Recorder()
    assert uninstall(conf, config_only=True, platform="linux", run=run)[0] == (
        f"{conf}: put back what `benchsheet addin install` changed:"
    )
    assert run.calls == [] and conf.read_text() == '"SHOW CONSOLE","True"\n'
    assert uninstall(conf, config_only=True, platform="linux", run=run) == [
        f"{conf}: nothing of benchsheet's to put back (install changed nothing here)"
    ]


def test_uninstall_off_windows_needs_config_only(conf: Path) -> None:
    with pytest.raises(AddinError, match="`xlwings addin remove` needs Excel on Windows"):
        uninstall(conf, config_only=False, platform="darwin", run=Recorder())


def test_a_failed_xlwings_remove_is_an_error(conf: Path) -> None:
    with pytest.raises(AddinError, match="`xlwings addin remove` failed"):
        uninstall(conf, config_only=False, platform="win32", run=Recorder(code=3))


def test_the_xlwings_step_is_xlwings_own_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = _home(tmp_path, monkeypatch)
    assert manage.run_xlwings(["config", "create"]) == 0  # the real xlwings CLI, run by this interpreter
    assert [p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file()] == [".xlwings/xlwings.conf"]
    assert manage.run_xlwings(["no-such-command"]) == 2  # its exit status comes back (argparse's usage error)


def test_xlwings_command_line_has_the_subcommands_used() -> None:
    for action in ("install", "remove"):
        found = subprocess.run(
            [sys.executable, "-m", "xlwings.cli", "addin", action, "--help"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert found.returncode == 0, found.stderr
        assert found.stdout.startswith("usage:")


# ------------------------------------------- the add-in's own rules (its VBA)


@pytest.fixture(scope="session")
def vba() -> dict[str, str]:
    """The VBA modules of the xlwings.xlam that `xlwings addin install` copies, as Excel runs them."""
    with warnings.catch_warnings():  # oletools 0.60 calls pyparsing's old names
        warnings.simplefilter("ignore", DeprecationWarning)
        from oletools.olevba import VBA_Parser

    parser = VBA_Parser(str(Path(xlwings.__file__).parent / "addin" / "xlwings.xlam"))
    try:
        return {name: code for _, _, name, code in parser.extract_macros()}
    finally:
        parser.close()


def _procedure(code: str, name: str) -> list[str]:
    """The stripped lines of one Function or Sub."""
    lines = [line.strip() for line in code.splitlines()]
    first = next(i for i, line in enumerate(lines) if re.match(rf"(Private |Public )?(Function|Sub) {name}\(", line))
    last = next(i for i in range(first, len(lines)) if lines[i] in ("End Function", "End Sub"))
    return [line for line in lines[first:last] if line]


def _in_order(lines: list[str], *wanted: str) -> None:
    at = 0
    for line in wanted:
        assert line in lines[at:], f"{line!r} is not where benchsheet expects it in the xlwings add-in"
        at = lines.index(line, at) + 1


def test_import_functions_imports_udf_modules_else_the_workbooks_own_module(vba: dict[str, str]) -> None:
    """Why benchsheet sets no UDF MODULES for every workbook: it would replace each one's <name>.py."""
    _in_order(
        _procedure(vba["Main.bas"], "ImportPythonUDFsBase"),
        "Set wb = ActiveWorkbook",
        'tempPath = XLPy.Str(XLPy.Call(XLPy.Module("xlwings"), "import_udfs", XLPy.Tuple(GetUdfModules(wb), wb)))',
    )
    _in_order(
        _procedure(vba["Main.bas"], "GetUdfModules"),
        'GetUdfModules = GetConfig("UDF MODULES")',
        'If GetUdfModules = "" Then',
        "GetUdfModules = Left$(wb.Name, Len(wb.Name) - 5) ' assume that it ends in .xls*",
    )
    # the ribbon's UDF Modules box writes the user configuration, for every workbook
    assert 'tf = SaveConfigToFile(GetConfigFilePath, "UDF MODULES", Text)' in _procedure(
        vba["RibbonXlwings.bas"], "SetUdfModules"
    )


def test_a_workbooks_xlwings_conf_sheet_comes_before_the_user_configuration(vba: dict[str, str]) -> None:
    _in_order(
        _procedure(vba["Config.bas"], "GetConfig"),
        "'Workbook Sheet Config",
        'If SheetExists(ActiveWorkbook, PROJECT_NAME & ".conf") = True Then',
        "If GetConfigFromSheet(ActiveWorkbook).Exists(configKey) = True Then",
        "' Directory Config",
        "If FileExists(GetDirectoryConfigFilePath()) = True Then",
        "' User Config",
        "If FileExists(GetConfigFilePath()) = True Then",
    )
    # the sheet: keys in column A from A1 down (upper-cased), values in column B
    _in_order(
        _procedure(vba["Config.bas"], "GetConfigFromSheet"),
        'Set sht = wb.Sheets(PROJECT_NAME & ".conf")',
        'If sht.Range("A2") = "" Then',
        'Set lastCell = sht.Range("A1")',
        'Set lastCell = sht.Range("A1").End(xlDown)',
        'For Each cell In Range(sht.Range("A1"), lastCell)',
        "d.Add UCase(cell.Value), cell.Offset(0, 1).Value",
    )
    assert S.XLWINGS_CONF.name == "xlwings.conf"
    assert [key.upper() for key, _ in S.XLWINGS_CONF.settings] == ["UDF MODULES"]
    # a file: the first line whose key matches, in any case
    _in_order(
        _procedure(vba["Config.bas"], "GetConfigFromFile"),
        "If LCase(sVarName) = LCase(sName) Then",
        "sValue = sVarValue",
        "Exit Do",
    )
    assert 'GetConfigFilePath = Environ("USERPROFILE") & "\\." & PROJECT_NAME & "\\" & PROJECT_NAME & ".conf"' in (
        _procedure(vba["Config.bas"], "GetConfigFilePath")
    )


def test_the_add_in_activates_conda_only_for_a_python_from_path(vba: dict[str, str]) -> None:
    """Why install never writes INTERPRETER_WIN in a conda environment (Main.bas, XLPyCommand, XLPyLoadDLL)."""
    _in_order(
        _procedure(vba["Main.bas"], "XLPyCommand"),
        'PYTHON_WIN = GetConfig("INTERPRETER_WIN", "")',
        'If PYTHON_WIN = "" Then',
        'PYTHON_WIN = GetConfig("INTERPRETER", "pythonw")',
        'CondaPath = GetConfig("CONDA PATH")',
        'CondaEnv = GetConfig("CONDA ENV")',
        'If (PYTHON_WIN = "python" Or PYTHON_WIN = "pythonw") And (CondaPath <> "" And CondaEnv <> "") Then',
        'CondaCmd = Chr(34) & Chr(34) & CondaPath & "\\condabin\\conda" & Chr(34) & " activate " & CondaEnv & " && "',
        'PYTHON_WIN = "cmd.exe " & ConsoleSwitch & " /K " & CondaCmd & "python"',
        "Else",
        'PYTHON_WIN = "cmd.exe " & ConsoleSwitch & " /K " & Chr(34) & Chr(34) & PYTHON_WIN & Chr(34)',
    )
    _in_order(
        _procedure(vba["Main.bas"], "XLPyLoadDLL"),
        'If CondaEnv = "base" Then',
        'PYTHON_WIN = CondaPath & "\\" & PYTHON_WIN',
        'ElseIf InStr(CondaEnv, "\\") > 0 Then',
        'PYTHON_WIN = CondaEnv & "\\" & PYTHON_WIN',
        "Else",
        'PYTHON_WIN = CondaPath & "\\envs\\" & CondaEnv & "\\" & PYTHON_WIN',
    )
    assert manage.PLAIN == ("python", "pythonw")


# ------------------------------------------------------------------- status


def test_status_reports_the_add_in_the_modules_python_and_the_data(tmp_path: Path, conf: Path, user_home: Path) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(f'"INTERPRETER_WIN","{sys.executable}"\n"SHOW CONSOLE","True"\n')
    appdata = tmp_path / "AppData"
    (appdata / "Microsoft" / "Excel" / "XLSTART").mkdir(parents=True)
    (appdata / "Microsoft" / "Excel" / "XLSTART" / "xlwings.xlam").write_bytes(b"")
    found = status(conf, platform="win32", environ={"APPDATA": str(appdata)})
    assert found.addin_installed and found.config_exists
    assert found.udf_modules == []
    assert found.python and found.python.text == f"{sys.executable} (INTERPRETER_WIN)"
    assert found.tried and found.tried.imports is True
    assert str(found.data_origin) == "bundled" and found.data_rows > 0
    assert found.user_cache == user_home / "results.json" and not found.user_cache_exists
    assert found.warnings == []
    lines = render(found)
    assert lines[0] == f"xlwings add-in: installed ({appdata / 'Microsoft' / 'Excel' / 'XLSTART' / 'xlwings.xlam'})"
    assert lines[2].startswith(f"UDF modules: none set for every workbook in {conf}, so Import Functions imports")
    assert lines[3:5] == [f"Python for Excel: {sys.executable} (INTERPRETER_WIN)", IMPORTS]
    assert any(line.startswith("data: the functions answer from the bundled snapshot; rounds ") for line in lines)


def test_status_of_nothing_installed(tmp_path: Path, conf: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # no pythonw anywhere (shutil.which looks there)
    found = status(conf, platform="win32", environ={"APPDATA": str(tmp_path)})
    assert not found.addin_installed and not found.config_exists
    lines = render(found)
    assert lines[0].startswith("xlwings add-in: not found at ") and lines[0].endswith("run `benchsheet addin install`")
    assert lines[1] == f"xlwings config: {conf} (does not exist yet)"
    assert lines[2].startswith(f"UDF modules: none set for every workbook in {conf}")
    assert lines[3:5] == [
        "Python for Excel: `pythonw` from PATH (no INTERPRETER_WIN set); there is none on PATH here",
        "  tried: not tried: it is not on this computer",
    ]


def test_status_off_windows_names_no_python(conf: Path) -> None:
    lines = render(status(conf, platform="linux", environ={}))
    assert lines[0].startswith("xlwings add-in: not applicable on linux: the worksheet functions need Excel on Windows")
    assert "benchsheet template build" in lines[0] and "`benchsheet lite`" in lines[0]
    assert lines[3] == "Python for Excel: none on linux (Excel on Windows starts the Python its configuration names)"
    assert not any("PATH" in line or "tried" in line for line in lines)


def test_status_says_when_the_user_cache_answers(conf: Path, user_home: Path) -> None:
    shutil.copyfile(store.BUNDLED, user_home / "results.json")
    store.set_table(None)
    found = status(conf, platform="linux", environ={})
    assert found.data_origin.kind == "user" and found.user_cache_exists
    assert any(
        line.startswith(f"data: the functions answer from the user cache {user_home / 'results.json'}")
        for line in render(found)
    )


def test_status_warns_about_settings_the_add_in_will_not_use(conf: Path) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(f'"UDF MODULES","a;{UDF_MODULE}"\n"UDF_MODULES","b"\n"udf modules","c"\n')
    found = status(conf, platform="linux", environ={"BENCHSHEET_HOME": "/somewhere"})
    assert found.udf_modules == ["a", UDF_MODULE]  # the add-in reads the first line only
    assert len(found.warnings) == 4
    assert 'has 2 "UDF MODULES" lines' in found.warnings[0]
    assert 'ignores the "UDF_MODULES" line' in found.warnings[1]
    assert "benchsheet leaves the line as it is (benchsheet 0.1 put it there, or you did)" in found.warnings[2]
    assert "BENCHSHEET_HOME" in found.warnings[3]


# ------------------------------------------------------------------ commands


@pytest.fixture
def on_windows(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Recorder:
    run = Recorder()
    monkeypatch.setattr(manage, "this_platform", lambda: "win32")
    monkeypatch.setattr(manage, "run_xlwings", run)
    monkeypatch.setattr(manage, "environment", lambda: {"APPDATA": str(tmp_path / "AppData")})
    return run


def test_install_command_on_windows(
    on_windows: Recorder, conf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _xlstart(tmp_path)
    assert cli.main(["addin", "install"]) == 0
    out = capsys.readouterr().out
    assert on_windows.calls == [["addin", "install"]]
    assert conf.read_text() == f'"INTERPRETER_WIN","{sys.executable}"\n'
    assert f"Python for Excel: {sys.executable} (INTERPRETER_WIN)\n{IMPORTS}\n" in out
    for i, step in enumerate(manage.EXCEL_STEPS, start=1):
        assert f"  {i}. {step}" in out


def test_the_printed_steps_are_the_readmes() -> None:
    page = " ".join((ROOT / "docs" / "excel.md").read_text(encoding="utf-8").split())
    windows = page[page.index("## Windows") :]
    assert "Tools > References and tick xlwings" in manage.EXCEL_STEPS[2]
    assert manage.SHEET_EXAMPLE in manage.EXCEL_STEPS[1]
    for step in manage.EXCEL_STEPS:
        assert " ".join(step.split()) in windows, step


def test_python_m_benchsheet_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchsheet", "eval", '=GPUS("5.1-0072")'], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout.strip()) == (0, "72")


def test_a_non_utf8_xlwings_configuration_names_the_file(tmp_path: Path) -> None:
    """xlwings itself fails on import when its user configuration is not UTF-8 (a fresh process)."""
    home = tmp_path / "home"
    (home / ".xlwings").mkdir(parents=True)
    (home / ".xlwings" / "xlwings.conf").write_bytes(b'"UDF MODULES","caf\xe9"\n')
    env = {**os.environ, "HOME": str(home), "USERPROFILE": str(home)}
    for action in (["status"], ["install", "--config-only"]):
        done = subprocess.run(
            [sys.executable, "-m", "benchsheet", "addin", *action], capture_output=True, text=True, env=env, timeout=60
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"error: {home / '.xlwings' / 'xlwings.conf'}: not UTF-8 text"), done.stderr
        assert "please report" not in done.stderr and done.stderr.count("\n") == 1


def test_install_command_off_windows_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(manage, "this_platform", lambda: "linux")
    assert cli.main(["addin", "install"]) == 2
    got = capsys.readouterr()
    assert got.out == ""
    assert got.err.startswith("error: `xlwings addin install` needs Excel on Windows and this is linux")
    assert "`benchsheet lite`" in got.err
    assert got.err.count("\n") == 1 and "Traceback" not in got.err
    assert not conf.exists()


def test_install_command_config_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(manage, "this_platform", lambda: "linux")
    path = tmp_path / "elsewhere.conf"
    path.write_text(f'"UDF MODULES","{UDF_MODULE}"\n')
    assert cli.main(["addin", "install", "--config-only", "--config", str(path)]) == 0
    assert path.read_text() == f'"UDF MODULES","{UDF_MODULE}"\n'
    out = capsys.readouterr().out
    assert out.count(f"UDF MODULES lists {UDF_MODULE} for every workbook") == 1


def test_a_failing_step_is_one_line_and_status_2(
    on_windows: Recorder, conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    on_windows.code = 1
    assert cli.main(["addin", "install"]) == 2
    err = capsys.readouterr().err
    assert err == "error: `xlwings addin install` failed (exit status 1); the configuration is unchanged\n"


def test_an_unwritable_configuration_is_one_line_and_status_2(
    on_windows: Recorder, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["addin", "install", "--config-only", "--config", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {tmp_path}: ") and err.count("\n") == 1


@pytest.mark.skipif(locale.getpreferredencoding(False).lower() not in ("utf-8", "utf8"), reason="needs a UTF-8 locale")
def test_an_unreadable_configuration_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "xlwings.conf"
    path.write_bytes(b'"UDF MODULES","\xff\xfe"\n')
    for argv in (["status"], ["install", "--config-only"]):
        assert cli.main(["addin", *argv, "--config", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {path}: ") and err.count("\n") == 1, err


def test_status_and_uninstall_commands(
    on_windows: Recorder, conf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _xlstart(tmp_path)
    assert cli.main(["addin", "install"]) == 0
    capsys.readouterr()
    assert cli.main(["addin", "status"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("xlwings add-in: installed (")
    assert f"Python for Excel: {sys.executable} (INTERPRETER_WIN)\n{IMPORTS}\n" in out
    assert cli.main(["addin", "uninstall"]) == 0
    assert on_windows.calls == [["addin", "install"], ["addin", "remove"]]
    assert f"{conf}: install created it; removed" in capsys.readouterr().out
    assert not conf.exists()  # benchsheet wrote it (a stand-in ran `xlwings addin install`), so it goes


def test_use_this_python_from_the_command_line(
    on_windows: Recorder, conf: Path, bare_python: str, capsys: pytest.CaptureFixture[str]
) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(f'"INTERPRETER_WIN","{bare_python}"\n')
    assert cli.main(["addin", "install", "--config-only"]) == 0
    assert NO_BENCHSHEET in capsys.readouterr().out
    assert cli.main(["addin", "install", "--config-only", "--use-this-python"]) == 0
    assert IMPORTS in capsys.readouterr().out
    assert conf.read_text() == f'"INTERPRETER_WIN","{sys.executable}"\n'


@pytest.mark.parametrize("action", [[], ["install"], ["status"], ["uninstall"], ["remove"]])
def test_help(action: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["addin", *action, "--help"])
    assert done.value.code == 0
    named = ["uninstall" if a == "remove" else a for a in action]  # remove is uninstall under its other name
    assert capsys.readouterr().out.startswith(f"usage: benchsheet addin {' '.join(named)}".rstrip())


def test_addin_needs_an_action(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["addin"])
    assert done.value.code == 2
    assert "ACTION" in capsys.readouterr().err
