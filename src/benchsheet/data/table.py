"""The normalized results table: one row per (entry, benchmark, scenario).

A table is a tuple of frozen ``Row`` objects plus provenance (``Source``), with
dictionary indexes built once, so that a look-up by (entry, benchmark,
scenario) is a single dictionary access. The cache file is plain JSON: loading
it can never run code.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, make_dataclass
from enum import StrEnum
from functools import cache, cached_property
from itertools import chain, compress
from operator import not_
from typing import Any, Literal

from benchsheet.data.names import benchmark_key, canonical_scenario, entry_key, scenario_key
from benchsheet.data.values import RESULT_RANGE, control_in, is_result
from benchsheet.errors import MAX_ACCELERATORS, MAX_RESULT, MIN_RESULT, DataError

CACHE_FORMAT = "benchsheet-results"
CACHE_VERSION = 1


class IdSource(StrEnum):
    """Where a row's entry ID comes from."""

    OFFICIAL = "official"  # the file names it
    DERIVED = "derived"  # MLCommons' numbering rule (v6.1's file carries none)
    LOCAL = "local"  # your own run, local-NNNN (benchsheet import-run)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where the loaded table comes from, and what the user should know about it."""

    kind: Literal["bundled", "user"] = "bundled"  # the package's snapshot, or the user cache (refresh)
    notes: tuple[str, ...] = ()  # why the bundled snapshot answers instead; private runs that could not load

    def __str__(self) -> str:
        return self.kind + (f" ({'; '.join(self.notes)})" if self.notes else "")

    def noting(self, note: str) -> Origin:
        return Origin(self.kind, (*self.notes, note))


BUNDLED_ORIGIN, USER_ORIGIN = Origin("bundled"), Origin("user")
UNUSABLE = ("private runs unusable", "Endpoints curves unusable")
"""How a note of the table's origin begins when runs.json or curves.json could not be loaded."""


@dataclass(frozen=True, slots=True)
class Row:
    """One official result, normalized. Field order is the cache's column order."""

    round: str  # "6.1"
    entry: str  # "6.1-0052"
    id_source: IdSource
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
    gpus_in_file: int = 0  # the file's own count (a# x Nodes, or total_accelerators) where gpus differs; else 0
    has_power: bool = False  # the file's has_power: system power was measured (MLPerf Power)
    power_result: float = 0.0  # the file's Power_Result where has_power, else 0.0
    power_units: str = ""  # the file's Power_Units ("Watts"; "millijoules" per query) where has_power, else ""
    flags: str = ""  # the file's flags as it writes them: 'compliance=1; errors=0; inferred=1' ("": an older cache)


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Row))
_TYPES: dict[str, type] = {
    "heterogeneous": bool,
    "throughput": bool,
    "inferred": bool,
    "gpus": int,
    "nodes": int,
    "result": float,
    "gpus_in_file": int,
    "has_power": bool,
    "power_result": float,
}
_NO_POWER: dict[str, Any] = {"has_power": False, "power_result": 0.0, "power_units": ""}
_NO_FLAGS: dict[str, Any] = {"flags": ""}
_ADDED_COLUMNS: dict[int, dict[str, Any]] = {
    COLUMNS.index("gpus_in_file"): {"gpus_in_file": 0} | _NO_POWER | _NO_FLAGS,
    COLUMNS.index("has_power"): _NO_POWER | _NO_FLAGS,
    COLUMNS.index("flags"): _NO_FLAGS,
}
"""Files written before a column was added still load: column count -> the added columns' defaults."""
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
class Latencies:
    """A loadgen run's p99 latencies and the limits it was held to, in ms (None: the log has no such line)."""

    ttft_p99_ms: float | None = None
    tpot_p99_ms: float | None = None
    ttft_limit_ms: float | None = None
    tpot_limit_ms: float | None = None


LATENCY_FIELDS = tuple(f.name for f in fields(Latencies))


@dataclass(frozen=True, slots=True)
class RunInfo:
    """A private entry's facts that official rows do not have."""

    entry: str
    name: str
    valid: bool
    latencies: Latencies
    log_file: str
    log_sha256: str
    imported_at: str

    def record(self) -> dict[str, Any]:
        """As the runs file stores it: one flat record."""
        flat = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "latencies"}
        return flat | asdict(self.latencies)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> RunInfo:
        latencies = Latencies(**{k: record[k] for k in LATENCY_FIELDS if k in record})
        return cls(**{k: v for k, v in record.items() if k not in LATENCY_FIELDS}, latencies=latencies)


@dataclass(frozen=True, slots=True)
class PrivateRuns:
    """Your own runs (``benchsheet import-run``): their rows, their facts, and the highest number given out."""

    rows: tuple[Row, ...] = ()
    runs: tuple[RunInfo, ...] = ()
    issued: int = 0  # local-NNNN numbers are never reused, so a workbook never silently changes meaning


UNCHECKED = "not checked (own run)"
"""An own Endpoints run's steady state: the endpoints tool gives no verdict (the submission checker does)."""

VERDICTS = ("STEADY STATE", "anomaly", "drifting_up", "drifting_down", "not found")
"""The steady-state detector's verdicts (rules 4.4's shape table): a point with one of them is published."""


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One measurement point of an MLPerf Endpoints curve (``r<concurrency>/`` of a v1.0 submission)."""

    concurrency: int
    system_tps: float  # output tokens / measured seconds (section 9.1), over the basis below
    tps_per_user: float  # 1000 / TPOT p90 in ms (section 9.1); an agentic curve's e2e_avg_interactivity (4.2)
    ttft_ms: tuple[float | None, ...]  # p50, p90, p95, p99 (None: the summary has no such percentile)
    tpot_ms: tuple[float | None, ...]  # p50, p90, p95, p99
    steady_state: str  # point.yaml's steady_state verdict, as written ("STEADY STATE"); "" when it has none
    complete: bool  # result_summary.json's complete (a run interrupted or drained early is not)
    state: str  # result_summary.json's state ("complete", "interrupted", ...)
    files: tuple[tuple[str, str], ...]  # (file, SHA-256) of point.yaml, system_desc.json, result_summary.json
    offline: str = ""  # point.yaml's offline: "dedicated" (a ceiling, never a step) or "elected" (rules 5.7)
    steady_status: str = ""  # point.yaml's steady_state status ("windowable", "insufficient_passes", ...)
    basis: str = ""  # what the figures are measured over: the steady-state window or the whole run, and why

    @property
    def flag(self) -> str:
        """Why the point may not be used ("" when it may): an interrupted run, no or an unknown steady-state
        verdict. The verdicts of rules 4.4 other than STEADY STATE leave it usable, flagged (``caveat``)."""
        if self.complete and self.state == "complete":
            why = []
        elif self.state in ("", "complete"):  # complete false (or no state): the report says it did not finish
            why = ["run not complete" + (f" (state {self.state!r})" if self.state else "")]
        else:
            why = [f"run {self.state}"]
        if self.offline == "dedicated":  # outside the steady-state rule (4.4's scope: fixed-concurrency points)
            return "; ".join(why)
        if self.steady_state.upper() not in (*(v.upper() for v in VERDICTS), UNCHECKED.upper()):
            why.append(f"steady state {self.steady_state!r}" if self.steady_state else "no steady-state verdict")
        return "; ".join(why)

    @property
    def caveat(self) -> str:
        """Why a usable point is flagged ("" when it is not): rules 4.4 publish a point without a steady state,
        or whose window is too short, with its whole-run figures and flags."""
        verdict, status = self.steady_state.lower(), self.steady_status.lower()
        if verdict in ("drifting_up", "drifting_down", "not found"):
            return f"steady state {self.steady_state!r}: whole-run figures, reported with flags (rules 4.4)"
        if status and status != "windowable" and verdict in ("steady state", "anomaly"):
            return f"status {self.steady_status}: whole-run figures, the window too short to be official (rules 4.4)"
        return ""


@dataclass(frozen=True, slots=True)
class Curve:
    """One MLPerf Endpoints Pareto curve: one system and one model of a submission, its points by concurrency.

    Not a ``Row``: a curve has no single result, so the functions of one number per row never see it."""

    id: str  # "<submission>/<system>/<model>", from the folder names (as MLCommons' visualizer names it)
    submitter: str
    system: str
    model: str
    division: str
    availability: str
    accelerator: str  # the accelerator names, joined by " + " when the system mixes them
    family: str
    vendor: str
    heterogeneous: bool  # mixed accelerators: no per-GPU value
    gpus: int  # accelerators per node x nodes, summed over the node types (the Inference rows' counting rules)
    nodes: int
    points: tuple[CurvePoint, ...]  # by concurrency
    source: str  # the submission folder as given
    power_file: tuple[str, str] = ("", "")  # (file, SHA-256) of system_power.json: provisioned power, not measured
    imported_at: str = ""
    own: bool = False  # the user's own Endpoints run (a report directory), not an MLPerf submission
    axis: str = ""  # the x-axis: "" for tokens/s per user, "e2e_avg_interactivity" for an agentic benchmark (4.2)
    test: str = ""  # why the submission is a test one, not an MLPerf result ("" for a submission that is not)

    @property
    def x_name(self) -> str:
        """The x-axis in words, as every answer names a target on it."""
        return self.axis or "tokens/s per user"


@dataclass(frozen=True)
class Table:
    rows: tuple[Row, ...]
    sources: tuple[Source, ...]
    origin: Origin = BUNDLED_ORIGIN
    runs: tuple[RunInfo, ...] = ()  # private entries' facts (loadgen runs), by entry
    runs_issued: int = 0  # the highest local-NNNN ever given out, so that none is reused
    curves: tuple[Curve, ...] = ()  # MLPerf Endpoints curves, beside the rows (never rows themselves)
    _by_key: dict[tuple[str, str, str], Row] = field(default_factory=dict, repr=False)
    _by_entry: dict[str, tuple[Row, ...]] = field(default_factory=dict, repr=False)
    _by_bench: dict[tuple[str, str], tuple[Row, ...]] = field(default_factory=dict, repr=False)
    _benchmarks: set[str] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        by_entry: dict[str, list[Row]] = {}
        by_bench: dict[tuple[str, str], list[Row]] = {}
        for r in self.rows:
            key = (entry_key(r.entry), benchmark_key(r.benchmark), scenario_key(r.scenario))
            if key in self._by_key:
                raise DataError(r.source, None, "entry", f"duplicate row {r.entry} {r.benchmark} {r.scenario}")
            self._by_key[key] = r
            by_entry.setdefault(key[0], []).append(r)
            by_bench.setdefault(key[1:], []).append(r)
            self._benchmarks.add(key[1])
        self._by_entry.update({k: tuple(v) for k, v in by_entry.items()})
        self._by_bench.update({k: tuple(v) for k, v in by_bench.items()})

    def get(self, entry: str, benchmark: str, scenario: str) -> Row | None:
        return self._by_key.get((entry_key(entry), benchmark_key(benchmark), scenario_key(scenario)))

    @cached_property
    def families(self) -> dict[str, str]:
        """Family key -> family name, for every single-family accelerator in the table, and every family
        group (``names.FAMILY_GROUPS``) with a member in it."""
        from benchsheet.data.names import FAMILY_GROUPS, GROUP_MEMBERS, family_key

        found = {family_key(r.family): r.family for r in self.rows if r.family and not r.heterogeneous}
        groups = {family_key(g): g for g in FAMILY_GROUPS if GROUP_MEMBERS[family_key(g)] & found.keys()}
        return found | groups

    @cached_property
    def _benchmark_names(self) -> dict[str, str]:
        return {benchmark_key(r.benchmark): r.benchmark for r in reversed(self.rows)}

    def spelled(self, benchmark: str, scenario: str) -> str:
        """A workload as the results spell it, for messages: "deepseek-r1 Offline" for "DeepSeek-R1 offline"
        (a name the table does not know stays as typed)."""
        bench = self._benchmark_names.get(benchmark_key(benchmark), benchmark.strip())
        return f"{bench} {canonical_scenario(scenario) or scenario.strip()}"

    @cached_property
    def invalid_runs(self) -> frozenset[str]:
        """Entry keys of the private runs whose loadgen log says INVALID."""
        return frozenset(r.entry for r in self.runs if not r.valid)

    def run(self, entry: str) -> RunInfo | None:
        key = entry.strip().lower()
        return next((r for r in self.runs if r.entry == key), None)

    def with_runs(self, private: PrivateRuns) -> Table:
        """This table with your own runs beside the official rows."""
        return Table(self.rows + private.rows, self.sources, self.origin, private.runs, private.issued, self.curves)

    def with_curves(self, curves: Sequence[Curve]) -> Table:
        """This table with MLPerf Endpoints curves beside its rows (a curve of the same ID replaced)."""
        ids = {c.id.lower() for c in curves}
        kept = tuple(c for c in self.curves if c.id.lower() not in ids)
        return Table(self.rows, self.sources, self.origin, self.runs, self.runs_issued, kept + tuple(curves))

    def curve(self, curve_id: str) -> Curve | None:
        key = curve_id.strip().lower()
        return next((c for c in self.curves if c.id.lower() == key), None)

    @property
    def private(self) -> PrivateRuns:
        return PrivateRuns(tuple(r for r in self.rows if r.id_source == IdSource.LOCAL), self.runs, self.runs_issued)

    def entry_rows(self, entry: str) -> tuple[Row, ...]:
        return self._by_entry.get(entry_key(entry), ())

    def bench_rows(self, benchmark: str, scenario: str) -> tuple[Row, ...]:
        return self._by_bench.get((benchmark_key(benchmark), scenario_key(scenario)), ())

    def has_benchmark(self, benchmark: str) -> bool:
        return benchmark_key(benchmark) in self._benchmarks

    @property
    def rounds(self) -> tuple[str, ...]:
        return tuple(sorted({r.round for r in self.rows if r.id_source != IdSource.LOCAL}, key=round_sort_key))

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
    return tuple(int(p) for p in rnd.split(".") if p.isascii() and p.isdigit())


def build_table(rows: Iterable[Row], sources: Sequence[Source], origin: Origin = BUNDLED_ORIGIN) -> Table:
    return Table(tuple(rows), tuple(sources), origin)


def parse_json(text: str | bytes, name: str) -> Any:
    """JSON text as Python, or a DataError naming the file (deep nesting is damaged input, not a defect)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise DataError(name, None, None, "not a results file: its JSON is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(name, None, None, f"not a JSON file ({exc})") from None


_ROUND = re.compile(r"\d+\.\d+|local", re.ASCII)
_COUNTS = ("gpus", "nodes", "gpus_in_file")


def _json(text: str | bytes, name: str, fmt: str) -> Mapping[str, Any]:
    doc = parse_json(text, name)
    if not isinstance(doc, Mapping) or doc.get("format") != fmt:
        raise DataError(name, None, "format", f"not a {fmt} file")
    if doc.get("version") != CACHE_VERSION:
        raise DataError(name, None, "version", f"version {doc.get('version')!r}, expected {CACHE_VERSION}")
    return doc


def table_from_json(text: str | bytes, name: str, origin: Origin = BUNDLED_ORIGIN) -> Table:
    """Parse a cache file; any defect raises DataError naming the file and row."""
    doc = _json(text, name, CACHE_FORMAT)
    try:
        sources = tuple(Source(**s) for s in doc["sources"])
    except (TypeError, KeyError) as exc:
        raise DataError(name, None, "sources", f"bad source record ({exc})") from None
    for i, src in enumerate(sources):
        for f in fields(Source):
            if not isinstance(getattr(src, f.name), int if f.name == "rows" else str):
                raise DataError(name, f"source {i}", f.name, f"unexpected {getattr(src, f.name)!r}")
    return Table(_rows(doc, name), sources, origin)


def _rows(doc: Mapping[str, Any], name: str) -> tuple[Row, ...]:
    """The rows of a cache or runs file, each field checked (older files lack the columns added since).
    A file of the current columns is checked a column at a time (every process loads the table:
    a fifth of a calc's start); any doubt there and the rows are checked one by one, which names
    the row and field of the defect."""
    columns = doc.get("columns")
    if not isinstance(columns, list):
        raise DataError(name, None, "columns", "columns do not match this benchsheet")
    added = _ADDED_COLUMNS.get(len(columns))
    if columns != list(COLUMNS) and (added is None or columns != list(COLUMNS[: len(columns)])):
        raise DataError(name, None, "columns", "columns do not match this benchsheet")
    raw_rows = doc.get("rows")
    if not isinstance(raw_rows, list):
        raise DataError(name, None, "rows", "missing row list")
    if added is None and _all_valid(raw_rows):
        return _quick_rows(raw_rows)
    return _checked_rows(raw_rows, columns, added, name)


_COLUMN = {c: i for i, c in enumerate(COLUMNS)}
_ID_SOURCES = {s.value: s for s in IdSource}


def _quick_rows(raw_rows: list[list[Any]]) -> tuple[Row, ...]:
    """The rows of fields ``_all_valid`` passed, as ``Row``. Each is made as a plain slots object
    of Row's fields and then given Row as its class (the same slots: the same layout), so it is a
    Row like any other: frozen ``Row(...)`` sets each of its 31 fields through ``object.__setattr__``,
    5-8 us a row; this takes 1 us."""
    plain = _plain_row()
    rows = []
    for raw in raw_rows:
        row = plain(*_with_id_source(raw))
        row.__class__ = Row
        rows.append(row)
    return tuple(rows)


@cache
def _plain_row() -> Any:
    """A class of Row's fields and slots that sets them as plain attributes (made on first use: 1 ms)."""
    return make_dataclass("_PlainRow", COLUMNS, slots=True, eq=False, repr=False, match_args=False)


def _with_id_source(raw: list[Any]) -> list[Any]:
    """A row's fields with its id_source as the IdSource it names (checked by ``_all_valid``)."""
    fields_ = list(raw)
    fields_[_COLUMN["id_source"]] = _ID_SOURCES[raw[_COLUMN["id_source"]]]
    return fields_


def _all_valid(raw_rows: list[Any]) -> bool:
    """Every row a list of the current columns, each field as ``_checked_rows`` accepts it without
    conversion (an int in a float column is converted there): a sufficient test, never a looser one.
    Each column is tested by loops that run in C (``map``, ``set``, ``min``, ``join``): 6 ms for the
    bundled table, where a generator per column took 13-18 ms."""
    if not set(map(type, raw_rows)) <= {list} or not set(map(len, raw_rows)) <= {len(COLUMNS)}:
        return False
    cols = dict(zip(COLUMNS, zip(*raw_rows, strict=True) if raw_rows else [() for _ in COLUMNS], strict=True))
    if not all(set(map(type, cols[col])) <= {typ} for col, typ in _TYPES.items()):
        return False  # exact types: a bool is no int here, an int no float
    try:  # join takes text only (what isinstance(v, str) accepts), in one C loop: 2 ms, a test per field took 7
        text = "".join(chain.from_iterable(cols[c] for c in _STR_COLUMNS))
    except TypeError:
        return False
    if not text.isprintable():  # no CONTROL character (all are unprintable), in 2 ms: the rows one by one say which
        return False
    has, power, units = cols["has_power"], cols["power_result"], cols["power_units"]
    return (
        _results(cols["result"])
        and all(min(cols[c], default=0) >= 0 and max(cols[c], default=0) <= MAX_ACCELERATORS for c in _COUNTS)
        and set(zip(has, map(bool, units), strict=True)) <= {(True, True), (False, False)}  # units where measured
        and _results(compress(power, has))
        and set(compress(power, map(not_, has))) <= {0.0}
        and all(_ROUND.fullmatch(v) for v in set(cols["round"]))
        and set(cols["id_source"]) <= _ID_SOURCES.keys()
    )


def _results(values: Iterable[float]) -> bool:
    """``is_result`` of every value of a float column: finite (NaN would fail ``is_result``'s range
    but confuse ``min``), then within the range."""
    values = tuple(values)
    low, high = min(values, default=MIN_RESULT), max(values, default=MAX_RESULT)
    return all(map(math.isfinite, values)) and low >= MIN_RESULT and high <= MAX_RESULT


def _checked_rows(raw_rows: list[Any], columns: list[Any], added: dict[str, Any] | None, name: str) -> tuple[Row, ...]:
    rows = []
    for i, raw in enumerate(raw_rows):
        if not isinstance(raw, list) or len(raw) != len(columns):
            raise DataError(name, i, None, "row has the wrong number of fields")
        values: dict[str, Any] = dict(zip(columns, raw, strict=True)) | (added or {})
        for col, typ in _TYPES.items():
            v = values[col]
            if typ is float and isinstance(v, int) and not isinstance(v, bool):
                try:
                    values[col] = float(v)
                except OverflowError:  # a 400-digit integer has no float: damaged, like any other defect
                    raise DataError(
                        name, i, col, f"expected a number, got an integer of {v.bit_length()} bits"
                    ) from None
            elif not isinstance(v, typ) or (typ is int and isinstance(v, bool)):
                raise DataError(name, i, col, f"expected {typ.__name__}, got {v!r}")
        for col in _STR_COLUMNS:
            if not isinstance(values[col], str):
                raise DataError(name, i, col, f"expected text, got {values[col]!r}")
            if refused := control_in(values[col]):  # as on import: a cache edited by hand prints nothing raw
                raise DataError(name, i, col, refused)
        # checked as on import: a cache edited by hand (or damaged) never shows a number that is no result
        if not is_result(values["result"]):
            raise DataError(name, i, "result", f"expected {RESULT_RANGE}, got {values['result']!r}")
        for col in _COUNTS:
            if not 0 <= values[col] <= MAX_ACCELERATORS:
                raise DataError(name, i, col, f"expected a whole number from 0 to {MAX_ACCELERATORS:,}")
        if values["has_power"] != (values["power_units"] != "") or not (
            is_result(values["power_result"]) if values["has_power"] else values["power_result"] == 0.0
        ):
            raise DataError(name, i, "power_result", "measured power must be a result with its units, or none")
        if not _ROUND.fullmatch(values["round"]):
            raise DataError(name, i, "round", f"expected a round such as 6.1, got {values['round']!r}")
        try:
            values["id_source"] = IdSource(values["id_source"])
        except ValueError:
            raise DataError(name, i, "id_source", f"unexpected {values['id_source']!r}") from None
        rows.append(Row(**values))
    return tuple(rows)


RUNS_FORMAT = "benchsheet-runs"


def runs_to_json(private: PrivateRuns) -> str:
    """Private entries (rows and run facts) as plain JSON."""
    doc = {
        "format": RUNS_FORMAT,
        "version": CACHE_VERSION,
        "issued": private.issued,
        "columns": list(COLUMNS),
        "rows": [[getattr(r, c) for c in COLUMNS] for r in private.rows],
        "runs": [r.record() for r in private.runs],
    }
    return json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False)


def _check_run(name: str, i: int, run: RunInfo) -> None:
    """A run record's fields as ``import-run`` wrote them: text, a VALID flag, latencies > 0 or none."""
    for f in fields(RunInfo):
        v = getattr(run, f.name)
        if f.name == "valid" and not isinstance(v, bool):
            raise DataError(name, f"run {i}", f.name, f"expected true or false, got {v!r}")
        if f.name not in ("valid", "latencies") and not isinstance(v, str):
            raise DataError(name, f"run {i}", f.name, f"expected text, got {v!r}")
        if f.name == "name" and (refused := control_in(v)):
            raise DataError(name, f"run {i}", f.name, refused)
    for key in LATENCY_FIELDS:
        v = getattr(run.latencies, key)
        if v is not None and not is_result(v):
            raise DataError(name, f"run {i}", key, f"expected {RESULT_RANGE} or null, got {v!r}")


def runs_from_json(text: str | bytes, name: str) -> PrivateRuns:
    doc = _json(text, name, RUNS_FORMAT)
    rows = _rows(doc, name)
    try:
        runs = tuple(RunInfo.from_record(r) for r in doc.get("runs", []))
    except (TypeError, AttributeError) as exc:
        raise DataError(name, None, "runs", f"bad run record ({exc})") from None
    for i, run in enumerate(runs):
        _check_run(name, i, run)
    if {r.entry for r in rows} != {r.entry for r in runs}:
        raise DataError(name, None, "runs", "rows and run records do not match")
    issued = doc.get("issued", 0)
    if not isinstance(issued, int) or isinstance(issued, bool):
        raise DataError(name, None, "issued", f"expected a whole number, got {issued!r}")
    return PrivateRuns(rows, runs, issued)
