"""Analysis: pure functions over a ``Table``, the answers behind the catalogue's functions.

No I/O and no spreadsheet types here: arguments are already plain Python (text, numbers, None for
"left out"), answers are numbers, text or lists of rows, and every failure is a ``BenchError`` with a
reason a person can act on. Callers write ``from benchsheet import analysis as A``; the modules, from
the bottom up:

- ``entries``: one entry's rows and fields, the notes a reader needs, why a name is unknown;
- ``pergpu``: the per-GPU value of a row (the one place that divides), of an entry, and ratios of two;
- ``selection``: which rows a family argument selects under the filters, and in which round;
- ``best``: a family's best (and median) per-GPU value, spread, headline, rankings and RESULTS;
- ``costs``: cost per million tokens and GPUs to buy (plain arithmetic);
- ``breakeven``: the break-even ratio and price of a candidate against a baseline;
- ``citations``: CITE's lines, the notices and DATAINFO; ``energy``: per watt of measured power;
- ``bounds``: the rules' latency limits; ``uses``: the entries a workbook uses (ENTRIESUSED);
- ``claims`` (RATIOS, GAINS, HISTORY, counts) and ``choices`` (the template's drop-down lists) build
  on them and are imported by their own names.
- ``tco`` (owning against renting, an API's price), ``slo`` (the user's latency target) and ``fleet``
  (a power cap, a mix of workloads): the buyer's decision, imported by their own names too.

The modules import each other by their module path, never from this package, so no circle appears.
"""

from __future__ import annotations

from benchsheet.analysis.best import (
    RESULTS_HEADER,
    best,
    best_entry,
    best_row,
    families,
    headline,
    median_per_gpu,
    ranked_families,
    results,
    rows_behind,
    spread,
)
from benchsheet.analysis.bounds import latency_bounds
from benchsheet.analysis.breakeven import breakeven, breakeven_price, paired, per_gpu_spec
from benchsheet.analysis.citations import CITE_PARTS, LINE_LIMIT, NOT_VERIFIED, TRADEMARK, citation, cite, datainfo
from benchsheet.analysis.costs import cost_per_mtok, gpus_needed
from benchsheet.analysis.energy import energy_cite, per_watt
from benchsheet.analysis.entries import (
    DEFAULT_GPUS_PER_NODE,
    ENTRY_FIELDS,
    ENTRY_ID,
    RUN_FIELDS,
    entry_field,
    entry_rows,
    find_row,
    gpus,
    model_run,
    result,
    row_notes,
)
from benchsheet.analysis.pergpu import gain, per_gpu_of, per_gpu_value, pergpu, scaling
from benchsheet.analysis.selection import Filters, select
from benchsheet.analysis.uses import USES_HEADER, entries_used

__all__ = [
    "CITE_PARTS",
    "DEFAULT_GPUS_PER_NODE",
    "ENTRY_FIELDS",
    "ENTRY_ID",
    "LINE_LIMIT",
    "NOT_VERIFIED",
    "RESULTS_HEADER",
    "RUN_FIELDS",
    "TRADEMARK",
    "USES_HEADER",
    "Filters",
    "best",
    "best_entry",
    "best_row",
    "breakeven",
    "breakeven_price",
    "citation",
    "cite",
    "cost_per_mtok",
    "datainfo",
    "energy_cite",
    "entries_used",
    "entry_field",
    "entry_rows",
    "families",
    "find_row",
    "gain",
    "gpus",
    "gpus_needed",
    "headline",
    "latency_bounds",
    "median_per_gpu",
    "model_run",
    "paired",
    "per_gpu_of",
    "per_gpu_spec",
    "per_gpu_value",
    "per_watt",
    "pergpu",
    "ranked_families",
    "result",
    "results",
    "row_notes",
    "rows_behind",
    "scaling",
    "select",
    "spread",
]
