"""MLPerf Endpoints submissions (the v1.0 layout; the v0.7 layout too, below) read into curves: one per system
and model.

A v1.0 submission folder holds ``results/<system>/<model>/r<concurrency>/``, each point folder with
its ``point.yaml`` (the point's configuration and steady-state verdict), ``system_desc.json`` (the
system), ``result_summary.json`` (the endpoints tool's report: sample counts, the measured window in
ns, TTFT/TPOT rollups with percentiles in ns, output token totals, ``state``/``complete``), and
``results/<system>/system_power.json`` beside the models. The metrics follow section 9.1 as
MLCommons' checker and visualizer read them (``endpoints-submission-cli``'s ``PointSummary``,
``mlperf-viz``'s ``adapt.py``): system tokens/s = ``output_sequence_lengths.total`` / measured
seconds, tokens/s per user = 1000 / TPOT p90 in ms.

``system_power.json`` declares *provisioned* power (Appendix E: TDP figures per component summed
with an overhead), not a measurement: it is kept as provenance and never read as measured power,
as v6.1's design power is not. ``point.yaml`` is read by ``pointyaml.read_point_yaml``, a reader of the block
YAML these files are written in (mappings, lists of scalars, plain and quoted scalars): PyYAML is
no dependency of benchsheet, and anything outside that subset is an error naming the line.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchsheet.data.importers import (
    ENDPOINTS_MODELS,
    KNOWN_BENCHMARKS,
    accelerator_count,
    accelerator_fields,
    check_benchmark,
    sha256_hex,
)
from benchsheet.data.pointyaml import read_point_yaml
from benchsheet.data.table import UNCHECKED, Curve, CurvePoint
from benchsheet.data.userfiles import read_regular
from benchsheet.data.values import RESULT_RANGE, control_in, is_result
from benchsheet.errors import MAX_ACCELERATORS, DataError

POINT_YAML, SYSTEM_DESC, RESULT_SUMMARY, SYSTEM_POWER = (
    "point.yaml",
    "system_desc.json",
    "result_summary.json",
    "system_power.json",
)
PERCENTILES = ("50", "90", "95", "99")
"""The TTFT and TPOT percentiles a point keeps (v1.0 reports TTFT at p90, section 4.1)."""
_POINT_DIR = re.compile(r"r(\d+)", re.ASCII)
MAX_CURVE_ID = 200
"""The longest curve ID a function can be given: its text arguments' limit (benchsheet.catalogue.calls)."""
_SMALL = 1024 * 1024  # point.yaml and system_desc.json are about a kilobyte: larger is no such file, never read


def _no_controls(doc: Any, name: str, where: str = "") -> None:
    """A DataError naming the field where any text of ``doc`` (a folder name, a JSON or YAML document) holds a
    control character (docs/calculator.md: refused with the row and field, never stored to reach a terminal)."""
    if isinstance(doc, str):
        if why := control_in(doc):
            raise DataError(name, None, where or None, why)
    elif isinstance(doc, Mapping):
        for key, value in doc.items():
            _no_controls(str(key), name, where)
            _no_controls(value, name, f"{where}.{key}" if where else str(key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            _no_controls(value, name, f"{where}[{i}]")


def _checked_id(curve_id: str, folder: Path) -> str:
    """A curve's ID, refused where no function could be given it (too long, a control character)."""
    _no_controls(curve_id, str(folder))
    if len(curve_id) > MAX_CURVE_ID:
        reason = f"its curve ID is {len(curve_id):,} characters, longer than any function takes ({MAX_CURVE_ID})"
        raise DataError(str(folder), None, None, reason)
    return curve_id


_AVAILABILITY_FIELDS = ("publication_status", "system_availability_status", "availability_status")


def is_submission(folder: Path) -> bool:
    """A folder ``import_submission`` reads: a v1.0 or v0.7 submission, or a folder of them."""
    return folder.is_dir() and (any(_results_dirs(folder)) or any(_v07_model_dirs(folder)))


def import_submission(folder: Path, imported_at: str | None = None) -> tuple[Curve, ...]:
    """Every curve of the v1.0 and v0.7 submission(s) under ``folder``, by ID; a DataError naming the file on
    any defect."""
    when = imported_at or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    curves = []
    for results in _results_dirs(folder):
        for system_dir in sorted(p for p in results.iterdir() if p.is_dir()):
            for model_dir in sorted(p for p in system_dir.iterdir() if p.is_dir()):
                points = sorted((int(m.group(1)), d) for d in model_dir.iterdir() if (m := _point_dir(d)))
                if points:
                    curves.append(_curve(results.parent.name, system_dir, model_dir, [d for _, d in points], when))
    curves += [_v07_curve(system, model_dir, org, when) for system, model_dir, org in _v07_model_dirs(folder)]
    if not curves:
        raise DataError(
            str(folder),
            None,
            None,
            "no MLPerf Endpoints curve: expected results/<system>/<model>/r<N>/ (v1.0) or systems/<system>.json "
            "with results/point_<N>/ (v0.7)",
        )
    return tuple(curves)


# An own run: the endpoints tool's report directory (``<report_dir>/performance/result_summary.json`` and
# ``<report_dir>/config.yaml``, as src/inference_endpoint/commands/benchmark/execute.py writes them), one
# per concurrency, with the v1.0 system description given beside them or by the user.
CONFIG_YAML, PERFORMANCE = "config.yaml", "performance"


def is_report(folder: Path) -> bool:
    """A folder ``import_report`` reads: an endpoints run's report directory, or a folder of them."""
    return bool(_report_dirs(folder))


def _report_dirs(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    if (folder / PERFORMANCE / RESULT_SUMMARY).is_file():
        return [folder]
    return sorted(d for d in folder.iterdir() if d.is_dir() and (d / PERFORMANCE / RESULT_SUMMARY).is_file())


def import_report(
    folder: Path, system: Path | None = None, model: str | None = None, name: str = "", imported_at: str | None = None
) -> Curve:
    """Your own MLPerf Endpoints run as a curve marked ``own``: one point per report directory under
    ``folder`` (or ``folder`` itself), its concurrency from result_summary.json's run_config, the model from
    ``model`` or config.yaml's ``model_params.name``, the accelerators from ``system`` (a v1.0
    system_desc.json; default: one in ``folder`` or beside it). The endpoints tool gives no steady-state
    verdict (the submission checker does): each point says it was not checked."""
    when = imported_at or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if model:  # an Endpoints run of a model of either suite
        check_benchmark(model, KNOWN_BENCHMARKS | ENDPOINTS_MODELS)
    dirs = _report_dirs(folder)
    for d in sorted(p for p in folder.iterdir() if p.is_dir() and p not in dirs) if folder.is_dir() else ():
        if (d / CONFIG_YAML).is_file() or (d / PERFORMANCE).is_dir():  # a report directory, its summary missing
            raise DataError(str(d), None, None, f"missing {PERFORMANCE}/{RESULT_SUMMARY}: a run's report has it")
    if not dirs:
        raise DataError(
            str(folder), None, None, "no MLPerf Endpoints run: expected performance/result_summary.json in it or below"
        )
    desc_path = system or next((p for p in (folder / SYSTEM_DESC, folder.parent / SYSTEM_DESC) if p.is_file()), None)
    if desc_path is None:
        raise DataError(
            str(folder), None, SYSTEM_DESC, "missing: give --system <system_desc.json> (the v1.0 system description)"
        )
    desc_data = read_regular(desc_path, _SMALL)
    desc = _object(desc_data, str(desc_path))
    _no_controls(desc, str(desc_path))
    accelerators, gpus, nodes = _accelerators(desc, str(desc_path))
    points: dict[int, CurvePoint] = {}
    agentic: set[bool] = set()
    for d in dirs:
        summary_path, config_path = d / PERFORMANCE / RESULT_SUMMARY, d / CONFIG_YAML
        data = read_regular(summary_path)
        files = [(str(summary_path), sha256_hex(data))]
        config = read_regular(config_path) if config_path.is_file() else None
        if config is not None:
            files.append((str(config_path), sha256_hex(config)))
            model = model or _config_model(config).rsplit("/", 1)[-1]  # a Hugging Face name: its model part
        files.append((str(desc_path), sha256_hex(desc_data)))
        summary = _object(data, str(summary_path))
        concurrency = _run_concurrency(summary, str(summary_path))
        if concurrency in points:
            raise DataError(str(d), None, "concurrency", f"a second run at concurrency {concurrency}")
        point = _summary_point(summary, str(summary_path), concurrency, UNCHECKED, files)
        points[concurrency] = replace(point, basis="whole run (own run: no steady-state verdict)")
        agentic.add(_agentic_x(summary, str(summary_path)) is not None)
    if not model:
        raise DataError(str(folder), None, "model_params.name", "no model named: give --benchmark <model>")
    if len(agentic) != 1:
        raise DataError(str(folder), None, AGENTIC_AXIS, "the runs mix agentic and single-turn summaries")
    _no_controls(name, "--name")
    label = (name.strip() or _text(desc, "system_name") or folder.resolve().name).replace("/", "-")
    fields = accelerator_fields(" + ".join(accelerators))
    return Curve(
        id=_checked_id(f"own/{label}/{model.strip()}", folder),
        submitter="",
        system=_text(desc, "system_name") or label,
        model=model.strip(),
        division="",
        availability="",
        **fields | {"heterogeneous": fields["heterogeneous"] or len(accelerators) > 1},
        gpus=gpus,
        nodes=nodes,
        points=tuple(points[c] for c in sorted(points)),
        source=str(folder),
        imported_at=when,
        own=True,
        axis=AGENTIC_AXIS if True in agentic else "",
    )


def _run_concurrency(summary: Mapping[str, Any], name: str) -> int:
    """The concurrency of a run: run_config.load_pattern.target_concurrency (run_config.concurrency also read)."""
    run = summary.get("run_config")
    pattern = run.get("load_pattern") if isinstance(run, Mapping) else None
    if isinstance(pattern, Mapping):
        if pattern.get("type", "concurrency") != "concurrency":
            raise DataError(
                name, None, "run_config.load_pattern.type", f"{pattern.get('type')!r}: not a concurrency run"
            )
        value = pattern.get("target_concurrency")
    else:
        value = run.get("concurrency") if isinstance(run, Mapping) else None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ACCELERATORS:
        raise DataError(
            name,
            None,
            "run_config.load_pattern.target_concurrency",
            f"expected 1 to {MAX_ACCELERATORS:,}, got {value!r}",
        )
    return value


def _config_model(data: bytes) -> str:
    """config.yaml's ``model_params.name`` ("" when it has none), read off its lines: the file holds more YAML
    than ``read_point_yaml`` takes (lists of mappings), and this one field is all benchsheet needs of it."""
    inside = False
    for raw in data.decode("utf-8-sig", errors="replace").splitlines():
        if raw and not raw[0].isspace():
            inside = raw.split("#", 1)[0].strip() == "model_params:"
        elif inside and (m := re.fullmatch(r"\s+name:\s*(.*)", raw)):
            value = m.group(1).strip()
            if value[:1] in ('"', "'"):
                end = value.find(value[0], 1)
                return value[1:end] if end > 0 else ""
            return value.split(" #", 1)[0].strip()
    return ""


def _results_dirs(folder: Path) -> list[Path]:
    if (folder / "results").is_dir():
        return [folder / "results"]
    return sorted(p for p in folder.rglob("results") if p.is_dir())


def _point_dir(path: Path) -> re.Match[str] | None:
    return _POINT_DIR.fullmatch(path.name) if path.is_dir() else None


def _curve(submission: str, system_dir: Path, model_dir: Path, point_dirs: list[Path], when: str) -> Curve:
    read = [_point(d) for d in point_dirs]
    systems = {_system_key(desc) for _, desc, _, _ in read}
    if len(systems) != 1:
        raise DataError(str(model_dir), None, SYSTEM_DESC, "the points describe different systems")
    if len({agentic for *_, agentic in read}) != 1:
        raise DataError(
            str(model_dir), None, "e2e_avg_interactivity", "the points mix agentic and single-turn summaries"
        )
    desc, yaml = read[0][1], read[0][2]
    models = sorted({m for _, _, y, _ in read if (m := _text(y, "model_name"))})
    if len(models) > 1:
        raise DataError(str(model_dir), None, "model_name", f"the points name different models: {', '.join(models)}")
    accelerators, gpus, nodes = _accelerators(desc, str(point_dirs[0] / SYSTEM_DESC))
    accelerator = " + ".join(accelerators)
    fields = accelerator_fields(accelerator)
    power = system_dir / SYSTEM_POWER
    return Curve(
        id=_checked_id(f"{submission}/{system_dir.name}/{model_dir.name}", model_dir),
        submitter=_text(desc, "submitter_org_names"),
        system=_text(desc, "system_name") or system_dir.name,
        model=_text(yaml, "model_name") or _text(desc, "model_id") or model_dir.name,
        division=(_text(yaml, "division") or _text(desc, "division")).lower(),
        availability=next((v for f in _AVAILABILITY_FIELDS if (v := _text(desc, f))), "").lower(),
        **fields | {"heterogeneous": fields["heterogeneous"] or len(accelerators) > 1},
        gpus=gpus,
        nodes=nodes,
        points=tuple(p for p, *_ in read),
        source=str(model_dir.parent.parent.parent),
        power_file=(str(power), sha256_hex(read_regular(_inside(power, system_dir.parent.parent), _SMALL)))
        if power.is_file()
        else ("", ""),
        imported_at=when,
        axis=AGENTIC_AXIS if read[0][3] else "",
        test=next((why for _, d, y, _ in read if (why := synthetic_reason(d, y))), ""),
    )


def _point(folder: Path) -> tuple[CurvePoint, Mapping[str, Any], Mapping[str, Any], bool]:
    """One point: its numbers, its system description, its point.yaml (empty where it has none) and whether its
    summary is an agentic benchmark's."""
    files = []

    def load(name: str, required: bool) -> bytes | None:
        path = folder / name
        try:
            data = read_regular(_inside(path, folder.parents[3]), _SMALL if name != RESULT_SUMMARY else MAX_SUMMARY)
        except FileNotFoundError:
            if required:
                reason = f"missing: each point folder of a v1.0 submission has its {name}"
                raise DataError(str(folder), None, name, reason) from None
            return None
        files.append((str(path), sha256_hex(data)))
        return data

    desc_data, yaml_data, summary_data = load(SYSTEM_DESC, True), load(POINT_YAML, False), load(RESULT_SUMMARY, True)
    desc = _object(desc_data, str(folder / SYSTEM_DESC))
    yaml = read_point_yaml(yaml_data, str(folder / POINT_YAML)) if yaml_data is not None else {}
    _no_controls(desc, str(folder / SYSTEM_DESC))
    _no_controls(yaml, str(folder / POINT_YAML))
    summary = _object(summary_data, str(folder / RESULT_SUMMARY))
    dir_concurrency = int(folder.name[1:])
    if not 0 < dir_concurrency <= MAX_ACCELERATORS:
        raise DataError(str(folder), None, "concurrency", f"expected 1 to {MAX_ACCELERATORS:,} concurrent users")
    concurrency = yaml.get("concurrency")
    if concurrency is not None and concurrency != dir_concurrency:
        raise DataError(
            str(folder / POINT_YAML), None, "concurrency", f"{concurrency!r} in the folder r{dir_concurrency}"
        )
    steady = yaml.get("steady_state")
    steady = steady if isinstance(steady, Mapping) else {}
    steady_state, status = _text(steady, "verdict"), _text(steady, "status")
    if steady_state.upper() == UNCHECKED.upper():  # an own run's mark, never a submission's verdict
        steady_state = ""
    offline = yaml.get("offline") or ""
    if offline not in ("", "dedicated", "elected"):
        raise DataError(str(folder / POINT_YAML), None, "offline", f"expected dedicated or elected, got {offline!r}")
    official = status.lower() == "windowable" and steady_state.lower() in ("steady state", "anomaly")
    window = load(STEADY_REPORT, False) if official else None
    name = str(folder / RESULT_SUMMARY)
    agentic = _agentic_x(summary, name) is not None
    point = _summary_point(summary, name, dir_concurrency, steady_state, files)
    point = replace(point, offline=offline, steady_status=status, basis=_basis(steady_state, status, window))
    if window is not None:
        report = str(folder / STEADY_REPORT)
        point = _window_point(point, _object(window, report), report, agentic)
    return point, desc, yaml, agentic


MAX_SUMMARY = 16 * 1024 * 1024  # a report is kilobytes (its rollups, not its samples)


def _inside(path: Path, root: Path) -> Path:
    """``path``, refused where it (through a link) leads outside ``root``: a citation names files of the submission."""
    if path.exists() and not path.resolve().is_relative_to(root.resolve()):
        raise DataError(str(path), None, None, f"a link to {path.resolve()}, outside the submission {root}; not read")
    return path


def _summary_point(
    summary: Mapping[str, Any], name: str, concurrency: int, steady_state: str, files: list[tuple[str, str]]
) -> CurvePoint:
    """A point's numbers from its result_summary.json (section 9.1's metrics)."""
    duration_ns = _positive(summary, "duration_ns", name)
    lengths = summary.get("output_sequence_lengths")
    output_tokens = _positive(lengths if isinstance(lengths, Mapping) else {}, "total", name, "output_sequence_lengths")
    ttft = tuple(_percentile(summary, "ttft", p, name) for p in PERCENTILES)
    tpot = tuple(_percentile(summary, "tpot", p, name) for p in PERCENTILES)
    x = _agentic_x(summary, name)
    if x is None and tpot[1] is None:
        raise DataError(name, None, "tpot", "no p90 percentile: tokens/s per user is 1000 / TPOT p90 (section 9.1)")
    complete = summary.get("complete")
    return CurvePoint(
        concurrency=concurrency,
        system_tps=output_tokens / (duration_ns / 1e9),
        tps_per_user=x if x is not None else 1000.0 / (tpot[1] or 1.0),
        ttft_ms=ttft,
        tpot_ms=tpot,
        steady_state=steady_state,
        complete=complete is True,
        state=str(summary.get("state") or ("complete" if complete is True else "interrupted")),
        files=tuple(files),
    )


AGENTIC_AXIS = "e2e_avg_interactivity"
"""An agentic benchmark's x-axis (rules 4.2): output tokens over end-to-end turn time, tool-call time left out."""


def _agentic_x(summary: Mapping[str, Any], name: str) -> float | None:
    """An agentic point's e2e_avg_interactivity as the submission checker reads it: output_tokens_per_turn_total /
    e2e_turn_time_seconds_total where the summary gives both, else the e2e_avg_interactivity it stores; None for a
    single-turn summary (neither given: the checker's agentic rule stands down)."""
    if "output_tokens_per_turn_total" in summary or "e2e_turn_time_seconds_total" in summary:
        tokens = _positive(summary, "output_tokens_per_turn_total", name)
        return tokens / _positive(summary, "e2e_turn_time_seconds_total", name)
    if AGENTIC_AXIS in summary:
        return _positive(summary, AGENTIC_AXIS, name)
    return None


# The steady-state tool's report (scripts/steady_state_diagnostics.py of mlcommons/endpoints, ``--json``): its
# ``steady_state`` block holds the window's figures, which point.yaml's block (an extent only) does not. The
# name is benchsheet's own: no rule, checker or tool names a file for it (docs/data.md says so).
STEADY_REPORT = "steady_state.json"


def _basis(verdict: str, status: str, window: bytes | None) -> str:
    """What a point's figures are measured over, and why (rules 4.4's status and verdict tables)."""
    if window is not None:
        return "steady-state window (official; whole run supplementary)"
    if verdict.lower() in ("drifting_up", "drifting_down", "not found"):
        return f"whole run (steady state {verdict!r}, rules 4.4)"
    if status and status.lower() != "windowable":
        return f"whole run (status {status}, rules 4.4)"
    if verdict:
        return "whole run: the submission gives the steady-state window's extent, not its figures"
    return "whole run (no steady-state verdict)"


def _window_point(point: CurvePoint, report: Mapping[str, Any], name: str, agentic: bool) -> CurvePoint:
    """The point with the steady-state window's figures: system tokens/s as the tool writes it (tokens over the
    window's seconds); tokens/s per user as section 9.1 defines it (1000 / TPOT p90 ms), over the window's TPOT,
    not the tool's own per_user (1 / mean TPOT). An agentic point keeps its e2e_avg_interactivity."""
    block = report.get("steady_state")
    if not isinstance(block, Mapping) or block.get("found") is not True:
        return replace(point, basis="whole run: the steady-state report found no window")
    tps = block.get("tps")
    system = _positive(tps if isinstance(tps, Mapping) else {}, "system", name, "steady_state.tps")

    def ms(metric: str) -> tuple[float | None, ...]:
        stats = block.get(metric)
        stats = stats if isinstance(stats, Mapping) else {}
        return tuple(_positive(stats, f"p{p}", name, f"steady_state.{metric}") / 1e6 for p in PERCENTILES)

    tpot = ms("tpot")
    return replace(
        point,
        system_tps=system,
        tps_per_user=point.tps_per_user if agentic else 1000.0 / (tpot[1] or 1.0),
        ttft_ms=ms("ttft"),
        tpot_ms=tpot,
    )


_RESERVED = re.compile(
    r"[@./](?:example\.(?:com|net|org)|[a-z0-9-]+\.(?:example|test|invalid|localhost))(?![a-z0-9.-])", re.ASCII
)


def synthetic_reason(*docs: Mapping[str, Any]) -> str:
    """Why a submission is a test one ("" when nothing says so): a contact or link at a domain reserved for
    examples and tests (RFC 2606: example.com/.net/.org, .example, .test, .invalid, .localhost), which no real
    submitter uses; MLCommons' synthetic validation trees write theirs at example.com."""
    for doc in docs:
        for key, value in doc.items():
            if isinstance(value, str) and (m := _RESERVED.search(value.lower())):
                return (
                    f"a test submission, not an MLPerf result: its {key} is at {m.group(0)[1:]}, a domain reserved "
                    "for examples (RFC 2606)"
                )
    return ""


def _object(data: bytes | None, name: str) -> Mapping[str, Any]:
    try:
        doc = json.loads(data or b"")
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise DataError(name, None, None, f"not a JSON file ({type(exc).__name__})") from None
    if not isinstance(doc, Mapping):
        raise DataError(name, None, None, "expected a JSON object")
    return doc


def _text(doc: Mapping[str, Any], key: str) -> str:
    value = doc.get(key)
    return value.strip() if isinstance(value, str) else ""


_MAX_TOTAL = 1e18  # ns of a window, tokens of a run: above a year of nanoseconds, no measurement


def _positive(doc: Mapping[str, Any], key: str, name: str, where: str = "") -> float:
    """A count or duration of the summary: finite, > 0 (its ns and token totals pass MAX_RESULT)."""
    value = doc.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= _MAX_TOTAL:
        field = f"{where}.{key}" if where else key
        raise DataError(name, None, field, f"expected a number > 0 and at most {_MAX_TOTAL:g}, got {value!r}")
    return float(value)


def _percentile(summary: Mapping[str, Any], block: str, p: str, name: str) -> float | None:
    """A percentile of a rollup in ms (the summary's ns / 1e6); keys are "90" or "90.0" (both are written)."""
    stats = summary.get(block)
    percentiles = stats.get("percentiles") if isinstance(stats, Mapping) else None
    if not isinstance(percentiles, Mapping):
        return None
    for key, value in percentiles.items():
        try:
            same = float(key) == float(p)
        except (TypeError, ValueError):
            same = False
        if same:
            if isinstance(value, bool) or not is_result(value):
                raise DataError(name, None, f"{block}.percentiles.{key}", f"expected {RESULT_RANGE}, got {value!r}")
            return float(value) / 1e6
    return None


def _system_key(desc: Mapping[str, Any]) -> str:
    """What must be the same in every point's system description: all but the per-point utilization."""
    return json.dumps({k: v for k, v in desc.items() if k != "tps_utilization"}, sort_keys=True)


def _accelerators(desc: Mapping[str, Any], name: str) -> tuple[list[str], int, int]:
    """The accelerator names (in order, each once), accelerators and nodes of a system description:
    accelerators per node x nodes of each node type (v1.0 nests them in ``accelerator_info``), counted
    as the Inference rows count them (``accelerator_count``: a "(xN)" name, a "Dual" card)."""
    node_types = desc.get("node_types")
    if not isinstance(node_types, list) or not node_types:
        raise DataError(name, None, "node_types", "missing: the system's nodes and accelerators")
    names: list[str] = []
    gpus = nodes = 0
    for i, node in enumerate(node_types):
        if not isinstance(node, Mapping):
            raise DataError(name, None, f"node_types[{i}]", "expected an object")
        count = _count(node, "number_of_nodes", name, i)
        infos = node.get("accelerator_info")
        if not isinstance(infos, list):  # the v0.7 shape: one accelerator per node, flat on the node
            infos = [node] if node.get("accelerator_model_name") else []
        for info in infos:
            model = _text(info, "accelerator_model_name") if isinstance(info, Mapping) else ""
            if not model:
                raise DataError(name, None, f"node_types[{i}].accelerator_model_name", "missing")
            counted = accelerator_count(model, _count(info, "accelerators_per_node", name, i) * count)
            if counted == 0 and count:
                field = f"node_types[{i}].accelerator_model_name"
                raise DataError(name, None, field, f"{model!r} counts no accelerator; a system serving a model has one")
            gpus += counted
            names += [model] if model not in names else []
        nodes += count
    if gpus > MAX_ACCELERATORS:
        raise DataError(name, None, "node_types", f"more than {MAX_ACCELERATORS:,} accelerators")
    return names, gpus, nodes


def _count(doc: Mapping[str, Any], key: str, name: str, i: int) -> int:
    value = doc.get(key)
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_ACCELERATORS:
        raise DataError(name, None, f"node_types[{i}].{key}", f"expected a whole number, got {value!r}")
    return value


# The v0.7 layout (before endpoints_policies PR #119), as mlperf-viz's discover.py and bundle.py read it: a
# submission anchored on ``systems/<system>.json`` (flat; accelerators on the node), its runs either in
# ``pareto/<system>/<model>/`` beside ``systems/`` (the checker's layout) or in the folder holding ``systems/``
# (the results repository's ``<org>/<system>/<model>/``). Each point is ``results/point_<N>/run_metadata.json``:
# the submitted metrics, system tokens/s, tokens/s per user and TTFT/TPOT percentiles in ms, read as written
# (v1.0's derivation from result_summary.json does not apply), with ``points/point_<N>.yaml`` and
# ``results_summary.json`` where the point has them.
SYSTEMS, RUN_METADATA, V07_SUMMARY = "systems", "run_metadata.json", "results_summary.json"
_V07_POINT = re.compile(r"point_(\d+)", re.ASCII)


def _v07_model_dirs(folder: Path) -> list[tuple[Path, Path, str]]:
    """(system file, model folder, submitter's folder name) of each v0.7 curve under ``folder``."""
    if not folder.is_dir():
        return []
    found = []
    for system in sorted(folder.rglob(f"{SYSTEMS}/*.json")):
        parent = system.parent.parent
        if (parent / "pareto").is_dir():
            models = sorted(p for p in (parent / "pareto" / system.stem).glob("*") if p.is_dir())
            found += [(system, m, parent.name) for m in models]
        elif (parent / "results").is_dir() or (parent / "points").is_dir():
            found.append((system, parent, parent.parent.parent.name))
    return found


def _v07_curve(system: Path, model_dir: Path, org: str, when: str) -> Curve:
    desc_data = read_regular(system)
    desc = _object(desc_data, str(system))
    results = model_dir / "results"
    dirs = sorted((int(m.group(1)), d) for d in (results.iterdir() if results.is_dir() else ()) if (m := _v07_point(d)))
    if not dirs:
        raise DataError(str(model_dir), None, None, "no point: expected results/point_<N>/run_metadata.json")
    points = tuple(_v07_point_read(d, c, model_dir, (str(system), sha256_hex(desc_data))) for c, d in dirs)
    accelerators, gpus, nodes = _accelerators(desc, str(system))
    fields = accelerator_fields(" + ".join(accelerators))
    _no_controls(desc, str(system))
    return Curve(
        id=_checked_id(f"{org}/{system.stem}/{model_dir.name}", model_dir),
        submitter=_text(desc, "submitter_org_names"),
        system=_text(desc, "system_name") or system.stem,
        model=_text(desc, "model_name") or _text(desc, "model_id") or model_dir.name,
        division=_text(desc, "division").lower(),
        availability=next((v for f in _AVAILABILITY_FIELDS if (v := _text(desc, f))), "").lower(),
        **fields | {"heterogeneous": fields["heterogeneous"] or len(accelerators) > 1},
        gpus=gpus,
        nodes=nodes,
        points=points,
        source=str(system.parent.parent),
        imported_at=when,
    )


def _v07_point(path: Path) -> re.Match[str] | None:
    return _V07_POINT.fullmatch(path.name) if path.is_dir() else None


def _v07_point_read(folder: Path, concurrency: int, model_dir: Path, system: tuple[str, str]) -> CurvePoint:
    """One v0.7 point: run_metadata.json's metrics; its points/point_<N>.yaml and results_summary.json if any."""
    if not 0 < concurrency <= MAX_ACCELERATORS:
        raise DataError(str(folder), None, "concurrency", f"expected 1 to {MAX_ACCELERATORS:,} concurrent users")
    files: list[tuple[str, str]] = []

    def load(path: Path) -> bytes | None:
        if not path.is_file():
            return None
        data = read_regular(path)
        files.append((str(path), sha256_hex(data)))
        return data

    name = str(folder / RUN_METADATA)
    data = load(folder / RUN_METADATA)
    if data is None:
        raise DataError(str(folder), None, RUN_METADATA, "missing: each point folder of a v0.7 submission has it")
    meta = _object(data, name)
    yaml_path = model_dir / "points" / f"{folder.name}.yaml"
    yaml_data = load(yaml_path)
    yaml = read_point_yaml(yaml_data, str(yaml_path)) if yaml_data is not None else {}
    summary_data = load(folder / V07_SUMMARY)
    summary = _object(summary_data, str(folder / V07_SUMMARY)) if summary_data is not None else {}
    files.append(system)
    for doc, where in ((meta, name), (yaml, str(yaml_path))):
        if doc.get("concurrency") not in (None, concurrency):
            raise DataError(where, None, "concurrency", f"{doc.get('concurrency')!r} in the folder {folder.name}")

    def ms(block: str, p: str) -> float | None:
        value = meta.get(f"measured_latency_{block}_p{p}")
        if value is None:
            return None
        if isinstance(value, bool) or not is_result(value):
            raise DataError(name, None, f"measured_latency_{block}_p{p}", f"expected {RESULT_RANGE}, got {value!r}")
        return float(value)

    steady = yaml.get("steady_state")
    verdict = steady.get("verdict") if isinstance(steady, Mapping) else None
    complete = summary.get("complete")
    return CurvePoint(
        concurrency=concurrency,
        system_tps=_positive(meta, "system_tps", name),
        tps_per_user=_positive(meta, "tps_per_user", name),
        ttft_ms=tuple(ms("ttft", p) for p in PERCENTILES),
        tpot_ms=tuple(ms("tpot", p) for p in PERCENTILES),
        steady_state=verdict.strip() if isinstance(verdict, str) else "",
        complete=complete is True,
        state=str(summary.get("state") or ("complete" if complete is True else "not reported (v0.7)")),
        files=tuple(files),
        basis="whole run (v0.7: run_metadata.json's metrics as submitted)",
    )


# The user folder's curves.json: the imported curves, plain JSON (loading it can never run code).
CURVES_FORMAT, CURVES_VERSION = "benchsheet-curves", 1
_POINT_TYPES: dict[str, Any] = {
    "concurrency": int,
    "system_tps": float,
    "tps_per_user": float,
    "steady_state": str,
    "complete": bool,
    "state": str,
}
_CURVE_TYPES: dict[str, Any] = {f: str for f in ("id", "submitter", "system", "model", "division", "availability")}
_CURVE_TYPES |= {"accelerator": str, "family": str, "vendor": str, "heterogeneous": bool, "gpus": int, "nodes": int}
_CURVE_TYPES |= {"source": str, "imported_at": str}


def curves_to_json(curves: tuple[Curve, ...]) -> str:
    doc = {"format": CURVES_FORMAT, "version": CURVES_VERSION, "curves": [asdict(c) for c in curves]}
    return json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False)


def curves_from_json(text: str | bytes, name: str) -> tuple[Curve, ...]:
    """The curves of a curves.json; any defect is a DataError naming the file, the curve and the field."""
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise DataError(name, None, None, f"not a JSON file ({type(exc).__name__})") from None
    if not isinstance(doc, Mapping) or doc.get("format") != CURVES_FORMAT or doc.get("version") != CURVES_VERSION:
        raise DataError(name, None, "format", f"not a {CURVES_FORMAT} file of version {CURVES_VERSION}")
    raw = doc.get("curves")
    if not isinstance(raw, list):
        raise DataError(name, None, "curves", "missing curve list")
    return tuple(_curve_record(r, name, f"curve {i}") for i, r in enumerate(raw))


def _curve_record(raw: Any, name: str, where: str) -> Curve:
    if not isinstance(raw, Mapping):
        raise DataError(name, where, None, "expected an object")
    fields = {k: _typed(raw, k, t, name, where) for k, t in _CURVE_TYPES.items()}
    points = raw.get("points")
    if not isinstance(points, list) or not points:
        raise DataError(name, where, "points", "expected a list of points")
    own = raw.get("own", False)  # not in the files written before own runs were imported
    if not isinstance(own, bool):
        raise DataError(name, where, "own", f"expected true or false, got {own!r}")
    return Curve(
        **fields,
        points=tuple(_point_record(p, name, f"{where} point {i}") for i, p in enumerate(points)),
        power_file=_pair(raw.get("power_file"), name, where, "power_file"),
        own=own,
        axis=_optional(raw, "axis", name, where),
        test=_optional(raw, "test", name, where),
    )


def _optional(raw: Mapping[str, Any], key: str, name: str, where: str) -> str:
    """A text field written since curves.json's version 1 began (offline, basis, axis, test...): "" where a file
    has none."""
    value = raw.get(key, "")
    if not isinstance(value, str):
        raise DataError(name, where, key, f"expected str, got {value!r}")
    if why := control_in(value):
        raise DataError(name, where, key, why)
    return value


def _point_record(raw: Any, name: str, where: str) -> CurvePoint:
    if not isinstance(raw, Mapping):
        raise DataError(name, where, None, "expected an object")
    fields = {k: _typed(raw, k, t, name, where) for k, t in _POINT_TYPES.items()}
    for key in ("system_tps", "tps_per_user"):
        if not is_result(fields[key]):
            raise DataError(name, where, key, f"expected {RESULT_RANGE}")
    latencies: dict[str, Any] = {}
    for key in ("ttft_ms", "tpot_ms"):
        value = raw.get(key)
        if not isinstance(value, list) or len(value) != len(PERCENTILES):
            raise DataError(name, where, key, f"expected {len(PERCENTILES)} percentiles")
        if not all(v is None or (not isinstance(v, bool) and is_result(v)) for v in value):
            raise DataError(name, where, key, f"expected {RESULT_RANGE} or null")
        latencies[key] = tuple(None if v is None else float(v) for v in value)
    files = raw.get("files")
    if not isinstance(files, list):
        raise DataError(name, where, "files", "expected a list of [file, sha256]")
    pairs = tuple(_pair(f, name, where, "files") for f in files)
    offline = _optional(raw, "offline", name, where)
    if offline not in ("", "dedicated", "elected"):
        raise DataError(name, where, "offline", f"expected dedicated or elected, got {offline!r}")
    status, basis = _optional(raw, "steady_status", name, where), _optional(raw, "basis", name, where)
    return CurvePoint(**fields, **latencies, files=pairs, offline=offline, steady_status=status, basis=basis)


def _typed(raw: Mapping[str, Any], key: str, typ: Any, name: str, where: str) -> Any:
    value = raw.get(key)
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, typ) or (typ is not bool and isinstance(value, bool)):
        raise DataError(name, where, key, f"expected {typ.__name__}, got {value!r}")
    if typ is str and (why := control_in(value)):
        raise DataError(name, where, key, why)
    if typ is int and not 0 <= value <= MAX_ACCELERATORS:
        raise DataError(name, where, key, f"expected a whole number from 0 to {MAX_ACCELERATORS:,}")
    return value


def _pair(value: Any, name: str, where: str, key: str) -> tuple[str, str]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise DataError(name, where, key, "expected [file, sha256]")
    return value[0], value[1]
