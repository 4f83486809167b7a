"""Importers: official MLCommons summary files -> normalized ``Row`` objects.

Sans I/O: every function here takes the file's bytes and a name to report, so
the same code serves the bundled-snapshot build, ``refresh`` from disk and
``refresh`` over HTTPS. Two formats exist:

* ``summary_results.json`` (v5.1, v6.0): a JSON list, official ``ID`` per row,
  ``a#`` = accelerators *per node* (total = ``a#`` x ``Nodes``);
* ``summary.json`` (v6.1): a JSON object keyed by row number, no entry IDs,
  ``total_accelerators`` already the system total.

Entry IDs follow MLCommons' numbering, derived from the rounds that carry
official IDs (see ``derive_entry_ids``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from benchsheet.data.names import (
    AVAILABILITIES,
    benchmark_key,
    benchmark_keys,
    canonical_scenario,
    classify_accelerator,
    gpus_per_card,
    is_throughput,
    unknown_name,
)
from benchsheet.data.table import IdSource, Row, Source
from benchsheet.data.values import RESULT_RANGE, control_in, is_result, number_text
from benchsheet.errors import MAX_ACCELERATORS, DataError

OFFICIAL_URLS = {
    "5.1": "https://raw.githubusercontent.com/mlcommons/inference_results_v5.1/main/summary_results.json",
    "6.0": "https://raw.githubusercontent.com/mlcommons/inference_results_v6.0/main/summary_results.json",
    "6.1": "https://raw.githubusercontent.com/mlcommons/inference_results_v6.1/main/summary.json",
}
"""Where each known round's summary file is published."""

FLAG_FIELDS = ("compliance", "errors", "inferred")
"""The official files' flags of a result (every round's file has them): kept in ``Row.flags``."""
_AVAILABILITY_ORDER = {a: i for i, a in enumerate(AVAILABILITIES)}
_EXPLICIT_COUNT = re.compile(r"\(x(\d+)\)")


@dataclass(frozen=True, slots=True)
class Imported:
    source: Source
    rows: tuple[Row, ...]


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def import_file(
    data: bytes, name: str, url: str = "", imported_at: str | None = None, official_copy: bool = False
) -> Imported:
    """Parse one official summary file (either format) into rows.

    ``url`` is where the bytes were fetched from; ``official_copy`` says that a
    local file is a kept copy of the round's published file (the bundled
    snapshot's sources), so that its source names the publication. A file of
    unknown origin names only itself. Raises DataError naming ``name``, the row
    and the field on any defect.
    """
    try:
        doc = json.loads(data)
    except RecursionError:
        raise DataError(name, None, None, "not a results file: its JSON is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(name, None, None, f"not valid JSON ({exc})") from None
    if isinstance(doc, list):
        raws: list[tuple[str, Mapping[str, Any]]] = [(str(i), r) for i, r in enumerate(doc)]
        parse: Callable[[str, str, Mapping[str, Any]], _Parsed] = _parse_summary_results
    elif isinstance(doc, dict):
        raws = list(doc.items())
        parse = _parse_summary
    else:
        raise DataError(name, None, None, "expected a JSON list or object of result rows")
    if not raws:
        raise DataError(name, None, None, "the file holds no result rows")
    parsed = []
    for key, raw in raws:
        if not isinstance(raw, Mapping):
            raise DataError(name, key, None, "a result row must be a JSON object")
        parsed.append(parse(name, key, raw))
    rounds = {p.round for p in parsed}
    if len(rounds) != 1:
        raise DataError(name, None, "version", f"rows of several rounds: {sorted(rounds)}")
    rnd = rounds.pop()
    derived = derive_entry_ids(rnd, [p.id_key for p in parsed])
    sha = sha256_hex(data)
    rows = []
    for p, did in zip(parsed, derived, strict=True):
        entry, id_source = (p.official_id, IdSource.OFFICIAL) if p.official_id else (did, IdSource.DERIVED)
        rows.append(replace(p.row, entry=entry, id_source=id_source, source=name, sha256=sha))
    _check_unique(name, rows)
    when = imported_at or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    origin = url or (OFFICIAL_URLS.get(rnd, "") if official_copy else "")
    src = Source(rnd, name, origin, sha, len(rows), when)
    return Imported(src, tuple(rows))


def derive_entry_ids(rnd: str, keys: Sequence[tuple[str, ...]]) -> list[str]:
    """MLCommons' entry numbering, reproduced from the rounds that publish it.

    One ID per system, numbered from 0001 in the order of (division, availability
    [available, preview, rdi], submitter, suite, platform) compared as plain
    case-sensitive strings; in the open division each (system, model actually
    run) gets an ID of its own. This reproduces every official ID of v5.1 and
    v6.0, closed and open (tests/benchsheet/data/test_entry_ids.py).
    """
    numbered = {k: i + 1 for i, k in enumerate(sorted(set(keys)))}
    return [f"{rnd}-{numbered[k]:04d}" for k in keys]


def _id_key(
    division: str, availability: str, submitter: str, suite: str, platform: str, used_model: str
) -> tuple[str, ...]:
    base = (division, f"{_AVAILABILITY_ORDER[availability]}", submitter, suite, platform)
    return base + ((used_model,) if division == "open" else ())


@dataclass(frozen=True, slots=True)
class _Parsed:
    round: str
    official_id: str
    id_key: tuple[str, ...]
    row: Row


class _Fields:
    """Typed access to one raw row, reporting the file, row and field on failure."""

    def __init__(self, name: str, key: str, raw: Mapping[str, Any]) -> None:
        self.name, self.key, self.raw = name, key, raw

    def fail(self, field: str, reason: str) -> DataError:
        return DataError(self.name, self.key, field, reason)

    def text(self, field: str, required: bool = True) -> str:
        if field not in self.raw:
            if required:
                raise self.fail(field, "missing")
            return ""
        v = self.raw[field]
        if v is None:
            return ""
        if not isinstance(v, str):
            raise self.fail(field, f"expected text, got {v!r}")
        refused = control_in(v.strip())
        if refused:  # a name holding ESC]0;...BEL would be stored, then printed raw by eval, CITE and runs
            raise self.fail(field, refused)
        return v.strip()

    def choice(self, field: str, allowed: Sequence[str]) -> str:
        v = self.text(field).lower()
        if v not in allowed:
            raise self.fail(field, f"{v!r} is not one of {', '.join(allowed)}")
        return v

    def count(self, field: str, blank_ok: bool = False) -> int:
        """A whole number >= 0; older official files write ``8.0`` or ``"8"`` for 8."""
        if field not in self.raw:
            raise self.fail(field, "missing")
        v = self.raw[field]
        bad = self.fail(field, f"expected a whole number from 0 to {MAX_ACCELERATORS:,}, got {_short(v)}")
        if isinstance(v, str) and v.strip():
            v = number_text(v)  # "8" or "8.0", never "٨" or "1_0"
            if v is None:
                raise bad
        elif isinstance(v, str):
            v = None
        if blank_ok and (v is None or (isinstance(v, float) and math.isnan(v))):
            return 0
        if isinstance(v, float) and math.isfinite(v) and v == int(v):
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_ACCELERATORS:
            raise bad
        return v

    def result(self, field: str) -> float:
        """A result: a rate or a latency, finite and > 0 (a zero or an absurd value is no measurement)."""
        if field not in self.raw:
            raise self.fail(field, "missing")
        v = self.raw[field]
        if not is_result(v):  # a zero, a denormal (5e-324 passes "> 0") or an absurd value is no measurement
            raise self.fail(field, f"expected {RESULT_RANGE}, got {_short(v)}")
        return float(v)

    def flag(self, field: str) -> bool:
        v = self.raw.get(field, 0)
        if v in (0, 1, True, False, "0", "1", None):
            return v in (1, True, "1")
        raise self.fail(field, f"expected 0 or 1, got {v!r}")

    def flags(self) -> str:
        """The file's flag fields as it writes them (JSON values), in ``FLAG_FIELDS`` order: kept whole, so
        that a flag benchsheet does not interpret is still there to show (``has_power`` has columns of its own)."""
        return "; ".join(f"{k}={json.dumps(self.raw[k], ensure_ascii=False)}" for k in FLAG_FIELDS if k in self.raw)

    def power(self) -> dict[str, Any]:
        """Measured system power, where the file says it was measured (``has_power``); nothing else is
        power: v6.1's ``design_power_watts`` is a design figure, not a measurement, and is never read."""
        if not self.flag("has_power"):
            return {}
        units = self.text("Power_Units")
        if not units:
            raise self.fail("Power_Units", "missing where has_power is set")
        return {"has_power": True, "power_result": self.result("Power_Result"), "power_units": units}

    def round(self, field: str = "version") -> str:
        v = self.text(field)
        m = re.fullmatch(r"v?(\d+\.\d+)", v)
        if not m:
            raise self.fail(field, f"expected a round such as v6.1, got {v!r}")
        return m.group(1)

    def scenario(self, field: str) -> str:
        v = self.text(field)
        s = canonical_scenario(v)
        if s is None:
            raise self.fail(field, f"unknown scenario {v!r}")
        return s


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where one official format keeps the fields both formats have."""

    division: str
    submitter: str
    suite: str
    system: str
    accelerator: str
    nodes: str
    result: str
    units: str
    software: str
    software_required: bool


SUMMARY_RESULTS = _Layout(
    "Category", "Submitter", "Suite", "System", "Accelerator", "Nodes", "Performance_Result", "Performance_Units",
    "Software", True,
)  # fmt: skip
SUMMARY = _Layout(
    "Division", "Organization", "SystemType", "SystemName", "accelerator_model_name", "number_of_nodes", "Result",
    "Units", "framework", False,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Common:
    """The fields both formats have, read and checked."""

    round: str
    division: str
    availability: str
    suite: str
    submitter: str
    platform: str
    accelerator: str

    @classmethod
    def read(cls, f: _Fields, layout: _Layout) -> _Common:
        return cls(
            f.round(),
            f.choice(layout.division, ("closed", "open")),
            f.choice("Availability", AVAILABILITIES),
            f.text(layout.suite).lower(),
            f.text(layout.submitter),
            f.text("Platform"),
            f.text(layout.accelerator),
        )

    def id_key(self, used_model: str) -> tuple[str, ...]:
        return _id_key(self.division, self.availability, self.submitter, self.suite, self.platform, used_model)


def _make_row(f: _Fields, layout: _Layout, c: _Common, *, file_gpus: int, benchmark: str, used_model: str) -> Row:
    units = f.text(layout.units)
    if not units:
        raise f.fail(layout.units, "missing")
    gpus = accelerator_count(c.accelerator, file_gpus)
    return Row(
        round=c.round,
        entry="",
        id_source=IdSource.DERIVED,  # until the file's IDs are known (import_file)
        division=c.division,
        availability=c.availability,
        suite=c.suite,
        submitter=c.submitter,
        system=f.text(layout.system),
        platform=c.platform,
        **accelerator_fields(c.accelerator),
        gpus=gpus,
        nodes=f.count(layout.nodes),
        benchmark=benchmark_key(benchmark),
        scenario=f.scenario("Scenario"),
        result=f.result(layout.result),
        units=units,
        throughput=is_throughput(units),
        software=f.text(layout.software, required=layout.software_required),
        weight_data_types=f.text("weight_data_types", required=False),
        inferred=f.flag("inferred"),
        flags=f.flags(),
        location=f.text("Location", required=False).removeprefix("./"),
        used_model=used_model,
        source="",
        sha256="",
        gpus_in_file=file_gpus if c.accelerator and file_gpus != gpus else 0,
        **f.power(),
    )


def accelerator_fields(accelerator: str) -> dict[str, Any]:
    """A row's accelerator, family, vendor and heterogeneous flag, from the accelerator's name."""
    info = classify_accelerator(accelerator)
    return {
        "accelerator": accelerator,
        "family": info.family,
        "vendor": info.vendor,
        "heterogeneous": info.heterogeneous,
    }


def accelerator_count(accelerator: str, file_count: int) -> int:
    """Accelerators of a system, from the file's count and what the accelerator name states.

    A name with one explicit total ("MI355X 288GB HBM3e (x87)") is the submitter's
    own count and wins; a name that states a multi-GPU card ("B60 Dual") multiplies
    the file's count of cards into GPUs; a row without an accelerator has none.
    """
    if not accelerator:
        return 0
    explicit = _EXPLICIT_COUNT.findall(accelerator)
    if len(explicit) == 1:
        return int(explicit[0])
    return file_count * gpus_per_card(accelerator)


def _parse_summary_results(name: str, key: str, raw: Mapping[str, Any]) -> _Parsed:
    """One row of ``summary_results.json`` (v5.1, v6.0, and older rounds' variants)."""
    f = _Fields(name, key, raw)
    c = _Common.read(f, SUMMARY_RESULTS)
    per_node = f.count("a#", blank_ok=True)
    model = f.text("Model")
    used_model = f.text("UsedModel", required=False) or model
    official_id = f.text("ID", required=False)  # when absent, the numbering rule gives it
    if official_id and not re.fullmatch(rf"[vV]?{re.escape(c.round)}-\d{{4}}", official_id):
        raise f.fail("ID", f"expected an entry ID such as {c.round}-0001, got {official_id!r}")
    official_id = official_id.lstrip("vV")  # older rounds write v4.1-0046: the ID is 4.1-0046
    file_gpus = per_node * f.count(SUMMARY_RESULTS.nodes)  # a# is per node
    row = _make_row(f, SUMMARY_RESULTS, c, file_gpus=file_gpus, benchmark=model, used_model=used_model)
    return _Parsed(c.round, official_id, c.id_key(used_model), row)


def _parse_summary(name: str, key: str, raw: Mapping[str, Any]) -> _Parsed:
    """One row of ``summary.json`` (v6.1): no entry IDs; ``total_accelerators`` is the system's total."""
    f = _Fields(name, key, raw)
    c = _Common.read(f, SUMMARY)
    gpus = f.count("total_accelerators")
    if c.accelerator and gpus == 0:
        raise f.fail("total_accelerators", f"0 accelerators for {c.accelerator!r}")
    model = f.text("Model")
    mlperf_model = f.text("MlperfModel", required=False)
    # The file's "Model" is what ran; "MlperfModel" is the benchmark, except that
    # for some it holds a category ("VLM", "text_to_video"). Keep the model name
    # unless it is an open-division variant of a benchmark that MlperfModel names.
    benchmark = model
    if (
        c.division == "open"
        and mlperf_model
        and " " not in mlperf_model
        and benchmark_key(mlperf_model) in KNOWN_BENCHMARKS
    ):
        benchmark = mlperf_model
    row = _make_row(f, SUMMARY, c, file_gpus=gpus, benchmark=benchmark, used_model=model)
    return _Parsed(c.round, "", c.id_key(model), row)


KNOWN_BENCHMARKS = frozenset(
    benchmark_key(b)
    for b in (
        "3d-unet-99",
        "3d-unet-99.9",
        "bert-99",
        "bert-99.9",
        "deepseek-r1",
        "dlrm-v2-99",
        "dlrm-v2-99.9",
        "dlrm-v3",
        "gpt-oss-120b",
        "gptj-99",
        "gptj-99.9",
        "llama2-70b-99",
        "llama2-70b-99.9",
        "llama3.1-405b",
        "llama3.1-8b",
        "llama3.1-8b-edge",
        "mixtral-8x7b",
        "pointpainting",
        "qwen3-vl-235b-a22b",
        "resnet",
        "retinanet",
        "rgat",
        "stable-diffusion-xl",
        "wan-2.2-t2v-a14b",
        "whisper",
        "yolo-95",
        "yolo-99",
    )
)


ENDPOINTS_MODELS = frozenset(
    benchmark_key(m)
    for m in ("llama3.1-8b", "gpt-oss-120b", "deepseek-r1", "kimi-k3", "qwen3.6-35b-a3b", "deepseek-v4.1-flash")
)
"""The MLPerf Endpoints benchmark models of the round (rules 3.2), as MLCommons' checker accepts them
(tests/benchsheet/data/test_endpoints_hostile.py compares the two)."""


def check_benchmark(typed: str, names: Iterable[str]) -> None:
    """Refuse a ``--benchmark`` none of ``names`` is (a model list: ``KNOWN_BENCHMARKS``, ``ENDPOINTS_MODELS``),
    with the close ones: "Did you mean gpt-oss-120b? No benchmark 'gpt-oss-12b'. Known: ..."."""
    known = {benchmark_key(m) for m in names}
    if any(k in known for k in benchmark_keys(typed)):
        return
    raise DataError("--benchmark", None, None, unknown_name("benchmark", typed, sorted(known)))


"""Benchmark names of the MLPerf Inference suite (closed-division spellings)."""


def _short(value: Any) -> str:
    """A value for a message: a 400-digit number is not printed whole."""
    text = repr(value)
    return text if len(text) <= 40 else text[:20] + f"... ({len(text)} characters)"


def _check_unique(name: str, rows: Sequence[Row]) -> None:
    seen: dict[tuple[str, str, str], int] = {}
    for i, r in enumerate(rows):
        k = (r.entry, r.benchmark, r.scenario)
        if k in seen:
            raise DataError(
                name,
                i,
                "Scenario",
                f"{r.entry} {r.benchmark} {r.scenario} appears twice (rows {seen[k]} and {i})",
            )
        seen[k] = i
