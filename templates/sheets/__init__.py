"""The cluster-sizing workbook, sheet by sheet, described once as data: one module a sheet.

Each sheet is a ``Sheet`` of blocks (``benchsheet.templates.layout``): labelled fields, tables, a
grid, charts and notes. Formulas name cells by asking their block (``WORKLOAD["benchmark"]``,
``row["entry"]``), so every address is stated once. ``common`` holds what several sheets use (the
sheet names, texts.toml, the notices, the hidden Lists and xlwings.conf sheets, the formula
pieces), ``workload`` the workload set on Sizing and its links on the other sheets; then one
module a sheet: ``sizing``, ``quotes``, ``sensitivity``, ``tco``, ``fleet``, ``compare``, ``claims``, ``sources`` (which
cites every entry the answering sheets name, their ``cite``) and ``readme`` (what each sheet answers,
its ``purpose``). To add a sheet: describe it in a module of its own and add it to
``sources.ANSWERING``.

Sample inputs (prices, quotes) are examples and say so in the sheets. The modules import each other
by their module path, never from this package.
"""

from __future__ import annotations

from benchsheet.templates.sheets.claims import (
    AVAILABLE,
    BEST_RATIO,
    CLAIM,
    CLAIMED_AT,
    CLAIMS_SHEET,
    COUNT_ANSWER,
    COUNT_CLAIM,
    GAINS_CHART,
    GAINS_TABLE,
    GAINS_WORKLOAD,
    RANGE_ANSWER,
    RANGE_CLAIM,
    VERDICT,
)
from benchsheet.templates.sheets.common import (
    BOOK_PROPERTIES,
    CLAIMS,
    COMPARE,
    DERIVED_NOTE,
    EMPTY_ROW_HEIGHT,
    FAMILY_RULE,
    LISTS,
    NOTICES,
    QUOTES,
    READ_ME,
    SENSITIVITY,
    SIZING,
    SOURCES,
    TEXTS,
    XLWINGS_CONF,
)
from benchsheet.templates.sheets.compare import COMPARE_CHART, COMPARE_FILTERS, COMPARE_SHEET, COMPARE_TABLE
from benchsheet.templates.sheets.curves import (
    CURVE_DATA,
    CURVES,
    CURVES_CHART,
    CURVES_INPUTS,
    CURVES_SHEET,
    CURVES_TABLE,
)
from benchsheet.templates.sheets.fleet import CANDIDATES as FLEET_CANDIDATES
from benchsheet.templates.sheets.fleet import (
    FLEET,
    FLEET_REASON,
    FLEET_SHEET,
    FLEET_TABLE,
    FLEET_WORKLOAD,
    MIX,
    MIX_INPUTS,
    POWER_INPUTS,
)
from benchsheet.templates.sheets.quotes import (
    BASELINE,
    QUOTES_COLUMNS,
    QUOTES_SHEET,
    QUOTES_TABLE,
    QUOTES_WORKLOAD,
    SAMPLE_QUOTES,
)
from benchsheet.templates.sheets.readme import ANSWERS, DATA, HOW_TO, NOTES, READ_ME_SHEET, SENSITIVITY_ROW
from benchsheet.templates.sheets.sensitivity import SENS, SENS_CHART, SENS_GRID, SENS_WORKLOAD, SENSITIVITY_SHEET
from benchsheet.templates.sheets.sizing import CANDIDATES, SIZING_COLUMNS, SIZING_SHEET, SIZING_TABLE
from benchsheet.templates.sheets.sources import (
    ANSWERING,
    CITED,
    LEGEND,
    SOURCE_FILES,
    SOURCES_SHEET,
    SOURCES_WORKLOAD,
    USES,
)
from benchsheet.templates.sheets.tco import CURVES as TCO_CURVES
from benchsheet.templates.sheets.tco import CURVES_CHART as TCO_CHART
from benchsheet.templates.sheets.tco import (
    INPUT_HEADER,
    MOST,
    MOVED,
    MOVES,
    TCO,
    TCO_SHEET,
    TCO_TABLE,
    TCO_WORKLOAD,
    UTILIZATIONS,
)
from benchsheet.templates.sheets.tco import INPUTS as TCO_INPUTS
from benchsheet.templates.sheets.workload import AVAILABILITY, FILTER_KEYS, MAX_GPUS, WORKLOAD

SHEETS = (READ_ME_SHEET, *ANSWERING, SOURCES_SHEET)  # in workbook order; then the hidden Lists and xlwings.conf

__all__ = [
    "ANSWERING",
    "ANSWERS",
    "AVAILABILITY",
    "AVAILABLE",
    "BASELINE",
    "BEST_RATIO",
    "BOOK_PROPERTIES",
    "CANDIDATES",
    "CITED",
    "CLAIM",
    "CLAIMED_AT",
    "CLAIMS",
    "CLAIMS_SHEET",
    "COMPARE",
    "COMPARE_CHART",
    "COMPARE_FILTERS",
    "COMPARE_SHEET",
    "COMPARE_TABLE",
    "COUNT_ANSWER",
    "COUNT_CLAIM",
    "CURVES",
    "CURVES_CHART",
    "CURVES_INPUTS",
    "CURVES_SHEET",
    "CURVES_TABLE",
    "CURVE_DATA",
    "DATA",
    "DERIVED_NOTE",
    "EMPTY_ROW_HEIGHT",
    "FAMILY_RULE",
    "FILTER_KEYS",
    "FLEET",
    "FLEET_CANDIDATES",
    "FLEET_REASON",
    "FLEET_SHEET",
    "FLEET_TABLE",
    "FLEET_WORKLOAD",
    "GAINS_CHART",
    "GAINS_TABLE",
    "GAINS_WORKLOAD",
    "HOW_TO",
    "INPUT_HEADER",
    "LEGEND",
    "LISTS",
    "MAX_GPUS",
    "MIX",
    "MIX_INPUTS",
    "MOST",
    "MOVED",
    "MOVES",
    "NOTES",
    "NOTICES",
    "POWER_INPUTS",
    "QUOTES",
    "QUOTES_COLUMNS",
    "QUOTES_SHEET",
    "QUOTES_TABLE",
    "QUOTES_WORKLOAD",
    "RANGE_ANSWER",
    "RANGE_CLAIM",
    "READ_ME",
    "READ_ME_SHEET",
    "SAMPLE_QUOTES",
    "SENS",
    "SENSITIVITY",
    "SENSITIVITY_ROW",
    "SENSITIVITY_SHEET",
    "SENS_CHART",
    "SENS_GRID",
    "SENS_WORKLOAD",
    "SHEETS",
    "SIZING",
    "SIZING_COLUMNS",
    "SIZING_SHEET",
    "SIZING_TABLE",
    "SOURCES",
    "SOURCES_SHEET",
    "SOURCES_WORKLOAD",
    "SOURCE_FILES",
    "TCO",
    "TCO_CHART",
    "TCO_CURVES",
    "TCO_INPUTS",
    "TCO_SHEET",
    "TCO_TABLE",
    "TCO_WORKLOAD",
    "TEXTS",
    "USES",
    "UTILIZATIONS",
    "VERDICT",
    "WORKLOAD",
    "XLWINGS_CONF",
]
