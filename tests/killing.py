"""A child Python killed with SIGKILL at a moment it chooses, never by luck of timing.

The child gets a pipe's write end (``PIPE_FD`` in its arguments stands for the descriptor); at the moment
to kill it writes the moment's name there and waits on stdin, which stays open; the parent reads the name
and sends SIGKILL. A busy machine can only make such a test slower, never make the kill miss.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

HANG_GUARD = 120  # seconds: only a child that hangs waits this long
PIPE_FD = "{pipe_fd}"


@dataclass(frozen=True)
class Ended:
    reached: str  # the moment the child named before it was killed; "" where it ended without one
    returncode: int  # -SIGKILL where it was killed
    stderr: str


def kill_when_told(code: str, args: Sequence[str], env: Mapping[str, str] | None = None) -> Ended:
    """Run ``python -c CODE ARGS`` and SIGKILL it at the moment it names on the pipe."""
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", code, *(str(write_end) if a == PIPE_FD else a for a in args)],
            env=None if env is None else dict(env),
            pass_fds=(write_end,),
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        os.close(write_end)
        write_end, reached = -1, ""
        try:
            ready, _, _ = select.select([read_end], [], [], HANG_GUARD)
            reached = os.read(read_end, 100).decode() if ready else ""
            if reached:
                proc.send_signal(signal.SIGKILL)
        finally:
            if proc.poll() is None and not reached:
                proc.kill()  # a hang guard: the child never named a moment
            _, err = proc.communicate(timeout=HANG_GUARD)
        return Ended(reached, proc.returncode, err.decode(errors="replace")[-2000:])
    finally:
        os.close(read_end)
        if write_end != -1:
            os.close(write_end)
