"""Break-even: how much more a candidate's GPU-hour may cost than the baseline's for the same cost per
token, the ratio of their per-GPU throughputs (BREAKEVEN, BREAKEVENPRICE).

Each side is an entry ID, a family (its best row under the filters) or a measured number. By default
each family side answers from its own latest round, so the two rows may be of two rounds (what can be
compared now); round "same" asks for the latest round both sides have (RATIOS' default), and PAIRED
names the rows and rounds a BREAKEVEN pairs.

Given an ``interactivity`` (tokens/s per user), each side is an MLPerf Endpoints curve, a family's best
curve of the model at that interactivity (``curves.side_at``) or a number, and PAIRED names the measured
points each side was read from; RATIOS does the same on every model both sides have curves of. Without
one, a curve answers an error saying to give one: it has no single number.
"""

from __future__ import annotations

import math
from dataclasses import replace

from benchsheet.analysis import claims
from benchsheet.analysis.best import best_row
from benchsheet.analysis.costs import check_price
from benchsheet.analysis.curves import SideAt, side_at
from benchsheet.analysis.entries import ENTRY_ID, find_row, unknown_family
from benchsheet.analysis.pergpu import check_same_units, per_gpu_of
from benchsheet.analysis.selection import Filters, check_known, matching
from benchsheet.data.names import benchmark_key, family_key
from benchsheet.data.table import IdSource, Row, Table, round_sort_key
from benchsheet.errors import BenchError, bad_value, not_available

SAME = "same"
"""The round argument's value that pairs the latest round both sides have."""


def per_gpu_spec(
    table: Table, spec: str | float, benchmark: str, scenario: str, filters: Filters
) -> tuple[float, Row | None]:
    """Per-GPU throughput of an entry ID, a family's best row, or a number, with the row behind it."""
    if isinstance(spec, float | int):
        if not math.isfinite(spec) or spec <= 0:
            raise bad_value("a measured per-GPU throughput must be a number > 0")
        return float(spec), None
    if table.entry_rows(spec) or ENTRY_ID.fullmatch(spec.strip()):
        row = find_row(table, spec, benchmark, scenario)
        return per_gpu_of(row), row
    if family_key(spec) not in table.families:
        raise _curve_error(table, spec) or unknown_family(table, spec, "entry or family")
    value, row = best_row(table, spec, benchmark, scenario, filters)
    return value, row


def _curve_error(table: Table, spec: str, call: str = "") -> BenchError | None:
    """Why an Endpoints curve cannot be a side without an interactivity, and where to give one (``call``: the
    call so far, completed with one in the reason); None for anything else."""
    curve = table.curve(spec) if table.curves else None
    if curve is None:
        return None
    example = f', e.g. {call},"any",,,100)' if call else ""
    return not_available(
        f"{spec.strip()} is an MLPerf Endpoints curve: it has no single per-GPU number; give an interactivity "
        f"({curve.x_name}) as the last argument, after availability, max GPUs and round{example}; "
        "the scenario is then not used"
    )


def _side_rounds(table: Table, spec: str | float, benchmark: str, scenario: str, filters: Filters) -> set[str] | None:
    """The rounds a side can answer from under the filters: its entry's round, the rounds of a family's
    rows with a per-GPU value; None for a number (it has no round)."""
    if isinstance(spec, float | int):
        return None
    if table.entry_rows(spec) or ENTRY_ID.fullmatch(spec.strip()):
        row = find_row(table, spec, benchmark, scenario)
        return None if row.id_source == IdSource.LOCAL else {row.round}  # an own run is of no MLPerf round
    if family_key(spec) not in table.families:
        raise _curve_error(table, spec) or unknown_family(table, spec, "entry or family")
    return {r.round for r in matching(table, benchmark, scenario, spec, filters.check()) if r.gpus > 0}


def _same_round(
    table: Table, baseline: str | float, candidate: str | float, benchmark: str, scenario: str, filters: Filters
) -> Filters:
    """The filters with round "same" made the latest round both sides have (a number side has none)."""
    sides = {
        str(spec).strip(): rounds
        for spec in (baseline, candidate)
        if (rounds := _side_rounds(table, spec, benchmark, scenario, filters)) is not None
    }
    common = set.intersection(*sides.values()) if sides else set()
    if sides and not common:
        have = "; ".join(
            f"{name} in {', '.join(f'v{r}' for r in sorted(rounds, key=round_sort_key)) or 'no round'}"
            for name, rounds in sides.items()
        )
        raise not_available(f"No round where both sides have a {table.spelled(benchmark, scenario)} row: {have}")
    return replace(filters, round=max(common, key=round_sort_key) if common else None)


def _call(name: str, *args: str | float) -> str:
    """The start of a call with these arguments, as a reason shows it: 'BREAKEVEN("B200","B300"'."""
    return f"{name}(" + ",".join(f"{a:g}" if isinstance(a, float | int) else f'"{a.strip()}"' for a in args)


def pair(
    table: Table,
    baseline: str | float,
    candidate: str | float,
    benchmark: str,
    scenario: str,
    filters: Filters,
    call: str = "",
) -> tuple[float, Row | None, float, Row | None]:
    """Both sides of a break-even: (baseline per-GPU, its row, candidate per-GPU, its row); ``call``, the
    function's call so far, shown completed where a side is an Endpoints curve."""
    for spec in (baseline, candidate):  # a curve's reason first: its scenario may be RATIOS' "Endpoints"
        if isinstance(spec, str) and (err := _curve_error(table, spec, call)) is not None:
            raise err
    check_known(table, benchmark, scenario)  # even when both sides are numbers: a ratio is for a workload
    if filters.round is not None and filters.round.strip().lower() == SAME:
        filters = _same_round(table, baseline, candidate, benchmark, scenario, filters)
    base, base_row = per_gpu_spec(table, baseline, benchmark, scenario, filters)
    cand, cand_row = per_gpu_spec(table, candidate, benchmark, scenario, filters)
    if base_row is not None and cand_row is not None:
        check_same_units(base_row, cand_row)
    return base, base_row, cand, cand_row


def breakeven(
    table: Table,
    baseline: str | float,
    candidate: str | float,
    benchmark: str,
    scenario: str,
    filters: Filters,
    interactivity: float | None = None,
) -> float:
    call = _call("BREAKEVEN", baseline, candidate, benchmark, scenario)
    return _ratio(table, baseline, candidate, benchmark, scenario, filters, interactivity, call)


def _ratio(
    table: Table,
    baseline: str | float,
    candidate: str | float,
    benchmark: str,
    scenario: str,
    filters: Filters,
    interactivity: float | None,
    call: str,
) -> float:
    """BREAKEVEN's answer; ``call`` is the function's call so far, for a curve's reason (``pair``)."""
    if interactivity is not None:
        base_at, cand_at = pair_at(table, baseline, candidate, benchmark, filters, interactivity)
        return cand_at.value / base_at.value
    base, _, cand, _ = pair(table, baseline, candidate, benchmark, scenario, filters, call)
    return cand / base


def pair_at(
    table: Table, baseline: str | float, candidate: str | float, benchmark: str, filters: Filters, interactivity: float
) -> tuple[SideAt, SideAt]:
    """Both sides at an interactivity (the scenario is not used: an Endpoints curve has none)."""
    return (
        side_at(table, baseline, benchmark, interactivity, filters),
        side_at(table, candidate, benchmark, interactivity, filters),
    )


def paired(
    table: Table,
    baseline: str | float,
    candidate: str | float,
    benchmark: str,
    scenario: str,
    filters: Filters,
    interactivity: float | None = None,
) -> str:
    """PAIRED: the rows and rounds a BREAKEVEN with the same arguments divides, in words; at an
    interactivity, the curves and measured points each side was read from."""
    if interactivity is not None:
        base_at, cand_at = pair_at(table, baseline, candidate, benchmark, filters, interactivity)
        return (
            f"MLPerf Endpoints at {interactivity:,.4g} tokens/s per user: candidate {cand_at.text()} "
            f"over baseline {base_at.text()}"
        )
    call = _call("PAIRED", baseline, candidate, benchmark, scenario)
    _, base_row, _, cand_row = pair(table, baseline, candidate, benchmark, scenario, filters, call)

    def side(role: str, row: Row | None) -> str:
        if row is None:
            return f"{role}: the number given"
        if row.id_source == IdSource.LOCAL:
            return f"{role} {row.entry} (your own run, {row.gpus} GPUs)"
        return f"{role} {row.entry} (v{row.round}, {row.availability}, {row.gpus} GPUs)"

    own = [r is not None and r.id_source == IdSource.LOCAL for r in (cand_row, base_row)]
    if all(own):
        head = "your own runs, not MLPerf results"
    elif any(own):
        head = "your own run against " + ("an MLPerf result" if None not in (cand_row, base_row) else "a number")
    elif cand_row is not None and base_row is not None:
        c, b = cand_row.round, base_row.round
        head = f"same round (v{c})" if c == b else f"across rounds: v{c} over v{b}"
    else:
        head = "one side is a number"
    return f"{head}: {side('candidate', cand_row)} over {side('baseline', base_row)}"


def breakeven_price(
    table: Table,
    baseline_price: float,
    baseline: str | float,
    candidate: str | float,
    benchmark: str,
    scenario: str,
    filters: Filters,
    interactivity: float | None = None,
) -> float:
    check_price(baseline_price, "baseline_price")
    call = _call("BREAKEVENPRICE", baseline_price, baseline, candidate, benchmark, scenario)
    return baseline_price * _ratio(table, baseline, candidate, benchmark, scenario, filters, interactivity, call)


def ratios(
    table: Table,
    candidate: str,
    baseline: str,
    filters: Filters,
    same_gpus: bool = False,
    across_rounds: bool = False,
    interactivity: float | None = None,
) -> list[list[claims.Cell]]:
    """RATIOS: ``claims.ratios`` without an interactivity; with one, candidate over baseline per-GPU tokens/s
    read off their Endpoints curves at it, on every model both have a value, highest first, in RATIOS'
    columns: the scenario says "Endpoints", the entries are curves, the rounds are blank and the last
    column names the measured points each side was read from."""
    if interactivity is None:
        for spec in (candidate, baseline):
            if (err := _curve_error(table, spec)) is not None:
                raise err
        return claims.ratios(table, candidate, baseline, filters, same_gpus, across_rounds)
    models: dict[str, str] = {}
    for c in table.curves:
        models.setdefault(benchmark_key(c.model), c.model)
    best: dict[str, tuple[float, SideAt, SideAt]] = {}
    why: list[str] = []
    for key, model in models.items():
        sizes: list[int | None] = [None]
        if same_gpus:
            sizes = [*sorted({c.gpus for c in table.curves if benchmark_key(c.model) == key})]
        for n in sizes:
            try:
                c_at = side_at(table, candidate, model, interactivity, filters, n)
                b_at = side_at(table, baseline, model, interactivity, filters, n)
            except BenchError as exc:
                if exc.code == "#VALUE!":
                    raise
                why.append(exc.reason)
                continue
            ratio = c_at.value / b_at.value
            if model not in best or ratio > best[model][0]:
                best[model] = (ratio, c_at, b_at)
    if not best:
        raise not_available(
            f"No model where both {candidate.strip()} and {baseline.strip()} have a value at "
            f"{interactivity:,.4g} tokens/s per user"
            + (" and the same GPU count" if same_gpus else "")
            + (f": {why[0]}" if why else ": no MLPerf Endpoints curves are loaded")
        )
    out: list[list[claims.Cell]] = [list(claims.RATIOS_HEADER)]
    for model, (ratio, c_at, b_at) in sorted(best.items(), key=lambda t: (-t[1][0], t[0])):
        cc, bc = c_at.curve, b_at.curve
        out.append(
            [
                model,
                "Endpoints",
                ratio,
                cc.id if cc else "",
                bc.id if bc else "",
                c_at.value,
                b_at.value,
                cc.gpus if cc else "",
                bc.gpus if bc else "",
                cc.availability if cc else "",
                bc.availability if bc else "",
                "",
                "",
                f"at {interactivity:,.4g} tokens/s per user: candidate {c_at.text()}; baseline {b_at.text()}",
            ]
        )
    return out
