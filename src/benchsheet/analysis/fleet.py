"""A fleet: the GPUs and tokens/s that fit in a site's megawatts at a PUE (MWGPUS, MWTOKENS), tokens/s per
provisioned megawatt (TOKENSPERMW), and a mix of workloads per candidate family (FLEET).

Power per GPU is the user's input, or measured system power / GPUs where MLPerf measured it (KWPERGPU);
a design or TDP figure never comes from the data. IT power = facility power / PUE.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from benchsheet.analysis.best import best_row
from benchsheet.analysis.costs import DEFAULT_GPUS_PER_NODE, check_price, check_rate, gpus_for
from benchsheet.analysis.entries import unknown_family
from benchsheet.analysis.selection import Filters
from benchsheet.analysis.tco import HOURS_PER_YEAR, MONTHS_PER_YEAR, check_pue
from benchsheet.data.names import family_key
from benchsheet.data.table import Table
from benchsheet.errors import BenchError, bad_value

KW_PER_MW = 1000


def _gpus_per_kw(kw_per_gpu: float, pue: float) -> float:
    """GPUs per kW of facility power: 1 / (kW per GPU x PUE)."""
    check_rate(kw_per_gpu, "kw_per_gpu")
    check_pue(pue)
    return 1 / (kw_per_gpu * pue)


def mw_gpus(megawatts: float, kw_per_gpu: float, pue: float, gpus_per_node: int = DEFAULT_GPUS_PER_NODE) -> int:
    """Whole nodes' GPUs that fit in ``megawatts`` of facility power: MW x 1000 / (kW per GPU x PUE), rounded
    down to whole nodes."""
    check_price(megawatts, "megawatts")
    per_kw = _gpus_per_kw(kw_per_gpu, pue)
    if gpus_per_node < 1:
        raise bad_value("gpus_per_node must be a whole number >= 1")
    raw = megawatts * KW_PER_MW * per_kw
    if not math.isfinite(raw) or raw > 1e15:
        raise BenchError("#NUM!", "the answer is too large to be a number of GPUs; check the inputs' units")
    # a hair of tolerance so that 799.9999999999999 GPUs is 800, as in GPUSNEEDED
    return math.floor((raw + 1e-9) / gpus_per_node) * gpus_per_node


def mw_tokens(
    megawatts: float,
    kw_per_gpu: float,
    pue: float,
    tokens_per_sec_per_gpu: float,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
) -> float:
    """Tokens/s of the GPUs that fit in the power cap (MWGPUS x tokens/s per GPU)."""
    check_rate(tokens_per_sec_per_gpu, "tokens_per_sec_per_gpu")
    return mw_gpus(megawatts, kw_per_gpu, pue, gpus_per_node) * tokens_per_sec_per_gpu


def tokens_per_mw(tokens_per_sec_per_gpu: float, kw_per_gpu: float, pue: float) -> float:
    """Tokens/s per megawatt of facility power: tokens/s per GPU x 1000 / (kW per GPU x PUE)."""
    check_rate(tokens_per_sec_per_gpu, "tokens_per_sec_per_gpu")
    return tokens_per_sec_per_gpu * KW_PER_MW * _gpus_per_kw(kw_per_gpu, pue)


# ------------------------------------------------------------------ a mix of workloads

FLEET_HEADER = (
    "family",
    "benchmark",
    "scenario",
    "target/s",
    "per-GPU/s",
    "units",
    "entry",
    "GPUs",
    "nodes",
    "$/GPU-hour",
    "monthly $",
    "$/M units",
)
HOURS_PER_MONTH = HOURS_PER_YEAR / MONTHS_PER_YEAR
"""730: a year's hours over its months, where a sheet leaves hours per month out."""
Cells = Sequence[Sequence[object]]  # a range as rows of cells


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _column(cells: Cells, name: str, count: int) -> list[object]:
    """A range's values row by row: one per workload, or one cell for all."""
    values = [v for row in cells for v in row]
    if len(values) == 1:
        return values * count
    if len(values) != count:
        raise bad_value(f"{name} must be one cell or one per benchmark ({count}), not {len(values)}")
    return values


def _workloads(benchmarks: Cells, scenarios: Cells, targets: Cells) -> list[tuple[str, str, float]]:
    """(benchmark, scenario, target) per benchmark cell; a blank benchmark cell is no workload."""
    benches = [v for row in benchmarks for v in row]
    scens, rates = _column(scenarios, "scenarios", len(benches)), _column(targets, "targets", len(benches))
    out = []
    for i, (bench, scen, target) in enumerate(zip(benches, scens, rates, strict=True), 1):
        if bench is None or (isinstance(bench, str) and not bench.strip()):
            continue
        if not (isinstance(bench, str) and isinstance(scen, str)):
            raise bad_value(f"benchmarks and scenarios row {i} must be text")
        if not _is_number(target) or float(target) < 0:  # type: ignore[arg-type]
            raise bad_value(f"targets row {i} must be a number >= 0 (tokens/s), not {target!r:.40}")
        out.append((bench.strip(), scen.strip(), float(target)))  # type: ignore[arg-type]
    if not out:
        raise bad_value("benchmarks names no workload: give a benchmark, scenario and target/s per row")
    return out


def _families(table: Table, cells: Cells) -> list[str]:
    names = [v.strip() for row in cells for v in row if isinstance(v, str) and v.strip()]
    if not names:
        raise bad_value("families names no family: give family names, e.g. B200")
    for name in names:
        if family_key(name) not in table.families:
            raise unknown_family(table, name)
    return names


def _prices(cells: Cells, count: int) -> list[float]:
    values = [v for row in cells for v in row]
    if len(values) == 1:
        values *= count
    if len(values) != count:
        raise bad_value(f"prices must be one cell or one per family ({count}), not {len(values)}")
    for v in values:
        if not _is_number(v):
            raise bad_value(f"price_per_gpu_hour must be a number >= 0, not {v!r:.40}")
        check_price(float(v), "price_per_gpu_hour")  # type: ignore[arg-type]
    return [float(v) for v in values]  # type: ignore[arg-type]


def fleet(
    table: Table,
    benchmarks: Cells,
    scenarios: Cells,
    targets: Cells,
    families: Cells,
    prices: Cells,
    utilization: float,
    gpus_per_node: int,
    hours_per_month: float,
    filters: Filters,
) -> list[list[object]]:
    """FLEET: per family, each workload's best per-GPU rate (BEST under the filters), the GPUs it needs in
    whole nodes (GPUSNEEDED), their monthly cost and $ per million; then the family's total and blended $
    per million (the month's cost over the month's output at the targets)."""
    mix = _workloads(benchmarks, scenarios, targets)
    names = _families(table, families)
    price_of = _prices(prices, len(names))
    check_rate(hours_per_month, "hours_per_month")
    gpus_for(0, 1, utilization, gpus_per_node)  # the utilization and node size, checked once
    out: list[list[object]] = [list(FLEET_HEADER)]
    for family, price in zip(names, price_of, strict=True):
        missing, units, gpus, monthly = 0, set(), 0, 0.0
        for bench, scen, target in mix:
            try:
                rate, row = best_row(table, family, bench, scen, filters)
            except BenchError as err:
                missing += 1
                out.append([family, bench, scen, target, "", "", f"none: {err.reason}", "", "", price, "", ""])
                continue
            n = gpus_for(target, rate, utilization, gpus_per_node)
            cost = n * price * hours_per_month
            per_m = cost * 1e6 / (target * 3600 * hours_per_month) if target else ""
            units.add(row.units)
            out.append(
                [family, bench, scen, target, rate, row.units, row.entry, n, n // gpus_per_node, price, cost, per_m]
            )
            gpus, monthly = gpus + n, monthly + cost
        total = sum(t for _, _, t in mix)
        if missing:
            note = f"incomplete: no row for {missing} of {len(mix)} workloads"
            out.append([family, "total", "", total, "", "", note, "", "", price, "", ""])
            continue
        blended: object = monthly * 1e6 / (total * 3600 * hours_per_month) if total else ""
        note = ""
        if len(units) > 1:
            blended, note = "", f"mixed units ({', '.join(sorted(units))}): no blended figure"
        out.append([family, "total", "", total, "", "", note, gpus, gpus // gpus_per_node, price, monthly, blended])
    return out
