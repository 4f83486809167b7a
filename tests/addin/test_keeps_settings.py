"""``benchsheet addin install`` never loses a setting; ``uninstall`` puts back exactly what install changed.

The three cases of issue 32, each checked with xlwings' own code: its ``config_create`` (what
``xlwings addin install`` writes) and the add-in's reading rule (``Config.bas``
``GetConfigFromFile``: keys in any case, the first line wins; ``benchsheet.addin.config.addin_settings``
follows it, and ``test_addin.py`` reads that rule out of the VBA of ``xlwings.xlam`` with oletools).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import xlwings
from xlwings import cli as xlwings_cli

from benchsheet import cli
from benchsheet.addin import manage
from benchsheet.addin.config import UDF_MODULE, addin_settings, udf_modules
from benchsheet.addin.manage import install, render, status, uninstall


class Recorder:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, args: Sequence[str]) -> int:
        self.calls.append(list(args))
        return 0


@pytest.fixture
def conf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "home" / ".xlwings" / "xlwings.conf"
    path.parent.mkdir(parents=True)
    monkeypatch.setattr(xlwings, "USER_CONFIG_FILE", str(path))
    for name in ("CONDA_DEFAULT_ENV", "CONDA_EXE", "CONDA_PREFIX"):
        monkeypatch.delenv(name, raising=False)
    return path


@pytest.fixture
def conda_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    root = tmp_path / "miniconda3"
    monkeypatch.setenv("CONDA_EXE", str(root / "bin" / "conda"))
    monkeypatch.setenv("CONDA_DEFAULT_ENV", "bench")
    monkeypatch.setenv("CONDA_PREFIX", str(root / "envs" / "bench"))
    return str(root), "bench"


def _by_xlwings(path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """What xlwings' own `config_create` (the end of `xlwings addin install`) writes on Windows, here."""
    with monkeypatch.context() as m:
        m.setattr(xlwings, "USER_CONFIG_FILE", str(path))
        m.setattr(sys, "platform", "win32")
        xlwings_cli.config_create(None)  # type: ignore[no-untyped-call]  # xlwings has no annotations
    return path.read_text()


def _install(conf: Path, *, use_this_python: bool = False) -> list[str]:
    run = Recorder()
    return install(conf, config_only=True, platform="win32", run=run, environ={}, use_this_python=use_this_python)


def _uninstall(conf: Path) -> list[str]:
    return uninstall(conf, config_only=True, platform="win32", run=Recorder())


def _backups(conf: Path) -> list[Path]:
    return sorted(p for p in conf.parent.iterdir() if p.name.startswith(conf.name + ".benchsheet-backup"))


def test_a_udf_modules_line_naming_benchsheet_stays_as_the_user_wrote_it(conf: Path) -> None:
    text = f'"INTERPRETER_WIN","{sys.executable}"\n"UDF MODULES","mybook_udfs;{UDF_MODULE}"\n'
    conf.write_text(text)
    done = _install(conf)
    assert conf.read_text() == text  # benchsheet did not record adding the entry: it is the user's
    assert udf_modules(conf) == ["mybook_udfs", UDF_MODULE]
    assert any(line.startswith(f"note: {conf}: UDF MODULES lists {UDF_MODULE} for every workbook") for line in done)
    _uninstall(conf)
    assert conf.read_text() == text
    assert _backups(conf) == []  # nothing changed, nothing to back up


def test_two_udf_modules_lines_are_never_merged(conf: Path) -> None:
    text = f'"UDF MODULES","a"\n"SHOW CONSOLE","True"\n"UDF MODULES","b;{UDF_MODULE}"\n'
    conf.write_text(text)
    _install(conf)
    assert conf.read_text().splitlines()[:3] == text.splitlines()  # the INTERPRETER_WIN line comes after
    assert udf_modules(conf) == ["a"]  # the add-in still imports what it imported before
    _uninstall(conf)
    assert conf.read_text() == text


def test_install_in_conda_keeps_interpreter_win_and_a_legacy_interpreter(
    conf: Path, conda_env: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = f'"INTERPRETER_WIN","{sys.executable}"\n"INTERPRETER","C:\\Legacy\\pythonw.exe"\n"SHOW CONSOLE","True"\n'
    conf.write_text(text)
    done = _install(conf)
    assert conf.read_text() == text  # without --use-this-python nothing of the user's is deleted
    assert any("--use-this-python" in line and "conda environment bench" in line for line in done)
    # asked for: the conda settings as xlwings writes them, the two interpreter lines out, a backup, undone exactly
    done = _install(conf, use_this_python=True)
    conda_lines = _by_xlwings(conf.parent / "by-xlwings.conf", monkeypatch).splitlines()
    assert conf.read_text().splitlines() == ['"SHOW CONSOLE","True"', *conda_lines]
    assert [p.read_text() for p in _backups(conf)] == [text]
    assert '  - "INTERPRETER","C:\\Legacy\\pythonw.exe"' in done and f"  + {conda_lines[0]}" in done
    _uninstall(conf)
    assert conf.read_text() == text


def test_install_shows_what_it_will_write_before_it_writes(conf: Path) -> None:
    conf.write_text('"SHOW CONSOLE","True"\n')
    shown: list[tuple[str, str]] = []
    say = lambda line: shown.append((line, conf.read_text()))  # noqa: E731
    install(conf, config_only=True, platform="win32", run=Recorder(), environ={}, say=say)
    assert (f'  + "INTERPRETER_WIN","{sys.executable}"', '"SHOW CONSOLE","True"\n') in shown
    assert conf.read_text() == f'"SHOW CONSOLE","True"\n"INTERPRETER_WIN","{sys.executable}"\n'


def test_dry_run_shows_and_changes_nothing(
    conf: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(manage, "this_platform", lambda: "win32")
    conf.write_text('"SHOW CONSOLE","True"\n')
    assert cli.main(["addin", "install", "--config-only", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f'  + "INTERPRETER_WIN","{sys.executable}"' in out and "nothing written (--dry-run)" in out
    assert conf.read_text() == '"SHOW CONSOLE","True"\n' and _backups(conf) == []


def test_a_backup_is_kept_beside_the_file_and_never_overwritten(conf: Path) -> None:
    for python in ("C:\\one\\python.exe", "C:\\two\\python.exe"):
        conf.write_text(f'"INTERPRETER_WIN","{python}"\n')
        done = _install(conf, use_this_python=True)
        assert addin_settings(conf)["interpreter_win"] == sys.executable
        assert any(line.startswith(f"{conf}: backup of the file as it was: ") for line in done)
    assert [p.read_text() for p in _backups(conf)] == [
        '"INTERPRETER_WIN","C:\\one\\python.exe"\n',
        '"INTERPRETER_WIN","C:\\two\\python.exe"\n',
    ]


def test_uninstall_puts_back_exactly_what_install_changed(conf: Path) -> None:
    text = '# mine\r\n"SHOW CONSOLE","True"\r\n\r\n"INTERPRETER_WIN","C:\\mine\\pythonw.exe"\r\n'
    conf.write_bytes(text.encode())
    _install(conf, use_this_python=True)
    assert conf.read_bytes() == text.replace("C:\\mine\\pythonw.exe", sys.executable).encode()  # in place
    done = _uninstall(conf)
    assert conf.read_bytes() == text.encode()
    assert any("put back" in line for line in done)
    assert _uninstall(conf)[0] == f"{conf}: nothing of benchsheet's to put back (install changed nothing here)"


def test_uninstall_keeps_what_the_user_changed_since(conf: Path) -> None:
    conf.write_text('"SHOW CONSOLE","True"\n')
    _install(conf)  # adds INTERPRETER_WIN
    conf.write_text(conf.read_text() + '"UDF MODULES","mine"\n')  # the user adds a line afterwards
    _uninstall(conf)
    assert conf.read_text() == '"SHOW CONSOLE","True"\n"UDF MODULES","mine"\n'
    conf.write_text('"SHOW CONSOLE","True"\n')
    _install(conf)
    conf.write_text('"SHOW CONSOLE","True"\n"INTERPRETER_WIN","C:\\chosen\\python.exe"\n')  # the user's own choice
    done = _uninstall(conf)
    assert conf.read_text() == '"SHOW CONSOLE","True"\n"INTERPRETER_WIN","C:\\chosen\\python.exe"\n'
    assert any("INTERPRETER_WIN changed since install; left as it is" in line for line in done)


def test_uninstall_of_a_file_install_created_removes_it(conf: Path) -> None:
    _install(conf)
    assert conf.read_text() == f'"INTERPRETER_WIN","{sys.executable}"\n'
    _uninstall(conf)
    assert not conf.exists()


def test_remove_is_uninstall(conf: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(manage, "this_platform", lambda: "win32")
    conf.write_text('"SHOW CONSOLE","True"\n')
    assert cli.main(["addin", "install", "--config-only"]) == 0
    assert cli.main(["addin", "remove", "--config-only"]) == 0
    assert conf.read_text() == '"SHOW CONSOLE","True"\n'
    assert "put back" in capsys.readouterr().out


def test_status_names_what_install_changed(conf: Path) -> None:
    conf.write_text('"INTERPRETER_WIN","C:\\mine\\python.exe"\n')
    _install(conf, use_this_python=True)
    lines = render(status(conf, platform="linux", environ={}))
    assert lines[1] == f"xlwings config: {conf}; benchsheet changed INTERPRETER_WIN (uninstall puts back)"
    _uninstall(conf)
    assert render(status(conf, platform="linux", environ={}))[1] == f"xlwings config: {conf}"


def test_uninstall_after_the_file_was_deleted_creates_nothing(conf: Path) -> None:
    _install(conf)
    conf.unlink()
    assert _uninstall(conf) == [f"{conf}: not there any more, so nothing to put back"]
    assert not conf.exists() and _uninstall(conf)[0].endswith("(install changed nothing here)")
