"""xlwings as it runs on Windows, in this Linux test process, with xlwings' own Windows code.

There is no Excel and no pywin32 here. The modules pywin32 would provide (``pywintypes``,
``pythoncom``, ``win32api``, ``win32com.client``, ...) and the Windows-only parts of ``ctypes``
(``windll``, ``oledll``, ``PyDLL`` of pythoncom) become small stand-ins, and then xlwings' real
``xlwings._xlwindows`` is imported: its ``Engine.clean_value_data`` (how cell values read through COM
become Python values, with its own table of the error cells it names), its ``Range`` (which reads a
worksheet range through ``Range.Value``) and its ``App``/``Book``/``Sheet`` plumbing run unchanged.
``xlwings.udfs`` is imported for real on top of it, xlwings' decorators (``xw.func``/``arg``/``ret``/
``sub``) are rebound to its ``xlfunc``/``xlarg``/``xlret``/``xlsub`` as on Windows, and
``benchsheet.udfs.functions`` is imported afresh under them. Everything is put back afterwards.

What a worksheet range is to xlwings is a COM object; ``ComRange`` stands in for it with the values
pywin32 would hand over (``tests/excel.py`` says which Python value a cell gives).
"""

from __future__ import annotations

import ctypes
import datetime as dt
import importlib
import sys
import types
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import xlwings
from xlwings.main import Engine

import benchsheet.udfs as udfs_package

MODULE = "benchsheet.udfs.functions"
EXCEL_RANGE_IID = "{00020846-0000-0000-C000-000000000046}"
MISSING = -2147352572  # DISP_E_PARAMNOTFOUND: how COM hands Python an omitted optional argument


class ComError(Exception):
    """Stand-in for ``pywintypes.com_error``."""


class TimeType(dt.datetime):
    """Stand-in for ``pywintypes.TimeType``: what pywin32 gives for a VT_DATE (a datetime subclass)."""


class _Anything:
    """A Windows handle or DLL nobody calls in these tests: any attribute or call answers itself."""

    def __getattr__(self, name: str) -> _Anything:
        return self

    def __call__(self, *args: Any, **kwargs: Any) -> _Anything:
        return self


def _module(name: str, **attrs: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


class _Dispatch:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass


def _pywin32() -> dict[str, types.ModuleType]:
    client = _module(
        "win32com.client",
        Dispatch=lambda obj, *a, **k: obj,
        CDispatch=_Dispatch,
        CoClassBaseClass=_Dispatch,
        DispatchBaseClass=_Dispatch,
        DispatchEx=_Dispatch,
    )
    return {
        "pywintypes": _module(
            "pywintypes",
            com_error=ComError,
            error=type("error", (Exception,), {}),
            TimeType=TimeType,
            IID=lambda text: text.upper(),
        ),
        "pythoncom": _module(
            "pythoncom",
            __file__="pythoncom.dll",
            CoInitialize=lambda: None,
            IID_IDispatch=object(),
            CoMarshalInterThreadInterfaceInStream=lambda *a: None,
            CoGetInterfaceAndReleaseStream=lambda *a: None,
        ),
        "win32api": _module("win32api"),
        "win32con": _module("win32con"),
        "win32gui": _module("win32gui"),
        "win32process": _module("win32process", GetWindowThreadProcessId=lambda hwnd: (1, 4242)),
        "win32timezone": _module("win32timezone"),
        "win32com": _module("win32com", __path__=[], client=client),
        "win32com.client": client,
        "xlwings.com_server": _module("xlwings.com_server", loop=None),
    }


# ------------------------------------------------------------ COM objects


@dataclass
class ComRange:
    """A worksheet range as VBA passes it in ``Array(...)``: xlwings reads ``.Value`` through COM.

    ``values`` are what pywin32 gives per cell (tests/excel.py): float, Decimal, TimeType, bool,
    None, str, or a VT_ERROR integer.
    """

    values: tuple[tuple[Any, ...], ...]
    Worksheet: Any = field(default_factory=lambda: _worksheet())
    Row: int = 1
    Column: int = 1

    @property
    def _oleobj_(self) -> Any:
        """What ``_xlwindows.is_range_instance`` asks: the COM type's interface ID, Excel's Range."""
        attr = types.SimpleNamespace(iid=EXCEL_RANGE_IID)
        return types.SimpleNamespace(GetTypeInfo=lambda: types.SimpleNamespace(GetTypeAttr=lambda: attr))

    @property
    def Value(self) -> Any:
        v = self.values
        return v[0][0] if len(v) == 1 and len(v[0]) == 1 else v  # pywin32: a scalar for one cell

    @property
    def Rows(self) -> Any:
        return types.SimpleNamespace(Count=len(self.values))

    @property
    def Columns(self) -> Any:
        return types.SimpleNamespace(Count=len(self.values[0]))


def _worksheet() -> Any:
    app = types.SimpleNamespace(Hwnd=1)
    book = types.SimpleNamespace(Application=app, Name="benchsheet.xlsm")
    return types.SimpleNamespace(Parent=book, Name="Sheet1")


def column(values: Sequence[Any]) -> ComRange:
    return ComRange(tuple((v,) for v in values))


def cell(value: Any) -> ComRange:
    return ComRange(((value,),))


# ----------------------------------------------------------------- fixture


@dataclass
class Windows:
    udfs: types.ModuleType  # xlwings.udfs
    functions: types.ModuleType  # benchsheet.udfs.functions, decorated by xlwings.udfs
    xlwindows: types.ModuleType  # xlwings._xlwindows, the real one

    def call(self, name: str, *args: Any) -> Any:
        """What the cell's VBA function gets back from ``XLPy.CallUDF``: xlwings' own ``call_udf``."""
        return self.udfs.call_udf(MODULE, name, args)


@contextmanager
def windows_xlwings(monkeypatch: pytest.MonkeyPatch) -> Iterator[Windows]:
    """xlwings as on Windows, and the UDF module freshly imported under its decorators.

    On exit sys.modules is as before; ``monkeypatch`` undoes the attributes.
    """
    stand_ins = _pywin32()
    touched = [*stand_ins, "xlwings._xlwindows", "xlwings.udfs", MODULE]
    saved = {name: sys.modules[name] for name in touched if name in sys.modules}
    monkeypatch.setattr(xlwings, "udfs", None, raising=False)  # undone: the attribute the import sets
    monkeypatch.setattr(xlwings, "_xlwindows", None, raising=False)
    monkeypatch.setattr(udfs_package, "functions", None, raising=False)
    try:
        for name in ("xlwings._xlwindows", "xlwings.udfs", MODULE):
            sys.modules.pop(name, None)
        sys.modules.update(stand_ins)
        with monkeypatch.context() as m:  # only while _xlwindows imports: it loads DLLs at import
            m.setattr(ctypes, "windll", _Anything(), raising=False)
            m.setattr(ctypes, "oledll", _Anything(), raising=False)
            m.setattr(ctypes, "PyDLL", lambda *a, **k: _Anything())
            xlwindows = importlib.import_module("xlwings._xlwindows")
        xlwindows.BOOK_CALLER = None  # type: ignore[attr-defined]  # set by xlwings' own UDF server at run time
        udfs = importlib.import_module("xlwings.udfs")
        monkeypatch.setattr(xlwings, "func", udfs.xlfunc)
        monkeypatch.setattr(xlwings, "arg", udfs.xlarg)
        monkeypatch.setattr(xlwings, "ret", udfs.xlret)
        monkeypatch.setattr(xlwings, "sub", udfs.xlsub)
        monkeypatch.setitem(xlwings.engines.engines_by_name, "excel", Engine(impl=xlwindows.engine))
        functions = importlib.import_module(MODULE)
        yield Windows(udfs, functions, xlwindows)
    finally:
        for name in touched:
            if name in saved:
                sys.modules[name] = saved[name]
            else:
                sys.modules.pop(name, None)


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> Iterator[Windows]:
    with windows_xlwings(monkeypatch) as win:
        yield win
