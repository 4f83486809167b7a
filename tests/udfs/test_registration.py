"""What xlwings does with benchsheet's UDF module on Windows, run by xlwings itself.

There is no Excel here: tests/xlwings_windows.py imports xlwings' real Windows code under
stand-ins for pywin32, and the workbook here is a fake COM object that captures the generated VBA
module text and the ``Application.MacroOptions`` calls.

What runs unchanged is xlwings' own code: ``generate_vba_wrapper`` (the VBA
shell), ``import_udfs`` (the ribbon's "Import Functions") and ``call_udf`` (what
a cell's VBA function calls), including xlwings' argument conversion.
"""

from __future__ import annotations

import io
import re
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import xlwings

import benchsheet.udfs as udfs_package
from benchsheet.catalogue.calls import call
from benchsheet.catalogue.declare import Function
from benchsheet.catalogue.functions import BY_NAME, CATALOGUE
from benchsheet.data import store
from benchsheet.errors import vt_error
from tests.xlwings_windows import MISSING, MODULE, ComError, ComRange, Windows, windows, windows_xlwings

BOOK = "benchsheet.xlsm"
NA_ERROR = vt_error("#N/A")  # a #N/A cell as pywin32 delivers it
__all__ = ["windows"]  # the fixture, used by name

# ----------------------------------------------------------------- VBA names

# MS-VBAL 3.3.5.2 "Reserved Identifiers" (statement, marker and operator
# keywords, special forms, reserved types and names, literals, Rem, the
# names reserved for the implementation and for the future). VBA function
# names such as Round, Left or Val are *not* reserved: a parameter may shadow them.
_RESERVED_WORDS = """
    Call Case Close Const Declare DefBool DefByte DefCur DefDate DefDbl DefDec DefInt DefLng DefLngLng
    DefLngPtr DefObj DefSng DefStr DefVar Dim Do Else ElseIf End EndIf Enum Erase Event Exit For Friend
    Function Get Global GoSub GoTo If Implements Input Let Lock Loop LSet Next On Open Option Print Private
    Public Put RaiseEvent ReDim Resume Return RSet Seek Select Set Static Stop Sub Type Unlock Wend While
    With Write
    Any As ByRef ByVal Each In New Shared Until WithEvents Optional ParamArray Preserve Spc Tab Then To
    AddressOf And Eqv Imp Is Like Mod Not Or TypeOf Xor
    Abs CBool CByte CCur CDate CDbl CDec CInt CLng CLngLng CLngPtr CSng CStr CVar CVErr Date Debug DoEvents
    Fix Int Len LenB Me PSet Scale Sgn String
    Array Circle InputB LBound UBound
    Boolean Byte Currency Double Integer Long LongLong LongPtr Single Variant Object
    True False Nothing Empty Null Rem
    Attribute LineInput VB_Base VB_Control VB_Creatable VB_Customizable VB_Description VB_Exposed
    VB_Ext_KEY VB_GlobalNameSpace VB_HelpID VB_Invoke_Func VB_Invoke_Property VB_Invoke_PropertyPut
    VB_Invoke_PropertyPutRef VB_MemberFlags VB_Name VB_PredeclaredId VB_ProcData VB_TemplateDerived
    VB_UserMemId VB_VarDescription VB_VarHelpID VB_VarMemberFlags VB_VarProcData VB_VarUserMemId
    CDecl Decimal
"""
VBA_RESERVED = frozenset(w.lower() for w in _RESERVED_WORDS.split())
# Names the generated function bodies use; a parameter of the same name would shadow them.
VBA_BODY_NAMES = frozenset({"xlpy", "application", "thisworkbook", "activeworkbook", "err", "range", "failed"})
VBA_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,254}")
EXCEL_TEXT_LIMIT = 255  # Application.MacroOptions: Description and each ArgumentDescription

# --------------------------------------------------------- fake COM workbook


class VBComponents:
    """``Workbook.VBProject.VBComponents``: keeps the text of each imported .bas module."""

    def __init__(self) -> None:
        self.modules: dict[str, str] = {}
        self.removed: list[str] = []

    def __call__(self, name: str) -> str:
        if name not in self.modules:
            raise ComError(-2147352565, "Subscript out of range")
        return name

    def Remove(self, component: str) -> None:
        self.removed.append(component)
        del self.modules[component]

    def Import(self, path: str) -> None:
        text = Path(path).read_text()
        found = re.search(r'^Attribute VB_Name = "([^"]+)"', text, re.M)
        assert found, text[:200]
        self.modules[found[1]] = text


@dataclass
class Application:
    Version: str = "16.0"
    macro_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    runs: list[tuple[Any, ...]] = field(default_factory=list)

    def MacroOptions(self, macro: str, **options: Any) -> None:
        self.macro_options[macro] = options

    def Run(self, *args: Any) -> None:
        self.runs.append(args)


@dataclass
class Workbook:
    Name: str = BOOK
    sheet_names: tuple[str, ...] = ("Sheet1",)
    VBProject: Any = field(default_factory=lambda: types.SimpleNamespace(VBComponents=VBComponents()))
    Application: Application = field(default_factory=Application)

    @property
    def Worksheets(self) -> list[Any]:
        return [types.SimpleNamespace(Name=name) for name in self.sheet_names]


def _xlfunc(windows: Windows, fn: Function) -> dict[str, Any]:
    info: dict[str, Any] = getattr(windows.functions, fn.name).__xlfunc__
    return info


def _signature(fn: Function) -> str:
    return f"Function {fn.name}({', '.join(('Optional ' if a.optional else '') + a.name for a in fn.args)})"


def _vba(windows: Windows, book: Workbook | None = None) -> str:
    out = io.StringIO()
    windows.udfs.generate_vba_wrapper(MODULE, windows.functions, out, book or Workbook())
    return out.getvalue()


def _blocks(vba: str) -> dict[str, list[str]]:
    """Each generated VBA function's lines, by name."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in vba.splitlines():
        head = re.match(r"Function (\w+)\(", line)
        if head:
            current = blocks.setdefault(head[1], [])
        if current is not None:
            current.append(line.strip())
        if line.strip() == "End Function":
            current = None
    return blocks


def by_name(fns: tuple[Function, ...] = CATALOGUE) -> list[Any]:
    return [pytest.param(fn, id=fn.name) for fn in fns]


# ------------------------------------------------- the generated VBA module


def test_the_vba_module_declares_exactly_the_catalogue(windows: Windows) -> None:
    blocks = _blocks(_vba(windows))
    assert sorted(blocks) == sorted(fn.name for fn in CATALOGUE)


def test_signatures_spell_out_arguments_and_optional_arguments(windows: Windows) -> None:
    heads = {name: lines[0] for name, lines in _blocks(_vba(windows)).items()}
    assert heads["PERGPU"] == "Function PERGPU(entry, Optional benchmark, Optional scenario)"
    assert heads["RESULT"] == "Function RESULT(entry, benchmark, scenario)"
    assert heads["DATAINFO"] == "Function DATAINFO(Optional field)"
    assert heads["ENTRY"] == "Function ENTRY(entry_id, field)"
    assert heads["GPUSNEEDED"] == (
        "Function GPUSNEEDED(target_tokens_per_sec, tokens_per_sec_per_gpu, Optional utilization, "
        "Optional gpus_per_node, Optional units)"
    )
    assert heads["BEST"] == (
        "Function BEST(family, benchmark, scenario, Optional availability, Optional max_gpus, Optional round, "
        "Optional software)"
    )
    for fn in CATALOGUE:
        assert heads[fn.name] == _signature(fn)


@pytest.mark.parametrize(("book", "caller_book"), [(BOOK, "ThisWorkbook"), ("benchsheet.xlam", "ActiveWorkbook")])
def test_each_function_calls_python_with_all_its_arguments_in_order(
    windows: Windows, book: str, caller_book: str
) -> None:
    blocks = _blocks(_vba(windows, Workbook(Name=book)))
    for fn in CATALOGUE:
        array = f"Array({', '.join(a.name for a in fn.args)})"
        assert (
            f'{fn.name} = XLPy.CallUDF("{MODULE}", "{fn.name}", {array}, {caller_book}, Application.Caller)'
            in (blocks[fn.name])
        )
        assert f"{fn.name} = Err.Description" in blocks[fn.name]
        assert "Application.Volatile" not in blocks[fn.name]  # recalculates only when its inputs change


# ------------------------------------------------------- "Import Functions"


def test_import_functions_replaces_the_module_and_registers_help(windows: Windows) -> None:
    book = Workbook()
    components = book.VBProject.VBComponents
    windows.udfs.import_udfs(MODULE, book)
    first = components.modules["xlwings_udfs"]
    windows.udfs.import_udfs(MODULE, book)  # a second import replaces the first, never adds one
    assert list(components.modules) == ["xlwings_udfs"]
    assert components.removed == ["xlwings_udfs"]
    assert components.modules["xlwings_udfs"] == first
    assert book.Application.runs == []  # the direct Import worked; no fallback through VBA
    assert first.startswith('Attribute VB_Name = "xlwings_udfs"\n')
    for fn in CATALOGUE:
        assert _signature(fn) in first.splitlines()

    options = book.Application.macro_options
    assert sorted(options) == sorted(f"'{BOOK}'!{fn.name}" for fn in CATALOGUE)
    for fn in CATALOGUE:
        got = options[f"'{BOOK}'!{fn.name}"]
        assert got["Description"] == fn.help
        assert got["ArgumentDescriptions"] == [a.help for a in fn.args]
        assert got["HasMenu"] is False


def test_import_functions_files_every_function_under_benchsheet(windows: Windows) -> None:
    book = Workbook()
    windows.udfs.import_udfs(MODULE, book)
    categories = {name: o["Category"] for name, o in book.Application.macro_options.items()}
    assert categories == {f"'{BOOK}'!{fn.name}": "benchsheet" for fn in CATALOGUE}


def test_old_excel_gets_the_description_only(windows: Windows) -> None:
    book = Workbook(Application=Application(Version="12.0"))
    windows.udfs.import_udfs(MODULE, book)
    assert book.Application.macro_options[f"'{BOOK}'!PERGPU"] == {"Description": BY_NAME["PERGPU"].help}


# ------------------------------------------------------- names and limits


def _vba_name_problem(name: str) -> str | None:
    if not VBA_IDENTIFIER.fullmatch(name):
        return f"{name} is not a VBA identifier"
    if name.lower() in VBA_RESERVED:
        return f"{name} is a VBA keyword"
    return None


@pytest.mark.parametrize("fn", by_name())
def test_vba_names_are_legal(fn: Function) -> None:
    names = [fn.name, *(a.name for a in fn.args)]
    for name in names:
        assert _vba_name_problem(name) is None, _vba_name_problem(name)
    params = [a.name.lower() for a in fn.args]
    assert len(set(params)) == len(params), "VBA names are case-insensitive"
    assert not set(params) & VBA_BODY_NAMES, "a parameter would shadow a name the generated body uses"
    # A1 or R1C1 look-alikes (e.g. LOG10, R2C3) are read as cell references in formulas.
    assert not re.fullmatch(r"[A-Za-z]{1,3}\d+|[Rr]\d*[Cc]?\d*", fn.name), fn.name


@pytest.mark.parametrize("fn", by_name())
def test_no_parameter_is_named_like_its_function(fn: Function) -> None:
    # Inside a VBA Function its name is the result variable: "Function ENTRY(entry, ...)" is a
    # "Duplicate declaration in current scope" compile error, which disables the whole module
    # (and every function in it).
    assert fn.name.lower() not in {a.name.lower() for a in fn.args}


def test_round_is_a_legal_parameter_name(windows: Windows) -> None:
    # Round is a VBA *function*; a parameter may shadow it. The names in the VBA xlwings generates for BEST
    # pass the check above, round among them, while the check refuses real keywords in the same place.
    head = _blocks(_vba(windows))["BEST"][0]
    params = [p.removeprefix("Optional ") for p in head[head.index("(") + 1 : -1].split(", ")]
    assert "round" in params and [_vba_name_problem(p) for p in params] == [None] * len(params)
    assert [_vba_name_problem(p) for p in ("Date", "string", "Stop", "Optional")] == [
        "Date is a VBA keyword",
        "string is a VBA keyword",
        "Stop is a VBA keyword",
        "Optional is a VBA keyword",
    ]


@pytest.mark.parametrize("fn", by_name())
def test_help_texts_fit_excels_255_character_limit(fn: Function) -> None:
    assert 0 < len(fn.help) <= EXCEL_TEXT_LIMIT
    for a in fn.args:
        assert 0 < len(a.help) <= EXCEL_TEXT_LIMIT, a.name


def test_registration_matches_the_catalogue(windows: Windows) -> None:
    for fn in CATALOGUE:
        info = _xlfunc(windows, fn)
        assert info["name"] == fn.name
        assert info["ret"]["doc"] == fn.help
        assert info["sub"] is False and info["async_mode"] is None and info["volatile"] is False
        assert [a["name"] for a in info["args"]] == [a.name for a in fn.args]
        assert [a["doc"] for a in info["args"]] == [a.help for a in fn.args]
        assert ["optional" in a for a in info["args"]] == [a.optional for a in fn.args]
        assert all(a.get("optional") is None for a in info["args"])  # an omitted argument arrives as None


@pytest.mark.parametrize("fn", by_name())
def test_every_argument_of_a_scalar_function_takes_a_range(windows: Windows, fn: Function) -> None:
    ndims = [a["options"].get("ndim") for a in _xlfunc(windows, fn)["args"]]
    expected = [2 if fn.vectorized or fn.scalar_with or a.kind == "cells" else None for a in fn.args]
    assert ndims == expected


# --------------------------------------------------- calls through call_udf


def _udf(windows: Windows, name: str, *args: Any) -> Any:
    return windows.udfs.call_udf(MODULE, name, args)


def _direct(name: str, *args: Any) -> Any:
    from benchsheet.udfs.functions import error_text

    return call(BY_NAME[name], store.get_table(), args, error_text)


def test_a_column_of_entries_answers_a_column(windows: Windows) -> None:
    ids = ("5.1-0072", "6.1-9999", "6.1-0052")
    got = _udf(windows, "PERGPU", ComRange(tuple((i,) for i in ids)), "deepseek-r1", "Server")
    assert [len(row) for row in got] == [1, 1, 1]
    assert got == [[_direct("PERGPU", i, "deepseek-r1", "Server")] for i in ids]
    assert isinstance(got[0][0], float) and got[0][0] > 0
    assert got[1][0].startswith("#N/A ")


def test_a_row_of_entries_answers_a_row(windows: Windows) -> None:
    got = _udf(windows, "GPUS", ComRange((("5.1-0072", "6.1-0052"),)))
    assert got == [[_direct("GPUS", "5.1-0072"), _direct("GPUS", "6.1-0052")]]
    assert all(isinstance(v, int | float) and v >= 1 for v in got[0])


def test_an_array_constant_and_a_single_cell_keep_their_shape(windows: Windows) -> None:
    block = (("5.1-0072", "5.1-0072"), ("6.1-9999", "5.1-0072"))
    got = _udf(windows, "PERGPU", block, "deepseek-r1", "Server")  # ={...} arrives as a tuple of tuples
    assert [len(row) for row in got] == [2, 2]
    assert got[1][0].startswith("#N/A ") and got[0][0] == got[0][1] == got[1][1]
    one = _udf(windows, "PERGPU", ComRange((("5.1-0072",),)), "deepseek-r1", "Server")
    assert one == [[got[0][0]]]


def test_omitted_optional_arguments_arrive_as_none(windows: Windows) -> None:
    got = _udf(windows, "PERGPU", "5.1-0072", MISSING, MISSING)
    assert got == [[_direct("PERGPU", "5.1-0072", None, None)]]
    cost = _udf(windows, "COSTPERMTOK", 2.0, 1000.0, MISSING)
    assert cost == [[pytest.approx(2.0 * 1_000_000 / (1000.0 * 3600))]]


def test_ranges_in_every_argument_answer_a_block_as_an_array_formula_does(windows: Windows) -> None:
    got = _udf(windows, "PERGPU", "5.1-0072", ComRange((("deepseek-r1",), ("llama2-70b-99",))), "Server")
    assert got == [[_direct("PERGPU", "5.1-0072", b, "Server")] for b in ("deepseek-r1", "llama2-70b-99")]
    grid = _udf(windows, "COSTPERMTOK", ComRange(((2.0,), (3.0,))), 1000.0, ComRange(((0.5, 1.0, 0.8),)))
    assert grid == [[_direct("COSTPERMTOK", p, 1000.0, u) for u in (0.5, 1.0, 0.8)] for p in (2.0, 3.0)]
    short = _udf(windows, "COSTPERMTOK", ComRange(((2.0,), (3.0,))), 1000.0, ComRange(((0.5,), (1.0,), (0.8,))))
    assert short[2] == [
        "#N/A price_per_gpu_hour has 2 rows, the answer 3: make the ranges the same size, or "
        "price_per_gpu_hour one cell"
    ]


def test_cite_with_a_part_answers_a_line_a_cell_and_without_one_its_column(windows: Windows) -> None:
    entries = ComRange((("6.1-0052",), ("6.1-9999",), (None,)))
    got = _udf(windows, "CITE", entries, "gpt-oss-120b", "Server", ComRange((("entry", "result"),)))
    expected = [
        [_direct("CITE", e, "gpt-oss-120b", "Server", p) for p in ("entry", "result")]
        for e in ("6.1-0052", "6.1-9999", None)
    ]
    assert got == expected and got[1][0].startswith("#N/A ") and got[2][0].startswith("#VALUE! ")
    assert _udf(windows, "CITE", "6.1-0052", "gpt-oss-120b", "Server", "result") == [[expected[0][1]]]
    whole = _udf(windows, "CITE", "6.1-0052", "gpt-oss-120b", "Server", MISSING)
    assert whole == _direct("CITE", "6.1-0052", "gpt-oss-120b", "Server") and len(whole) > 3
    blank = _udf(windows, "CITE", "6.1-0052", "gpt-oss-120b", "Server", ComRange((("entry", None),)))
    assert blank == [[expected[0][0], "#VALUE! part is blank: CITE answers one value only with it"]]


def test_a_table_function_answers_its_table(windows: Windows) -> None:
    got = _udf(windows, "RESULTS", "gpt-oss-120b", "Server", "B200", MISSING, MISSING, MISSING, MISSING)
    expected = _direct("RESULTS", "gpt-oss-120b", "Server", "B200")
    assert len(got) == len(expected) > 1
    assert got[0] == expected[0]  # the header
    assert {len(row) for row in got} == {len(expected[0])}


def test_an_error_cell_argument_answers_an_error_text_not_a_crash(windows: Windows) -> None:
    # as in Excel, a #N/A cell in any argument answers #N/A: not "#VALUE! entry must be text" nor a crash text
    assert _udf(windows, "PERGPU", ComRange(((NA_ERROR,),)), "deepseek-r1", "Server") == [["#N/A"]]
    assert _udf(windows, "PERGPU", "5.1-0072", ComRange(((NA_ERROR,),)), "Server") == [["#N/A"]]
    assert _udf(windows, "GPUSNEEDED", 1000.0, ComRange(((NA_ERROR,),))) == [["#N/A"]]


# ------------------------------------------------------------- isolation


def test_the_stand_ins_leave_no_trace() -> None:
    import ctypes

    import benchsheet.udfs.functions as before

    names = ("pythoncom", "pywintypes", "win32com", "win32com.client", "xlwings._xlwindows", "xlwings.udfs", MODULE)
    modules = {name: sys.modules.get(name) for name in names}
    attrs = {name: getattr(xlwings, name, None) for name in ("func", "arg", "ret", "sub", "udfs", "_xlwindows")}
    engines = dict(xlwings.engines.engines_by_name)
    pydll = ctypes.PyDLL
    with pytest.MonkeyPatch.context() as mp, windows_xlwings(mp) as win:
        assert win.functions is not before
        assert sys.modules["pywintypes"].com_error is ComError
        assert hasattr(win.functions.PERGPU, "__xlfunc__")
        assert str(win.xlwindows.__file__).endswith("_xlwindows.py")  # xlwings' own Windows module
    assert ctypes.PyDLL is pydll and not hasattr(ctypes, "windll")
    assert {name: sys.modules.get(name) for name in names} == modules
    assert {name: getattr(xlwings, name, None) for name in attrs} == attrs
    assert xlwings.engines.engines_by_name == engines
    assert udfs_package.functions is before
    assert not hasattr(before.PERGPU, "__xlfunc__")
