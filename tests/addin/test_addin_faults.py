"""``benchsheet addin install|uninstall`` killed at any moment loses nothing of the user's configuration.

The kill lands where the test chooses, never by luck of timing (as ``tests/benchsheet/data/test_faults.py``
does for refresh): the real command runs in a child process that counts the moments it touches a file
in the configuration's folder (a file opened for writing, half of a write, the file closed, a rename or a
removal before and after) and pauses at the K-th, writing to a pipe; the test then sends SIGKILL. K runs
from 1 until the command ends before reaching it, so every such moment is killed once: the count of kills,
never the clock. After each kill ``xlwings.conf`` is, byte for byte, the file before the command or the one
it writes, and running the command again finishes the job.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from benchsheet.addin import changes, manage
from benchsheet.addin.manage import install, uninstall
from tests import robustness
from tests.killing import HANG_GUARD, PIPE_FD, kill_when_told

KILLED = "addin install/uninstall killed with SIGKILL at each file step"

# The child: `benchsheet addin ARGS` as the CLI runs it (on the Windows code path: xlwings' own step and
# the probe of Excel's Python replaced, as no Excel is here), paused at its K-th file step in FOLDER.
CHILD = r"""
import io, os, sys

k, folder, signal_fd = int(sys.argv[1]), os.path.realpath(sys.argv[2]), int(sys.argv[3])
argv = sys.argv[4:]
seen = 0


def step(what):
    global seen
    seen += 1
    if seen == k:
        os.write(signal_fd, what.encode())
        sys.stdin.buffer.read()


def ours(name):
    if isinstance(name, int):
        name = os.readlink(f"/proc/self/fd/{name}")
    return os.path.dirname(os.path.realpath(os.fspath(name))) == folder


class Paused:
    def __init__(self, f):
        self._f = f

    def write(self, data):
        half = len(data) // 2
        written = self._f.write(data[:half])
        self._f.flush()  # the first half is in the file, as a write cut off there leaves it
        step("half written")
        return written + self._f.write(data[half:])

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.__exit__(*exc)
        step("closed")


open_ = io.open


def paused_open(file, mode="r", *args, **kwargs):
    f = open_(file, mode, *args, **kwargs)
    if any(c in mode for c in "wax+") and ours(file):
        step("opened")
        return Paused(f)
    return f


io.open = paused_open


def around(name):
    real = getattr(os, name)

    def paused(path, *args, **kwargs):
        mine = ours(path)
        if mine:
            step(f"before {name}")
        real(path, *args, **kwargs)
        if mine:
            step(f"after {name}")

    setattr(os, name, paused)


for name in ("replace", "rename", "unlink"):
    around(name)

from benchsheet.addin import manage

manage.this_platform = lambda: "win32"
manage.run_xlwings = lambda args: 0
manage.try_python = lambda python, timeout=300: manage.Tried(True, "not tried here")

from benchsheet.cli import main

sys.exit(main(["addin", *argv]))
"""

BEFORE = (
    '"INTERPRETER_WIN","C:\\Users\\me\\venv\\Scripts\\pythonw.exe"\n'
    '"UDF MODULES","mymod;other.mod"\n'
    "\n"
    '"SHOW CONSOLE","True"\n'
)  # the user's own lines; --use-this-python makes install change one


def _killed_at(k: int, conf: Path, argv: list[str]) -> str | None:
    """Run ``benchsheet addin ARGV`` paused at its K-th file step and SIGKILL it there; the step's name,
    or None where the command ended (successfully) before its K-th step."""
    ended = kill_when_told(CHILD, [str(k), str(conf.parent), PIPE_FD, *argv, "--config", str(conf)])
    if not ended.reached:
        assert ended.returncode == 0, ended.stderr
        return None
    assert ended.returncode == -signal.SIGKILL, (k, ended.reached, ended.returncode)
    return ended.reached


def _installed(conf: Path) -> str:
    conf.write_text(BEFORE, encoding="utf-8")
    install(conf, config_only=True, platform="win32", run=lambda a: 0, use_this_python=True)
    after = conf.read_text(encoding="utf-8")
    assert after != BEFORE and changes.state_file(conf).is_file()
    return after


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def _restore(folder: Path, files: dict[str, bytes]) -> None:
    for path in folder.iterdir():
        path.unlink()
    for name, data in files.items():
        (folder / name).write_bytes(data)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["uninstall", "--config-only"], ["uninstall"], ["install", "--config-only"]])
def test_a_killed_install_or_uninstall_leaves_the_configuration_whole(
    tmp_path: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 42 item 1: uninstall rewrote xlwings.conf in place, so a kill could leave it at 0 bytes.
    Killed at each of its file steps (the Linux CLI with --config-only and the Windows code path), the
    configuration is the one before or the one after, never a part, and a second run ends as one run does."""
    monkeypatch.setattr(manage, "try_python", lambda python, timeout=300: manage.Tried(True, "not tried here"))
    conf = tmp_path / "home" / ".xlwings" / "xlwings.conf"
    conf.parent.mkdir(parents=True)
    after_install = _installed(conf)
    start, end = (after_install, BEFORE) if argv[0] == "uninstall" else (BEFORE, after_install)
    if argv[0] == "install":
        uninstall(conf, config_only=True, platform="win32", run=lambda a: 0)
    first = _files(conf.parent)
    kills = 0
    for k in range(1, 100):
        _restore(conf.parent, first)
        robustness.tried(KILLED)
        reached = _killed_at(k, conf, [*argv, "--use-this-python"] if argv[0] == "install" else argv)
        if reached is None:
            break
        kills += 1
        assert conf.read_text(encoding="utf-8") in (start, end), (k, reached, conf.read_bytes())
        if argv[0] == "uninstall":  # the second run finishes the job
            uninstall(conf, config_only=True, platform="win32", run=lambda a: 0)
        else:
            install(conf, config_only=True, platform="win32", run=lambda a: 0, use_this_python=True)
            assert conf.read_text(encoding="utf-8") == end, (k, reached)
            uninstall(conf, config_only=True, platform="win32", run=lambda a: 0)
        assert conf.read_text(encoding="utf-8") == BEFORE, (k, reached)
        assert not changes.state_file(conf).exists()
        robustness.held(KILLED)
    assert kills >= 4, kills  # at least: opened, half written, closed, removed


# A child that ends with status 3 the moment anything opens the user configuration FILE.
NEVER_OPENED = r"""
import os, sys

conf = os.path.realpath(sys.argv[1])


def hook(event, args):
    if event == "open" and isinstance(args[0], str | bytes | os.PathLike) and os.path.realpath(args[0]) == conf:
        sys.stderr.write(f"opened {conf}\n")
        os._exit(3)


sys.addaudithook(hook)
from benchsheet.cli import main

sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("argv", [["status"], ["install", "--config-only"], ["uninstall", "--config-only"]])
def test_a_huge_xlwings_conf_is_refused_by_its_size_before_xlwings_reads_it(tmp_path: Path, argv: list[str]) -> None:
    """Issue 42 item 3: `import xlwings` reads the whole user configuration (its licence check), so a
    1.5 GB xlwings.conf ended in "MemoryError (please report this)" after 12 s at 1.6 GB, before benchsheet's
    1 MiB check. The file is sparse (no disk used); the child stops at once if anything opens it."""
    conf = tmp_path / ".xlwings" / "xlwings.conf"
    conf.parent.mkdir()
    with conf.open("wb") as f:
        f.truncate(1_500_000_000)
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", NEVER_OPENED, str(conf), "addin", *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"error: {conf}: 1,500,000,000 bytes, more than any xlwings configuration (at most 1,048,576); not read\n"
    )
