"""A refresh killed at any moment leaves a loadable cache.

The kill lands where the test chooses, never by luck of timing: the refresh runs in a child process,
the real ``benchsheet refresh``, with a pause at one step of replacing the cache (its own script
wraps the standard library's call at that step). At the step the child writes its name to a pipe
and waits; the test then sends SIGKILL, so a busy machine can only make the test slower, never make
the kill miss. A kill before the rename leaves the old cache byte for byte; a kill after it, the new one.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from benchsheet.data.table import table_from_json
from tests import robustness
from tests.killing import HANG_GUARD, PIPE_FD, kill_when_told

KILLED = "refreshes killed with SIGKILL at each step of the write"

# The child: `benchsheet refresh SOURCE` as the CLI runs it, paused at STEP. A pause writes STEP to
# the pipe SIGNAL_FD and waits on stdin, which stays open until the test ends (then it goes on).
CHILD = r"""
import io, os, sys, tempfile

step, source, fraction, signal_fd = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])


def pause():
    os.write(signal_fd, step.encode())
    sys.stdin.buffer.read()


def is_cache(path):
    return os.path.basename(os.fspath(path)) == "results.json"


import benchsheet.data.refresh as refresh

if step == "importing":  # the source read, not yet imported; the cache not yet locked
    import_file = refresh.import_file

    def paused_import(*args, **kwargs):
        pause()
        return import_file(*args, **kwargs)

    refresh.import_file = paused_import
elif step == "locked":  # the cache locked and the new one made and checked, nothing written yet
    write_atomic = refresh.write_atomic

    def paused_write(*args, **kwargs):
        pause()
        return write_atomic(*args, **kwargs)

    refresh.write_atomic = paused_write
elif step == "writing":  # the temporary file written up to FRACTION of its bytes
    mkstemp, fdopen, temporary = tempfile.mkstemp, os.fdopen, set()

    def recorded_mkstemp(*args, **kwargs):
        fd, name = mkstemp(*args, **kwargs)
        if os.path.basename(name).startswith(".results.json."):
            temporary.add(fd)
        return fd, name

    class PausedWriter(io.BufferedWriter):
        def write(self, data):
            cut = int(len(data) * fraction)
            written = super().write(data[:cut])
            self.flush()  # the first part is in the file, as a write cut off there leaves it
            pause()
            return written + super().write(data[cut:])

    def paused_fdopen(fd, *args, **kwargs):
        return PausedWriter(io.FileIO(fd, "wb")) if fd in temporary else fdopen(fd, *args, **kwargs)

    tempfile.mkstemp, os.fdopen = recorded_mkstemp, paused_fdopen
elif step in ("replacing", "replaced"):  # the temporary file whole and synced: before or after the rename
    replace = os.replace

    def paused_replace(src, dst, *args, **kwargs):
        if step == "replacing" and is_cache(dst):
            pause()
        replace(src, dst, *args, **kwargs)
        if step == "replaced" and is_cache(dst):
            pause()

    os.replace = paused_replace
else:
    raise SystemExit(f"unknown step {step}")

from benchsheet.cli import main

sys.exit(main(["refresh", source]))
"""


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "BENCHSHEET_HOME": str(home)}


def _refresh(home: Path, source: Path) -> None:
    """A whole refresh, not interrupted, that succeeds."""
    cmd = [sys.executable, "-m", "benchsheet.cli", "refresh", str(source)]
    done = subprocess.run(cmd, env=_env(home), capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr


def _killed_at(home: Path, source: Path, step: str, fraction: float = 0.0) -> None:
    """Run the refresh paused at ``step`` and SIGKILL it there."""
    ended = kill_when_told(CHILD, [step, str(source), repr(fraction), PIPE_FD], _env(home))
    assert ended.reached == step, f"the refresh ended before {step}: {ended.stderr}"
    assert ended.returncode == -signal.SIGKILL, (step, ended.returncode)


def test_sigkill_during_refresh_never_corrupts_the_cache(shared: Path, user_home: Path) -> None:
    """At each step of a refresh, killed there: the cache the killed refresh found, byte for byte, or
    (killed after the rename) the new one; it loads, and the next refresh takes the lock and succeeds."""
    _refresh(user_home, shared / "v6.1/summary.json")
    cache = user_home / "results.json"
    old = cache.read_bytes()
    source = shared / "v5.1/summary_results.json"  # the cache after it names this file for round 5.1
    rng = random.Random(20261129)
    kills = [("importing", 0.0), ("locked", 0.0)]
    kills += [("writing", rng.uniform(0.001, 0.999)) for _ in range(3)]  # a random byte of the file
    kills += [("replacing", 0.0), ("replaced", 0.0)]
    for step, fraction in kills:
        cache.write_bytes(old)
        robustness.tried(KILLED)
        _killed_at(user_home, source, step, fraction)
        now = cache.read_bytes()
        table = table_from_json(now, str(cache))  # raises if half written
        assert "6.1" in table.rounds
        v51 = next(s for s in table.sources if s.round == "5.1")
        if step == "replaced":
            assert now != old and v51.file == "summary_results.json", step  # the new cache, whole
        else:
            assert now == old, step  # the old cache, untouched
        robustness.held(KILLED)
    _refresh(user_home, source)  # no lock or temporary file left behind stops the next one
    assert table_from_json(cache.read_bytes(), str(cache)).rounds == ("5.1", "6.0", "6.1")
