"""MLPerf Endpoints curves: their points, per-GPU tokens/s at an interactivity, a curve's Offline ceiling, a
family's best curve (CURVES, CURVEPOINTS, CURVEAT, CURVEATPOINTS, CURVEOFFLINE, BESTCURVE).

An Endpoints result is a Pareto curve, not one number: system tokens/s at each concurrency, and the
tokens/s each user sees (1000 / TPOT p90 ms; an agentic benchmark's e2e_avg_interactivity, rules 4.2). The
official curve is a step function (rules 5.2): at a target interactivity its value is the best measured
point that meets the target, never a value between points; a linear value between the two measured points
around the target is given only when asked, labelled "interpolated (not official)", and never beyond the
measured range. A dedicated Offline run (rules 5.7) is the curve's throughput ceiling, never a step. A point
that is not usable (an interrupted run, no steady-state verdict) is left out, and every answer that skips one
says so; a usable point the rules publish with flags (no steady state found, 4.4) says it is flagged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from benchsheet.analysis.entries import ENTRY_ID
from benchsheet.analysis.selection import Filters
from benchsheet.data.names import benchmark_key, family_key, family_keys, unknown_name
from benchsheet.data.table import UNUSABLE, Curve, CurvePoint, Table
from benchsheet.errors import BenchError, bad_value, not_available

POINT_HEADER: list[object] = [
    "concurrency",
    "tokens/s",
    "tokens/s per user",
    "tokens/s per GPU",
    "TTFT p90 ms",
    "TPOT p90 ms",
    "steady state",
    "complete",
    "not used because",
    "Offline",
    "basis",
    "flagged",
]
CURVES_HEADER: list[object] = [
    "curve",
    "submitter",
    "system",
    "model",
    "accelerator",
    "GPUs",
    "points",
    "flagged points",
    "note",
]
INTERPOLATED = "interpolated (not official)"
"""The label rules 5.2 ask for on a value read between measured points."""
AGENTIC_X = "e2e_avg_interactivity (tokens/s per user over completed turns)"
OFFLINE_TEXT = {"dedicated": "dedicated: a ceiling, not a step", "elected": "elected: also a step"}
BEST_HEADER: list[object] = ["tokens/s per user", "tokens/s per GPU", "curve", "system", "concurrency"]


CURVES_HELP = (
    "The loaded MLPerf Endpoints curves (of one model, if given): curve, submitter, system, model, accelerator, "
    "GPUs, points, flagged points, note (a test submission, your own run). Spills."
)
CURVE_HELP = (
    "An Endpoints curve's points by concurrency: concurrency, tokens/s, tokens/s per user (agentic: "
    "e2e_avg_interactivity), per GPU, TTFT and TPOT p90 ms, steady state, complete, why not used, Offline, "
    "the basis of its figures, why flagged. Spills."
)
AT_HELP = (
    "Tokens/s per GPU of an Endpoints curve at a target interactivity: the official step, the best measured "
    "point that meets it (rules 5.2); interpolated (not official) only when asked. #N/A above the highest "
    "measured interactivity and for mixed accelerators."
)
POINTS_HELP = (
    "CURVEAT's answer in words: the value and the measured point (or, interpolated, the two) it was read from."
)
OFFLINE_HELP = (
    "An Endpoints curve's Offline throughput ceiling, tokens/s per GPU: its dedicated Offline run (never a step of "
    "the curve), else the point elected as its Offline result (rules 5.7); #N/A if it has neither."
)
BEST_HELP = (
    "A family's best Endpoints curve of a model: the usable points of its curves no other beats on both "
    "interactivity and tokens/s per GPU, most interactive first, each naming its curve, system and "
    "concurrency (never a dedicated Offline run). Spills."
)


def find_curve(table: Table, curve: str) -> Curve:
    found = table.curve(curve)
    if found is not None:
        return found
    if not table.curves:
        raise not_available(f"N{none_loaded(table)[1:]} (asked for curve {curve.strip()!r})")
    raise not_available(unknown_name("Endpoints curve", curve, [c.id for c in table.curves]))


def none_loaded(table: Table) -> str:
    """Why a table has no curves: curves.json unusable (the reason, naming the file), else none imported."""
    damaged = [note for note in table.origin.notes if note.startswith(UNUSABLE[1])]
    if damaged:
        return f"no MLPerf Endpoints curve could be read: {damaged[0]}; fix the file or move it aside and import again"
    return "no MLPerf Endpoints curves are loaded (benchsheet import-run <submission folder> adds them)"


def per_gpu(curve: Curve, point: CurvePoint) -> float | None:
    """A point's tokens/s per GPU; None for a system that mixes accelerators or names none."""
    return None if curve.heterogeneous or curve.gpus <= 0 else point.system_tps / curve.gpus


def curves(table: Table, benchmark: str | None = None) -> list[list[object]]:
    """The loaded MLPerf Endpoints curves (of one model, if given): curve, submitter, system, model,
    accelerator, GPUs, points, flagged points. Spills."""
    model = benchmark
    key = benchmark_key(model) if model else None
    chosen = [c for c in table.curves if key is None or benchmark_key(c.model) == key]
    if not chosen:
        having = sorted({c.model for c in table.curves})
        raise not_available(
            f"No MLPerf Endpoints curve of {model}: the loaded curves are of {', '.join(having)}"
            if having
            else "N" + none_loaded(table)[1:]
        )
    return [CURVES_HEADER] + [
        [c.id, c.submitter, c.system, c.model, c.accelerator, c.gpus, len(c.points), flagged(c), note(c)]
        for c in chosen
    ]


def flagged(curve: Curve) -> int:
    """How many points of a curve are not used or flagged."""
    return sum(1 for p in curve.points if p.flag or p.caveat)


def note(curve: Curve) -> str:
    """What a curve is, where it is not an MLPerf submission's result: a test submission, your own run."""
    return curve.test or ("your own run, not an MLPerf result" if curve.own else "")


def curve_points(table: Table, curve: str) -> list[list[object]]:
    """A curve's points by concurrency: concurrency, tokens/s, tokens/s per user, tokens/s per GPU (blank for
    mixed accelerators), TTFT p90 ms, TPOT p90 ms, steady state, complete, why a point is not used. Spills."""
    c = find_curve(table, curve)
    rows: list[list[object]] = [POINT_HEADER if not c.axis else [*POINT_HEADER[:2], AGENTIC_X, *POINT_HEADER[3:]]]
    for p in c.points:
        value = per_gpu(c, p)
        rows.append(
            [
                p.concurrency,
                p.system_tps,
                p.tps_per_user,
                "" if value is None else value,
                "" if p.ttft_ms[1] is None else p.ttft_ms[1],
                "" if p.tpot_ms[1] is None else p.tpot_ms[1],
                p.steady_state,
                p.complete,
                p.flag,
                OFFLINE_TEXT.get(p.offline, ""),
                p.basis,
                p.caveat,
            ]
        )
    return rows


@dataclass(frozen=True, slots=True)
class AtInteractivity:
    """Per-GPU tokens/s read off a curve at a target tokens/s per user, and the points it was read from."""

    value: float
    low: CurvePoint  # the measured step (interpolated: the point at or below the target's tokens/s per user)
    high: CurvePoint  # the same point (interpolated: the one at or above the target)
    skipped: tuple[CurvePoint, ...]  # points not used
    interpolated: bool = False

    def text(self, curve: Curve) -> str:
        def point(p: CurvePoint) -> str:
            return f"r{p.concurrency} ({_num(p.tps_per_user)} {curve.x_name}, {_num(per_gpu(curve, p) or 0)} per GPU)"

        if self.interpolated and self.low is not self.high:
            how = f"{INTERPOLATED} between {point(self.low)} and {point(self.high)}"
        else:
            how = f"the measured step at {point(self.low)}"
        read = (self.low,) if self.low is self.high else (self.low, self.high)
        flags = "".join(f"; r{p.concurrency} flagged: {p.caveat}" for p in read if p.caveat)
        return f"{_num(self.value)} tokens/s per GPU, {how} of {curve.id}" + flags + _skipped(self.skipped)


def at_interactivity(curve: Curve, target: float, interpolate: bool = False) -> AtInteractivity:
    """Per-GPU tokens/s of ``curve`` at ``target`` tokens/s per user: the official step (rules 5.2), the best
    usable measured point whose interactivity is at least the target; with ``interpolate``, linear between the
    two usable points around it (not official). #N/A above the measured range (and, interpolated, below it) or
    without a per-GPU value. A dedicated Offline run is neither a step nor an end of an interpolation."""
    if not target > 0:
        raise bad_value(f"tokens_per_sec_per_user must be > 0, not {target:g}")
    if curve.heterogeneous:
        raise not_available(f"{curve.id} mixes accelerators ({curve.accelerator}): it has no per-GPU value")
    if curve.gpus <= 0:
        raise not_available(f"{curve.id} names no accelerators: it has no per-GPU value")
    skipped = tuple(p for p in curve.points if p.flag)
    usable = steps(curve)
    if not usable:
        raise not_available(f"{curve.id} has no usable point" + _skipped(skipped))
    by_x: dict[float, CurvePoint] = {}
    for p in usable:  # two points at one interactivity: the better one is the curve's
        if p.tps_per_user not in by_x or p.system_tps > by_x[p.tps_per_user].system_tps:
            by_x[p.tps_per_user] = p
    xs = sorted(by_x)
    # a target that is a point's interactivity to Excel's 15 significant digits is that point (1000/6 typed as
    # the 166.666666666667 Excel shows), never a hair above it
    target = next((v for v in xs if _excel_digits(v) == _excel_digits(target)), target)
    low_x, high_x = xs[0], xs[-1]
    x = curve.x_name
    ends = f"{_num(low_x)} to {_num(high_x)} {x} (r{by_x[low_x].concurrency} to r{by_x[high_x].concurrency})"
    shown = _num(target) if _num(target) not in (_num(low_x), _num(high_x)) else f"{target:.15g}"
    if target > high_x:
        raise not_available(
            f"{shown} {x} is above every measured point of {curve.id}: measured from {ends}; no extrapolation"
            + _skipped(skipped)
        )
    if target in by_x or not interpolate:
        p = max((by_x[v] for v in xs if v >= target), key=lambda q: q.system_tps)
        return AtInteractivity(p.system_tps / curve.gpus, p, p, skipped)
    if target < low_x:
        raise not_available(
            f"{shown} {x} is outside the measured range of {curve.id}: {ends}; no extrapolation" + _skipped(skipped)
        )
    x0 = max(v for v in xs if v < target)
    x1 = min(v for v in xs if v > target)
    p0, p1 = by_x[x0], by_x[x1]
    y0, y1 = p0.system_tps / curve.gpus, p1.system_tps / curve.gpus
    return AtInteractivity(y0 + (y1 - y0) * (target - x0) / (x1 - x0), p0, p1, skipped, True)


def steps(curve: Curve) -> list[CurvePoint]:
    """The points that define the curve's steps: usable, and not a dedicated Offline run (rules 5.7)."""
    return [p for p in curve.points if not p.flag and p.offline != "dedicated"]


def per_gpu_at(table: Table, curve: str, tokens_per_sec_per_user: float, interpolated: bool = False) -> float:
    """CURVEAT: per-GPU tokens/s of a curve at a target tokens/s per user (the step; interpolated if asked)."""
    return at_interactivity(find_curve(table, curve), tokens_per_sec_per_user, interpolated).value


def per_gpu_at_points(table: Table, curve: str, tokens_per_sec_per_user: float, interpolated: bool = False) -> str:
    """CURVEATPOINTS: CURVEAT's answer in words, with the point(s) it was read from."""
    c = find_curve(table, curve)
    return at_interactivity(c, tokens_per_sec_per_user, interpolated).text(c)


def _per_gpu_curve(table: Table, curve: str) -> Curve:
    """The curve, if it has per-GPU values (one kind of accelerator, named)."""
    c = find_curve(table, curve)
    if per_gpu(c, c.points[0]) is None:
        raise not_available(f"{c.id} mixes accelerators ({c.accelerator}) or names none: it has no per-GPU value")
    return c


def _offline(table: Table, curve: str) -> tuple[Curve, CurvePoint]:
    c = _per_gpu_curve(table, curve)
    for kind in ("dedicated", "elected"):
        found = [p for p in c.points if p.offline == kind]
        if found and not found[0].flag:
            return c, found[0]
        if found:
            raise not_available(
                f"{c.id}'s {kind} Offline point r{found[0].concurrency} is not usable ({found[0].flag})"
            )
    raise not_available(f"{c.id} has no Offline result: no point.yaml of it declares offline: dedicated or elected")


def offline_ceiling(table: Table, curve: str) -> float:
    """CURVEOFFLINE: the curve's Offline throughput, tokens/s per GPU (its dedicated run, else its elected point)."""
    c, p = _offline(table, curve)
    return p.system_tps / c.gpus


def offline_ceiling_text(table: Table, curve: str) -> str:
    """CURVEOFFLINE's answer in words: the value and the point it is."""
    c, p = _offline(table, curve)
    what = (
        f"the dedicated Offline run r{p.concurrency} of {c.id} (a ceiling, not a step)"
        if p.offline == "dedicated"
        else f"the elected Offline point r{p.concurrency} of {c.id} (also a step)"
    )
    return f"Offline: {_num(p.system_tps / c.gpus)} tokens/s per GPU, {what}"


STEPS_HELP = (
    "An Endpoints curve as its chart draws it (rules 5.2: steps, no smoothing): the step line's corners "
    "(interactivity, per GPU), the measured points, the flagged points and the Offline ceiling's ends, "
    "each an x and y column; label names the series. Spills."
)


def step_chart(table: Table, curve: str, label: str = "") -> list[list[object]]:
    """CURVESTEPS: the official step curve as a chart draws it, in 8 columns (4 pairs of x and y): the step line's
    corners, most interactive first (each measured point that raises the curve, then where its value holds to:
    the next such point's interactivity); the usable measured points; the flagged points; the Offline ceiling's
    two ends (from the least to the most interactive point). A line drawn straight through the corners is the
    step function; a pair with nothing to plot (no flagged point, no Offline result) is empty text."""
    c = _per_gpu_curve(table, curve)
    name = label.strip() or c.id
    points = sorted(steps(c), key=lambda p: (-p.tps_per_user, p.system_tps))
    corners: list[list[object]] = []
    level = 0.0
    for p in points:  # most interactive first: a point above the level so far starts a step
        x, y = p.tps_per_user, p.system_tps / c.gpus
        if y > level:
            if corners:
                corners.append([x, level])  # the step before holds down to this point's interactivity
            corners.append([x, y])
            level = y
    measured = [[p.tps_per_user, p.system_tps / c.gpus] for p in points]
    marked = [[p.tps_per_user, p.system_tps / c.gpus] for p in c.points if p.flag or p.caveat]
    try:
        ceiling: float | None = offline_ceiling(table, c.id)
    except BenchError:
        ceiling = None
    xs = [p.tps_per_user for p in c.points]
    ends = [[min(xs), ceiling], [max(xs), ceiling]] if ceiling is not None else []
    pairs = (
        ("official steps", corners),
        ("measured points", measured),
        ("flagged points", marked),
        ("Offline ceiling", ends),
    )
    # the y heading is the series' name; the x heading names its pair too (a frame's columns are one name each)
    header: list[object] = [v for kind, _ in pairs for v in (f"{c.x_name} ({kind})", f"{name}: {kind}")]
    blank: list[object] = ["", ""]
    return [header] + [
        [v for _, rows in pairs for v in (rows[i] if i < len(rows) else blank)]
        for i in range(max(len(rows) for _, rows in pairs))
    ]


def best_curve(table: Table, family: str, benchmark: str) -> list[list[object]]:
    """BESTCURVE: the upper envelope of a family's curves of a model, with a header: the usable points that
    no other point beats on both tokens/s per user and tokens/s per GPU, most interactive first, each
    naming its curve and system."""
    model = benchmark
    fam, key = family_key(family), benchmark_key(model)
    chosen = [
        c
        for c in table.curves
        if benchmark_key(c.model) == key and family_key(c.family) == fam and per_gpu(c, c.points[0]) is not None
    ]
    if not chosen:
        known = sorted({c.family for c in table.curves if benchmark_key(c.model) == key and not c.heterogeneous})
        raise not_available(
            f"No MLPerf Endpoints curve of {family.strip()} for {model.strip()}"
            + (f": the {model.strip()} curves are of {', '.join(known)}" if known else "")
        )
    points = sorted(
        ((p.tps_per_user, p.system_tps / c.gpus, c, p) for c in chosen for p in steps(c)),
        key=lambda t: (-t[0], -t[1]),
    )
    rows: list[list[object]] = [[chosen[0].x_name, *BEST_HEADER[1:]]]  # the axis of the model's curves (4.2)
    best = 0.0
    for x, y, c, p in points:
        if y > best:
            rows.append([x, y, c.id, c.system, p.concurrency])
            best = y
    if len(rows) == 1:
        raise not_available(f"No usable point on the {family.strip()} curves of {model.strip()}")
    return rows


@dataclass(frozen=True, slots=True)
class SideAt:
    """One side of a comparison at an interactivity: per-GPU tokens/s, and the curve and points behind it
    (none for a number given)."""

    value: float
    curve: Curve | None
    at: AtInteractivity | None

    def text(self) -> str:
        """The value and the points it was read from, in words short enough for a classic Excel cell
        (CURVEATPOINTS says it at length): "<curve> 633.3 per GPU from r128 and r64 (r2048 not used)"."""
        if self.curve is None or self.at is None:
            return "the number given"
        at = self.at
        points = (
            f"at r{at.low.concurrency}"
            if at.low is at.high
            else f"from r{at.low.concurrency} and r{at.high.concurrency}"
        )
        unused = f" ({', '.join(f'r{p.concurrency}' for p in at.skipped)} not used)" if at.skipped else ""
        return f"{self.curve.id} {_num(self.value)} per GPU {points}{unused}"


def side_at(
    table: Table, spec: str | float, benchmark: str, target: float, filters: Filters, gpus: int | None = None
) -> SideAt:
    """Per-GPU tokens/s of a side at ``target`` tokens/s per user: a number as given, an Endpoints curve
    read by ``at_interactivity``, or a family's best curve of the model there (of those passing the
    availability and max_gpus filters, and of ``gpus`` accelerators if given): the one of its curves
    that gives the most per GPU at the target, each read between two of its own measured points."""
    if isinstance(spec, float | int):
        if not math.isfinite(spec) or spec <= 0:
            raise bad_value("a measured per-GPU throughput must be a number > 0")
        return SideAt(float(spec), None, None)
    if not math.isfinite(target) or not target > 0:
        raise bad_value(f"interactivity must be a number of tokens/s per user > 0, not {target:g}")
    if filters.round is not None or filters.software is not None:
        raise bad_value("round and software choose MLPerf Inference rows: leave them out with an interactivity")
    curve = find_curve(table, spec) if "/" in spec else table.curve(spec)  # no family or entry has a "/"
    if curve is not None:
        if benchmark_key(curve.model) != benchmark_key(benchmark):
            raise not_available(f"{curve.id} is a curve of {curve.model}, not of {benchmark.strip()}")
        if gpus is not None and curve.gpus != gpus:
            raise not_available(f"{curve.id} has {curve.gpus} GPUs, not {gpus}")
        return SideAt((at := at_interactivity(curve, target)).value, curve, at)
    name, model = spec.strip(), benchmark.strip()
    if table.entry_rows(spec) or ENTRY_ID.fullmatch(name):
        raise not_available(
            f"{name} is an MLPerf Inference entry: at an interactivity each side is an MLPerf Endpoints curve, "
            "a family with curves of the model, or a per-GPU number"
        )
    fams, key, av = family_keys(spec), benchmark_key(benchmark), filters.check().availability
    of_model = [c for c in table.curves if benchmark_key(c.model) == key and not c.heterogeneous and c.gpus > 0]
    chosen = [
        c
        for c in of_model
        if family_key(c.family) in fams
        and (av == "any" or c.availability == av)
        and (filters.max_gpus is None or c.gpus <= filters.max_gpus)
        and (gpus is None or c.gpus == gpus)
    ]
    if not chosen:
        known = sorted({c.family for c in of_model})
        raise not_available(
            f"No MLPerf Endpoints curve of {name} for {model}"
            + (" under the filters" if any(family_key(c.family) in fams for c in of_model) else "")
            + (f": the {model} curves are of {', '.join(known)}" if known else "")
        )
    found: list[SideAt] = []
    why: list[str] = []
    for c in chosen:
        try:
            found.append(SideAt((at := at_interactivity(c, target)).value, c, at))
        except BenchError as exc:
            why.append(exc.reason)
    if not found:
        raise not_available(
            f"No {name} curve of {model} has a value at {_num(target)} tokens/s per user: " + "; ".join(why)
        )
    return max(found, key=lambda s: s.value)


def _skipped(points: tuple[CurvePoint, ...]) -> str:
    return "".join(f"; r{p.concurrency} not used ({p.flag})" for p in points)


def _excel_digits(x: float) -> str:
    """A number as Excel keeps and shows it: 15 significant digits."""
    return f"{x:.15g}"


def _num(x: float) -> str:
    return f"{x:,.4g}" if abs(x) < 1e4 else f"{x:,.0f}"
