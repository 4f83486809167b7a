"""The command line: help everywhere, and no bare tracebacks."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from benchsheet.cli import build_parser, main


def _commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [prefix]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _commands(sub, (*prefix, name))
    return found


COMMANDS = _commands(build_parser())


def test_every_subcommand_is_there() -> None:
    names = {c[0] for c in COMMANDS if c}
    assert {
        "info",
        "eval",
        "refresh",
        "build-snapshot",
        "functions",
        "import-run",
        "runs",
        "forget",
        "template",
        "freeze",
        "addin",
    } <= names
    assert {
        ("template", "build"),
        ("template", "calc"),
        ("addin", "install"),
        ("addin", "status"),
        ("addin", "uninstall"),
    } <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) or "benchsheet" for c in COMMANDS])
def test_help_on_every_subcommand(command: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*command, "--help"])
    assert exc.value.code == 0
    assert "usage: benchsheet" in capsys.readouterr().out


def test_installed_command_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "benchsheet.cli", "eval", '=GPUS("5.1-0072")'],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "72"


def test_no_arguments_show_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchsheet`` alone is a user asking what it does: the help, exit 0, not a usage error."""
    assert main([]) == 0
    assert capsys.readouterr().out == build_parser().format_help()
    for command in (["benchsheet"], [sys.executable, "-m", "benchsheet"]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("usage: benchsheet") and "COMMAND" in done.stdout and done.stderr == ""


def test_unexpected_failure_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build-snapshot", "--from", "/nonexistent/folder", "--out", "/nonexistent/out"]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err and len(err.strip().splitlines()) <= 2
