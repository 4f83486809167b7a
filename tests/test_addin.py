"""``benchsheet addin``: the xlwings configuration edits, the add-in step, the commands.

Every test works on a configuration file in a temporary folder; xlwings' own
default (``xlwings.USER_CONFIG_FILE``) is pointed there too, so the real
``~/.xlwings/xlwings.conf`` is never touched. Running xlwings is replaced by a
recorder; the platform is passed in (or patched for the commands).
"""

from __future__ import annotations

import locale
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import xlwings
from xlwings.utils import read_user_config

from benchsheet import cli, store
from benchsheet.addin import config, manage
from benchsheet.addin.config import UDF_MODULE, ConfigError, add_module, remove_module, udf_lines, udf_modules
from benchsheet.addin.manage import AddinError, install, render, status, uninstall

EXISTING = (
    '"INTERPRETER_WIN","C:\\Users\\me\\venv\\Scripts\\pythonw.exe"\n'
    '"UDF MODULES","mymod;other.mod"\n'
    '"CONDA ENV","base"\n'
    '"SHOW CONSOLE","True"\n'
)


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


def test_adding_to_no_configuration_writes_the_line_the_add_in_reads(tmp_path: Path) -> None:
    path = tmp_path / "new" / ".xlwings" / "xlwings.conf"
    assert add_module(path) is True
    assert path.read_text() == '"UDF MODULES","benchsheet.udfs.functions"\n'
    assert _xlwings_reads(path) == {"udf modules": UDF_MODULE}


def test_adding_keeps_every_other_setting_and_module(tmp_path: Path) -> None:
    path = tmp_path / "xlwings.conf"
    path.write_text(EXISTING)
    assert add_module(path) is True
    assert path.read_text().splitlines() == [
        '"INTERPRETER_WIN","C:\\Users\\me\\venv\\Scripts\\pythonw.exe"',
        '"CONDA ENV","base"',
        '"SHOW CONSOLE","True"',
        '"UDF MODULES","mymod;other.mod;benchsheet.udfs.functions"',
    ]
    settings = _xlwings_reads(path)
    assert settings["interpreter_win"] == "C:\\Users\\me\\venv\\Scripts\\pythonw.exe"
    assert settings["conda env"] == "base"
    assert udf_modules(path) == ["mymod", "other.mod", UDF_MODULE]


def test_adding_twice_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "xlwings.conf"
    path.write_text(EXISTING)
    add_module(path)
    once = path.read_bytes()
    assert add_module(path) is False
    assert path.read_bytes() == once
    assert udf_lines(path) == [("UDF MODULES", "mymod;other.mod;benchsheet.udfs.functions")]


def test_a_module_already_listed_is_left_where_it_is(tmp_path: Path) -> None:
    path = tmp_path / "xlwings.conf"
    text = '"UDF MODULES","benchsheet.udfs.functions;mymod"\n"INTERPRETER_WIN","py"\n'
    path.write_text(text)
    assert add_module(path) is False
    assert path.read_text() == text


def test_other_spellings_of_the_key_merge_into_one_line(tmp_path: Path) -> None:
    # The add-in compares keys case-insensitively and reads the first match only;
    # a second line would hide ours, so both become one.
    path = tmp_path / "xlwings.conf"
    path.write_text('"UDF Modules","mymod"\n"INTERPRETER_WIN","py"\n"udf modules","second;mymod"\n')
    assert add_module(path) is True
    assert path.read_text().splitlines() == [
        '"INTERPRETER_WIN","py"',
        '"UDF MODULES","mymod;second;benchsheet.udfs.functions"',
    ]


def test_a_udf_modules_line_with_an_underscore_is_not_the_key(tmp_path: Path) -> None:
    path = tmp_path / "xlwings.conf"
    path.write_text('"UDF_MODULES","mymod"\n')
    assert udf_modules(path) == []
    add_module(path)
    assert path.read_text().splitlines() == ['"UDF_MODULES","mymod"', '"UDF MODULES","benchsheet.udfs.functions"']


def test_removing_takes_out_only_benchsheet(tmp_path: Path) -> None:
    path = tmp_path / "xlwings.conf"
    path.write_text(EXISTING)
    add_module(path)
    assert remove_module(path) is True
    assert udf_lines(path) == [("UDF MODULES", "mymod;other.mod")]
    settings = _xlwings_reads(path)
    assert settings["interpreter_win"].endswith("pythonw.exe") and settings["show console"] == "True"
    assert remove_module(path) is False


def test_removing_the_only_module_removes_the_key(tmp_path: Path) -> None:
    path = tmp_path / "xlwings.conf"
    path.write_text('"INTERPRETER_WIN","py"\n"UDF MODULES","benchsheet.udfs.functions"\n')
    assert remove_module(path) is True
    assert path.read_text() == '"INTERPRETER_WIN","py"\n'


def test_removing_from_no_configuration_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "xlwings.conf"
    assert remove_module(path) is False
    assert not path.exists()


def test_module_lists_are_trimmed_and_deduplicated() -> None:
    assert config.split_modules(" a ; b;;a;") == ["a", "b"]


def test_xlwings_default_is_restored_even_after_a_failure(tmp_path: Path, conf: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    with pytest.raises(ConfigError, match="a-folder"):
        add_module(folder)
    assert str(conf) == xlwings.USER_CONFIG_FILE


# ----------------------------------------------------- install and uninstall


def _xlstart(tmp_path: Path) -> dict[str, str]:
    """An APPDATA whose XLSTART folder holds xlwings.xlam, as `xlwings addin install` leaves it."""
    xlstart = tmp_path / "AppData" / "Microsoft" / "Excel" / "XLSTART"
    xlstart.mkdir(parents=True, exist_ok=True)
    (xlstart / "xlwings.xlam").write_bytes(b"")
    return {"APPDATA": str(tmp_path / "AppData")}


def test_install_runs_xlwings_then_adds_the_module(tmp_path: Path, conf: Path) -> None:
    run = Recorder()
    done = install(conf, config_only=False, platform="win32", run=run, environ=_xlstart(tmp_path))
    assert run.calls == [["addin", "install"]]
    assert udf_modules(conf) == [UDF_MODULE]
    assert done == [
        "xlwings add-in: installed with `xlwings addin install`",
        f"{conf}: UDF MODULES now includes {UDF_MODULE}",
        f"{conf}: INTERPRETER_WIN set to this Python, {sys.executable}",
    ]


def test_install_records_this_python_only_where_none_is_set(tmp_path: Path, conf: Path) -> None:
    """xlwings writes INTERPRETER_WIN only into a configuration it creates; an existing one has none."""
    conf.parent.mkdir(parents=True)
    conf.write_text('"SHOW CONSOLE","True"\n')
    install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
    assert _xlwings_reads(conf)["interpreter_win"] == sys.executable
    assert _xlwings_reads(conf)["show console"] == "True"
    conf.write_text(EXISTING)
    install(conf, config_only=True, platform="win32", run=Recorder(), environ={})
    assert _xlwings_reads(conf)["interpreter_win"] == "C:\\Users\\me\\venv\\Scripts\\pythonw.exe"  # kept
    install(tmp_path / "linux.conf", config_only=True, platform="linux", run=Recorder(), environ={})
    assert "interpreter_win" not in _xlwings_reads(tmp_path / "linux.conf")  # not Excel's Python


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
    assert "\n" not in message
    assert run.calls == [] and not conf.exists()


def test_config_only_works_anywhere_without_running_xlwings(conf: Path) -> None:
    run = Recorder()
    done = install(conf, config_only=True, platform="linux", run=run, environ={})
    assert run.calls == []
    assert udf_modules(conf) == [UDF_MODULE]
    assert done[0] == f"{conf}: UDF MODULES now includes {UDF_MODULE}"
    assert done[-1].startswith("note: the worksheet functions need Excel on Windows")
    assert install(conf, config_only=True, platform="win32", run=run, environ={}) == [
        f"{conf}: UDF MODULES already includes {UDF_MODULE}",
        f"{conf}: INTERPRETER_WIN set to this Python, {sys.executable}",
    ]
    assert install(conf, config_only=True, platform="win32", run=run, environ={}) == [
        f"{conf}: UDF MODULES already includes {UDF_MODULE}"
    ]


def test_uninstall_unlists_benchsheet_then_removes_the_add_in(conf: Path) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(EXISTING)
    add_module(conf)
    run = Recorder()
    done = uninstall(conf, config_only=False, platform="win32", run=run)
    assert run.calls == [["addin", "remove"]]
    assert udf_modules(conf) == ["mymod", "other.mod"]
    assert done == [
        f"{conf}: UDF MODULES no longer includes {UDF_MODULE}",
        "xlwings add-in: removed with `xlwings addin remove`",
    ]


def test_uninstall_config_only_keeps_the_xlwings_add_in(conf: Path) -> None:
    add_module(conf)
    run = Recorder()
    assert uninstall(conf, config_only=True, platform="linux", run=run) == [
        f"{conf}: UDF MODULES no longer includes {UDF_MODULE}"
    ]
    assert run.calls == [] and udf_modules(conf) == []


def test_uninstall_off_windows_needs_config_only(conf: Path) -> None:
    add_module(conf)
    with pytest.raises(AddinError, match="`xlwings addin remove` needs Excel on Windows"):
        uninstall(conf, config_only=False, platform="darwin", run=Recorder())
    assert udf_modules(conf) == [UDF_MODULE]


def test_a_failed_xlwings_remove_is_an_error(conf: Path) -> None:
    add_module(conf)
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


# ------------------------------------------------------------------- status


def test_status_reports_the_add_in_the_module_python_and_the_data(tmp_path: Path, conf: Path, user_home: Path) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text(EXISTING)
    add_module(conf)
    appdata = tmp_path / "AppData"
    (appdata / "Microsoft" / "Excel" / "XLSTART").mkdir(parents=True)
    (appdata / "Microsoft" / "Excel" / "XLSTART" / "xlwings.xlam").write_bytes(b"")
    found = status(conf, platform="win32", environ={"APPDATA": str(appdata)})
    assert found.addin_installed and found.configured and found.config_exists
    assert found.udf_modules == ["mymod", "other.mod", UDF_MODULE]
    assert found.python == "C:\\Users\\me\\venv\\Scripts\\pythonw.exe"
    assert str(found.data_origin) == "bundled" and found.data_rows > 0
    assert found.user_cache == user_home / "results.json" and not found.user_cache_exists
    assert found.warnings == []
    lines = render(found)
    assert lines[0] == f"xlwings add-in: installed ({appdata / 'Microsoft' / 'Excel' / 'XLSTART' / 'xlwings.xlam'})"
    assert f"UDF modules: {UDF_MODULE} is configured (UDF MODULES = mymod;other.mod;{UDF_MODULE})" in lines
    assert any(line.startswith("data: the functions answer from the bundled snapshot; rounds ") for line in lines)


def test_status_of_nothing_installed(tmp_path: Path, conf: Path) -> None:
    found = status(conf, platform="win32", environ={"APPDATA": str(tmp_path)})
    assert not found.addin_installed and not found.configured and not found.config_exists
    lines = render(found)
    assert lines[0].startswith("xlwings add-in: not found at ") and lines[0].endswith("run `benchsheet addin install`")
    assert lines[1] == f"xlwings config: {conf} (does not exist yet)"
    assert lines[2].startswith(f"UDF modules: {UDF_MODULE} is not configured (UDF MODULES = none)")
    assert lines[3].startswith("Python for Excel: `pythonw` found on PATH")


def test_status_off_windows(conf: Path) -> None:
    lines = render(status(conf, platform="darwin", environ={}))
    assert lines[0].startswith(
        "xlwings add-in: not applicable on darwin: the worksheet functions need Excel on Windows"
    )
    assert "benchsheet template build" in lines[0]


def test_status_says_when_the_user_cache_answers(conf: Path, user_home: Path) -> None:
    shutil.copyfile(store.BUNDLED, user_home / "results.json")
    store.set_table(None)
    found = status(conf, platform="win32", environ={})
    assert found.data_origin.kind == "user" and found.user_cache_exists
    assert any(
        line.startswith(f"data: the functions answer from the user cache {user_home / 'results.json'}")
        for line in render(found)
    )


def test_status_warns_about_settings_the_add_in_will_not_use(conf: Path) -> None:
    conf.parent.mkdir(parents=True)
    conf.write_text('"UDF MODULES","a"\n"UDF_MODULES","benchsheet.udfs.functions"\n"udf modules","b"\n')
    found = status(conf, platform="win32", environ={"BENCHSHEET_HOME": "/somewhere"})
    assert found.udf_modules == ["a"]  # the add-in reads the first line only
    assert not found.configured
    assert len(found.warnings) == 3
    assert 'has 2 "UDF MODULES" lines' in found.warnings[0]
    assert 'ignores the "UDF_MODULES" line' in found.warnings[1]
    assert "BENCHSHEET_HOME" in found.warnings[2]


@pytest.mark.parametrize(
    ("settings", "python"),
    [
        ({"interpreter_win": "C:\\py\\pythonw.exe", "interpreter": "other"}, "C:\\py\\pythonw.exe"),
        ({"interpreter": "C:\\legacy\\python.exe"}, "C:\\legacy\\python.exe"),
        ({"conda path": "C:\\conda", "conda env": "bench"}, "the conda environment bench of C:\\conda"),
        ({"interpreter_win": "C:\\py\\python.exe", "conda path": "C:\\conda", "conda env": "x"}, "C:\\py\\python.exe"),
    ],
)
def test_the_python_the_add_in_starts(settings: dict[str, str], python: str) -> None:
    assert manage.python_for_excel(settings) == python


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
    assert udf_modules(conf) == [UDF_MODULE]
    assert f"{conf}: UDF MODULES now includes {UDF_MODULE}" in out
    for i, step in enumerate(manage.EXCEL_STEPS, start=1):
        assert f"  {i}. {step}" in out


def test_the_printed_steps_are_the_readmes() -> None:
    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").split())
    windows = readme[readme.index("### Windows") :]
    assert "Tools > References and tick xlwings" in manage.EXCEL_STEPS[1]
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
    assert got.err.count("\n") == 1 and "Traceback" not in got.err
    assert not conf.exists()


def test_install_command_config_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(manage, "this_platform", lambda: "linux")
    path = tmp_path / "elsewhere.conf"
    assert cli.main(["addin", "install", "--config-only", "--config", str(path)]) == 0
    assert cli.main(["addin", "install", "--config-only", "--config", str(path)]) == 0
    assert path.read_text() == '"UDF MODULES","benchsheet.udfs.functions"\n'
    out = capsys.readouterr().out
    assert "now includes" in out and "already includes" in out


def test_a_failing_step_is_one_line_and_status_2(
    on_windows: Recorder, conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    on_windows.code = 1
    assert cli.main(["addin", "install"]) == 2
    err = capsys.readouterr().err
    assert err == "error: `xlwings addin install` failed (exit status 1); the configuration is unchanged\n"


def test_an_unwritable_configuration_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
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
    for argv in (["status"], ["install", "--config-only"], ["uninstall", "--config-only"]):
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
    assert f"UDF modules: {UDF_MODULE} is configured" in out
    assert cli.main(["addin", "uninstall"]) == 0
    assert on_windows.calls == [["addin", "install"], ["addin", "remove"]]
    assert f"{conf}: UDF MODULES no longer includes {UDF_MODULE}" in capsys.readouterr().out
    assert udf_modules(conf) == []


@pytest.mark.parametrize("action", [[], ["install"], ["status"], ["uninstall"]])
def test_help(action: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["addin", *action, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: benchsheet addin {' '.join(action)}".rstrip())


def test_addin_needs_an_action(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["addin"])
    assert done.value.code == 2
    assert "ACTION" in capsys.readouterr().err
