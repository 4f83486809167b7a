"""MLPerf Endpoints curves: their points, per-GPU tokens/s at an interactivity, a family's best curve
(CURVES, CURVEPOINTS, CURVEAT, CURVEATPOINTS, BESTCURVE).

An Endpoints result is a Pareto curve, not one number: system tokens/s at each concurrency, and the
tokens/s each user sees (1000 / TPOT p90 ms). The value at the buyer's interactivity is read off the
curve by linear interpolation of per-GPU tokens/s against tokens/s per user between the two measured
points around the target, never beyond the measured range. A point that is flagged (an interrupted
run, no steady state) is not used, and every answer that skips one says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from benchsheet.analysis.entries import ENTRY_ID, unknown
from benchsheet.analysis.selection import Filters
from benchsheet.data.names import benchmark_key, family_key, family_keys
from benchsheet.data.table import Curve, CurvePoint, Table
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
]
BEST_HEADER: list[object] = ["tokens/s per user", "tokens/s per GPU", "curve", "system", "concurrency"]


CURVES_HELP = (
    "The loaded MLPerf Endpoints curves (of one model, if given): curve, submitter, system, model, accelerator, "
    "GPUs, points, flagged points. Spills."
)
CURVE_HELP = (
    "An Endpoints curve's points by concurrency: concurrency, tokens/s, tokens/s per user, tokens/s per GPU "
    "(blank for mixed accelerators), TTFT p90 ms, TPOT p90 ms, steady state, complete, why a point is not used. "
    "Spills."
)
AT_HELP = (
    "Tokens/s per GPU of an Endpoints curve at a target tokens/s per user, linear between the two measured points "
    "around it (CURVEATPOINTS says which); #N/A outside the measured range and for mixed accelerators."
)
POINTS_HELP = "CURVEAT's answer in words: the value and the measured points it was read from (or the one)."
BEST_HELP = (
    "A family's best Endpoints curve of a model: the usable points of its curves that no other beats on both "
    "tokens/s per user and tokens/s per GPU, most interactive first, each naming its curve, system and "
    "concurrency. Spills."
)


def find_curve(table: Table, curve: str) -> Curve:
    found = table.curve(curve)
    if found is not None:
        return found
    if not table.curves:
        raise not_available(
            f"Unknown Endpoints curve {curve.strip()!r}: no MLPerf Endpoints curves are loaded "
            "(benchsheet import-run <submission folder> adds them)"
        )
    raise not_available(unknown("Endpoints curve", curve, [c.id for c in table.curves]))


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
            else "No MLPerf Endpoints curves are loaded (benchsheet import-run <submission folder> adds them)"
        )
    return [CURVES_HEADER] + [
        [c.id, c.submitter, c.system, c.model, c.accelerator, c.gpus, len(c.points), sum(1 for p in c.points if p.flag)]
        for c in chosen
    ]


def curve_points(table: Table, curve: str) -> list[list[object]]:
    """A curve's points by concurrency: concurrency, tokens/s, tokens/s per user, tokens/s per GPU (blank for
    mixed accelerators), TTFT p90 ms, TPOT p90 ms, steady state, complete, why a point is not used. Spills."""
    c = find_curve(table, curve)
    rows: list[list[object]] = [POINT_HEADER]
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
            ]
        )
    return rows


@dataclass(frozen=True, slots=True)
class AtInteractivity:
    """Per-GPU tokens/s read off a curve at a target tokens/s per user, and the points it was read from."""

    value: float
    low: CurvePoint  # the measured point at or below the target's tokens/s per user
    high: CurvePoint  # the one at or above it (the same point when the target is measured)
    skipped: tuple[CurvePoint, ...]  # flagged points, not used

    def text(self, curve: Curve) -> str:
        def point(p: CurvePoint) -> str:
            return (
                f"r{p.concurrency} ({_num(p.tps_per_user)} tokens/s per user, {_num(per_gpu(curve, p) or 0)} per GPU)"
            )

        how = (
            f"measured at {point(self.low)}"
            if self.low is self.high
            else f"interpolated between {point(self.low)} and {point(self.high)}"
        )
        return f"{_num(self.value)} tokens/s per GPU, {how} of {curve.id}" + _skipped(self.skipped)


def at_interactivity(curve: Curve, target: float) -> AtInteractivity:
    """Per-GPU tokens/s of ``curve`` at ``target`` tokens/s per user: linear between the two usable
    points around it; #N/A outside the measured range (no extrapolation) or without a per-GPU value."""
    if not target > 0:
        raise bad_value(f"tokens_per_sec_per_user must be > 0, not {target:g}")
    if curve.heterogeneous:
        raise not_available(f"{curve.id} mixes accelerators ({curve.accelerator}): it has no per-GPU value")
    if curve.gpus <= 0:
        raise not_available(f"{curve.id} names no accelerators: it has no per-GPU value")
    skipped = tuple(p for p in curve.points if p.flag)
    usable = [p for p in curve.points if not p.flag]
    if not usable:
        raise not_available(f"{curve.id} has no usable point" + _skipped(skipped))
    by_x: dict[float, CurvePoint] = {}
    for p in usable:  # two points at one interactivity: the better one is the curve's
        if p.tps_per_user not in by_x or p.system_tps > by_x[p.tps_per_user].system_tps:
            by_x[p.tps_per_user] = p
    xs = sorted(by_x)
    low_x, high_x = xs[0], xs[-1]
    if not low_x <= target <= high_x:
        ends = f"r{by_x[low_x].concurrency} to r{by_x[high_x].concurrency}"
        raise not_available(
            f"{_num(target)} tokens/s per user is outside the measured range of {curve.id}: "
            f"{_num(low_x)} to {_num(high_x)} tokens/s per user ({ends}); no extrapolation" + _skipped(skipped)
        )
    if target in by_x:
        p = by_x[target]
        return AtInteractivity(p.system_tps / curve.gpus, p, p, skipped)
    x0 = max(x for x in xs if x < target)
    x1 = min(x for x in xs if x > target)
    p0, p1 = by_x[x0], by_x[x1]
    y0, y1 = p0.system_tps / curve.gpus, p1.system_tps / curve.gpus
    return AtInteractivity(y0 + (y1 - y0) * (target - x0) / (x1 - x0), p0, p1, skipped)


def per_gpu_at(table: Table, curve: str, tokens_per_sec_per_user: float) -> float:
    """CURVEAT: per-GPU tokens/s of a curve at a target tokens/s per user."""
    return at_interactivity(find_curve(table, curve), tokens_per_sec_per_user).value


def per_gpu_at_points(table: Table, curve: str, tokens_per_sec_per_user: float) -> str:
    """CURVEATPOINTS: CURVEAT's answer in words, with the points it was read from."""
    c = find_curve(table, curve)
    return at_interactivity(c, tokens_per_sec_per_user).text(c)


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
        ((p.tps_per_user, p.system_tps / c.gpus, c, p) for c in chosen for p in c.points if not p.flag),
        key=lambda t: (-t[0], -t[1]),
    )
    rows: list[list[object]] = [BEST_HEADER]
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


def _num(x: float) -> str:
    return f"{x:,.4g}" if abs(x) < 1e4 else f"{x:,.0f}"
