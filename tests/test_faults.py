"""A refresh killed at any moment leaves a loadable cache."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from benchsheet.data.table import table_from_json
from tests import robustness


def _refresh(home: Path, source: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "BENCHSHEET_HOME": str(home)}
    return subprocess.Popen(
        [sys.executable, "-m", "benchsheet.cli", "refresh", str(source)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_sigkill_during_refresh_never_corrupts_the_cache(shared: Path, user_home: Path) -> None:
    sources = [shared / "v6.1/summary.json", shared / "v5.1/summary_results.json"]
    assert _refresh(user_home, sources[0]).wait(timeout=60) == 0
    cache = user_home / "results.json"
    rng = random.Random(20261129)
    kills = 0
    for i in range(10):
        proc = _refresh(user_home, sources[i % 2])
        time.sleep(rng.uniform(0.05, 0.9))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
            robustness.tried("refreshes killed with SIGKILL at a random moment")
        proc.wait(timeout=60)
        table = table_from_json(cache.read_bytes(), str(cache))  # raises if half written
        assert "6.1" in table.rounds
        if proc.returncode == -signal.SIGKILL:
            robustness.held("refreshes killed with SIGKILL at a random moment")
    assert kills >= 3, "the refresh finished too fast to be interrupted; widen the window"
