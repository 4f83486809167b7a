"""Claims, software gains and history: scans that start from a question, not from entry IDs.

Pure functions over a ``Table``, like the rest of ``benchsheet.analysis``: RATIOS finds where an
"up to Nx" comes from, GAINS pairs like-for-like systems across two rounds,
HISTORY follows one family's best and median per-GPU value round by round.
Every figure is a per-GPU value of an official row (``pergpu.per_gpu_value``);
two rows are only compared in the same units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from benchsheet.analysis.entries import ENTRY_ID, model_run, unknown_entry, unknown_family
from benchsheet.analysis.pergpu import per_gpu_value
from benchsheet.analysis.selection import Filters, check_known, filter_note, matching, normalize_round, refuse_latency
from benchsheet.data.names import family_key, same_submitter, scenario_key, submitter_key, unknown_name
from benchsheet.data.table import IdSource, Row, Table, round_sort_key
from benchsheet.errors import BenchError, bad_value, not_available, share_text

Cell = str | float | int

# ------------------------------------------------------------------ RATIOS

RATIOS_HEADER = (
    "benchmark",
    "scenario",
    "ratio",
    "candidate entry",
    "baseline entry",
    "candidate per-GPU",
    "baseline per-GPU",
    "candidate GPUs",
    "baseline GPUs",
    "candidate availability",
    "baseline availability",
    "candidate round",
    "baseline round",
    "rounds",
)


def _side(table: Table, spec: str, role: str) -> tuple[str, str]:
    """("entry", ID) or ("family", name) for a RATIOS argument."""
    rows = table.entry_rows(spec)
    if rows and rows[0].division == "open":  # an open row ran its own model: never a claim about the benchmark
        raise not_available(
            f"{rows[0].entry} is an open-division entry (model run: {model_run(rows[0])}): "
            "its rows are not the benchmarks' models, so no ratio"
        )
    if rows:
        return "entry", rows[0].entry
    if ENTRY_ID.fullmatch(spec.strip()):
        raise unknown_entry(table, spec)
    if family_key(spec) not in table.families:
        raise unknown_family(table, spec, "entry or family", role)
    return "family", table.families[family_key(spec)]


def _usable(table: Table, benchmark: str, scenario: str, family: str, filters: Filters) -> list[Row]:
    """A family's closed rows with a per-GPU value under the filters (every round, or the given one)."""
    rows = [r for r in matching(table, benchmark, scenario, family, filters) if per_gpu_value(r) is not None]
    if filters.round is not None:
        rnd = normalize_round(filters.round)
        rows = [r for r in rows if r.round == rnd]
    return rows


def _best(rows: Sequence[Row]) -> Row | None:
    """BEST's choice: the best per-GPU row of the latest round among ``rows``."""
    if not rows:
        return None
    latest = max((r.round for r in rows), key=round_sort_key)
    return min((r for r in rows if r.round == latest), key=lambda r: (-(per_gpu_value(r) or 0.0), r.entry))


def _workloads(table: Table) -> list[tuple[str, str]]:
    """Every (benchmark, scenario) with closed throughput rows that have a per-GPU value."""
    seen: dict[tuple[str, str], tuple[str, str]] = {}
    for r in table.rows:
        if r.division == "closed" and per_gpu_value(r) is not None:
            seen.setdefault((r.benchmark.lower(), scenario_key(r.scenario)), (r.benchmark, r.scenario))
    return sorted(seen.values())


def _side_rows(
    table: Table, side: tuple[str, str], benchmark: str, scenario: str, filters: Filters, gpus: int | None
) -> list[Row]:
    """The rows a RATIOS side may use for one workload: an entry's row, or a family's usable rows."""
    kind, name = side
    if kind == "entry":
        row = table.get(name, benchmark, scenario)
        rows = [row] if row is not None and per_gpu_value(row) is not None else []
    else:
        rows = _usable(table, benchmark, scenario, name, filters)
    return [r for r in rows if gpus is None or r.gpus == gpus]


def _pair(cands: list[Row], bases: list[Row], across: bool) -> tuple[Row, Row] | None:
    """Each side's row for one workload: of the latest round both have (BEST's choice within it), or with
    ``across`` each side's own latest round (so a v6.1 row may meet a v6.0 row)."""
    if not across:
        common = {r.round for r in cands} & {r.round for r in bases}
        if not common:
            return None
        latest = max(common, key=round_sort_key)
        cands, bases = [r for r in cands if r.round == latest], [r for r in bases if r.round == latest]
    c, b = _best(cands), _best(bases)
    return None if c is None or b is None or c.units != b.units else (c, b)


def rounds_note(c: Row, b: Row) -> str:
    """Which rounds a pair of rows comes from, in words."""
    return f"same round (v{c.round})" if c.round == b.round else f"across rounds: v{c.round} over v{b.round}"


def ratios(
    table: Table,
    candidate: str,
    baseline: str,
    filters: Filters,
    same_gpus: bool = False,
    across_rounds: bool = False,
) -> list[list[Cell]]:
    """Candidate per-GPU / baseline per-GPU on every benchmark and scenario where both have one, highest first.

    Each side is an entry's row or a family's best closed row under the filters,
    both of one round: the latest round where both sides have rows (BEST's choice
    within it). With ``across_rounds`` each side takes its own latest round, and the
    rounds column says where that pairs two rounds. With ``same_gpus`` a pair counts
    only where both rows have the same accelerator count; of the sizes both have,
    the one with the highest ratio is shown. Pairs in different units are left out.
    """
    filters = filters.check()
    cand, base = _side(table, candidate, "candidate"), _side(table, baseline, "baseline")
    across = across_rounds or (cand[0] == base[0] == "entry")  # two named entries are asked for as they are
    found: list[tuple[float, Row, Row]] = []
    for bench, scen in _workloads(table):
        cands = _side_rows(table, cand, bench, scen, filters, None)
        bases = _side_rows(table, base, bench, scen, filters, None)
        sizes = sorted({r.gpus for r in cands} & {r.gpus for r in bases}) if same_gpus else [None]
        pairs = []
        for n in sizes:
            pair = _pair(
                [r for r in cands if n is None or r.gpus == n], [r for r in bases if n is None or r.gpus == n], across
            )
            if pair is not None:
                c, b = pair
                pairs.append(((per_gpu_value(c) or 0.0) / (per_gpu_value(b) or 1.0), c, b))
        if pairs:
            found.append(max(pairs, key=lambda p: p[0]))
    if not found:
        raise not_available(
            f"No benchmark and scenario where both {candidate.strip()} and {baseline.strip()} have a closed "
            f"per-GPU value in the same units{filter_note(filters)}"
            + (" and the same GPU count" if same_gpus else "")
            + ("" if across else " in one round (across_rounds TRUE pairs different rounds)")
        )
    found.sort(key=lambda p: (-p[0], p[1].benchmark, p[1].scenario))
    out: list[list[Cell]] = [list(RATIOS_HEADER)]
    for ratio, c, b in found:
        out.append(
            [
                c.benchmark,
                c.scenario,
                ratio,
                c.entry,
                b.entry,
                per_gpu_value(c) or 0.0,
                per_gpu_value(b) or 0.0,
                c.gpus,
                b.gpus,
                c.availability,
                b.availability,
                c.round,
                b.round,
                rounds_note(c, b),
            ]
        )
    return out


# ------------------------------------------------------------------- GAINS

GAINS_HEADER = (
    "family",
    "submitter",
    "GPUs",
    "old entry",
    "new entry",
    "old per-GPU",
    "new per-GPU",
    "gain",
    "old software",
    "new software",
    "match",
    "old round",
    "new round",
    "benchmark",
    "scenario",
    "flag",
)
OUTLIER_GAIN = 3.0
"""A per-GPU gain above +300% (more than 4x) on the same hardware and GPU count is flagged as an outlier:
no other like-for-like pair of v5.1, v6.0 and v6.1 gains more than +193%; only v6.1's GB10 yolo pairs
(+4,401.5%, the same software string in both rounds) exceed it. GAINRANGE leaves outliers out unless asked."""
_STRENGTH = ("same platform", "same system", "same submitter, family and size only")


def _strength(old: Row, new: Row) -> int:
    """0: the same platform label; 1: the same system name; 2: only submitter, family and size."""
    if old.platform.strip().lower() == new.platform.strip().lower():
        return 0
    if old.system.strip().lower() == new.system.strip().lower():
        return 1
    return 2


def _check_family(table: Table, family: str | None) -> None:
    if family is not None and family_key(family) not in table.families:
        raise unknown_family(table, family)


def gains(
    table: Table,
    benchmark: str,
    scenario: str,
    old_round: str | None = None,
    new_round: str | None = None,
    family: str | None = None,
    availability: str = "available",
    include_resized: bool = False,
) -> list[list[Cell]]:
    """Like-for-like systems across two rounds, biggest gain first.

    A pair is one submitter (``names.same_submitter``: case ignored; a joint
    submission ``A_B`` counts as ``A`` where one of the names is absent from the
    other round), one accelerator family and one
    accelerator count, in the same units. Of several old rows for a new one, the
    strongest match wins (same platform, then same system name), then the
    stronger old row, so that a gain is never overstated. With ``include_resized``
    a new system with no partner of its size is paired with the submitter's
    nearest-sized old system of the family, listed after the rest and marked.
    """
    if benchmark.strip().lower() == ALL:
        return _gains_everywhere(table, old_round, new_round, family, availability, include_resized)
    filters = Filters(availability).check()
    check_known(table, benchmark, scenario)
    refuse_latency(table, benchmark, scenario)
    _check_family(table, family)
    rows = [r for r in matching(table, benchmark, scenario, family, filters) if per_gpu_value(r) is not None]
    have = sorted({r.round for r in rows}, key=round_sort_key)
    what = f"{family.strip() + ' ' if family else ''}{table.spelled(benchmark, scenario)}"
    if old_round is None and new_round is None and len(have) < 2:
        raise not_available(f"Closed {what} rows in {len(have)} round(s) only{filter_note(filters)}: no gain")
    new = normalize_round(new_round) if new_round is not None else (have[-1] if have else "")
    if old_round is not None:
        old = normalize_round(old_round)
    else:
        earlier = [r for r in have if round_sort_key(r) < round_sort_key(new)]
        if not earlier:
            raise not_available(f"No closed {what} rows in a round before {new}{filter_note(filters)}")
        old = earlier[-1]
    if round_sort_key(old) >= round_sort_key(new):
        raise bad_value(f"old_round ({old}) must be earlier than new_round ({new})")
    for rnd in (old, new):
        if rnd not in have:
            listed = ", ".join(have) or "none"
            raise not_available(
                f"No closed {what} rows in round {rnd}{filter_note(filters)} (rounds with rows: {listed})"
            )
    olds: dict[tuple[str, str], list[Row]] = {}
    for r in rows:
        if r.round == old:
            olds.setdefault((submitter_key(r.submitter), family_key(r.family)), []).append(r)
    same: list[tuple[float, Row, Row, str]] = []
    resized: list[tuple[float, Row, Row, str]] = []
    names = {rnd: {r.submitter.strip().casefold() for r in table.rows if r.round == rnd} for rnd in (old, new)}
    for n in (r for r in rows if r.round == new):
        partners = [
            o
            for o in olds.get((submitter_key(n.submitter), family_key(n.family)), [])
            if o.units == n.units and same_submitter(o.submitter, n.submitter, names[old], names[new])
        ]
        sized = [o for o in partners if o.gpus == n.gpus]
        if sized:
            o = min(sized, key=lambda o: (_strength(o, n), -(per_gpu_value(o) or 0.0), o.entry))
            same.append((_gain(o, n), o, n, _match(o, n, _STRENGTH[_strength(o, n)])))
        elif include_resized and partners:
            o = min(partners, key=lambda o: (abs(o.gpus - n.gpus), _strength(o, n), -(per_gpu_value(o) or 0.0)))
            label = f"resized: {o.gpus} -> {n.gpus} GPUs, not a software gain"
            resized.append((_gain(o, n), o, n, _match(o, n, label)))
    if not same and not resized:
        raise not_available(
            f"No like-for-like {what} systems in both {old} and {new} (same submitter, family and GPU count)"
            f"{filter_note(filters)}"
        )
    out: list[list[Cell]] = [list(GAINS_HEADER)]
    for group in (same, resized):
        group.sort(key=lambda p: (-p[0], p[2].entry))
        for gain, o, n, match in group:
            out.append(
                [
                    n.family,
                    n.submitter,
                    n.gpus,
                    o.entry,
                    n.entry,
                    per_gpu_value(o) or 0.0,
                    per_gpu_value(n) or 0.0,
                    gain,
                    o.software,
                    n.software,
                    match,
                    o.round,
                    n.round,
                    n.benchmark,
                    n.scenario,
                    _flag(gain),
                ]
            )
    return out


def _flag(gain: float) -> str:
    if gain <= OUTLIER_GAIN:
        return ""
    return f"outlier: {gain:+,.1%} per GPU on the same hardware, above {OUTLIER_GAIN:+.0%}: left out of GAINRANGE"


ALL = "all"
"""GAINS' benchmark that runs it across every workload of the round pair."""


_EVERYWHERE: dict[tuple[object, ...], tuple[Table, list[list[Cell]]]] = {}
"""The last answers of ``_gains_everywhere`` by table and arguments: a sheet asks for the same range
claim in every cell of its answer (GAINS of every workload, ten times over, was a third of a build)."""


def _gains_everywhere(
    table: Table,
    old_round: str | None,
    new_round: str | None,
    family: str | None,
    availability: str,
    include_resized: bool,
) -> list[list[Cell]]:
    """GAINS of every workload between two rounds (default: the two latest), one table, biggest gain first
    (resized pairs last). A copy of an answer kept for the same table and arguments."""
    key = (id(table), old_round, new_round, family, availability, include_resized)
    kept = _EVERYWHERE.get(key)
    if kept is None or kept[0] is not table:
        if len(_EVERYWHERE) >= 16:
            _EVERYWHERE.clear()
        kept = _EVERYWHERE[key] = (table, _gains_of_every_workload(table, *key[1:]))
    return [list(row) for row in kept[1]]


def _gains_of_every_workload(
    table: Table,
    old_round: str | None,
    new_round: str | None,
    family: str | None,
    availability: str,
    include_resized: bool,
) -> list[list[Cell]]:
    Filters(availability).check()
    _check_family(table, family)
    new = normalize_round(new_round) if new_round is not None else table.rounds[-1]
    earlier = [r for r in table.rounds if round_sort_key(r) < round_sort_key(new)]
    old = normalize_round(old_round) if old_round is not None else (earlier[-1] if earlier else new)
    found: list[list[Cell]] = []
    for bench, scen in _workloads(table):
        try:
            found += gains(table, bench, scen, old, new, family, availability, include_resized)[1:]
        except BenchError:
            continue  # a workload without pairs in these rounds
    if not found:
        raise not_available(
            f"No like-for-like {family.strip() + ' ' if family else ''}systems in both {old} and {new} "
            "(same submitter, family and GPU count) in any benchmark and scenario"
        )
    match = GAINS_HEADER.index("match")
    found.sort(key=lambda r: (str(r[match]).startswith("resized"), -float(r[GAINS_HEADER.index("gain")])))
    return [list(GAINS_HEADER), *found]


def _gain(old: Row, new: Row) -> float:
    return (per_gpu_value(new) or 0.0) / (per_gpu_value(old) or 1.0) - 1


def _match(old: Row, new: Row, label: str) -> str:
    if old.submitter != new.submitter:
        label += f" (submitter {old.submitter} in {old.round}, {new.submitter} in {new.round})"
    return label


# ----------------------------------------------------------------- HISTORY

HISTORY_HEADER = ("round", "best per-GPU", "entry", "GPUs", "median per-GPU", "rows", "units")


def history(table: Table, family: str, benchmark: str, scenario: str, filters: Filters) -> list[list[Cell]]:
    """One row per round with closed rows of the family, oldest first: best and median per-GPU, and how many rows.

    The units column shows each round's units: a benchmark relabelled between
    rounds (llama3.1-8b Interactive, Queries/s in v5.1) is not one scale.
    """
    import statistics  # here, as in best.median_per_gpu: only the medians need it

    filters = filters.check()
    check_known(table, benchmark, scenario)
    refuse_latency(table, benchmark, scenario)
    _check_family(table, family)
    rows = _usable(table, benchmark, scenario, family, filters)
    if not rows:
        raise not_available(
            f"No closed {family.strip()} {table.spelled(benchmark, scenario)} rows{filter_note(filters)}"
        )
    out: list[list[Cell]] = [list(HISTORY_HEADER)]
    for rnd in sorted({r.round for r in rows}, key=round_sort_key):
        in_round = [r for r in rows if r.round == rnd]
        best = _best(in_round)
        assert best is not None
        values = [per_gpu_value(r) or 0.0 for r in in_round]
        units = ", ".join(sorted({r.units for r in in_round}))
        out.append(
            [
                rnd,
                per_gpu_value(best) or 0.0,
                best.entry,
                best.gpus,
                float(statistics.median(values)),
                len(values),
                units,
            ]
        )
    return out


# ------------------------------------------------------------------ COUNTS

COUNTS_HEADER = ("division", "submitters", "entry IDs", "system names", "results")
"""Entry IDs are what MLCommons counts as "systems" (v6.1's 120); system names are the distinct names (106)."""


def counts(table: Table, round: str, availability: str = "any", suite: str | None = None) -> list[list[Cell]]:
    """What an official round holds, one row per division and one for all: distinct submitters, entry IDs
    (in the open division one per system and model run), system names, and results (rows)."""
    rnd = normalize_round(round)
    av = Filters(availability).check().availability
    rows = [r for r in table.rows if r.round == rnd and r.id_source != IdSource.LOCAL]
    if not rows:
        raise not_available(f"No rows in round {rnd} (rounds: {', '.join(table.rounds)})")
    suites = sorted({r.suite for r in rows})
    if suite is not None and suite.strip().lower() not in suites:
        raise bad_value(unknown_name("suite", suite, suites))
    rows = [
        r for r in rows if (av == "any" or r.availability == av) and (suite is None or r.suite == suite.strip().lower())
    ]
    if not rows:
        raise not_available(f"No rows in round {rnd} with availability {av}" + (f", suite {suite}" if suite else ""))
    out: list[list[Cell]] = [list(COUNTS_HEADER)]
    for division in [*sorted({r.division for r in rows}), "all"]:
        part = [r for r in rows if division in ("all", r.division)]
        out.append(
            [
                division,
                len({r.submitter for r in part}),
                len({r.entry for r in part}),
                len({r.system for r in part}),
                len(part),
            ]
        )
    return out


def count(
    table: Table, round: str, what: str, division: str = "all", availability: str = "any", suite: str | None = None
) -> int:
    """One number of ``counts``: submitters, entry IDs, systems or results of one division (or all)."""
    out = counts(table, round, availability, suite)
    col = what.strip().lower()
    names = {str(h).lower(): i for i, h in enumerate(out[0])}
    if col not in names | {"systems": 0} or col == "division":
        raise bad_value(unknown_name("count", what, [str(h) for h in COUNTS_HEADER[1:]]))
    row = next((r for r in out[1:] if r[0] == division.strip().lower()), None)
    if row is None:
        raise not_available(f"No {division.strip()} rows in round {out and normalize_round(round)}")
    if col == "systems":  # two counts answer to the word: say both, and which is which
        ids, systems = row[names["entry ids"]], row[names["system names"]]
        raise bad_value(
            f'"systems" is two counts: {ids} entry IDs (what MLCommons counts as systems) and {systems} system '
            f'names (distinct names): ask for "entry IDs" or "system names"'
        )
    value = row[names[col]]
    assert isinstance(value, int)
    return value


# --------------------------------------------------------------- HEADLINES

HEADLINES_HEADER = (
    "benchmark",
    "scenario",
    "ratio",
    "new entry",
    "old entry",
    "new round",
    "old round",
    "available ratio",
    "available new entry",
    "available old entry",
    "available old round",
)


def _tops(rows: Sequence[Row], availability: str) -> dict[str, Row]:
    """Round -> the best per-GPU closed row of that round (HEADLINE's choice), under the availability."""
    tops: dict[str, Row] = {}
    for r in rows:
        if availability != "any" and r.availability != availability:
            continue
        have = tops.get(r.round)
        if have is None or (-(per_gpu_value(r) or 0.0), r.entry) < (-(per_gpu_value(have) or 0.0), have.entry):
            tops[r.round] = r
    return tops


def _headline(tops: dict[str, Row], old: str | None, new: str) -> tuple[float, Row, Row] | None:
    """new round's best over the old round's (with no old round: the earlier round giving the highest ratio)."""
    top = tops.get(new)
    if top is None:
        return None
    earlier = [old] if old else [r for r in tops if round_sort_key(r) < round_sort_key(new)]
    found = [
        ((per_gpu_value(top) or 0.0) / (per_gpu_value(tops[r]) or 1.0), top, tops[r])
        for r in earlier
        if r in tops and tops[r].units == top.units
    ]
    return max(found, key=lambda p: p[0]) if found else None


def headlines(table: Table, old_round: str | None = None, new_round: str | None = None) -> list[list[Cell]]:
    """Per benchmark and scenario, the best per-GPU of ``new_round`` over the best of ``old_round``, highest
    first, with any availability and Available only (both rounds alike). Left out, ``new_round`` is the
    latest round and ``old_round`` the earlier round that gives the highest ratio: where a vendor's
    "Nx per accelerator" comes from."""
    new = normalize_round(new_round) if new_round is not None else table.rounds[-1]
    old = normalize_round(old_round) if old_round is not None else None
    if old is not None and round_sort_key(old) >= round_sort_key(new):
        raise bad_value(f"old_round ({old}) must be earlier than new_round ({new})")
    found = []
    for bench, scen in _workloads(table):
        rows = [r for r in matching(table, bench, scen, None, Filters("any")) if per_gpu_value(r) is not None]
        pair = _headline(_tops(rows, "any"), old, new)
        if pair is not None:
            found.append((pair, _headline(_tops(rows, "available"), old, new)))
    if not found:
        raise not_available(f"No workload with closed per-GPU rows in {new} and {old or 'an earlier round'}")
    found.sort(key=lambda p: (-p[0][0], p[0][1].benchmark, p[0][1].scenario))
    out: list[list[Cell]] = [list(HEADLINES_HEADER)]
    for (ratio, n, o), avail in found:
        line: list[Cell] = [n.benchmark, n.scenario, ratio, n.entry, o.entry, n.round, o.round]
        line += [avail[0], avail[1].entry, avail[2].entry, avail[2].round] if avail else ["none", "", "", ""]
        out.append(line)
    return out


# --------------------------------------------------------------- GAINRANGE

GAINRANGE_HEADER = ("end", "claimed gain", "verdict", *_STRENGTH, "nearest pairs at or above it")


def gain_range(
    table: Table,
    low: float,
    high: float,
    family: str,
    old_round: str | None = None,
    new_round: str | None = None,
    availability: str = "available",
    include_outliers: bool = False,
) -> list[list[Cell]]:
    """A range claim ("8 to 36 percent on Blackwell") checked over GAINS of every workload: at each end, how
    many like-for-like pairs reach it at each match strength and the pairs nearest above it; then how many
    fall below, inside and above the range, and where the gains lie (range, quartiles) with the verdict
    (rows "below", "inside", "above", "observed"). GAINS' outliers are left out unless ``include_outliers``."""
    if not (-1 < low <= high) or not math.isfinite(high):
        raise bad_value("low and high must be gains as fractions (8% is 0.08), low <= high")
    table_rows = _gains_everywhere(table, old_round, new_round, family, availability, False)
    col = {h: i for i, h in enumerate(GAINS_HEADER)}
    every = [(float(r[col["gain"]]), str(r[col["match"]]).split(" (")[0], r) for r in table_rows[1:]]
    pairs = [p for p in every if include_outliers or not p[2][col["flag"]]]
    out: list[list[Cell]] = [list(GAINRANGE_HEADER)]
    for end, claimed in (("low", low), ("high", high)):
        reach = [p for p in pairs if p[0] >= claimed]
        counts = [sum(1 for p in reach if p[1] == s) for s in _STRENGTH]
        if counts[0] or counts[1]:
            verdict = f"holds: {counts[0] + counts[1]} like-for-like pairs (same platform or system) reach it"
        elif counts[2]:
            verdict = "only weak matches (same submitter, family and size only) reach it"
        else:
            verdict = f"not found: no like-for-like {family.strip()} pair reaches {share_text(claimed)} per GPU"
        nearest = sorted(reach, key=lambda p: (p[0], _STRENGTH.index(p[1])))[:2]
        out.append([end, claimed, verdict, *counts, _pairs_text(nearest, col) or "none"])
    return out + _spread_rows(pairs, low, high, col, len(every) - len(pairs))


def _pairs_text(pairs: Sequence[tuple[float, str, list[Cell]]], col: dict[str, int]) -> str:
    return "; ".join(
        f"{r[col['submitter']]} {r[col['GPUs']]}x {r[col['family']]} {r[col['benchmark']]} "
        f"{r[col['scenario']]} {g:+.2%} ({m})"
        for g, m, r in pairs
    )


def _spread_rows(
    pairs: list[tuple[float, str, list[Cell]]], low: float, high: float, col: dict[str, int], left_out: int
) -> list[list[Cell]]:
    """GAINRANGE's rows after the ends: the pairs below, inside and above the range by match strength, and
    the observed range, quartiles and verdict (can a claim "low to high" describe where the gains lie?)."""
    import statistics  # here, as in best.median_per_gpu: only this answer needs it

    parts = {
        "below": [p for p in pairs if p[0] < low],
        "inside": [p for p in pairs if low <= p[0] <= high],
        "above": [p for p in pairs if p[0] > high],
    }
    low_text, high_text = share_text(low), share_text(high)
    where = {"below": f"below {low_text}", "inside": f"from {low_text} to {high_text}", "above": f"above {high_text}"}
    rows: list[list[Cell]] = []
    for name, part in parts.items():
        counts = [sum(1 for p in part if p[1] == s) for s in _STRENGTH]
        ordered = sorted(part, key=lambda p: p[0])
        shown = ordered[:2] if name == "below" else ordered[-2:] if name == "above" else []
        text = _pairs_text(shown, col)
        claimed: Cell = low if name == "below" else high if name == "above" else ""
        rows.append([name, claimed, f"{len(part)} like-for-like pairs {where[name]}", *counts, text])
    values = sorted(p[0] for p in pairs)
    lo, hi = values[0], values[-1]
    span = f"{lo:+.0%} to {hi:+.0%}"
    if parts["below"] and parts["above"]:
        verdict = f"the data show a wider range: {span}"
    elif parts["below"]:
        verdict = f"the data run lower than the claim: {span}"
    elif parts["above"]:
        verdict = f"the data run higher than the claim: {span}"
    elif hi < high:
        verdict = f"every pair lies in the range, but none reaches {share_text(high, sign=True)}: the data show {span}"
    else:
        verdict = f"holds: every like-for-like pair lies in the range ({span})"
    quartiles = ", ".join(f"{q:+.1%}" for q in statistics.quantiles(values, n=4)) if len(values) > 1 else f"{lo:+.1%}"
    text = f"{len(values)} pairs from {lo:+.1%} to {hi:+.1%}; quartiles {quartiles}; outliers left out: {left_out}"
    counts = [sum(1 for p in pairs if p[1] == s) for s in _STRENGTH]
    rows.append(["observed", "", verdict, *counts, text])
    return rows
