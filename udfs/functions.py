"""benchsheet's Excel functions for xlwings: ``UDF Modules`` = ``benchsheet.udfs.functions`` in a
workbook's own ``xlwings.conf`` sheet (the template carries one; ``benchsheet addin install`` leaves
the user configuration's UDF MODULES alone, so other workbooks keep their default module).

Each function is made from the catalogue (``benchsheet.catalogue``): its name,
arguments, help text and category reach Excel's function wizard through
xlwings' decorators. A failure answers with text such as
``#N/A No entry '6.1-9999' in the loaded results`` because xlwings cannot return Excel error
values (xlwings issue #776), and no answer is longer than the 255 characters
Excel shows from a UDF (``classic`` below cuts a longer one). Ranges in a
scalar function's arguments answer a block in one call, as Excel lifts its own scalar functions in an
array formula (``catalogue.calls.lifted``); tables spill as dynamic arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import xlwings as xw

from benchsheet.catalogue.calls import call, named_like
from benchsheet.catalogue.declare import Function
from benchsheet.catalogue.functions import CATALOGUE
from benchsheet.data.store import get_table
from benchsheet.errors import ALL_ERROR_CODES, CLASSIC_TEXT_LIMIT, VT_ERRORS, BenchError, shortened

__all__ = [f.name for f in CATALOGUE]


def error_text(err: BenchError) -> str:
    text: str = err.text
    return text


def classic(value: Any) -> Any:
    """The answer as classic Excel can show it: every text at most 255 characters (a longer element of
    the array xlwings hands to VBA shows #VALUE!), cut by ``shortened``, an error's code first. The one
    place the limit is enforced: the formula engine and xlwings Lite keep Excel's own 32,767."""
    if type(value) is str:
        return value if len(value) <= CLASSIC_TEXT_LIMIT else shortened(value, CLASSIC_TEXT_LIMIT)
    if type(value) is list:
        return [classic(v) for v in value]
    return value


def is_error_text(value: Any) -> bool:
    """An Excel error cell (xlwings gives its text) or another function's error text: passed on as is."""
    return type(value) is str and value[:1] == "#" and value.startswith(ALL_ERROR_CODES)


def named_errors(value: Any) -> Any:
    """A cell error xlwings leaves as its VT_ERROR integer (``#SPILL!`` is -2146826243) as its name."""
    if type(value) is int:
        return VT_ERRORS.get(value, value)
    if type(value) is list:
        return [named_errors(v) for v in value]
    return value


def _udf(fn: Function) -> Callable[..., Any]:
    def udf(*args: Any) -> Any:
        named = [a if type(a) is str else named_errors(a) for a in args]  # most arguments are text
        return classic(call(fn, get_table(), named, error_text, is_error_text))

    # xw.arg first: each xlarg call re-runs xlfunc, which would reset a category set earlier
    decorated: Callable[..., Any] = named_like(fn, udf, __name__)
    for a in fn.args:
        options: dict[str, Any] = {"doc": a.help, "err_to_str": True}
        if fn.liftable or a.kind == "cells":
            options["ndim"] = 2  # a range arrives as rows of cells (a row and a column told apart), a cell as [[value]]
        decorated = xw.arg(a.name, **options)(decorated)
    decorated = xw.func(category=fn.category)(decorated)
    return decorated


for _fn in CATALOGUE:
    globals()[_fn.name] = _udf(_fn)


def __getattr__(name: str) -> Callable[..., Any]:
    """Tells type checkers that the functions made above are callables; a name not in the catalogue stays missing."""
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
