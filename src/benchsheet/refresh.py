"""``benchsheet refresh``: fetch official summary files and replace the user cache.

Transport only: bytes come from a local file or an HTTPS URL (plain HTTP only
for 127.0.0.1, for tests), with an allowlist of hosts, connect and read
timeouts, a size cap and no redirects off the allowlist. Parsing and
validation are the importer's; writing is the store's (atomic, locked). Any
failure leaves the previous cache in place.
"""

from __future__ import annotations

import functools
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .errors import DataError
from .importers import OFFICIAL_URLS, Imported, import_file
from .store import merge, update_user_cache
from .table import Table

DEFAULT_HOSTS = ("raw.githubusercontent.com", "github.com", "objects.githubusercontent.com")
MAX_BYTES = 64 * 1024 * 1024
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class RefreshError(Exception):
    """Why a refresh did not replace the cache."""


@dataclass(frozen=True)
class Policy:
    hosts: tuple[str, ...] = DEFAULT_HOSTS
    timeout: float = 30.0
    max_bytes: int = MAX_BYTES

    def check_url(self, url: str) -> None:
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
    """The bytes of a local file or URL, within the policy's limits."""
    if "://" not in source:
        path = Path(source)
        try:
            size = path.stat().st_size
            if size > policy.max_bytes:
                raise RefreshError(f"{source}: {size} bytes is more than the cap of {policy.max_bytes}")
            return path.read_bytes()
        except OSError as exc:
            raise RefreshError(f"{source}: {exc.strerror or exc}") from None
    policy.check_url(source)
    opener = urllib.request.build_opener(_CheckedRedirects(policy))
    request = urllib.request.Request(source, headers={"User-Agent": "benchsheet"})
    try:
        with opener.open(request, timeout=policy.timeout) as resp:
            ctype = resp.headers.get("Content-Type", "")
            if "html" in ctype.lower():
                raise RefreshError(f"{source}: the server sent a web page ({ctype}), not JSON")
            total = resp.headers.get("Content-Length")
            expected = int(total) if total and total.isdigit() else None
            if expected is not None and expected > policy.max_bytes:
                raise RefreshError(f"{source}: {expected} bytes is more than the cap")
            chunks, got = [], 0
            while True:
                chunk = resp.read(65536)
                if not chunk:
                    break
                got += len(chunk)
                if got > policy.max_bytes:
                    raise RefreshError(f"{source}: more than {policy.max_bytes} bytes, stopped")
                chunks.append(chunk)
                if progress:
                    progress(got, expected)
            if expected is not None and got != expected:
                raise RefreshError(f"{source}: body truncated ({got} of {expected} bytes)")
            return b"".join(chunks)
    except urllib.error.HTTPError as exc:
        raise RefreshError(f"{source}: HTTP {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise RefreshError(f"{source}: {exc.reason}") from None
    except TimeoutError:
        raise RefreshError(f"{source}: no answer within {policy.timeout:g} s") from None
    except OSError as exc:  # connection reset, incomplete read
        raise RefreshError(f"{source}: {exc}") from None


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


def refresh(
    sources: Sequence[str],
    policy: Policy,
    progress: Callable[[str, int, int | None], None] | None = None,
) -> Table:
    """Fetch and import every source, then replace the user cache in one step."""
    imported = []
    for src in sources:
        report = None
        if progress is not None:
            report = functools.partial(progress, src)
        data = fetch(src, policy, report)
        name = src if "://" in src else Path(src).name
        try:
            imported.append(import_file(data, name, url=src if "://" in src else ""))
        except DataError as exc:
            raise RefreshError(str(exc)) from None

    def change(current: Table) -> Table:
        check_against(current, imported)
        return merge(current, imported, origin="user")

    return update_user_cache(change)
