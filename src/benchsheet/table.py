"""The normalized results table: one row per (entry, benchmark, scenario).

A table is a tuple of frozen ``Row`` objects plus provenance (``Source``), with
dictionary indexes built once, so that a look-up by (entry, benchmark,
scenario) is a single dictionary access. The cache file is plain JSON: loading
it can never run code.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from typing import Any

from .errors import DataError
from .names import benchmark_key, scenario_key

CACHE_FORMAT = "benchsheet-results"
CACHE_VERSION = 1


@dataclass(frozen=True, slots=True)
class Row:
    """One official result, normalized. Field order is the cache's column order."""

    round: str  # "6.1"
    entry: str  # "6.1-0052"
    id_source: str  # "official" (in the file) or "derived" (numbering rule)
    division: str  # closed / open
    availability: str  # available / preview / rdi
    suite: str  # datacenter / edge
    submitter: str
    system: str
    platform: str
    accelerator: str  # as written in the file; "" for CPU-only rows
    family: str  # "B200", "H200 + MI350X", "" for CPU-only rows
    vendor: str
    heterogeneous: bool
    gpus: int  # total accelerators in the system
    nodes: int
    benchmark: str  # official MLPerf name (llama3.1-8b even where a file says llama3_1-8b)
    scenario: str  # Server, Offline, Interactive, SingleStream, MultiStream
    result: float
    units: str
    throughput: bool  # units are a rate (Tokens/s, Samples/s, ...)
    software: str
    weight_data_types: str
    inferred: bool
    location: str
    used_model: str
    source: str  # file name the row was read from
    sha256: str  # SHA-256 of that file


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Row))
_TYPES: dict[str, type] = {
    "heterogeneous": bool,
    "throughput": bool,
    "inferred": bool,
    "gpus": int,
    "nodes": int,
    "result": float,
}
_STR_COLUMNS = tuple(c for c in COLUMNS if c not in _TYPES)


@dataclass(frozen=True, slots=True)
class Source:
    """Provenance of one imported official file."""

    round: str
    file: str
    url: str
    sha256: str
    rows: int
    imported_at: str  # ISO 8601, UTC


@dataclass(frozen=True, slots=True)
class RunInfo:
    """A private entry's facts that official rows do not have."""

    entry: str
    name: str
    valid: bool
    ttft_p99_ms: float | None
    tpot_p99_ms: float | None
    ttft_limit_ms: float | None
    tpot_limit_ms: float | None
    log_file: str
    log_sha256: str
    imported_at: str


@dataclass(frozen=True)
class Table:
    rows: tuple[Row, ...]
    sources: tuple[Source, ...]
    origin: str = "bundled"  # "bundled", "user" or a note on why bundled was used
    runs: tuple[RunInfo, ...] = ()  # private entries' facts (loadgen runs), by entry
    runs_issued: int = 0  # the highest local-NNNN ever given out, so that none is reused
    _by_key: dict[tuple[str, str, str], Row] = field(default_factory=dict, repr=False)
    _by_entry: dict[str, tuple[Row, ...]] = field(default_factory=dict, repr=False)
    _by_bench: dict[tuple[str, str], tuple[Row, ...]] = field(default_factory=dict, repr=False)
    _benchmarks: set[str] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        by_entry: dict[str, list[Row]] = {}
        by_bench: dict[tuple[str, str], list[Row]] = {}
        for r in self.rows:
            key = (r.entry.lower(), benchmark_key(r.benchmark), scenario_key(r.scenario))
            if key in self._by_key:
                raise DataError(r.source, None, "entry", f"duplicate row {r.entry} {r.benchmark} {r.scenario}")
            self._by_key[key] = r
            by_entry.setdefault(r.entry.lower(), []).append(r)
            by_bench.setdefault(key[1:], []).append(r)
            self._benchmarks.add(key[1])
        self._by_entry.update({k: tuple(v) for k, v in by_entry.items()})
        self._by_bench.update({k: tuple(v) for k, v in by_bench.items()})

    def get(self, entry: str, benchmark: str, scenario: str) -> Row | None:
        return self._by_key.get((entry.strip().lower(), benchmark_key(benchmark), scenario_key(scenario)))

    @cached_property
    def families(self) -> dict[str, str]:
        """Family key -> family name, for every single-family accelerator in the table."""
        from .names import family_key

        return {family_key(r.family): r.family for r in self.rows if r.family and not r.heterogeneous}

    @cached_property
    def has_invalid_runs(self) -> bool:
        return any(not r.valid for r in self.runs)

    def run(self, entry: str) -> RunInfo | None:
        key = entry.strip().lower()
        return next((r for r in self.runs if r.entry == key), None)

    def entry_rows(self, entry: str) -> tuple[Row, ...]:
        return self._by_entry.get(entry.strip().lower(), ())

    def bench_rows(self, benchmark: str, scenario: str) -> tuple[Row, ...]:
        return self._by_bench.get((benchmark_key(benchmark), scenario_key(scenario)), ())

    def has_benchmark(self, benchmark: str) -> bool:
        return benchmark_key(benchmark) in self._benchmarks

    @property
    def rounds(self) -> tuple[str, ...]:
        return tuple(sorted({r.round for r in self.rows if r.id_source != "local"}, key=round_sort_key))

    def to_json(self) -> str:
        doc = {
            "format": CACHE_FORMAT,
            "version": CACHE_VERSION,
            "columns": list(COLUMNS),
            "sources": [asdict(s) for s in self.sources],
            "rows": [[getattr(r, c) for c in COLUMNS] for r in self.rows],
        }
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def round_sort_key(rnd: str) -> tuple[int, ...]:
    return tuple(int(p) for p in rnd.split(".") if p.isdigit())


def build_table(rows: Iterable[Row], sources: Sequence[Source], origin: str = "bundled") -> Table:
    return Table(tuple(rows), tuple(sources), origin)


def table_from_json(text: str | bytes, name: str, origin: str = "bundled") -> Table:
    """Parse a cache file; any defect raises DataError naming the file and row."""
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(name, None, None, f"not a JSON cache file ({exc})") from None
    if not isinstance(doc, Mapping) or doc.get("format") != CACHE_FORMAT:
        raise DataError(name, None, "format", "not a benchsheet cache file")
    if doc.get("version") != CACHE_VERSION:
        raise DataError(name, None, "version", f"cache version {doc.get('version')!r}, expected {CACHE_VERSION}")
    if doc.get("columns") != list(COLUMNS):
        raise DataError(name, None, "columns", "cache columns do not match this benchsheet")
    try:
        sources = tuple(Source(**s) for s in doc["sources"])
    except (TypeError, KeyError) as exc:
        raise DataError(name, None, "sources", f"bad source record ({exc})") from None
    for i, src in enumerate(sources):
        for f in fields(Source):
            if not isinstance(getattr(src, f.name), int if f.name == "rows" else str):
                raise DataError(name, f"source {i}", f.name, f"unexpected {getattr(src, f.name)!r}")
    rows = []
    raw_rows = doc.get("rows")
    if not isinstance(raw_rows, list):
        raise DataError(name, None, "rows", "missing row list")
    for i, raw in enumerate(raw_rows):
        if not isinstance(raw, list) or len(raw) != len(COLUMNS):
            raise DataError(name, i, None, "row has the wrong number of fields")
        values: dict[str, Any] = dict(zip(COLUMNS, raw, strict=True))
        for col, typ in _TYPES.items():
            v = values[col]
            if typ is float and isinstance(v, int) and not isinstance(v, bool):
                values[col] = float(v)
            elif not isinstance(v, typ) or (typ is int and isinstance(v, bool)):
                raise DataError(name, i, col, f"expected {typ.__name__}, got {v!r}")
        for col in _STR_COLUMNS:
            if not isinstance(values[col], str):
                raise DataError(name, i, col, f"expected text, got {values[col]!r}")
        rows.append(Row(**values))
    return Table(tuple(rows), sources, origin)


RUNS_FORMAT = "benchsheet-runs"


def runs_to_json(rows: Sequence[Row], runs: Sequence[RunInfo], issued: int) -> str:
    """Private entries (rows and run facts) as plain JSON."""
    doc = {
        "format": RUNS_FORMAT,
        "version": CACHE_VERSION,
        "issued": issued,
        "columns": list(COLUMNS),
        "rows": [[getattr(r, c) for c in COLUMNS] for r in rows],
        "runs": [asdict(r) for r in runs],
    }
    return json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False)


def runs_from_json(text: str | bytes, name: str) -> tuple[tuple[Row, ...], tuple[RunInfo, ...], int]:
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(name, None, None, f"not a JSON file ({exc})") from None
    if not isinstance(doc, Mapping) or doc.get("format") != RUNS_FORMAT or doc.get("version") != CACHE_VERSION:
        raise DataError(name, None, "format", "not a benchsheet runs file of this version")
    as_cache: dict[str, Any] = {
        "format": CACHE_FORMAT,
        "version": CACHE_VERSION,
        "columns": doc.get("columns"),
        "sources": [],
        "rows": doc.get("rows"),
    }
    rows = table_from_json(json.dumps(as_cache), name).rows
    try:
        runs = tuple(RunInfo(**r) for r in doc.get("runs", []))
    except TypeError as exc:
        raise DataError(name, None, "runs", f"bad run record ({exc})") from None
    if {r.entry for r in rows} != {r.entry for r in runs}:
        raise DataError(name, None, "runs", "rows and run records do not match")
    issued = doc.get("issued", 0)
    if not isinstance(issued, int) or isinstance(issued, bool):
        raise DataError(name, None, "issued", f"expected a whole number, got {issued!r}")
    return rows, runs, issued
