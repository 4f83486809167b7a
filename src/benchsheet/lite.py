"""benchsheet's worksheet functions for xlwings Lite (Excel on Windows, Mac and the web; Python in Pyodide).

The add-in's ``main.py`` (``benchsheet lite`` prints it) hands xlwings Lite's own
decorators to ``define``, which makes one custom function per catalogue entry
(``benchsheet.catalogue``): its name, help text, argument docs and optional
arguments, each answering through ``catalogue.call`` like the classic UDF module.
Only the standard library is imported here and nothing is written: the table is
the snapshot bundled in the package. The package declares its dependencies for
every platform but Pyodide's (``sys_platform != "emscripten"``), so Lite's
installer fetches benchsheet's wheel alone.

How a failure reaches the user (xlwings Lite can return real Excel errors):

- The cell gets the real error value of the reason's code: an answer that is
  exactly ``"#N/A"``, ``"#VALUE!"``, ... is turned into that error by xlwings, so
  ISNA, IFNA and IFERROR work as with Excel's own functions.
- Every reason is printed, one line each (``PERGPU: #N/A No entry '6.1-9999' in the loaded results``):
  xlwings Lite shows what a function prints in its Output pane.
- A one-cell ``#VALUE!`` (an argument the function cannot use) is also raised, after
  its line is printed: the add-in shows ``#VALUE!`` with a message on the cell's error
  flag. That message is not the reason alone: xlwings' Office.js side
  (``makeWasmCall`` in xlwings-server's ``custom-functions-code.js``) wraps the
  ``CustomFunctions.Error`` it builds from the exception's text into a second one, and
  Office's error class turns the first into the text ``"Error: "`` + reason. In a
  spilled range nothing is raised (the other cells would be lost).
- An error value among the inputs is passed on unchanged, as Excel's functions do;
  one that a custom function cannot return (``#SPILL!``, ``#CALC!`` and the other
  newer ones arrive as text, and xlwings returns only the seven classic codes as
  errors) becomes ``#VALUE!``, its reason naming the input's error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchsheet import __version__
from benchsheet.catalogue.calls import call, named_like
from benchsheet.catalogue.declare import Function
from benchsheet.catalogue.functions import CATALOGUE
from benchsheet.data.store import get_table
from benchsheet.errors import ALL_ERROR_CODES, ERROR_CODES, BenchError, BenchsheetError

Report = Callable[[str], None]

MAX_REASONS = 20
"""At most this many reason lines per call: a spilled column of 10,000 unknown IDs prints 20 and a count."""


class LiteError(ValueError):
    """A one-cell #VALUE!: the add-in shows #VALUE! with this message on the cell's error flag."""


WHEEL = f"benchsheet-{__version__}-py3-none-any.whl"
"""The file name of this version's wheel: micropip takes a URL only when it ends in the wheel's real name."""


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


def _shown(value: Any) -> Any:
    """A value as Lite can show it: an input's error that Office.js cannot return becomes a Failure."""
    if isinstance(value, str) and value in ALL_ERROR_CODES and value not in ERROR_CODES:
        return Failure("#VALUE!", f"an input is the error {value}, which a custom function cannot return")
    return value


def answer(fn: Function, args: Sequence[Any], report: Report) -> Any:
    """One call of ``fn`` as xlwings Lite should return it (see the module's docstring)."""
    value = call(fn, get_table(), args, _failure, is_error_value)
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], list) and len(value[0]) == 1:
        value = value[0][0]  # one cell in, one cell out
    reasons: dict[str, None] = {}  # in order, once each

    def cell(v: Any) -> Any:
        v = _shown(v)
        if isinstance(v, Failure):
            reasons[f"{v.code} {v.reason}"] = None
            return v.code
        return v

    one = _shown(value)
    if isinstance(value, list):
        value = [[cell(v) for v in row] if isinstance(row, list | tuple) else [cell(row)] for row in value]
    else:
        value = cell(value)
    lines = list(reasons)
    for line in lines[:MAX_REASONS]:
        report(f"{fn.name}: {line}")
    if len(lines) > MAX_REASONS:
        report(f"{fn.name}: ... and {len(lines) - MAX_REASONS} more reasons")
    if isinstance(one, Failure) and one.code == "#VALUE!":
        raise LiteError(f"{fn.name}: {one.reason}")  # the error flag's text, where the add-in keeps it
    return value


def _custom_function(
    fn: Function, func: Callable[..., Any], arg: Callable[..., Any], report: Report
) -> Callable[..., Any]:
    def custom_function(*args: Any) -> Any:
        return answer(fn, args, report)

    decorated: Callable[..., Any] = named_like(fn, custom_function, __name__)  # Lite calls it by its name
    for a in fn.args:
        options: dict[str, Any] = {"doc": a.help, "err_to_str": True}  # an error cell arrives as "#N/A", not None
        if fn.liftable or a.kind == "cells":  # call lifts a scalar function over ranges (calls.lifted)
            options["ndim"] = 2  # so a range keeps its rows and columns
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


PINNED = f"benchsheet=={__version__}"
"""The requirements.txt line that installs this version from a package index: PyPI (where a tag publishes it,
.github/workflows/release.yml), or a company's own index. Never the bare name, which installs whatever is newest."""


def requirement_paths(wheel_url: str | None) -> tuple[str, list[str]]:
    """The requirements.txt line of the path assumed (a wheel's address when ``wheel_url`` is given, else a
    package index by version), and the lines saying the line of each path and which one is assumed."""
    line = requirements_txt(wheel_url).rstrip("\n") if wheel_url else PINNED
    wheel = line if wheel_url else f"https://<your server>/<folder>/{WHEEL} (--wheel-url URL prints it)"
    assumed = "the wheel's address given with --wheel-url" if wheel_url else "PyPI, or your company's index"
    return line, [
        "requirements.txt, below the xlwings line: the line of the place xlwings Lite installs benchsheet from",
        f"  PyPI (xlwings Lite's default): {PINNED}",
        f"  your company's index (a self-hosted Lite's XLWINGS_PYPI_INDEX_URL; upload {WHEEL} there): {PINNED}",
        f"  a wheel on an https server that allows cross-origin requests (CORS): {wheel}",
        f"assumed here: {assumed}",
    ]


def requirements_txt(wheel_url: str) -> str:
    """The line to add to the add-in's ``requirements.txt`` (below its xlwings line): the wheel's address.

    ``wheel_url`` is the https address of this version's wheel, or of
    the folder holding it (ending in ``/``). micropip reads the package's name and version from the
    URL's last part, which must be the wheel's real file name (else ``InvalidWheelFilename``).
    """
    from benchsheet.data.refresh import check_plain_url  # as refresh checks a URL (the CLI only: not in Pyodide)

    if not wheel_url.startswith("https://"):
        raise BenchsheetError(f"--wheel-url must be an https:// address (Excel fetches it), not {wheel_url!r}")
    try:
        check_plain_url(wheel_url)
    except BenchsheetError as exc:
        raise BenchsheetError(f"--wheel-url {exc}") from None
    if "?" in wheel_url or "#" in wheel_url:
        raise BenchsheetError(f"--wheel-url must end in the wheel's file name (no query or fragment): {wheel_url!r}")
    if wheel_url.endswith("/"):
        wheel_url += WHEEL
    if wheel_url.rsplit("/", 1)[1] != WHEEL:
        raise BenchsheetError(
            f"--wheel-url must end in /{WHEEL} (the wheel of this version, under its own name) or in / (its folder),"
            f" not {wheel_url!r}"
        )
    return wheel_url + "\n"
