"""Hostile and careless input of issue 30: damaged files that stopped every command, files and texts far
larger than any real one, and outside text with control characters meant for the terminal.

Every case failed before its fix; each counts what it tried and what held (tests/robustness.py).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import re
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.data.table import COLUMNS, IdSource, Latencies, PrivateRuns, RunInfo, Table
from benchsheet.errors import shortened
from benchsheet.templates.builder import build
from benchsheet.udfs import functions as udf
from excelcalc.files import WriteRefused
from tests import robustness
from tests.conftest import falls_back

DAMAGED = "damaged or oversized user files (400-digit result, far larger than any real one)"
LOGS = "loadgen logs with impossible numbers, scenarios or names (import-run)"


# ------------------------------------------------------------ damaged input never stops the tool


def test_a_cache_with_a_400_digit_resultfalls_back(
    user_home: Path, table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(DAMAGED)
    official = udf.PERGPU("6.1-0052", "gpt-oss-120b", "Server")
    doc = json.loads(table.to_json())
    doc["rows"][3][COLUMNS.index("result")] = 10**400
    text = json.dumps(doc)
    (user_home / "results.json").write_text(text)
    falls_back(user_home, "results.json", "row 3, field 'result'")
    assert udf.PERGPU("6.1-0052", "gpt-oss-120b", "Server") == official
    assert main(["info"]) == 0 and "user cache unusable" in capsys.readouterr().out
    assert (user_home / "results.json").read_text() == text  # kept for the user
    robustness.held(DAMAGED)


@pytest.mark.parametrize("name", ["NVIDIA B200 (x0)", "NVIDIA B200 (x00)"])
def test_an_accelerator_name_of_zero_gpus_is_refused(
    run_copy: Path, user_home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(LOGS)
    system = run_copy.parents[2] / "system.json"
    doc = json.loads(system.read_text())
    doc["accelerator_model_name"] = name
    system.write_text(json.dumps(doc))
    assert main(["import-run", str(run_copy)]) == 2
    err = capsys.readouterr().err
    assert f"{system}, field 'accelerator_model_name'" in err and "0 accelerators" in err, err
    assert "please report" not in err and not (user_home / "runs.json").exists()
    robustness.held(LOGS)


# ------------------------------------------------------------ bounded: sizes, numbers, texts, folders

HUGE = 200 * 1024 * 1024  # sparse: no disk, but read whole it is 200 MB of memory and seconds of parsing


def _sparse(path: Path, size: int = HUGE) -> None:
    with path.open("wb") as fh:
        fh.write(b'{"format": ')
        fh.truncate(size)


@pytest.mark.parametrize(
    ("name", "what"),
    [("results.json", "user cache unusable"), ("runs.json", "private runs unusable"),
     ("curves.json", "Endpoints curves unusable")],
)  # fmt: skip
def test_a_user_file_far_larger_than_any_real_one_is_refused_by_its_size(
    user_home: Path, name: str, what: str, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(DAMAGED)
    _sparse(user_home / name)
    store.set_table(None)
    note = str(store.get_table().origin)
    assert f"{what}: {user_home / name}: {HUGE:,} bytes, more than any benchsheet file" in note, note
    assert main(["info"]) == 0 and f"{HUGE:,} bytes" in capsys.readouterr().out
    robustness.held(DAMAGED)


def test_an_xlwings_conf_far_larger_than_any_real_one_is_refused_by_its_size(tmp_path: Path) -> None:
    from benchsheet.addin.config import ConfigError, config_lines

    robustness.tried(DAMAGED)
    conf = tmp_path / "xlwings.conf"
    _sparse(conf)
    with pytest.raises(ConfigError, match=f"{HUGE:,} bytes, more than any xlwings configuration"):
        config_lines(conf)
    robustness.held(DAMAGED)


NUMBERS = "numbers no answer can hold (GPUSNEEDED of an absurd node size)"


@pytest.mark.parametrize("per_node", [1e300, 1e16, 2**70])
def test_gpus_needed_of_an_absurd_node_size_is_num(per_node: float, capsys: pytest.CaptureFixture[str]) -> None:
    robustness.tried(NUMBERS)
    too_large = "#NUM! the answer is too large to be a number of GPUs; check the inputs' units"
    assert udf.GPUSNEEDED(1, 1, 1, per_node) == too_large
    assert main(["eval", f"=GPUSNEEDED(1,1,1,{per_node:g})"]) == 1
    assert capsys.readouterr().err.strip() == too_large
    assert udf.GPUSNEEDED(1, 1, 1, 1e15) == 10**15  # the guard's own bound still answers
    robustness.held(NUMBERS)


SLOW = "texts that made a call slow (backtracking on 32,000-character cells)"
_OLD_LIST = re.compile(
    r"(?P<head>.*?\b(?:one of|use|known for|have|has) )(?P<items>[^;:()]+?, [^;:()]+)(?P<tail>.*)", re.S
)


def _old_shortened(text: str, limit: int) -> str:
    """``errors.shortened`` as it was (a backtracking pattern): the reference for its answers."""
    if len(text) <= limit:
        return text
    m = _OLD_LIST.match(text)
    if m:
        items = m["items"].split(", ")
        for keep in range(len(items) - 1, 0, -1):
            short = f"{m['head']}{', '.join(items[:keep])} and {len(items) - keep} more{m['tail']}"
            if len(short) <= limit:
                return short
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


def test_shortened_answers_as_before() -> None:
    rng = random.Random(30)
    words = ["use ", "use", "one of ", "has ", "have ", "known for ", "houses ", ", ", ",", " ", "a", "bc", ";", ":",
             "(", ")", "\n", "x, y", "6.1-0052"]  # fmt: skip
    texts = ["#N/A Unknown entry 'x'; use one of " + ", ".join(f"6.1-{i:04}" for i in range(90)) + " (see ENTRIES)"]
    texts += ["".join(rng.choices(words, k=rng.randint(1, 80))) for _ in range(3000)]
    for text in texts:
        for limit in (5, 20, 40, 80, 255):
            assert shortened(text, limit) == _old_shortened(text, limit), (text, limit)


def _seconds(call: Callable[[], object]) -> float:
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("cell", ["use ", "use one of a, ", "has x, y"])
def test_a_long_text_is_shortened_in_linear_time(cell: str) -> None:
    """The starting case: ENTRIESUSED over 10 cells of 32,000 characters took 16 s (quadratic). Timed as
    a ratio in one test: ten times the text may take at most 30 times as long (quadratic is 100)."""
    robustness.tried(SLOW)
    small = [[cell * (3200 // len(cell))]] * 10
    large = [[cell * (32000 // len(cell))]] * 10
    t_small = _seconds(lambda: udf.ENTRIESUSED(small, "p", "gpt-oss-120b", "Server"))
    t_large = _seconds(lambda: udf.ENTRIESUSED(large, "p", "gpt-oss-120b", "Server"))
    assert t_large < 30 * t_small + 0.05, (t_small, t_large)
    assert _seconds(lambda: shortened(cell * 10_000, 255)) < 30 * _seconds(lambda: shortened(cell * 1_000, 255)) + 0.05
    robustness.held(SLOW)


FOLDERS = "files a write must not lose or replace (temporary files, edited workbooks, devices, links)"


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder this process cannot write in: a chmod 555 one, or for root (whom modes do not stop) /sys."""
    if os.geteuid() == 0:
        yield Path("/sys")
        return
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    yield folder
    folder.chmod(0o755)


def test_template_build_into_a_read_only_folder_fails_before_the_work(
    read_only_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(FOLDERS)
    out = read_only_folder / "cluster-sizing.xlsx"
    with pytest.raises(WriteRefused, match="cannot write in its folder"):
        build(out)
    assert main(["template", "build", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {out}: cannot write in its folder") and not out.exists(), err
    assert not [p for p in read_only_folder.iterdir() if p.name.startswith(".cluster-sizing")]
    robustness.held(FOLDERS)


# ------------------------------------------------------------ nothing from outside reaches the terminal raw

RAW = "control characters meant for the terminal (ESC, BEL, C1, bidi overrides)"
HOSTILE = ["\x1b]0;pwned\x07\x1b[2J", "B200\u202egnp.exe", "a\x9bb", "tab\tname", "new\nline", "nul\x00"]
SHOWN = {"\x1b": "\\x1b", "\u202e": "\\u202e", "\x9b": "\\x9b", "\t": "\\t", "\n": "\\n", "\x00": "\\x00"}


@pytest.mark.parametrize("bad", HOSTILE)
def test_refresh_refuses_control_characters_in_a_name(
    shared: Path, tmp_path: Path, user_home: Path, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(RAW)
    rows = json.loads((shared / "v6.1/summary.json").read_bytes())
    rows["7"]["SystemName"] = f"smci355 {bad}"
    (tmp_path / "summary.json").write_text(json.dumps(rows))
    assert main(["refresh", str(tmp_path / "summary.json")]) == 2
    err = capsys.readouterr().err
    assert "summary.json, row 7, field 'SystemName': holds the control character U+" in err, err
    assert bad not in err and not (user_home / "results.json").exists()
    robustness.held(RAW)


@pytest.mark.parametrize("key", ["system_name", "accelerator_model_name", "submitter", "framework"])
@pytest.mark.parametrize("bad", HOSTILE[:3])
def test_import_run_refuses_control_characters_in_system_json(
    run_copy: Path, user_home: Path, key: str, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(RAW)
    system = run_copy.parents[2] / "system.json"
    doc = json.loads(system.read_text())
    doc[key] = f"NVIDIA B200 {bad}"
    system.write_text(json.dumps(doc))
    assert main(["import-run", str(run_copy)]) == 2
    err = capsys.readouterr().err
    assert f"{system}, field '{key}': holds the control character U+" in err, err
    assert bad not in err and not (user_home / "runs.json").exists()
    robustness.held(RAW)


def test_import_run_refuses_control_characters_in_its_name_option(
    run_copy: Path, user_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(RAW)
    assert main(["import-run", str(run_copy), "--name", "mine\x1b[2J"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --name: holds the control character U+001B") and "\x1b" not in err, err
    robustness.held(RAW)


def test_a_cache_with_control_charactersfalls_back(user_home: Path, table: Table) -> None:
    robustness.tried(RAW)
    doc = json.loads(table.to_json())
    doc["rows"][5][COLUMNS.index("system")] = "x\x1b]0;pwned\x07"
    (user_home / "results.json").write_text(json.dumps(doc))
    falls_back(user_home, "results.json", "row 5, field 'system': holds the control character U+001B")
    robustness.held(RAW)


@pytest.fixture
def hostile_table(table: Table) -> Iterator[Table]:
    """The real table with one entry's system, and one private run's name, holding terminal controls (as a
    cache or runs file written before this check would load)."""
    rows = tuple(
        dataclasses.replace(r, system=f"evil {HOSTILE[0]} {HOSTILE[1]}") if r.entry == "6.1-0052" else r
        for r in table.rows
    )
    official = next(r for r in table.rows if r.entry == "5.1-0069" and r.benchmark == "deepseek-r1")
    mine = dataclasses.replace(official, entry="local-0001", id_source=IdSource.LOCAL, round="local")
    run = RunInfo("local-0001", f"run {HOSTILE[0]}", True, Latencies(), "l", "0", "t")
    hostile = Table(rows, table.sources, table.origin).with_runs(PrivateRuns((mine,), (run,), 1))
    store.set_table(hostile)
    yield hostile
    store.set_table(None)


@pytest.mark.parametrize(
    "command",
    [["eval", '=ENTRY("6.1-0052","system")'], ["eval", '=CITE("6.1-0052","gpt-oss-120b","Server")'],
     ["eval", '=RESULTS("gpt-oss-120b","Server")'], ["eval", '=ENTRY("6.1-0052","system")&CHAR(7)'], ["runs"]],
)  # fmt: skip
def test_what_is_printed_holds_no_control_character(
    hostile_table: Table, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(RAW)
    main(command)
    out, err = capsys.readouterr()
    raw = [c for c in out + err if c not in "\n\t" and unicodedata.category(c) in ("Cc", "Cf")]  # TSV: \t and \n
    assert not raw, (raw, out, err)
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in out + err, out + err
    robustness.held(RAW)


@pytest.mark.parametrize("benchmark", ["nonsense", "\x1b[2J", "llama2-70b-99 ; rm"])
def test_import_run_accepts_only_known_benchmarks(
    run_copy: Path, user_home: Path, benchmark: str, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(RAW)
    assert main(["import-run", str(run_copy), "--benchmark", benchmark]) == 2
    err = capsys.readouterr().err
    assert "No benchmark " in err and "deepseek-r1" in err and "\x1b" not in err, err
    assert not (user_home / "runs.json").exists()
    assert main(["import-run", str(run_copy), "--benchmark", "DeepSeek-R1"]) == 0
    robustness.held(RAW)


@pytest.mark.parametrize(
    "url", ["https://example.com/my wheels/", "https://example.com/\u202elhw.exe/", "https://example.com/\x1b[2J/"]
)
def test_lite_refuses_a_wheel_url_with_spaces_or_controls(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    robustness.tried(RAW)
    assert main(["lite", "requirements.txt", "--wheel-url", url]) == 2
    err = capsys.readouterr().err
    assert "--wheel-url must not hold spaces or control characters" in err, err
    assert not [c for c in err if unicodedata.category(c) in ("Cc", "Cf") and c != "\n"], err
    assert main(["lite", "requirements.txt", "--wheel-url", "https://example.com/my%20wheels/"]) == 0
    robustness.held(RAW)
