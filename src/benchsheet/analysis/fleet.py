"""A fleet: the GPUs and tokens/s that fit in a site's megawatts at a PUE (MWGPUS, MWTOKENS), tokens/s per
provisioned megawatt (TOKENSPERMW), and a mix of workloads per candidate family (FLEET).

Power per GPU is the user's input, or measured system power / GPUs where MLPerf measured it (KWPERGPU);
a design or TDP figure never comes from the data. IT power = facility power / PUE.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from benchsheet.analysis.best import best_row
from benchsheet.analysis.costs import check_price, check_rate, checked_rate, gpus_for
from benchsheet.analysis.entries import DEFAULT_GPUS_PER_NODE, ENTRY_ID, find_row, row_node_size
from benchsheet.analysis.pergpu import per_gpu_of
from benchsheet.analysis.selection import Filters
from benchsheet.analysis.slo import Bounds, ms_text, slo_best_row, strict_scenarios
from benchsheet.analysis.tco import HOURS_PER_YEAR, MONTHS_PER_YEAR, check_pue
from benchsheet.data.names import suggestion_only
from benchsheet.data.table import Row, Table
from benchsheet.errors import ALL_ERROR_CODES, ERROR_CODES, BenchError, bad_value, not_available, share_text
from excelcalc.textnum import text_number

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
    table: Table,
    megawatts: float,
    kw_per_gpu: float,
    pue: float,
    tokens_per_sec_per_gpu: float | str,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    units: str | None = None,
) -> float:
    """Tokens/s of the GPUs that fit in the power cap (MWGPUS x tokens/s per GPU); queries/s or samples/s
    where the rate is in those (read as COSTPERMTOK reads it, ``checked_rate``)."""
    rate, _ = checked_rate(table, tokens_per_sec_per_gpu, units)
    check_rate(rate, "tokens_per_sec_per_gpu")
    return mw_gpus(megawatts, kw_per_gpu, pue, gpus_per_node) * rate


def tokens_per_mw(
    table: Table, tokens_per_sec_per_gpu: float | str, kw_per_gpu: float, pue: float, units: str | None = None
) -> float:
    """Tokens/s per megawatt of facility power: tokens/s per GPU x 1000 / (kW per GPU x PUE); per second of
    queries or samples where the rate is in those (read as COSTPERMTOK reads it, ``checked_rate``)."""
    rate, _ = checked_rate(table, tokens_per_sec_per_gpu, units)
    check_rate(rate, "tokens_per_sec_per_gpu")
    return rate * KW_PER_MW * _gpus_per_kw(kw_per_gpu, pue)


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


def _read(value: object) -> object:
    """A cell's value as FLEET reads it: text Excel reads as a number ("50%", "1,000") is that number."""
    if isinstance(value, str) and type(value) is str:
        number = text_number(value)
        return value if number is None else number
    return value


def _error_code(value: object) -> str | None:
    """The error code a cell holds (#N/A, #VALUE!...), or None: an error in an argument is FLEET's error."""
    if isinstance(value, str) and value.strip():
        code = value.split(maxsplit=1)[0]
        return code if code in ALL_ERROR_CODES else None
    return None


def _refuse_errors(cells: Cells | None, name: str) -> None:
    for i, v in enumerate((v for row in cells or () for v in row), 1):
        code = _error_code(v)
        if code is not None:
            said = code if code in ERROR_CODES else "#VALUE!"
            raise BenchError(said, f"{name} row {i} is {code}: correct that cell first")


def _column(cells: Cells, name: str, count: int) -> list[object]:
    """A range's values row by row: one per workload, or one cell for all."""
    values = [v for row in cells for v in row]
    if len(values) == 1:
        return values * count
    if len(values) != count:
        raise bad_value(f"{name} must be one cell or one per benchmark ({count}), not {len(values)}")
    return values


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


Workload = tuple[str, str, float, tuple[float, float] | None]
"""(benchmark, scenario, target/s, (TTFT ms, TPOT ms) or None): a scenario may be blank beside a latency target."""


def _latency(i: int, ttft: object, tpot: object) -> tuple[float, float] | None:
    """Row ``i``'s (TTFT, TPOT) target, or None where it gives neither."""
    if _blank(ttft) and _blank(tpot):
        return None
    if _blank(ttft) or _blank(tpot):
        given = "TTFT" if _blank(tpot) else "TPOT"
        raise bad_value(f"row {i} gives a {given} target without a {'TPOT' if given == 'TTFT' else 'TTFT'} target")
    for name, v in (("ttft_ms", ttft), ("tpot_ms", tpot)):
        if not _is_number(v) or float(v) <= 0:  # type: ignore[arg-type]
            raise bad_value(f"{name} row {i} must be a number > 0 (ms), not {v!r:.40}")
    return float(ttft), float(tpot)  # type: ignore[arg-type]


def _shared(targets: Cells, shares: Cells, count: int) -> list[object]:
    """Each workload's target: the total target x its share; shares of workloads named add up to 100%."""
    total = _column(targets, "targets", 1)[0] if len([v for row in targets for v in row]) == 1 else None
    if total is None:
        raise bad_value("targets must be one cell, the total target/s, when shares are given")
    values = [_read(v) for row in shares for v in row]
    total = _read(total)
    if len(values) != count:
        raise bad_value(f"shares must be one per benchmark ({count}), not {len(values)}")
    if not _is_number(total) or float(total) < 0:  # type: ignore[arg-type]
        raise bad_value(f"targets row 1 must be a number >= 0 (tokens/s), not {total!r:.40}")
    return [v if _blank(v) else v * total if _is_number(v) else v for v in values]  # type: ignore[operator]


def _check_shares(benchmarks: list[object], shares: Cells) -> None:
    values = [_read(v) for row in shares for v in row]
    named = [(i, v) for i, (b, v) in enumerate(zip(benchmarks, values, strict=True), 1) if not _blank(b)]
    added = 0.0
    for i, v in named:
        if not (isinstance(v, int | float) and _is_number(v) and 0 <= v <= 1):
            raise bad_value(f"shares row {i} must be a share from 0 to 100%, not {v!r:.40}")
        added += v
    if named and abs(added - 1) > 1e-6:
        added_text = share_text(added)
        raise bad_value(f"shares add up to {added_text}, not 100%: give each workload's share of the total target")


def _workloads(
    benchmarks: Cells,
    scenarios: Cells,
    targets: Cells,
    shares: Cells | None = None,
    ttft_ms: Cells | None = None,
    tpot_ms: Cells | None = None,
) -> list[Workload]:
    """(benchmark, scenario, target, latency target) per benchmark cell; a blank benchmark cell is no workload."""
    benches = [v for row in benchmarks for v in row]
    scens = _column(scenarios, "scenarios", len(benches))
    for cells, name in ((benchmarks, "benchmarks"), (scenarios, "scenarios"), (targets, "targets"), (shares, "shares")):
        _refuse_errors(cells, name)
    for cells, name in ((ttft_ms, "ttft_ms"), (tpot_ms, "tpot_ms")):
        _refuse_errors(cells, name)
    if shares is None:
        rates = [_read(v) for v in _column(targets, "targets", len(benches))]
    else:
        rates = _shared(targets, shares, len(benches))
        _check_shares(benches, shares)
    blank: Cells = [[None]]
    ttfts = _column(ttft_ms or blank, "ttft_ms", len(benches))
    tpots = _column(tpot_ms or blank, "tpot_ms", len(benches))
    out: list[Workload] = []
    for i, (bench, scen, target, ttft, tpot) in enumerate(zip(benches, scens, rates, ttfts, tpots, strict=True), 1):
        if _blank(bench):
            continue
        latency = _latency(i, ttft, tpot)
        if latency is not None and _blank(scen):
            scen = ""
        if not (isinstance(bench, str) and isinstance(scen, str)) or (latency is None and not scen.strip()):
            raise bad_value(f"benchmarks and scenarios row {i} must be text")
        if not _is_number(target) or float(target) < 0:  # type: ignore[arg-type]
            raise bad_value(f"targets row {i} must be a number >= 0 (tokens/s), not {target!r:.40}")
        out.append((bench.strip(), scen.strip(), float(target), latency))  # type: ignore[arg-type]
    if not out:
        raise bad_value("benchmarks names no workload: give a benchmark, scenario and target/s per row")
    return out


def _is_entry(table: Table, candidate: str) -> bool:
    return bool(ENTRY_ID.fullmatch(candidate.strip()) or table.entry_rows(candidate))


def _row_of(table: Table, candidate: str, bench: str, scen: str, filters: Filters) -> tuple[float, Row]:
    """A family's best row (BEST) or an entry ID's own row, for a workload in one scenario."""
    if _is_entry(table, candidate):
        row = find_row(table, candidate, bench, scen)
        return per_gpu_of(row), row
    return best_row(table, candidate, bench, scen, filters)


def _best(table: Table, bounds: Bounds, candidate: str, work: Workload, filters: Filters) -> tuple[float, Row]:
    """The candidate's row for the workload (a family's BEST, an entry ID's own): in its scenario, or, with a
    latency target, among the scenarios strict enough for it (SLOBEST's choice), the scenario typed beside it
    one of them."""
    bench, scen, _, latency = work
    if latency is None:
        return _row_of(table, candidate, bench, scen, filters)
    strict = [s for s, _, _ in strict_scenarios(table, bounds, bench, *latency)]
    if scen:
        if scen.lower() not in {s.lower() for s in strict}:
            raise not_available(
                f"{table.spelled(bench, scen)}'s latency bounds are looser than your target "
                f"(TTFT {ms_text(latency[0])}, TPOT {ms_text(latency[1])}); as strict: {', '.join(strict)}"
            )
        return _row_of(table, candidate, bench, scen, filters)
    if not _is_entry(table, candidate):
        return slo_best_row(table, bounds, candidate, bench, *latency, filters)
    found: list[tuple[float, Row]] = []
    refused: list[BenchError] = []
    for s in strict:
        try:
            found.append(_row_of(table, candidate, bench, s, filters))
        except BenchError as err:
            refused.append(err)
    if not found:
        raise refused[0]
    return max(found, key=lambda p: p[0])


def _candidates(cells: Cells) -> list[str]:
    """The candidates named (families or entry IDs); one the table does not know gets "none:" rows."""
    _refuse_errors(cells, "families")
    names = [v.strip() for row in cells for v in row if isinstance(v, str) and v.strip()]
    if not names:
        raise bad_value("families names no family: give family names, e.g. B200")
    return names


def _per_family(cells: Cells, families: Cells, name: str, count: int) -> list[object]:
    """One value per family named: one cell for all, one per family, or one per family cell (a sheet's column
    beside its candidates, whose blank family cells' values are left out)."""
    values = [v for row in cells for v in row]
    if len(values) == 1:
        return values * count
    slots = [v for row in families for v in row]
    if len(values) == len(slots) != count:
        values = [v for v, f in zip(values, slots, strict=True) if isinstance(f, str) and f.strip()]
    if len(values) != count:
        raise bad_value(f"{name} must be one cell or one per family ({count}), not {len(values)}")
    return values


def _prices(cells: Cells, families: Cells, count: int) -> list[float]:
    values = _per_family(cells, families, "prices", count)
    for v in values:
        if not _is_number(v):
            raise bad_value(f"price_per_gpu_hour must be a number >= 0, not {v!r:.40}")
        check_price(float(v), "price_per_gpu_hour")  # type: ignore[arg-type]
    return [float(v) for v in values]  # type: ignore[arg-type]


NodeSizes = int | Cells | None


def _node_cells(gpus_per_node: NodeSizes) -> Cells:
    """The node sizes as cells, each a whole number or blank (checked as a whole-number argument is)."""
    cells: Cells = [[gpus_per_node]] if gpus_per_node is None or isinstance(gpus_per_node, int) else gpus_per_node
    for v in (v for row in cells for v in row):
        if _blank(v):
            continue  # the MLPerf row's node size, or a blank slot's, left out with its family
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise bad_value(f"gpus_per_node must be a number, not {v!r:.40}")
        if not (math.isfinite(v) and v == int(v)):
            raise bad_value(f"gpus_per_node must be a whole number, not {v:.15g}")
        if v < 1:
            raise bad_value("gpus_per_node must be a whole number >= 1")
    return cells


def _nodes(cells: Cells, families: Cells, count: int) -> list[int | None]:
    """Each candidate's node size; None (blank): the node size of the MLPerf row each workload uses."""
    return [None if _blank(v) else int(v) for v in _per_family(cells, families, "gpus_per_node", count)]  # type: ignore[call-overload]


def _check_headroom(headroom: float) -> None:
    if not (math.isfinite(headroom) and 0 <= headroom <= 100):
        raise bad_value("headroom is extra capacity on top of the target, >= 0: type 20% as 0.2")


def fleet(
    table: Table,
    benchmarks: Cells,
    scenarios: Cells,
    targets: Cells,
    families: Cells,
    prices: Cells,
    utilization: float,
    gpus_per_node: NodeSizes,
    hours_per_month: float,
    filters: Filters,
    shares: Cells | None = None,
    ttft_ms: Cells | None = None,
    tpot_ms: Cells | None = None,
    headroom: float = 0.0,
    pool_nodes: bool = False,
    bounds: Bounds | None = None,
) -> list[list[object]]:
    """FLEET: per candidate (a family's best rows under the filters, or an entry ID's own), each workload's
    per-GPU rate, the GPUs it needs for its target plus ``headroom`` in whole nodes (GPUSNEEDED; the node size
    given, else the MLPerf system's), their monthly cost and $ per million (as bought: over the target's
    output); then the candidate's total and blended $ per million. With ``pool_nodes`` the workloads share
    nodes: each needs whole GPUs and the total is whole nodes of their sum. With ``shares``, ``targets`` is the
    total; a workload with a TTFT and TPOT target takes the best row among the scenarios whose bounds are at
    least as strict (SLOBEST), and shows that scenario. A candidate without a row, or unknown, gets "none:"
    rows with the reason."""
    filters = filters.check()
    node_cells = _node_cells(gpus_per_node)
    mix = _workloads(benchmarks, scenarios, targets, shares, ttft_ms, tpot_ms)
    names = _candidates(families)
    price_of = _prices(prices, families, len(names))
    check_rate(hours_per_month, "hours_per_month")
    _check_headroom(headroom)
    node_of = _nodes(node_cells, families, len(names))
    for node in node_of:
        gpus_for(0, 1, utilization, node or DEFAULT_GPUS_PER_NODE)  # the utilization, checked once
    out: list[list[object]] = [list(FLEET_HEADER)]
    for family, price, given_node in zip(names, price_of, node_of, strict=True):
        missing, units, sizes, monthly = 0, set(), set(), 0.0
        exact = 0.0  # pooled: the GPUs the workloads need together, before whole nodes
        for work in mix:
            bench, scen, target, _ = work
            try:
                rate, row = _best(table, bounds or {}, family, work, filters)
            except BenchError as err:
                missing += 1
                reason = suggestion_only(err.reason)
                out.append([family, bench, scen, target, "", "", f"none: {reason}", "", "", price, "", ""])
                continue
            node = given_node or row_node_size(row)
            sizes.add(node)
            wanted = target * (1 + headroom)
            n = gpus_for(wanted, rate, utilization, 1 if pool_nodes else node)
            exact += wanted / (rate * utilization)
            cost = n * price * hours_per_month
            per_m = cost * 1e6 / (target * 3600 * hours_per_month) if target else ""
            units.add(row.units)
            scen = scen or row.scenario  # a latency target chose it
            nodes: object = "" if pool_nodes else n // node
            out.append([family, bench, scen, target, rate, row.units, row.entry, n, nodes, price, cost, per_m])
            monthly += cost
        total = sum(w[2] for w in mix)
        if missing:
            note = f"incomplete: no row for {missing} of {len(mix)} workloads"
            out.append([family, "total", "", total, "", "", note, "", "", price, "", ""])
            continue
        workload_rows = out[-len(mix) :]
        gpus = sum(int(r[7]) for r in workload_rows)  # type: ignore[call-overload]
        node_total = sum(int(r[8]) for r in workload_rows) if not pool_nodes else 0  # type: ignore[call-overload]
        note = ""
        if pool_nodes:
            if len(sizes) > 1:
                note = f"pooled: the rows' nodes differ ({', '.join(map(str, sorted(sizes)))} GPUs): give gpus_per_node"
                out.append([family, "total", "", total, "", "", note, "", "", price, "", ""])
                continue
            node = sizes.pop()
            gpus = gpus_for(exact, 1.0, 1.0, node)
            node_total, monthly = gpus // node, gpus * price * hours_per_month
            note = f"pooled in nodes of {node}"
        blended: object = monthly * 1e6 / (total * 3600 * hours_per_month) if total else ""
        if len(units) > 1:
            blended, note = "", f"mixed units ({', '.join(sorted(units))}): no blended figure"
        out.append([family, "total", "", total, "", "", note, gpus, node_total, price, monthly, blended])
    return out
