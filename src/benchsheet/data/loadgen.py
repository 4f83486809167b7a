"""Your own runs: MLPerf loadgen summaries as private entries ("local-0001", ...).

Sans I/O: ``parse_summary`` reads the text of ``mlperf_log_summary.txt``;
``make_run`` joins it with a submission-style ``system.json`` into a ``Row``
plus the run's latency facts (``RunInfo``). The store keeps private runs in
the user data folder beside the official cache.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsheet.data.importers import (
    KNOWN_BENCHMARKS,
    accelerator_count,
    accelerator_fields,
    check_benchmark,
    sha256_hex,
)
from benchsheet.data.names import benchmark_key, benchmark_keys, canonical_scenario, is_throughput
from benchsheet.data.table import IdSource, Latencies, Row, RunInfo, parse_json
from benchsheet.data.values import RESULT_RANGE, control_in, is_result, number_text, whole_text
from benchsheet.errors import MAX_ACCELERATORS, DataError

LOCAL_PREFIX = "local-"
MAX_NAME = 200  # characters: longer than any real system name
LOADGEN_SCENARIOS = ("Server", "Offline", "SingleStream", "MultiStream")


@dataclass(frozen=True, slots=True)
class Summary:
    """What a loadgen summary says."""

    scenario: str  # as loadgen ran it: Server, Offline, SingleStream, MultiStream
    valid: bool
    tokens_per_sec: float | None
    samples_per_sec: float | None
    latencies: Latencies
    p90_ms: float | None = None  # SingleStream's result
    p99_ms: float | None = None  # MultiStream's result


_LINE = re.compile(r"^\s*(?P<key>[^:]+?)\s*:\s*(?P<value>.*?)\s*$")


@dataclass(frozen=True, slots=True)
class _Log:
    """The ``key : value`` lines of a loadgen summary (first of each key), with their line numbers."""

    name: str
    fields: dict[str, tuple[str, int]]

    @classmethod
    def parse(cls, text: str, name: str) -> _Log:
        fields: dict[str, tuple[str, int]] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            m = _LINE.match(line)
            if m:
                fields.setdefault(m.group("key").lower(), (m.group("value"), number))
        return cls(name, fields)

    def __contains__(self, key: str) -> bool:
        return key in self.fields

    def text(self, key: str) -> str:
        return self.fields[key][0]

    def fail(self, key: str, reason: str) -> DataError:
        line = self.fields[key][1] if key in self.fields else None
        return DataError(self.name, None, key, reason, line=line)

    def number(self, keys: tuple[str, ...], scale: float = 1.0) -> float | None:
        """The first of ``keys`` the log has, times ``scale`` (1e-6: ns to ms), as a measurement
        (``values.is_result``), or None."""
        for key in keys:
            if key in self.fields:
                value = number_text(self.text(key))  # as Excel reads it: not "1_000" or "١٢"
                if value is None:
                    raise self.fail(key, f"{self.text(key)[:40]!r} is not a number")
                value *= scale
                if not is_result(value):
                    raise self.fail(key, f"{self.text(key)[:40]!r} is not a measurement ({RESULT_RANGE})")
                return value
        return None


def parse_summary(text: str, name: str) -> Summary:
    """Parse ``mlperf_log_summary.txt``; a missing or impossible line is named in the error, with its number."""
    if "MLPerf Results Summary" not in text:
        raise DataError(name, None, None, "not a loadgen summary (no 'MLPerf Results Summary' header)")
    log = _Log.parse(text, name)
    if "scenario" not in log:
        raise DataError(name, None, "Scenario", "missing line 'Scenario : ...'")
    scenario = canonical_scenario(log.text("scenario"))
    if scenario not in LOADGEN_SCENARIOS:
        known = ", ".join(LOADGEN_SCENARIOS)
        raise log.fail("scenario", f"{log.text('scenario')[:40]!r} is not a loadgen scenario ({known})")
    if "result is" not in log:
        raise DataError(name, None, "Result is", "missing line 'Result is : VALID|INVALID' (truncated log?)")
    verdict = log.text("result is").upper()
    if verdict not in ("VALID", "INVALID"):
        raise log.fail("result is", f"{log.text('result is')!r} is neither VALID nor INVALID")

    def ms(key: str) -> float | None:
        return log.number((key,), 1e-6)

    return Summary(
        scenario=scenario,
        valid=verdict == "VALID",
        tokens_per_sec=log.number(("completed tokens per second", "tokens per second")),
        samples_per_sec=log.number(("completed samples per second", "samples per second")),
        latencies=Latencies(
            ttft_p99_ms=ms("99.00 percentile first token latency (ns)"),
            tpot_p99_ms=ms("99.00 percentile time to output token (ns)"),
            ttft_limit_ms=ms("ttft_latency (ns)"),
            tpot_limit_ms=ms("tpot_latency (ns)"),
        ),
        p90_ms=ms("90.00 percentile latency (ns)"),
        p99_ms=ms("99.00 percentile latency (ns)"),
    )


def classify_scenario(summary: Summary, benchmark: str, bounds: Mapping[str, Mapping[str, list[float]]]) -> str:
    """Interactive runs are loadgen Server runs held to the tighter TTFT/TPOT limits."""
    limits = (summary.latencies.ttft_limit_ms, summary.latencies.tpot_limit_ms)
    if summary.scenario.lower() != "server" or None in limits:
        return summary.scenario
    key = benchmark_key(benchmark)
    for k in benchmark_keys(key):
        interactive = bounds.get(k, {}).get("Interactive")
        if interactive and limits == (interactive[0], interactive[1]):
            return "Interactive"
    return "Server"


def parse_system(data: bytes, name: str) -> dict[str, Any]:
    doc = parse_json(data, name)
    if not isinstance(doc, dict):
        raise DataError(name, None, None, "a system description must be a JSON object")
    for key in ("accelerator_model_name", "accelerators_per_node", "number_of_nodes"):
        if key not in doc:
            raise DataError(name, None, key, "missing")
    for key, low in (("accelerators_per_node", 0), ("number_of_nodes", 1)):  # 0 accelerators: a CPU-only system
        v = doc[key]
        if isinstance(v, str) and whole_text(v) is not None:  # "8", never "٨"
            doc[key] = whole_text(v)
        if not isinstance(doc[key], int) or isinstance(doc[key], bool) or not low <= doc[key] <= MAX_ACCELERATORS:
            raise DataError(
                name, None, key, f"expected a whole number from {low} to {MAX_ACCELERATORS:,}, got {v!r:.40}"
            )
    if doc["accelerators_per_node"] * doc["number_of_nodes"] > MAX_ACCELERATORS:
        raise DataError(name, None, "number_of_nodes", f"more than {MAX_ACCELERATORS:,} accelerators in all")
    return doc


_SYSTEM_TEXT = ("accelerator_model_name", "system_name", "system_type", "submitter", "framework")
_NO_ACCELERATOR = ("", "n/a", "na", "none", "-", "cpu")
"""What a CPU-only system's description names as its accelerator."""
_LATENCY_KEYS = {"SingleStream": "90.00 percentile latency (ns)", "MultiStream": "99.00 percentile latency (ns)"}


def _result(
    summary: Summary,
    name: str,
    bench: str,
    bounds: Mapping[str, Mapping[str, list[float]]],
    official_units: str | None,
) -> tuple[float, str]:
    """The run's result and units, as the official rows of its benchmark and scenario report them."""
    if summary.scenario in _LATENCY_KEYS:  # the result is a latency: 90th (SingleStream) or 99th percentile
        ms = summary.p90_ms if summary.scenario == "SingleStream" else summary.p99_ms
        if ms is None:
            key = _LATENCY_KEYS[summary.scenario]
            raise DataError(name, None, key, f"missing line '{key} : ...' (a {summary.scenario} result)")
        return (ms / 1000, "Latency (s)") if official_units == "Latency (s)" else (ms, "Latency (ms)")
    if any(k in bounds for k in benchmark_keys(bench)):
        if summary.tokens_per_sec is None:
            raise DataError(
                name,
                None,
                "Completed tokens per second",
                f"missing line 'Completed tokens per second : ...' ({bench} is measured in tokens/s)",
            )
        return summary.tokens_per_sec, "Tokens/s"
    if summary.samples_per_sec is None:
        raise DataError(name, None, "Samples per second", "missing line 'Samples per second : ...'")
    # a Server query is one sample: where the official rows say Queries/s, so does the run
    return summary.samples_per_sec, "Queries/s" if official_units == "Queries/s" else "Samples/s"


def make_run(
    entry: str,
    summary_data: bytes,
    summary_name: str,
    system_data: bytes,
    system_name: str,
    benchmark: str,
    bounds: Mapping[str, Mapping[str, list[float]]],
    imported_at: str,
    name: str = "",
    official_units: Callable[[str, str], str | None] | None = None,
) -> tuple[Row, RunInfo]:
    """A private entry's row and run facts; ``official_units(benchmark, scenario)`` gives the units of the
    official rows, which the run's result takes where they name the same measure."""
    summary = parse_summary(summary_data.decode("utf-8", errors="replace"), summary_name)
    system = parse_system(system_data, system_name)
    bench = benchmark_key(benchmark)
    scenario = classify_scenario(summary, bench, bounds)
    units_there = official_units(bench, scenario) if official_units else None
    result, units = _result(summary, summary_name, bench, bounds, units_there)
    per_node, nodes = int(system["accelerators_per_node"]), int(system["number_of_nodes"])
    for key in _SYSTEM_TEXT:  # the texts a run takes from system.json: never a control character
        value = system.get(key)
        if isinstance(value, str) and (refused := control_in(value)):
            raise DataError(system_name, None, key, refused)
    if refused := control_in(name):
        raise DataError("--name", None, None, refused)
    raw_name = system["accelerator_model_name"]
    if raw_name is not None and not isinstance(raw_name, str):
        raise DataError(system_name, None, "accelerator_model_name", f"expected text, got {raw_name!r:.40}")
    # a missing name (null) is missing, never the text "None"; a CPU-only system (0 per node) names none
    accelerator = (raw_name or "").strip()
    if not per_node and accelerator.lower() not in _NO_ACCELERATOR:
        raise DataError(system_name, None, "accelerators_per_node", f"0 accelerators for {accelerator[:40]!r}")
    accelerator = accelerator if per_node else ""
    if per_node and not accelerator:
        raise DataError(system_name, None, "accelerator_model_name", "missing (give the accelerator's name)")
    # counted as the official rows count them: "(x87)" is 87, a "Dual" card two GPUs
    gpus = accelerator_count(accelerator, per_node * nodes)
    if accelerator and gpus == 0:  # "(x0)" in the name states no GPU: a run on none is no run
        raise DataError(system_name, None, "accelerator_model_name", f"0 accelerators for {accelerator[:40]!r}")
    sha = sha256_hex(summary_data)  # of the file as it is, so that sha256sum agrees
    label = name or str(system.get("system_name") or "").strip() or accelerator or "CPU-only system"
    if len(name) > MAX_NAME:
        raise DataError("--name", None, None, f"longer than {MAX_NAME} characters ({len(name)})")
    if len(label) > MAX_NAME or len(accelerator) > MAX_NAME:
        field = "accelerator_model_name" if len(accelerator) > MAX_NAME else "system_name"
        raise DataError(system_name, None, field, f"longer than {MAX_NAME} characters; give --name")
    row = Row(
        round="local",
        entry=entry,
        id_source=IdSource.LOCAL,
        division="local",
        availability="local",
        suite=str(system.get("system_type") or ""),
        submitter=str(system.get("submitter") or "internal"),
        system=label,
        platform=label,
        **accelerator_fields(accelerator),
        gpus=gpus,
        nodes=nodes,
        benchmark=bench,
        scenario=scenario,
        result=result,
        units=units,
        throughput=is_throughput(units),
        software=str(system.get("framework") or ""),
        weight_data_types="",
        inferred=False,
        location=summary_name,
        used_model=bench,
        source=summary_name,
        sha256=sha,
        gpus_in_file=per_node * nodes if accelerator and per_node * nodes != gpus else 0,
    )
    run = RunInfo(
        entry,
        label,
        summary.valid,
        summary.latencies,
        summary_name,
        sha,
        imported_at,
    )
    return row, run


SUMMARY_FILE = "mlperf_log_summary.txt"


def find_run_files(path: Path, system: Path | None, benchmark: str | None) -> tuple[Path, Path, str]:
    """The log, the system description and the benchmark for ``benchsheet import-run``.

    PATH is the log or a folder holding it. The system description is the
    nearest ``system.json`` in the log's folder or above it; the benchmark is
    the nearest folder name above the log that names one.
    """
    from benchsheet.data.snapshot import latency_bounds

    log = path / SUMMARY_FILE if path.is_dir() else path
    if not log.is_file():
        raise DataError(str(log), None, None, "no loadgen summary here")
    folders = list(log.resolve().parents)[:6]
    if system is None:
        system = next((d / "system.json" for d in folders if (d / "system.json").is_file()), None)
        if system is None:
            raise DataError(str(log), None, None, "no system.json in its folder or above; give --system")
    known = set(latency_bounds()) | KNOWN_BENCHMARKS
    if benchmark:
        check_benchmark(benchmark, known)
    if not benchmark:
        for d in folders:
            key = benchmark_key(d.name)
            if any(k in known for k in benchmark_keys(key)):
                benchmark = d.name
                break
        else:
            raise DataError(str(log), None, None, "no benchmark in the folder names; give --benchmark")
    return log, system, benchmark
