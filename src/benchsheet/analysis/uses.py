"""The entries a workbook uses (ENTRIESUSED): each entry once per benchmark and scenario, with every
place that names it, for the Sources sheet's citations.
"""

from __future__ import annotations

from collections.abc import Sequence

from benchsheet.data.names import benchmark_key, canonical_scenario, scenario_key
from benchsheet.errors import bad_value

USES_HEADER = ("entry", "used on", "benchmark", "scenario")
Cells = Sequence[Sequence[object]]  # a range as rows of cells


def entries_used(entries: Cells, places: Cells, benchmark: Cells, scenario: Cells) -> list[list[str]]:
    """Each entry the cells ``entries`` hold, once per benchmark and scenario, with every place that uses
    it, in the order of first use. ``places``, ``benchmark`` and ``scenario`` give each cell's (row by
    row, the same number of cells) or, as one cell, all cells'. A blank, a number or an error names no
    entry (an error's reason shows where it is used); nor does a cell whose benchmark or scenario is
    not a text (a claim that names none)."""
    cells = _flat(entries, "entries", 0)
    names, benches, scens = (
        _flat(c, n, len(cells)) for c, n in ((places, "places"), (benchmark, "benchmark"), (scenario, "scenario"))
    )
    found: dict[tuple[str, str, str], list[str]] = {}
    spelled: dict[tuple[str, str, str], tuple[str, str, str]] = {}  # one key however it is spelled
    for i, cell in enumerate(cells):
        entry, bench, scen = (_text(v) for v in (cell, benches[i], scens[i]))
        if entry and bench and scen:
            scen = canonical_scenario(scen) or scen
            key = spelled.setdefault((entry, benchmark_key(bench), scenario_key(scen)), (entry, bench, scen))
            found.setdefault(key, []).append(str(names[i]).strip())
    return [list(USES_HEADER), *([e, ", ".join(where), b, sc] for (e, b, sc), where in found.items())]


def _flat(cells: Cells, name: str, count: int) -> list[object]:
    """A range's values row by row; one value repeated ``count`` times (``count`` 0: any number)."""
    values = [v for row in cells for v in row]
    if count and len(values) == 1:
        return values * count
    if count and len(values) != count:
        raise bad_value(f"{name} must be one cell or one per cell of entries ({count}), not {len(values)}")
    return values


def _text(value: object) -> str | None:
    """A cell's text; None for a blank, a number or an error (its text starts with #)."""
    return value.strip() if isinstance(value, str) and value.strip() and not value.startswith("#") else None
