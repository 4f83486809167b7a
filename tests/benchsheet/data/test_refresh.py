"""``benchsheet refresh`` over real HTTP on 127.0.0.1: good files, broken ones, and the lock."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from benchsheet import analysis
from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.data.refresh import Policy, fetch
from benchsheet.errors import RefreshError
from tests import robustness

Route = Callable[[BaseHTTPRequestHandler], None]


def _send(body: bytes, ctype: str = "application/json", status: int = 200, length: int | None = None) -> Route:
    def route(h: BaseHTTPRequestHandler) -> None:
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(body) if length is None else length))
        h.end_headers()
        h.wfile.write(body)

    return route


@pytest.fixture
def server(shared: Path) -> Iterator[tuple[str, dict[str, Route]]]:
    routes: dict[str, Route] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            route = routes.get(self.path)
            if route is None:
                _send(b"not here", "text/plain", 404)(self)
            else:
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    route(self)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    for rel in ("v5.1/summary_results.json", "v6.0/summary_results.json", "v6.1/summary.json"):
        routes["/" + rel] = _send((shared / rel).read_bytes())
    yield base, routes
    httpd.shutdown()
    httpd.server_close()


def _cache(home: Path) -> bytes | None:
    path = home / "results.json"
    return path.read_bytes() if path.exists() else None


def test_refresh_from_http_replaces_the_user_cache(
    server: tuple[str, dict[str, Route]], user_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, _ = server
    assert main(["refresh", f"{base}/v6.1/summary.json"]) == 0
    out = capsys.readouterr().out
    assert "refreshed" in out and "683dc158657e4c99592a9e6e87f4615b92d8523f4c5803d66e6be689d2cbb0d5" in out
    store.set_table(None)
    table = store.get_table()
    assert table.origin.kind == "user"
    assert table.rounds == ("5.1", "6.0", "6.1")  # the other rounds kept from before
    v61 = next(s for s in table.sources if s.round == "6.1")
    assert v61.url == f"{base}/v6.1/summary.json"
    assert table.get("6.1-0052", "gpt-oss-120b", "Server") is not None


def _broken_variants(shared: Path) -> dict[str, tuple[Route, str]]:
    good = (shared / "v6.1/summary.json").read_bytes()
    rows = json.loads(good)
    missing = dict(rows)
    missing["3"] = {k: v for k, v in rows["3"].items() if k != "Result"}

    def slow(h: BaseHTTPRequestHandler) -> None:
        time.sleep(1.5)
        _send(good)(h)

    return {
        "truncated": (_send(good[: len(good) // 2], length=len(good)), "truncated"),
        "html": (_send(b"<html><body>Rate limited</body></html>", "text/html"), "web page"),
        "html-as-json": (_send(b"<!DOCTYPE html><html></html>", "application/json"), "not valid JSON"),
        "missing-field": (_send(json.dumps(missing).encode()), "row 3, field 'Result': missing"),
        "empty-list": (_send(b"[]"), "no result rows"),
        "slow": (slow, "no answer within"),
    }


@pytest.mark.parametrize("variant", ["truncated", "html", "html-as-json", "missing-field", "empty-list", "slow", "404"])
def test_every_failure_keeps_the_old_cache(
    server: tuple[str, dict[str, Route]],
    shared: Path,
    user_home: Path,
    variant: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    base, routes = server
    assert main(["refresh", f"{base}/v6.0/summary_results.json"]) == 0  # an existing user cache
    before = _cache(user_home)
    assert before is not None
    if variant == "404":
        reason = "HTTP 404"
    else:
        routes["/bad"], reason = _broken_variants(shared)[variant]
    capsys.readouterr()
    robustness.tried("broken downloads (truncated, HTML, 404, too slow, missing field, empty)")
    assert main(["refresh", "--timeout", "0.5", f"{base}/bad"]) == 2
    err = capsys.readouterr().err
    assert "previous cache is unchanged" in err and reason in err
    assert "Traceback" not in err
    assert _cache(user_home) == before
    store.set_table(None)
    assert store.get_table().origin.kind == "user"
    robustness.held("broken downloads (truncated, HTML, 404, too slow, missing field, empty)")


def test_refresh_from_local_file(shared: Path, user_home: Path) -> None:
    assert main(["refresh", str(shared / "v5.1/summary_results.json")]) == 0
    assert _cache(user_home) is not None
    store.set_table(None)
    source = next(s for s in store.get_table().sources if s.round == "5.1")
    assert (source.file, source.url) == ("summary_results.json", "")  # a local file is not claimed to be official
    line = analysis.cite(store.get_table(), "5.1-0072", "deepseek-r1", "Server", "source")
    assert isinstance(line, str) and line.startswith("Source: summary_results.json, retrieved")
    assert "githubusercontent" not in str(analysis.cite(store.get_table(), "5.1-0072", "deepseek-r1", "Server"))


def test_a_much_smaller_round_is_refused(
    server: tuple[str, dict[str, Route]], shared: Path, user_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, routes = server
    rows = json.loads((shared / "v6.1/summary.json").read_bytes())
    routes["/small"] = _send(json.dumps({k: rows[k] for k in list(rows)[:10]}).encode())
    assert main(["refresh", f"{base}/small"]) == 2
    assert "refusing to shrink" in capsys.readouterr().err
    assert _cache(user_home) is None


def test_policy_refuses_plain_http_and_unknown_hosts() -> None:
    policy = Policy()
    with pytest.raises(RefreshError, match="only https"):
        fetch("http://example.org/summary.json", policy)
    with pytest.raises(RefreshError, match="not allowed"):
        fetch("https://example.org/summary.json", policy)
    with pytest.raises(RefreshError, match="cap"):
        fetch(__file__, Policy(max_bytes=10))


def test_redirect_off_the_allowlist_is_refused(server: tuple[str, dict[str, Route]]) -> None:
    base, routes = server

    def redirect(h: BaseHTTPRequestHandler) -> None:
        h.send_response(302)
        h.send_header("Location", "https://evil.example/summary.json")
        h.end_headers()

    routes["/redirect"] = redirect
    with pytest.raises(RefreshError, match=r"evil\.example is not allowed"):
        fetch(f"{base}/redirect", Policy())


def test_two_refreshes_serialize(server: tuple[str, dict[str, Route]], user_home: Path) -> None:
    base, _ = server
    results: list[int] = []
    threads = [
        threading.Thread(target=lambda u=u: results.append(main(["refresh", u])))
        for u in (f"{base}/v6.0/summary_results.json", f"{base}/v6.1/summary.json")
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [0, 0]
    store.set_table(None)
    table = store.get_table()
    urls = {s.url for s in table.sources}
    assert {f"{base}/v6.0/summary_results.json", f"{base}/v6.1/summary.json"} <= urls


def test_default_sources_are_the_official_summary_files(capsys: pytest.CaptureFixture[str]) -> None:
    from benchsheet.data.refresh import sources_for

    # written out here, not read from the code under test: the files ../shared/mlperf/README.md names
    repo = "https://raw.githubusercontent.com/mlcommons/inference_results_v"
    official = [f"{repo}5.1/main/summary_results.json", f"{repo}6.0/main/summary_results.json"]
    official.append(f"{repo}6.1/main/summary.json")
    assert sources_for(None) == official
    assert sources_for(["6.1"]) == official[2:]
    for url in sources_for(None):
        Policy().check_url(url)  # raises RefreshError if the default allowlist refuses an official file
    assert main(["refresh", "--round", "9.9"]) == 2
    assert "unknown round(s) 9.9" in capsys.readouterr().err
