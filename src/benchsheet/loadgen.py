"""Your own runs: MLPerf loadgen summaries as private entries ("local-0001", ...).

Sans I/O: ``parse_summary`` reads the text of ``mlperf_log_summary.txt``;
``make_run`` joins it with a submission-style ``system.json`` into a ``Row``
plus the run's latency facts (``RunInfo``). The store keeps private runs in
the user data folder beside the official cache.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import DataError
from .importers import KNOWN_BENCHMARKS, sha256_hex
from .names import benchmark_key, classify_accelerator
from .table import Row, RunInfo

LOCAL_PREFIX = "local-"


@dataclass(frozen=True, slots=True)
class Summary:
    """What a loadgen summary says."""

    scenario: str  # as loadgen ran it: Server, Offline, SingleStream, MultiStream
    valid: bool
    tokens_per_sec: float | None
    samples_per_sec: float | None
    ttft_p99_ms: float | None
    tpot_p99_ms: float | None
    ttft_limit_ms: float | None
    tpot_limit_ms: float | None


_LINE = re.compile(r"^\s*(?P<key>[^:]+?)\s*:\s*(?P<value>.*?)\s*$")


def _fields(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m:
            out.setdefault(m.group("key").lower(), m.group("value"))
    return out


def _number(fields: Mapping[str, str], keys: tuple[str, ...], name: str) -> float | None:
    for key in keys:
        if key in fields:
            try:
                return float(fields[key])
            except ValueError:
                raise DataError(name, None, key, f"{fields[key]!r} is not a number") from None
    return None


def parse_summary(text: str, name: str) -> Summary:
    """Parse ``mlperf_log_summary.txt``; a missing line is named in the error."""
    if "MLPerf Results Summary" not in text:
        raise DataError(name, None, None, "not a loadgen summary (no 'MLPerf Results Summary' header)")
    f = _fields(text)
    if "scenario" not in f:
        raise DataError(name, None, "Scenario", "missing line 'Scenario : ...'")
    if "result is" not in f:
        raise DataError(name, None, "Result is", "missing line 'Result is : VALID|INVALID' (truncated log?)")
    verdict = f["result is"].upper()
    if verdict not in ("VALID", "INVALID"):
        raise DataError(name, None, "Result is", f"{f['result is']!r} is neither VALID nor INVALID")
    ns = 1e-6

    def ms(key: str) -> float | None:
        v = _number(f, (key,), name)
        return None if v is None else v * ns

    return Summary(
        scenario=f["scenario"].strip(),
        valid=verdict == "VALID",
        tokens_per_sec=_number(f, ("completed tokens per second", "tokens per second"), name),
        samples_per_sec=_number(f, ("completed samples per second", "samples per second"), name),
        ttft_p99_ms=ms("99.00 percentile first token latency (ns)"),
        tpot_p99_ms=ms("99.00 percentile time to output token (ns)"),
        ttft_limit_ms=ms("ttft_latency (ns)"),
        tpot_limit_ms=ms("tpot_latency (ns)"),
    )


def classify_scenario(summary: Summary, benchmark: str, bounds: Mapping[str, Mapping[str, list[float]]]) -> str:
    """Interactive runs are loadgen Server runs held to the tighter TTFT/TPOT limits."""
    if summary.scenario.lower() != "server" or summary.ttft_limit_ms is None or summary.tpot_limit_ms is None:
        return summary.scenario
    key = benchmark_key(benchmark)
    for k in (key, re.sub(r"-99(\.9)?$", "", key)):
        interactive = bounds.get(k, {}).get("Interactive")
        if interactive and (summary.ttft_limit_ms, summary.tpot_limit_ms) == (interactive[0], interactive[1]):
            return "Interactive"
    return "Server"


def parse_system(data: bytes, name: str) -> dict[str, Any]:
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(name, None, None, f"not valid JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise DataError(name, None, None, "a system description must be a JSON object")
    for key in ("accelerator_model_name", "accelerators_per_node", "number_of_nodes"):
        if key not in doc:
            raise DataError(name, None, key, "missing")
    for key in ("accelerators_per_node", "number_of_nodes"):
        v = doc[key]
        if isinstance(v, str) and v.strip().isdigit():
            doc[key] = int(v)
        if not isinstance(doc[key], int) or isinstance(doc[key], bool) or doc[key] < 1:
            raise DataError(name, None, key, f"expected a whole number >= 1, got {v!r}")
    return doc


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
) -> tuple[Row, RunInfo]:
    summary = parse_summary(summary_data.decode("utf-8", errors="replace"), summary_name)
    system = parse_system(system_data, system_name)
    bench = benchmark_key(benchmark)
    llm = any(k in bounds for k in (benchmark_key(bench), re.sub(r"-99(\.9)?$", "", benchmark_key(bench))))
    if llm:
        if summary.tokens_per_sec is None:
            raise DataError(
                summary_name,
                None,
                "Completed tokens per second",
                f"missing line 'Completed tokens per second : ...' ({bench} is measured in tokens/s)",
            )
        result, units = summary.tokens_per_sec, "Tokens/s"
    elif summary.samples_per_sec is not None:
        result, units = summary.samples_per_sec, "Samples/s"
    else:
        raise DataError(summary_name, None, "Samples per second", "missing line 'Samples per second : ...'")
    accelerator = str(system["accelerator_model_name"]).strip()
    info = classify_accelerator(accelerator)
    nodes = int(system["number_of_nodes"])
    gpus = int(system["accelerators_per_node"]) * nodes
    sha = sha256_hex(summary_data)  # of the file as it is, so that sha256sum agrees
    label = name or str(system.get("system_name") or "").strip() or accelerator
    row = Row(
        round="local",
        entry=entry,
        id_source="local",
        division="local",
        availability="local",
        suite=str(system.get("system_type") or ""),
        submitter=str(system.get("submitter") or "internal"),
        system=label,
        platform=label,
        accelerator=accelerator,
        family=info.family,
        vendor=info.vendor,
        heterogeneous=info.heterogeneous,
        gpus=gpus,
        nodes=nodes,
        benchmark=bench,
        scenario=classify_scenario(summary, bench, bounds),
        result=result,
        units=units,
        throughput=True,
        software=str(system.get("framework") or ""),
        weight_data_types="",
        inferred=False,
        location=summary_name,
        used_model=bench,
        source=summary_name,
        sha256=sha,
    )
    run = RunInfo(
        entry,
        label,
        summary.valid,
        summary.ttft_p99_ms,
        summary.tpot_p99_ms,
        summary.ttft_limit_ms,
        summary.tpot_limit_ms,
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
    from .snapshot import latency_bounds

    log = path / SUMMARY_FILE if path.is_dir() else path
    if not log.is_file():
        raise DataError(str(log), None, None, "no loadgen summary here")
    folders = list(log.resolve().parents)[:6]
    if system is None:
        system = next((d / "system.json" for d in folders if (d / "system.json").is_file()), None)
        if system is None:
            raise DataError(str(log), None, None, "no system.json in its folder or above; give --system")
    if not benchmark:
        known = set(latency_bounds()) | KNOWN_BENCHMARKS
        for d in folders:
            key = benchmark_key(d.name)
            if key in known or re.sub(r"-99(\.9)?$", "", key) in known:
                benchmark = d.name
                break
        else:
            raise DataError(str(log), None, None, "no benchmark in the folder names; give --benchmark")
    return log, system, benchmark
