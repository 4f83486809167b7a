"""``benchsheet refresh``: fetch official summary files and replace the user cache.

Transport only: bytes come from a local file or an HTTPS URL (plain HTTP only
for 127.0.0.1, for tests), with an allowlist of hosts, connect and read
timeouts, a size cap and no redirects off the allowlist. Parsing and
validation are the importer's; writing is the store's (atomic, locked). Any
failure leaves the previous cache in place.
"""

from __future__ import annotations

import functools
import http.client
import json
import re
import stat
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchsheet.data.importers import OFFICIAL_URLS, Imported, import_file
from benchsheet.data.store import load_official, load_table, user_cache
from benchsheet.data.table import USER_ORIGIN, Table, build_table, round_sort_key, table_from_json
from benchsheet.data.userfiles import check_folder, locked
from benchsheet.data.values import one_line
from benchsheet.errors import DataError, RefreshError
from excelcalc.files import WriteRefused, writable_target, write_atomic

DEFAULT_HOSTS = ("raw.githubusercontent.com", "github.com", "objects.githubusercontent.com")
MAX_BYTES = 64 * 1024 * 1024
LOOPBACK = ("127.0.0.1", "localhost", "::1")
MAX_TIMEOUT = 3600
# rows the user cache may hold: every command loads the whole table, and docs/speed.md promises
# that in 150 ms (load_ms: the bundled 2,460 rows load in about 45 ms, linear in the rows: about
# 8,000 fit). A valid 60 MB file of 40,000 rows took 31 s to refresh and 2.6-3.1 s every eval after
MAX_ROWS = 8_000
_UNSAFE_URL = re.compile(r"[\\\x00-\x20\x7f]|%[01][0-9a-f]|%7f", re.IGNORECASE)


def check_plain_url(url: str) -> None:
    """A URL whose host is the one it seems: no backslash, control character or space, no user name."""
    if _UNSAFE_URL.search(url):
        raise RefreshError(f"{url!r}: a URL with a backslash, a control character or a space is not fetched")
    if "@" in urlsplit(url).netloc:  # "https://evil.com\@raw.githubusercontent.com": the host is not what it seems
        raise RefreshError(f"{url}: a URL with a user name (user@host) is not fetched")


@dataclass(frozen=True)
class Policy:
    hosts: tuple[str, ...] = DEFAULT_HOSTS
    timeout: float = 30.0  # seconds for the whole download of one file
    max_bytes: int = MAX_BYTES

    def __post_init__(self) -> None:
        if not 0 < self.timeout <= MAX_TIMEOUT:
            raise RefreshError(
                f"the timeout must be more than 0 and at most {MAX_TIMEOUT} seconds, not {self.timeout:g}"
            )

    def check_url(self, url: str) -> None:
        check_plain_url(url)
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        if parts.scheme == "http" and host in LOOPBACK:
            return
        if parts.scheme != "https":
            raise RefreshError(f"{url}: only https URLs are fetched")
        if host not in self.hosts:
            raise RefreshError(f"{url}: host {host} is not allowed (use --allow-host {host})")


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        self.policy.check_url(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def fetch(source: str, policy: Policy, progress: Callable[[int, int | None], None] | None = None) -> bytes:
    """The bytes of a local file or URL, within the policy's limits: a size cap on the bytes actually
    read, and for a URL a deadline of ``policy.timeout`` seconds for the whole download, headers too
    (the download runs in a thread of its own that is left behind, never waited for, at the deadline)."""
    if "://" not in source:
        return _read_local(Path(source), policy)
    policy.check_url(source)
    outcome: list[bytes | BaseException] = []

    def download() -> None:
        try:
            outcome.append(_download(source, policy, progress))
        except BaseException as exc:  # handed to the caller's thread
            outcome.append(exc)

    worker = threading.Thread(target=download, name="benchsheet-download", daemon=True)
    worker.start()
    worker.join(policy.timeout + 1)
    if not outcome:
        raise RefreshError(f"{source}: not downloaded within {policy.timeout:g} s, stopped")
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _download(source: str, policy: Policy, progress: Callable[[int, int | None], None] | None) -> bytes:
    opener = urllib.request.build_opener(_CheckedRedirects(policy))
    request = urllib.request.Request(source, headers={"User-Agent": "benchsheet"})
    deadline = time.monotonic() + policy.timeout
    try:
        with opener.open(request, timeout=policy.timeout) as resp:
            return _read_body(source, resp, policy, deadline, progress)
    except urllib.error.HTTPError as exc:
        raise RefreshError(f"{source}: HTTP {exc.code} {one_line(str(exc.reason))}") from None
    except urllib.error.URLError as exc:
        raise RefreshError(f"{source}: {one_line(str(exc.reason))}") from None
    except TimeoutError:
        raise RefreshError(f"{source}: no answer within {policy.timeout:g} s") from None
    except (OSError, ValueError, http.client.HTTPException) as exc:  # reset, incomplete read, odd URL
        raise RefreshError(f"{source}: {one_line(str(exc))}") from None


def _read_local(path: Path, policy: Policy) -> bytes:
    """A regular file, read up to the cap (``stat`` says 0 for /dev/zero; a FIFO would block forever)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise RefreshError(f"{path}: not a regular file (a device, pipe or folder); give a summary file")
        with path.open("rb") as fh:
            data = fh.read(policy.max_bytes + 1)
    except OSError as exc:
        raise RefreshError(f"{path}: {exc.strerror or exc}") from None
    if len(data) > policy.max_bytes:
        raise RefreshError(f"{path}: more than the cap of {policy.max_bytes} bytes")
    return data


def _read_body(
    source: str, resp: Any, policy: Policy, deadline: float, progress: Callable[[int, int | None], None] | None
) -> bytes:
    ctype = resp.headers.get("Content-Type", "")
    if "html" in ctype.lower():
        raise RefreshError(f"{source}: the server sent a web page ({one_line(ctype)}), not JSON")
    total = resp.headers.get("Content-Length")
    expected = int(total) if total and total.isdigit() else None
    if expected is not None and expected > policy.max_bytes:
        raise RefreshError(f"{source}: {expected} bytes is more than the cap")
    chunks, got = [], 0
    while chunk := resp.read1(65536):  # whatever has arrived: a trickle cannot outlive the deadline
        got += len(chunk)
        if got > policy.max_bytes:
            raise RefreshError(f"{source}: more than {policy.max_bytes} bytes, stopped")
        if time.monotonic() > deadline:
            raise RefreshError(f"{source}: not downloaded within {policy.timeout:g} s, stopped")
        chunks.append(chunk)
        if progress:
            progress(got, expected)
    if expected is not None and got != expected:
        raise RefreshError(f"{source}: body truncated ({got} of {expected} bytes)")
    return b"".join(chunks)


def sources_for(rounds: Sequence[str] | None) -> list[str]:
    chosen = list(rounds) if rounds else list(OFFICIAL_URLS)
    unknown = [r for r in chosen if r not in OFFICIAL_URLS]
    if unknown:
        raise RefreshError(f"unknown round(s) {', '.join(unknown)}: known are {', '.join(OFFICIAL_URLS)}")
    return [OFFICIAL_URLS[r] for r in chosen]


def check_against(current: Table, imported: Sequence[Imported]) -> None:
    """Refuse a file that holds far fewer rows than the round it replaces."""
    seen: set[str] = set()
    for imp in imported:
        rnd = imp.source.round
        if rnd in seen:
            raise RefreshError(f"{imp.source.file}: round {rnd} given twice")
        seen.add(rnd)
        before = sum(1 for r in current.rows if r.round == rnd)
        if before and imp.source.rows < before // 2:
            raise RefreshError(
                f"{imp.source.file}: {imp.source.rows} rows for round {rnd}, "
                f"the cache has {before}; refusing to shrink it by half"
            )


def merge(current: Table, imported: Sequence[Imported]) -> Table:
    """``current`` with the imported rounds replaced by the new rows: what the user cache will hold."""
    new_rounds = {i.source.round for i in imported}
    rows = [r for r in current.rows if r.round not in new_rounds]
    sources = [s for s in current.sources if s.round not in new_rounds]
    for imp in imported:
        rows.extend(imp.rows)
        sources.append(imp.source)
    sources.sort(key=lambda s: round_sort_key(s.round))
    return build_table(rows, sources, USER_ORIGIN)


def _rows_in(data: bytes) -> int:
    """The result rows of a summary file (a list or an object of rows: one row each), counted
    before they are imported; 0 where it is no such file (the import says why)."""
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return 0
    return len(doc) if isinstance(doc, list | dict) else 0


def _refuse_rows(name: str, rows: int, merged: bool = False) -> None:
    """Refuse a table of more rows than load in the time promised (``MAX_ROWS``)."""
    if rows > MAX_ROWS:
        what = f"the cache would hold {rows:,} rows with it" if merged else f"it holds {rows:,} result rows"
        raise RefreshError(
            f"{name}: {what}, more than the {MAX_ROWS:,} benchsheet loads in the 150 ms every command and "
            "formula may take to start (docs/speed.md, load_ms); refresh fewer rounds, or a file of one round"
        )


def fetch_all(
    sources: Sequence[str],
    policy: Policy,
    progress: Callable[[str, int, int | None], None] | None = None,
) -> list[Imported]:
    """Fetch and import every source, and check what the cache would hold with them: nothing is written.

    A source that fails, a cache that would shrink by half or grow past ``MAX_ROWS``, a new cache that
    would not load, and a cache path where no file can be written are each a ``RefreshError`` here, before
    ``replace_cache`` (or anything else a refresh writes) runs."""
    imported = []
    for src in sources:
        report = None
        if progress is not None:
            report = functools.partial(progress, src)
        data = fetch(src, policy, report)
        name = src if "://" in src else Path(src).name
        _refuse_rows(name, _rows_in(data))  # before the import's checks of each row: seconds on such a file
        try:
            imported.append(import_file(data, name, url=src if "://" in src else ""))
        except DataError as exc:
            raise RefreshError(str(exc)) from None
    _new_cache(imported)
    try:
        check_folder(user_cache().parent)
        writable_target(user_cache())
    except DataError as exc:
        raise RefreshError(str(exc)) from None
    except WriteRefused as exc:
        raise RefreshError(f"the user cache {exc}") from None
    return imported


def _new_cache(imported: Sequence[Imported]) -> str:
    """The text of the user cache with ``imported`` merged in, checked: it loads and is not too large."""
    current = load_official()
    check_against(current, imported)
    merged = merge(current, imported)
    _refuse_rows(", ".join(i.source.file for i in imported), len(merged.rows), merged=True)
    text = merged.to_json()
    table_from_json(text, "new cache")  # the file we write must load
    return text


def replace_cache(imported: Sequence[Imported]) -> Table:
    """Replace the user cache in one step with ``imported`` merged in; the table now loaded.

    The new cache is built, serialized and parsed back before anything is replaced, under the
    cache's lock; on any failure the previous cache stays as it was."""
    cache = user_cache()
    with locked(cache):
        write_atomic(cache, _new_cache(imported))
    return load_table()


def refresh(
    sources: Sequence[str],
    policy: Policy,
    progress: Callable[[str, int, int | None], None] | None = None,
) -> Table:
    """Fetch and import every source, then replace the user cache in one step; the table now loaded."""
    return replace_cache(fetch_all(sources, policy, progress))
