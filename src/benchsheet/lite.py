"""benchsheet's worksheet functions for xlwings Lite (Excel on Windows, Mac and the web; Python in Pyodide).

The add-in's ``main.py`` (``benchsheet lite`` prints it) hands xlwings Lite's own
decorators to ``define``, which makes one custom function per catalogue entry
(``benchsheet.catalogue``): its name, help text, argument docs and optional
arguments, each answering through ``catalogue.call`` like the classic UDF module.
Only the standard library is imported here and nothing is written: the table is
the snapshot bundled in the package.

How a failure reaches the user (xlwings Lite can return real Excel errors):

- The cell gets the real error value of the reason's code: an answer that is
  exactly ``"#N/A"``, ``"#NUM!"``, ... is turned into that error by xlwings, so
  ISNA, IFNA and IFERROR work as with Excel's own functions.
- A ``#VALUE!`` (an argument the function cannot use) of a one-cell answer is
  raised instead: Lite shows ``#VALUE!`` with the reason as the error's message
  (hover over the cell's error flag).
- Every other reason, and those of the cells of a spilled range, is printed, one
  line each (``PERGPU: #N/A Unknown entry 6.1-9999``): xlwings Lite shows what a
  function prints in its Output pane.
- An error value among the inputs is passed on unchanged, as Excel's functions do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import __version__
from .catalogue import CATALOGUE, Function, call, named_like
from .errors import ALL_ERROR_CODES, BenchError, BenchsheetError
from .store import get_table

Report = Callable[[str], None]

MAX_REASONS = 20
"""At most this many reason lines per call: a spilled column of 10,000 unknown IDs prints 20 and a count."""


class LiteError(ValueError):
    """An argument the function cannot use: Lite shows #VALUE! with this message."""


@dataclass(frozen=True, slots=True)
class Failure:
    """What ``call`` answers for a failure, until the shell decides how to show it."""

    code: str
    reason: str


def _failure(err: BenchError) -> Failure:
    return Failure(err.code, err.reason)


def is_error_value(value: Any) -> bool:
    """An error cell among the arguments, as xlwings Lite passes it with ``err_to_str`` (its text)."""
    return isinstance(value, str) and value in ALL_ERROR_CODES


def answer(fn: Function, args: Sequence[Any], report: Report) -> Any:
    """One call of ``fn`` as xlwings Lite should return it (see the module's docstring)."""
    value = call(fn, get_table(), args, _failure, is_error_value)
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], list) and len(value[0]) == 1:
        value = value[0][0]  # one cell in, one cell out
    if isinstance(value, Failure):
        if value.code == "#VALUE!":
            raise LiteError(f"{fn.name}: {value.reason}")
        report(f"{fn.name}: {value.code} {value.reason}")
        return value.code
    if not isinstance(value, list):
        return value
    reasons: dict[str, None] = {}  # in order, once each

    def cell(v: Any) -> Any:
        if isinstance(v, Failure):
            reasons[f"{v.code} {v.reason}"] = None
            return v.code
        return v

    table = [[cell(v) for v in row] if isinstance(row, list | tuple) else [cell(row)] for row in value]
    lines = list(reasons)
    for line in lines[:MAX_REASONS]:
        report(f"{fn.name}: {line}")
    if len(lines) > MAX_REASONS:
        report(f"{fn.name}: ... and {len(lines) - MAX_REASONS} more reasons")
    return table


def _custom_function(
    fn: Function, func: Callable[..., Any], arg: Callable[..., Any], report: Report
) -> Callable[..., Any]:
    def custom_function(*args: Any) -> Any:
        return answer(fn, args, report)

    decorated: Callable[..., Any] = named_like(fn, custom_function, __name__)  # Lite calls it by its name
    for i, a in enumerate(fn.args):
        options: dict[str, Any] = {"doc": a.help, "err_to_str": True}  # an error cell arrives as "#N/A", not None
        if i == 0 and fn.returns != "table":  # catalogue.call maps a range there cell by cell
            options["ndim"] = 2  # so a range in the first argument keeps its rows and columns
        decorated = arg(a.name, **options)(decorated)
    result: Callable[..., Any] = func(decorated)
    return result


def define(func: Callable[..., Any], arg: Callable[..., Any], report: Report = print) -> dict[str, Callable[..., Any]]:
    """Every catalogue function decorated with xlwings Lite's ``func`` and ``arg``, by name.

    ``main.py`` passes xlwings' own decorators and puts the result in its globals,
    where xlwings Lite finds the custom functions.
    """
    return {fn.name: _custom_function(fn, func, arg, report) for fn in CATALOGUE}


def main_py() -> str:
    """The ``main.py`` to paste into the xlwings Lite editor."""
    return (
        f'"""benchsheet {__version__}: MLPerf Inference results as worksheet functions.\n'
        "\n"
        "Printed by `benchsheet lite`. Per-GPU values are derived metrics, not official MLPerf results.\n"
        "MLPerf is a trademark of MLCommons Association.\n"
        '"""\n'
        "\n"
        "from xlwings import arg, func\n"
        "\n"
        "from benchsheet.lite import define\n"
        "\n"
        "globals().update(define(func, arg))  # " + ", ".join(fn.name for fn in CATALOGUE[:4]) + ", ...\n"
    )


def requirements_txt(wheel_url: str | None = None) -> str:
    """The line to add to the add-in's ``requirements.txt`` (below its xlwings line)."""
    if wheel_url is not None and not wheel_url.startswith("https://"):
        raise BenchsheetError(f"--wheel-url must be an https:// address (Excel fetches it), not {wheel_url!r}")
    if wheel_url is not None and not wheel_url.split("?")[0].endswith(".whl"):
        raise BenchsheetError(f"--wheel-url must point at benchsheet's wheel (a .whl file), not {wheel_url!r}")
    return (wheel_url or f"benchsheet=={__version__}") + "\n"
