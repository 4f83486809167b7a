"""Money and sizing from a per-GPU rate: cost per million tokens and GPUs to buy.

Plain arithmetic: each input is checked (a price >= 0, a rate > 0, a utilization in (0, 1]) and an
answer too large to be a number is ``#NUM!`` with its reason. The rate is either named, an entry ID or a
family with its workload in ``units`` ("stable-diffusion-xl Server"): the row's per-GPU value (a family's
best, as BEST answers it), in the row's unit, so the unit is known; or a bare number (Excel passes no unit
from BEST to COSTPERMTOK), whose unit is ``units`` (a unit, or the workload the rate was looked up for,
read from the table; a latency is refused), any rate per million of its items. Left out, the number itself
is looked up: a rate that is exactly a per-GPU value the table answers in queries or samples (PERGPU or
BEST of a row, MEDIANPERGPU of a workload's rows) is refused with the reason; any other bare number is
assumed to be tokens/s (ROUND(BEST(...)) or BEST(...)*0.5 of a queries/s workload cannot be told from one:
name the row instead). Given, ``units`` naming another workload (or unit) than the one such a per-GPU value
is from is refused too (issue 42 item 5). ``checked_rate`` is that reading, for every function that takes a
per-GPU rate: COSTPERMTOK, GPUSNEEDED, APIUTILIZATION (tokens/s only), MWTOKENS, TOKENSPERMW.
"""

from __future__ import annotations

import math

from benchsheet.analysis.best import best_row
from benchsheet.analysis.entries import DEFAULT_GPUS_PER_NODE, ENTRY_ID, find_row
from benchsheet.analysis.pergpu import per_gpu_of, per_gpu_value
from benchsheet.analysis.selection import Filters
from benchsheet.data.names import THROUGHPUT_UNITS, canonical_scenario
from benchsheet.data.table import Row, Table, round_sort_key
from benchsheet.errors import BenchError, bad_value, too_large

LATENCY_UNITS = ("Latency (ms)", "Latency (s)")


Workload = tuple[str, str]
"""A benchmark and scenario as the rows spell them: ("stable-diffusion-xl", "Offline")."""


def checked_rate(table: Table, rate: float | str, units: str | None, tokens_only: str = "") -> tuple[float, str]:
    """A per-GPU rate and its unit: a named row's (``named_rate``), or a bare number's (``rate_unit``).
    ``tokens_only`` is why only tokens/s will do (an API's price per million tokens): any other unit is
    refused with it."""
    value, unit = named_rate(table, rate, units)
    unit = unit or rate_unit(table, units, value, tokens_only)
    if tokens_only and unit != "Tokens/s":
        raise bad_value(f"the rate is in {unit}, not tokens/s: {tokens_only}")
    return value, unit


def rate_unit(table: Table, units: str | None, rate: float | None = None, tokens_only: str = "") -> str:
    """The unit of a per-GPU rate: a rate unit as typed, or the units of a workload ("stable-diffusion-xl
    Server": its latest round's rows); a latency is refused. Left out, "Tokens/s", unless ``rate`` is a
    per-GPU value the table gives in another unit only: then refused, naming the unit and where it is from.
    A rate that is a per-GPU value of other workloads only than the one ``units`` names is refused too."""
    origins = _table_rates(table).get(rate, {}) if rate is not None else {}
    where = _where(table, rate, origins) if origins else ""
    if units is None:
        if origins and all(unit != "Tokens/s" for unit, _ in origins.values()):
            unit = next(iter(origins.values()))[0]
            if tokens_only:
                raise bad_value(f"{where}, in {unit}, not tokens/s: {tokens_only}")
            raise bad_value(
                f"{where}, in {unit}, not tokens/s: give units {unit!r} (or the workload) for an answer in "
                f"{unit.split('/')[0].lower()}, or type the rate in tokens/s"
            )
        return "Tokens/s"
    unit, workload = _unit(table, units)
    if origins and workload is not None and workload not in origins:
        theirs = " or ".join(repr(table.spelled(*w)) for w in sorted(origins))
        raise bad_value(
            f"{where}; units {units.strip()[:60]!r} names another workload: give units {theirs}, or, for "
            f"{table.spelled(*workload)}, its row (a family or entry ID) in place of the number"
        )
    if origins and all(theirs != unit for theirs, _ in origins.values()):  # a unit of another workload's rows
        raise bad_value(f"{where}, in {next(iter(origins.values()))[0]}; units {units.strip()[:60]!r} says {unit}")
    return unit


def _where(table: Table, rate: float | None, origins: dict[Workload, tuple[str, str]]) -> str:
    """ "4.07114 is the per-GPU value of 5.1-0060 stable-diffusion-xl Offline" (a row's before a median's)."""
    (bench, scen), (_, entry) = min(origins.items(), key=lambda item: (not item[1][1], item[0]))
    what = f"the per-GPU value of {entry}" if entry else "a median per-GPU value of"
    return f"{rate:.6g} is {what} {table.spelled(bench, scen)}"


def _unit(table: Table, units: str) -> tuple[str, Workload | None]:
    """The rate unit ``units`` names: a unit as typed, or a workload's (its latest round's rows), with that
    workload as the rows spell it."""
    text = units.strip()
    known = {u.lower(): u for u in (*sorted(THROUGHPUT_UNITS), *LATENCY_UNITS)}
    unit = known.get(text.lower()) or known.get(text.lower() + "/s")
    if unit is None:
        bench, scen, rows = _workload(table, text)
        if not rows:
            raise bad_value(
                f"units {text[:40]!r} is neither a rate ({', '.join(sorted(THROUGHPUT_UNITS))}) nor a workload "
                'of the table, e.g. "stable-diffusion-xl Server"'
            )
        latest = max(rows, key=lambda r: round_sort_key(r.round)).round
        found = sorted({r.units for r in rows if r.round == latest})
        if len(found) > 1:
            raise bad_value(f"units: {table.spelled(bench, scen)} has rows in {' and '.join(found)}: name the unit")
        if found[0] not in THROUGHPUT_UNITS:
            raise bad_value(f"units: {table.spelled(bench, scen)} is a latency in {found[0]}, not a rate")
        return found[0], (rows[0].benchmark, rows[0].scenario)
    if unit not in THROUGHPUT_UNITS:
        raise bad_value(f"units {unit} is a latency, not a rate: it has no cost per million and sizes no GPUs")
    return unit, None


def workload_of(table: Table, units: str | None) -> Workload | None:
    """The workload ``units`` names, as the rows spell it; None for a unit, or for nothing given."""
    if units is None:
        return None
    _, _, rows = _workload(table, units)
    return (rows[0].benchmark, rows[0].scenario) if rows else None


def _workload(table: Table, text: str) -> tuple[str, str, list[Row]]:
    """``"stable-diffusion-xl Server"`` as its benchmark, scenario and official rows (none: no such workload)."""
    bench, _, scen = text.strip().rpartition(" ")
    if not bench or canonical_scenario(scen) is None:
        return bench, scen, []
    return bench, scen, [r for r in table.bench_rows(bench, scen) if r.id_source != "local"]


def named_rate(table: Table, rate: float | str, units: str | None) -> tuple[float, str | None]:
    """The per-GPU rate and its unit: an entry ID's or a family's (its best row, as BEST) of the workload
    ``units`` names, in that row's unit; or a bare number, whose unit is ``units`` (None: the caller's)."""
    if not isinstance(rate, str):
        return rate, None
    if units is None or not _workload(table, units)[2]:
        raise bad_value(
            f"tokens_per_sec_per_gpu names a row ({rate.strip()[:40]}): give its workload as units, e.g. "
            '"stable-diffusion-xl Server", so that the row and its unit are known'
        )
    bench, scen, _ = _workload(table, units)
    if table.entry_rows(rate) or ENTRY_ID.fullmatch(rate.strip()):
        row = find_row(table, rate, bench, scen)
        value = per_gpu_of(row)
    else:
        value, row = best_row(table, rate, bench, scen, Filters())
    if row.units not in THROUGHPUT_UNITS:
        raise bad_value(f"units: {table.spelled(bench, scen)} is a latency in {row.units}, not a rate")
    return value, row.units


_RATES: list[tuple[Table, dict[float, dict[Workload, tuple[str, str]]]]] = []
"""The last table's per-GPU values and where each is from (``_table_rates``), built once per table."""


def _table_rates(table: Table) -> dict[float, dict[Workload, tuple[str, str]]]:
    """Every per-GPU value the table answers (a row's, or a median of a workload's rows: one value or the
    mean of two) -> the workloads it is a value of -> (their unit, the row's entry; "" for a median)."""
    if _RATES and _RATES[0][0] is table:
        return _RATES[0][1]
    groups: dict[tuple[str, str, str], list[tuple[float, Row]]] = {}
    for row in table.rows:
        value = per_gpu_value(row)
        if value is not None:
            groups.setdefault((row.benchmark, row.scenario, row.units), []).append((value, row))
    found: dict[float, dict[Workload, tuple[str, str]]] = {}
    for (bench, scen, unit), pairs in groups.items():
        values = sorted({v for v, _ in pairs})
        for a_i, a in enumerate(values):  # a median of an even count is the mean of two values
            for b in values[a_i + 1 :]:
                found.setdefault((a + b) / 2, {}).setdefault((bench, scen), (unit, ""))
        for value, row in pairs:
            found.setdefault(value, {})[(bench, scen)] = (unit, row.entry)
    _RATES[:] = [(table, found)]
    return found


def check_price(price: float, name: str) -> None:
    """A price (or a target) is a number >= 0; the error names the argument."""
    if not math.isfinite(price) or price < 0:
        raise bad_value(f"{name} must be a number >= 0")


def check_rate(rate: float, name: str) -> None:
    if not math.isfinite(rate) or rate <= 0:
        raise bad_value(f"{name} must be a number > 0")


def check_utilization(u: float) -> None:
    if not (math.isfinite(u) and 0 < u <= 1):
        raise bad_value("utilization must be > 0 and <= 1")


def cost_per_mtok(
    table: Table,
    price_per_gpu_hour: float,
    tokens_per_sec_per_gpu: float | str,
    utilization: float = 1.0,
    units: str | None = None,
) -> float:
    """Dollars per million tokens: price x 1e6 / (tokens/s x 3600 x utilization); per million queries or
    samples where ``units`` says the rate is one of those (the arithmetic is the same, the unit is not)."""
    rate, _ = checked_rate(table, tokens_per_sec_per_gpu, units)
    return per_million(price_per_gpu_hour, rate, utilization)


def per_million(price_per_gpu_hour: float, rate_per_gpu: float, utilization: float = 1.0) -> float:
    """COSTPERMTOK's arithmetic, its inputs checked: $ per million of the rate's unit."""
    check_price(price_per_gpu_hour, "price_per_gpu_hour")
    check_rate(rate_per_gpu, "tokens_per_sec_per_gpu")
    check_utilization(utilization)
    served = _served(rate_per_gpu * 3600 * utilization)
    cost = price_per_gpu_hour * 1e6 / served
    if not math.isfinite(cost):  # never "$inf" in a reason that quotes it (APIUTILIZATION)
        raise too_large()
    return cost


def _served(rate: float) -> float:
    """A rate to divide by: two tiny positive inputs multiply to 0.0 in floating point (1e-22 x 1e-308)."""
    if rate <= 0:
        raise too_large()
    return rate


def gpus_needed(
    table: Table,
    target_tokens_per_sec: float,
    tokens_per_sec_per_gpu: float | str,
    utilization: float = 1.0,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    units: str | None = None,
) -> int:
    """GPUs to buy for a target rate, rounded up to whole nodes (target and per-GPU rate in ``units``)."""
    rate, _ = checked_rate(table, tokens_per_sec_per_gpu, units)
    return gpus_for(target_tokens_per_sec, rate, utilization, gpus_per_node)


def gpus_for(
    target_tokens_per_sec: float,
    tokens_per_sec_per_gpu: float,
    utilization: float = 1.0,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
) -> int:
    """GPUSNEEDED's arithmetic, its inputs checked: whole nodes of GPUs for a target at a per-GPU rate."""
    check_price(target_tokens_per_sec, "target_tokens_per_sec")
    check_rate(tokens_per_sec_per_gpu, "tokens_per_sec_per_gpu")
    check_utilization(utilization)
    if gpus_per_node < 1:
        raise bad_value("gpus_per_node must be a whole number >= 1")
    raw = target_tokens_per_sec / _served(tokens_per_sec_per_gpu * utilization)
    too_large = BenchError("#NUM!", "the answer is too large to be a number of GPUs; check the inputs' units")
    if not math.isfinite(raw) or raw > 1e15:
        raise too_large
    # a hair of tolerance so that 16.000000000000004 GPUs is 16, not 17; a positive target needs one GPU
    gpus_exact = max(math.ceil(raw - 1e-9), 1 if target_tokens_per_sec > 0 else 0)
    gpus = math.ceil(gpus_exact / gpus_per_node) * gpus_per_node
    if gpus > 1e15:  # one node of 1E300 GPUs: the same guard, never a 301-digit integer in a cell
        raise too_large
    return gpus
