"""The mean input and output tokens per request of each LLM benchmark's dataset, as MLCommons publishes
them, each with the source that states it (``published_lengths.json`` of this package, written by hand from
the sources it names); None where MLCommons publishes none, and the user must give it.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from benchsheet.data.names import benchmark_keys

LENGTHS_FILE = "published_lengths.json"


@dataclass(frozen=True, slots=True)
class PublishedLengths:
    """One benchmark's published mean tokens per request (None: not published), what they are, and where."""

    benchmark: str
    mean_input_tokens: float | None
    mean_output_tokens: float | None
    what: str
    repo: str  # where the figure was read: an MLCommons repository, its file and the commit
    path: str
    commit: str
    where: str  # the place in the file, and other files that say the same
    quote: str  # the source's own words, holding the figure as written there

    @property
    def source(self) -> str:
        return f"{self.repo} {self.path} (commit {self.commit})"

    @property
    def cited(self) -> str:
        """The source and its words, short enough for any cell (a classic UDF's 255 characters)."""
        return f'{self.repo} {self.path} (commit {self.commit[:12]}): "{self.quote}"'


def _tokens(value: object, benchmark: str, field: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and value > 0):
        raise ValueError(f"{LENGTHS_FILE}: {benchmark}.{field} must be a number of tokens > 0 or null")
    return float(value)


def _read(name: str, rec: dict[str, Any]) -> PublishedLengths:
    source = rec["source"]
    if not (
        source["repo"].startswith("mlcommons/") and source["path"] and re.fullmatch(r"[0-9a-f]{40}", source["commit"])
    ):
        raise ValueError(f"{LENGTHS_FILE}: {name}.source must name an MLCommons repository, a file and a commit")
    return PublishedLengths(
        benchmark=name,
        mean_input_tokens=_tokens(rec["mean_input_tokens"], name, "mean_input_tokens"),
        mean_output_tokens=_tokens(rec["mean_output_tokens"], name, "mean_output_tokens"),
        what=str(rec["what"]),
        repo=str(source["repo"]),
        path=str(source["path"]),
        commit=str(source["commit"]),
        where=str(rec["where"]),
        quote=str(rec["quote"]),
    )


@lru_cache(maxsize=1)
def all_published_lengths() -> dict[str, PublishedLengths]:
    """Every benchmark of the bundled file, by its key (``benchmark_key``)."""
    doc = json.loads((resources.files("benchsheet.data") / LENGTHS_FILE).read_text(encoding="utf-8"))
    return {benchmark_keys(name)[0]: _read(name, rec) for name, rec in doc["lengths"].items()}


def published_lengths(benchmark: str) -> PublishedLengths | None:
    """The published lengths of a benchmark, also under its name with an accuracy target (llama2-70b-99.9)."""
    known = all_published_lengths()
    key, base = benchmark_keys(benchmark)
    return known.get(key) or known.get(base)
