"""A damaged user cache or runs file never shows a number: it falls back to the bundled snapshot with a
note naming the file and what is wrong, and the file is kept as it was for the user."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from benchsheet.catalogue.calls import convert
from benchsheet.catalogue.declare import Arg
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.data.table import COLUMNS, Table
from benchsheet.data.values import one_line
from benchsheet.errors import BenchError
from benchsheet.udfs import functions as udf
from tests.conftest import falls_back

RESULT = COLUMNS.index("result")


def _cache_with(table: Table, entry: str, value: object) -> str:
    doc = json.loads(table.to_json())
    for raw in doc["rows"]:
        if raw[COLUMNS.index("entry")] == entry:
            raw[RESULT] = value
    return json.dumps(doc)


@pytest.mark.parametrize(("value", "what"), [(-113685.0, "-113685"), (5e-324, "5e-324"), (0, "0")])
def test_a_cache_with_an_impossible_resultfalls_back(user_home: Path, table: Table, value: float, what: str) -> None:
    official = udf.PERGPU("6.1-0052", "gpt-oss-120b", "Server")
    text = _cache_with(table, "6.1-0052", value)
    (user_home / "results.json").write_text(text)
    falls_back(user_home, "results.json", what)
    assert udf.PERGPU("6.1-0052", "gpt-oss-120b", "Server") == official
    assert (user_home / "results.json").read_text() == text  # kept for the user


def test_a_runs_file_with_an_impossible_result_is_left_out(user_home: Path, table: Table) -> None:
    row = next(r for r in table.rows if r.entry == "5.1-0069" and r.benchmark == "deepseek-r1")
    raw = [getattr(row, c) for c in COLUMNS]
    raw[COLUMNS.index("entry")], raw[COLUMNS.index("id_source")] = "local-0001", "local"
    raw[COLUMNS.index("round")] = "local"
    raw[RESULT] = -113685.0
    run = {"entry": "local-0001", "name": "x", "valid": True, "log_file": "l", "log_sha256": "0", "imported_at": "t"}
    doc = {
        "format": "benchsheet-runs",
        "version": 1,
        "issued": 1,
        "columns": list(COLUMNS),
        "rows": [raw],
        "runs": [run],
    }
    (user_home / "runs.json").write_text(json.dumps(doc))
    store.set_table(None)
    assert "runs.json" in str(store.get_table().origin) and "-113685" in str(store.get_table().origin)
    assert udf.PERGPU("local-0001", "deepseek-r1", "Server") == "#N/A No entry 'local-0001' in the loaded results"


def test_a_run_record_with_a_wrong_type_is_refused(user_home: Path) -> None:
    run = {"entry": "local-0001", "name": "x", "valid": "yes", "log_file": "l", "log_sha256": "0", "imported_at": "t"}
    doc = {"format": "benchsheet-runs", "version": 1, "issued": 1, "columns": list(COLUMNS)}
    doc |= {"rows": [], "runs": [run]}
    (user_home / "runs.json").write_text(json.dumps(doc))
    store.set_table(None)
    assert "valid" in str(store.get_table().origin)


@pytest.mark.parametrize("name", ["results.json", "runs.json"])
def test_deeply_nested_json_falls_back_with_a_note(
    user_home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "[" * 100_000 + "]" * 100_000
    (user_home / name).write_text(text)
    falls_back(user_home, name, "nested too deeply")
    assert main(["info"]) == 0
    out = capsys.readouterr()
    assert "please report" not in (out.out + out.err).lower() and "nested too deeply" in out.out
    assert main(["eval", '=PERGPU("6.1-0052","gpt-oss-120b","Server")']) == 0
    assert (user_home / name).read_text() == text


@pytest.mark.parametrize("name", ["results.json", "runs.json"])
def test_a_fifo_in_place_of_a_file_falls_back_without_hanging(user_home: Path, name: str) -> None:
    os.mkfifo(user_home / name)
    falls_back(user_home, name, "not a regular file")
    assert (user_home / name).is_fifo()


def test_refresh_prints_server_text_on_one_line_without_escapes() -> None:
    assert one_line("Not Found\x1b[2J\x1b]0;owned\x07\r\nX-Evil: 1\x00") == "Not Found X-Evil: 1"
    assert one_line("\u202eevil") == "evil"


@pytest.mark.parametrize("text", ["1_000", "１２", "١٢", "1 000", "٣.٥"])
def test_numbers_excel_would_not_read_are_not_read(text: str) -> None:
    with pytest.raises(BenchError, match="#VALUE!"):
        convert(Arg("price", "number", ""), text)
    assert str(convert(Arg("price", "number", ""), "1,000.5")) == "1000.5"
    assert isinstance(udf.COSTPERMTOK(text, 100), str)


def test_a_round_typed_with_a_superscript_is_a_plain_error() -> None:
    answer = udf.BEST("B200", "gpt-oss-120b", "Server", "available", 8, "6.²")
    assert answer.startswith("#VALUE! round must look like 6.1") and "report" not in answer.lower()
    assert BY_NAME["BEST"].name == "BEST"


def _run_copy(shared: Path, tmp_path: Path) -> Path:
    from tests.benchsheet.data.test_runs import _copy_run

    return _copy_run(shared / "loadgen", tmp_path)


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("Completed tokens per second: 18592.24", "Completed tokens per second: 18_592.24", "is not a number"),
        ("Completed tokens per second: 18592.24", "Completed tokens per second: ١٨٥٩٢", "is not a number"),
        ("Completed tokens per second: 18592.24", "Completed tokens per second: 5e-324", "not a measurement"),
    ],
)
def test_a_log_number_excel_would_not_read_is_refused(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, reason: str
) -> None:
    log = _run_copy(shared, tmp_path)
    log.write_text(log.read_text().replace(old, new))
    assert main(["import-run", str(log)]) == 2
    err = capsys.readouterr().err
    assert reason in err and "line 8" in err and "report" not in err


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("accelerator_model_name", None, "'accelerator_model_name': missing"),
        ("accelerators_per_node", "٨", "expected a whole number"),
        ("number_of_nodes", "1_0", "expected a whole number"),
    ],
)
def test_a_system_description_is_read_as_written(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: object, reason: str
) -> None:
    log = _run_copy(shared, tmp_path)
    system = json.loads((tmp_path / "system.json").read_text())
    system[key] = value
    (tmp_path / "system.json").write_text(json.dumps(system))
    assert main(["import-run", str(log)]) == 2
    err = capsys.readouterr().err
    assert reason in err and "None" not in err.replace("'None'", "")


def test_refresh_shows_a_servers_status_text_cleaned(capsys: pytest.CaptureFixture[str]) -> None:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from threading import Thread

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(500, "Oops\x1b[31m red\x1b]0;title\x07 \x1b[2J")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        assert main(["refresh", f"http://127.0.0.1:{httpd.server_address[1]}/x.json"]) == 2
    finally:
        httpd.shutdown()
        httpd.server_close()
    err = capsys.readouterr().err
    assert "HTTP 500 Oops red" in err and "\x1b" not in err and "\x07" not in err and err.count("\n") == 1
