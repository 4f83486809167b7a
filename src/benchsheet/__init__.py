"""benchsheet: MLPerf Inference results as spreadsheet functions.

MLPerf is a trademark of MLCommons Association. Per-accelerator values and the
ratios and costs computed from them are derived metrics, not MLPerf results.

The public API, imported on first use (PEP 562) so that ``import benchsheet``
stays light (the xlwings Lite module imports it in Pyodide, without formulas,
openpyxl or XlsxWriter)::

    from benchsheet import evaluate, get_table, build, calc, freeze, frame, results

    evaluate('=PERGPU("6.1-0052","gpt-oss-120b","Server")')  # a value, or an ErrorValue (.code, .reason)
    get_table()                                                # the loaded results (a Table)
    build(Path("cluster-sizing.xlsx"))                         # -> BuildReport
    calc(src, out)                                             # -> CalcReport
    freeze(src, out)                                           # values-only copy
    results()                                                  # the loaded results as a pandas DataFrame
    frame("RATIOS", "Vera Rubin", "GB300")                     # a table function's answer as a DataFrame

``benchsheet.frames`` has every table function by its name (``frames.GAINS(...)``); pandas is
imported by it alone, when a DataFrame is asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["__version__", "build", "calc", "evaluate", "frame", "freeze", "get_table", "results"]

_HOMES = {
    "evaluate": "benchsheet.catalogue.engine",
    "get_table": "benchsheet.data.store",
    "build": "benchsheet.templates.builder",
    "calc": "benchsheet.catalogue.engine",
    "freeze": "benchsheet.catalogue.engine",
    "frame": "benchsheet.frames",
    "results": "benchsheet.frames",
}
"""Where each name of the public API lives."""

if TYPE_CHECKING:
    from benchsheet.catalogue.engine import evaluate
    from benchsheet.data.store import get_table
    from benchsheet.frames import frame, results
    from benchsheet.templates.builder import build
    from excelcalc.workbook.calc import calc, freeze
else:

    def __getattr__(name: str) -> Any:
        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        globals()[name] = value  # later look-ups are plain attribute reads
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
