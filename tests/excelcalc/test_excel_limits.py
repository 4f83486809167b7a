"""Excel's own limits on what a formula answers (issue 30), enforced where Excel enforces them: a
text of more than 32,767 characters is #VALUE! (refused before it is built), a number beyond
Excel's range #NUM! inside the value (IFERROR and ISERROR see it), dates outside Excel's calendar
#NUM!. Each case is one of the issue's starting cases."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from excelcalc.formula import evaluate
from excelcalc.values import ReasonedError
from tests.excelcalc.lib.workbooks import book


def _error(value: object, code: str, *words: str) -> str:
    assert isinstance(value, ReasonedError), value
    assert str(value) == code, value.text
    for word in words:
        assert word in value.reason, value.text
    return value.reason


# ------------------------------------------------------------------------------ text of 32,767


@pytest.mark.parametrize(
    "formula",
    [
        '=LEN(REPT("a",30000)&REPT("b",30000))',
        '=LEN(CONCATENATE(REPT("a",30000),REPT("b",30000)))',
        '=LEN(_xlfn.CONCAT(REPT("a",30000),REPT("b",30000)))',
        '=LEN(_xlfn.TEXTJOIN(",",TRUE,REPT("a",20000),REPT("b",20000)))',
        '=LEN(SUBSTITUTE(REPT("a",20000),"a","bb"))',
        '=LEN(SUBSTITUTE(REPT("a",32767),"a",REPT("b",3),2))',
        '=LEN(REPLACE(REPT("a",30000),1,1,REPT("b",3000)))',
        '=LEN(UPPER(REPT("a",30000)&REPT("b",3000)))',
    ],
)
def test_a_text_longer_than_excel_holds_is_value_error_with_the_reason(formula: str) -> None:
    """Excel answers #VALUE! for any text over 32,767 characters, also inside a formula
    (``LEN(REPT("a",30000)&REPT("b",30000))`` answered 60000)."""
    _error(evaluate(formula), "#VALUE!", "32,767")


def test_the_longest_text_excel_holds_is_still_made() -> None:
    assert evaluate('=LEN(REPT("a",30000)&REPT("b",2767))') == 32767
    assert evaluate('=LEN(SUBSTITUTE(REPT("a",16000),"a","bb"))') == 32000
    assert evaluate('=LEN(_xlfn.TEXTJOIN(",",TRUE,REPT("a",16383),REPT("b",16383)))') == 32767
    assert evaluate('=LEN(CONCATENATE(REPT("a",16383),REPT("b",16384)))') == 32767


def test_iferror_sees_a_text_too_long() -> None:
    assert evaluate('=IFERROR(LEN(REPT("a",30000)&REPT("b",30000)),"caught")') == "caught"
    assert evaluate('=ISERROR(REPT("a",30000)&REPT("b",30000))') is True


def test_an_array_of_texts_too_long_is_value_error_in_each_cell_too_long() -> None:
    got = evaluate('=ISERROR({"a";"bb"}&REPT("c",32766))')
    assert got == [[False], [True]]


def test_substitute_refuses_before_building_a_gigabyte() -> None:
    """``LEN(SUBSTITUTE(REPT("a",32767),"a",REPT("b",32767)))`` answered 1,073,676,289 using 1.06 GB."""
    evaluate('=LEN(SUBSTITUTE("a","a","b"))')  # the engine loaded
    tracemalloc.start()
    try:
        reason = _error(evaluate('=LEN(SUBSTITUTE(REPT("a",32767),"a",REPT("b",32767)))'), "#VALUE!", "32,767")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "1,073,676,289" in reason
    assert peak < 10_000_000, f"{peak:,} bytes at the peak"


def test_concat_of_a_whole_column_too_long(tmp_path: Path) -> None:
    """``LEN(CONCAT(A:A))`` over many cells answered 8,000,000."""
    cells: dict[str, object] = {f"A{r}": "x" * 1000 for r in range(1, 41)}
    cells["B1"] = "=LEN(_xlfn.CONCAT(A:A))"
    cells["B2"] = '=IFERROR(LEN(_xlfn.CONCAT(A:A)),"caught")'
    cells["B3"] = "=LEN(_xlfn.CONCAT(A1:A32))"
    cells["B4"] = '=LEN(_xlfn.TEXTJOIN("-",TRUE,A:A))'
    got = book(tmp_path, cells)
    assert got["B1"] == "#VALUE!" and "32,767" in got["reasons"]["B1"]
    assert got["B2"] == "caught"
    assert got["B3"] == 32000
    assert got["B4"] == "#VALUE!" and "40,039" in got["reasons"]["B4"]


# ------------------------------------------------------------------------------- numbers of 1.8E308

OVERFLOWS = [
    "=SUM(1E308,1E308)",
    "=AVERAGE(1E308,1E308)",
    "=PRODUCT(1E308,1E308)",
    "=SUMSQ(1E308)",
    "=MEDIAN(1E308,1E308)",
    "=AVEDEV(1E308,-1E308)",
    "=SUMPRODUCT({1E308,1E308},{1,1})",
    "=MMULT({1E308,1E308},{1;1})",
    "=MDETERM({1E308,1;1,1E308})",
    '=CONVERT(1E308,"km","mm")',
    "=SUMX2MY2({1E308},{1})",
    "=SUMX2PY2({1E308},{1})",
    "=SUMXMY2({1E308},{-1E308})",
]


@pytest.mark.parametrize("formula", OVERFLOWS)
def test_an_overflow_is_num_never_inf(formula: str) -> None:
    """``=SUM(1E308,1E308)`` printed ``inf``; Excel answers #NUM!."""
    _error(evaluate(formula), "#NUM!", "1.8E+308")


@pytest.mark.parametrize("formula", OVERFLOWS)
def test_iferror_and_iserror_see_an_overflow(formula: str) -> None:
    assert evaluate(f'=IFERROR({formula[1:]},"caught")') == "caught"
    assert evaluate(f"=ISERROR({formula[1:]})") is True


def test_an_overflow_in_one_cell_of_an_array_is_num_in_that_cell() -> None:
    got = evaluate("=MMULT({1E308,1E308;1,1},{1;1})")
    assert isinstance(got, list)
    assert str(got[0][0]) == "#NUM!" and got[1][0] == 2


def test_npv_at_a_rate_of_minus_one_divides_by_zero() -> None:
    """Excel: NPV divides each value by (1+rate)^i: at -1 that is #DIV/0! (it answered inf)."""
    _error(evaluate("=NPV(-1,1,2)"), "#DIV/0!", "-1")
    assert evaluate("=NPV(0.1,-10000,3000,4200,6800)") == pytest.approx(1188.44341, abs=1e-5)


def test_calc_lists_an_overflowing_cell(tmp_path: Path) -> None:
    """calc wrote #NUM! but exited 0 without listing the cell."""
    got = book(tmp_path, {"A1": 1e308, "B1": "=SUM(A1,A1)", "B2": '=IFERROR(B1,"caught")', "B3": "=A1*1"})
    assert got["B1"] == "#NUM!" and "1.8E+308" in got["reasons"]["B1"]
    assert got["B2"] == "caught" and got["B3"] == 1e308


# ------------------------------------------------------------------------------ Excel's calendar


@pytest.mark.parametrize("formula", ["=EDATE(0,-1)", "=WORKDAY(1,-5)", "=EDATE(100,-12)", "=WORKDAY(3,-5)"])
def test_a_date_outside_excels_calendar_is_num(formula: str) -> None:
    """Excel's dates run from serial 0 (January 0, 1900) to 2958465 (December 31, 9999):
    ``EDATE(0,-1)`` answered 693931 and ``WORKDAY(1,-5)`` 693956 (the year 3799)."""
    _error(evaluate(formula), "#NUM!", "calendar")


def test_dates_inside_excels_calendar_still_computed() -> None:
    assert evaluate("=EDATE(0,0)") == 0
    assert evaluate("=EDATE(2958465,-1)") == 2958434
    assert evaluate("=WORKDAY(10,-5)") == 3
    assert evaluate("=ISERROR(EDATE(0,-1))") is True


def _mac(wb: object) -> None:
    import openpyxl

    wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904  # type: ignore[attr-defined]


def test_a_date_before_1904_in_a_1904_workbook_is_num(tmp_path: Path) -> None:
    """In a workbook of the 1904 date system serial 0 is January 1, 1904: ``YEAR(-1)`` answered
    1903 and ``DAYS(-5,-1)`` -4; Excel answers #NUM!."""
    cells = {
        "A1": "=YEAR(-1)",
        "A2": "=_xlfn.DAYS(-5,-1)",
        "A3": "=EDATE(0,-1)",
        "A4": "=YEAR(0)",
        "A5": "=_xlfn.DAYS(5,1)",
        "A6": "=EDATE(40,-1)",
        "A7": "=WORKDAY(3,-5)",
        "A8": "=MONTH(2957004)",
    }
    got = book(tmp_path, cells, _mac)
    for ref in ("A1", "A2", "A3", "A7", "A8"):
        assert got[ref] == "#NUM!", (ref, got[ref])
        assert "calendar" in got["reasons"][ref], got["reasons"][ref]
    assert (got["A4"], got["A5"], got["A6"]) == (1904, 4, 9)


# ------------------------------------------------------------------------- numbers too large to make


def test_combin_too_large_for_a_number_is_refused_without_computing_it() -> None:
    """``COMBIN(1E9,5E8)`` gave no answer after 300 s (a big integer of a billion bits); Excel
    answers #NUM! (beyond 1.8E+308). Run in a child process so the old code fails by its timeout."""
    code = "from excelcalc.formula import evaluate; print(evaluate('=COMBIN(1E9,5E8)').text)"
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("COMBIN(1E9,5E8) was still computing after 60 s")
    assert done.stdout.startswith("#NUM!") and "1.8E+308" in done.stdout, done.stdout + done.stderr


def test_combin_as_large_as_a_number_holds() -> None:
    assert evaluate("=COMBIN(1029,514)") == pytest.approx(1.4298e308, rel=1e-3)
    assert evaluate("=COMBIN(1E9,2)") == 499999999500000000
    _error(evaluate("=COMBIN(1030,515)"), "#NUM!", "1.8E+308")


def test_fact_as_excel_answers_it() -> None:
    """Excel: FACT(170) is 7.257415615307994E+306 (its product of floats, not the exact integer's
    7.257415615307999E+306), FACT(171) #NUM!; it answered #VALUE! "wrong type" for both."""
    assert evaluate("=FACT(170)") == 7.257415615307994e306
    _error(evaluate("=FACT(171)"), "#NUM!", "1.8E+308")
    assert [evaluate(f"=FACT({n})") for n in ("0", "1.9", "5", "TRUE")] == [1, 1, 120, 1]
    assert str(evaluate("=FACT(-1)")) == "#NUM!"
    assert evaluate("=FACT(20)") == 2432902008176640000


# ---------------------------------------------------------------- numbers where errors were answered


def test_text_functions_of_an_array_answer_each_cell() -> None:
    """``LEN({"ab";"c"})`` and UPPER of an array answered ``#VALUE! (ValueError: truth value of an
    array...)``; Excel answers cell by cell."""
    assert evaluate('=LEN({"ab";"c"})') == [[2], [1]]
    assert evaluate('=UPPER({"ab","c"})') == [["AB", "C"]]
    assert evaluate('=SUMPRODUCT(LEN({"ab";"c"}))') == 3
    assert evaluate('=LEFT({"abc";"de"},2)') == [["ab"], ["de"]]


def test_sumproduct_of_len_of_a_range(tmp_path: Path) -> None:
    cells = {"B1": "ab", "B2": " c", "B3": 12.5, "C1": "=SUMPRODUCT(LEN(B1:B3))", "C2": "=SUMPRODUCT(LEN(TRIM(B1:B3)))"}
    got = book(tmp_path, cells)
    assert (got["C1"], got["C2"]) == (8, 7), got


def test_datedif_reads_its_unit_in_any_case() -> None:
    """``DATEDIF(a,b,"d")`` was #NUM! where ``"D"`` worked; Excel reads the unit in any case."""
    assert evaluate('=DATEDIF(1,100,"d")') == 99
    assert evaluate('=DATEDIF(1,800,"y")') == evaluate('=DATEDIF(1,800,"Y")') == 2
    assert evaluate('=DATEDIF(1,800,"ym")') == evaluate('=DATEDIF(1,800,"YM")')
    assert str(evaluate('=DATEDIF(1,100,"x")')) == "#NUM!"


def test_an_array_of_more_text_than_benchsheet_makes_is_refused_before_it_is_made(tmp_path: Path) -> None:
    """``SUMPRODUCT(LEN(ROW(A2:A1000000)&REPT("a",32000)))`` grew to 23.6 GB and was killed: each
    text is within Excel's limit, the array is not within the machine's. An array answer of more
    than 50,000,000 characters of text is refused, with the reason, before it is made."""
    cells = {
        "A3000": 1,
        "B1": '=SUMPRODUCT(LEN(ROW(A2:A3000)&REPT("a",30000)))',
        "B2": '=SUMPRODUCT(LEN(REPT("a",ROW(A2:A3000)*5)))',
        "B3": '=SUMPRODUCT(LEN(SUBSTITUTE(ROW(A2:A3000),"1",REPT("b",30000))))',
        "B4": '=SUMPRODUCT(LEN(ROW(A2:A3000)&"ab"))',
    }
    tracemalloc.start()
    try:
        got = book(tmp_path, cells)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    for ref in ("B1", "B3"):
        assert got[ref] == "#VALUE!" and "50,000,000" in got["reasons"][ref], (ref, got[ref], got["reasons"])
    assert got["B2"] == sum(5 * r for r in range(2, 3001))
    assert got["B4"] == sum(len(str(r)) + 2 for r in range(2, 3001))
    assert peak < 40_000_000, f"{peak:,} bytes at the peak"


def test_an_array_formula_in_fewer_cells_than_its_answer_shows_its_first_cells(tmp_path: Path) -> None:
    """``{=ROW(A1:A3)}`` entered in C1:C2 answered #VALUE! in both cells; Excel shows 1 and 2."""
    from openpyxl.worksheet.formula import ArrayFormula

    def arrays(wb: Any) -> None:
        ws = wb.active
        ws["C1"] = ArrayFormula("C1:C2", "=ROW(A1:A3)")
        ws["E1"] = ArrayFormula("E1:F1", "={1,2,3}")
        ws["E3"] = ArrayFormula("E3:F4", "={1,2,3;4,5,6;7,8,9}")
        ws["G1"] = ArrayFormula("G1:G4", "=ROW(A1:A3)")
        ws["H1"] = ArrayFormula("H1:I2", "=ROW(A1:A3)")

    got = book(tmp_path, {}, arrays)
    assert [got[c] for c in ("C1", "C2", "E1", "F1", "E3", "F3", "E4", "F4")] == [1, 2, 1, 2, 1, 2, 4, 5]
    assert [got[c] for c in ("G1", "G2", "G3", "G4")] == [1, 2, 3, "#N/A"]
    assert [got[c] for c in ("H1", "I1", "H2", "I2")] == [1, 1, 2, 2]


def test_n_of_a_logical_value_is_its_number() -> None:
    """Microsoft's N page: N(TRUE) is 1 (it answered TRUE); a number is itself, text 0."""
    got = [evaluate(f) for f in ("=N(TRUE)", "=N(FALSE)", "=N(7)", '=N("7")', "=N(NA())")]
    assert got[:4] == [1, 0, 7, 0] and not isinstance(got[0], bool)
    assert str(got[4]) == "#N/A"


# ------------------------------------------------- numbers past Excel's, in the engine's words (issue 42 item 7)

PYTHON_WORDS = ("InvalidOperation", "decimal", "OverflowError", "Exceeds the limit", "set_int_max_str_digits", "int ")


def _no_python(reason: str) -> None:
    for word in PYTHON_WORDS:
        assert word not in reason, reason


@pytest.mark.parametrize(
    "formula",
    [
        "=1E309",  # answered inf
        "=1" + "0" * 400 + "+1",  # OverflowError: int too large to convert to float
        "=ROUND(" + "1" * 5001 + ",0)",  # Python's ValueError: Exceeds the limit (4300 digits)
        '="x"&' + "9" * 4400,
        "=-" + "9" * 309 + ".5",
    ],
)
def test_a_number_in_a_formula_past_excels_largest_is_num_with_the_reason(formula: str) -> None:
    """Microsoft's "Excel specifications and limits": the largest positive number a formula holds is
    1.7976931348623158E+308 (9.99999999999999E+307 typed into a cell): a number written in a formula
    beyond it is no number Excel holds, so #NUM! saying so, never Python's own words."""
    _no_python(_error(evaluate(formula), "#NUM!", "digits", "1.79769313486232E+308"))


def test_a_number_in_a_formula_excel_holds_is_computed_as_a_double() -> None:
    """A 300-digit integer is a double in Excel (15 significant digits): its square is #NUM!, as
    ``1E300*1E300``, not a 601-digit integer."""
    assert evaluate("=1" + "0" * 300 + "/1E300") == 1.0
    assert evaluate("=1.5E308") == 1.5e308
    _error(evaluate("=1" + "0" * 300 + "*1" + "0" * 300), "#NUM!")


def test_text_of_more_digits_than_excel_holds_is_value_error_in_its_words() -> None:
    """``TEXT(3E30,"0%%%...")`` answered ``cannot compute this formula (InvalidOperation:
    [<class 'decimal.InvalidOperation'>])``: each % multiplies by 100 (Microsoft's "Number format
    codes"), so 20,000 of them make a text of more than 32,767 characters, Excel's largest text
    (Microsoft's "Excel specifications and limits"): #VALUE! saying so, as every text function here."""
    _no_python(_error(evaluate('=TEXT(3E30,"0"&REPT("%",20000))'), "#VALUE!", "characters", "32,767"))
    _no_python(_error(evaluate('=TEXT(1,"0."&REPT("0",32767))'), "#VALUE!", "32,767"))


def test_text_and_fixed_of_many_digits_show_every_digit() -> None:
    """Past 400 digits (the precision the rounding had) TEXT and FIXED answered Python's
    decimal.InvalidOperation; Excel shows them (a text of 15 significant digits padded with zeros).
    Microsoft's FIXED page: decimals "can be as large as 127"."""
    assert evaluate('=TEXT(3E30,"0")') == "3" + "0" * 30
    assert evaluate('=LEN(TEXT(1E300,"0.' + "0" * 95 + '"))') == 397
    assert evaluate('=TEXT(1E308,"0.' + "0" * 200 + '")') == "1" + "0" * 308 + "." + "0" * 200
    assert evaluate('=TEXT(3E30,"0' + "%" * 200 + '")') == "3" + "0" * 430 + "%" * 200
    assert evaluate("=FIXED(1E300,127)") == "1" + ",000" * 100 + "." + "0" * 127
    assert evaluate("=FIXED(-1.5E308,127,TRUE)") == "-15" + "0" * 307 + "." + "0" * 127


def test_a_cached_number_past_excels_largest_is_refused_naming_the_cell(tmp_path: Path) -> None:
    """A ``<v>`` of 400 digits (a damaged or hostile file: Excel writes doubles) answered
    ``OverflowError: int too large to convert to float`` in the formula reading it: calc refuses the
    file, naming the cell and what it holds, and writes nothing."""
    import zipfile

    import openpyxl

    from excelcalc.workbook.calc import CalcError, calc

    src, bad = tmp_path / "in.xlsx", tmp_path / "bad.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "S"
    wb.active["A1"], wb.active["A2"], wb.active["B1"] = 5, 7, "=A1*2"
    wb.save(src)
    for digits in (400, 5001):
        with zipfile.ZipFile(src) as zin, zipfile.ZipFile(bad, "w") as zout:
            for info in zin.infolist():
                data = zin.read(info)
                if info.filename == "xl/worksheets/sheet1.xml":
                    data = data.replace(b"<v>5</v>", b"<v>" + b"1" * digits + b"</v>")
                zout.writestr(info, data)
        with pytest.raises(CalcError) as caught:
            calc(bad, tmp_path / "out.xlsx")
        text = str(caught.value)
        assert "S!A1" in text and f"{digits:,} digits" in text and "1.79769313486232E+308" in text, text
        _no_python(text)
        assert not (tmp_path / "out.xlsx").exists()
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(bad, "w") as zout:  # 16 digits: a double, as Excel reads it
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(info, data.replace(b"<v>5</v>", b"<v>1234567890123456789</v>"))
    calc(bad, tmp_path / "out.xlsx")
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]["B1"].value
    assert got == 2 * float(1234567890123456789)


@pytest.mark.parametrize(
    ("held", "kind"), [(b"abc", b""), (b"1,5", b""), (b"nan", b""), (b"inf", b""), (b"x", b' t="s"'), (b"7", b' t="s"')]
)
def test_a_cached_value_its_type_cannot_hold_is_refused_naming_the_cell(
    tmp_path: Path, held: bytes, kind: bytes
) -> None:
    """Issue 42 item 8: a number cell whose ``<v>`` is no number (a damaged file) was refused as
    "cannot compute this workbook (Unable to read workbook: could not read worksheets from bad.xlsx.)",
    openpyxl's words naming no cell or part; ``nan`` was read as a number; a shared-string cell naming
    a string the file does not have said "a cell". The refusal names the cell, what it holds, and that
    nothing was written."""
    import zipfile

    import openpyxl

    from excelcalc.workbook.calc import CalcError, calc

    src, bad = tmp_path / "in.xlsx", tmp_path / "bad.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "S"
    wb.active["A1"], wb.active["B1"] = 5, "=A1*2"
    wb.save(src)
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(bad, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b'<c r="A1" t="n"', b'<c r="A1"' + kind)
                data = data.replace(b"<v>5</v>", b"<v>" + held + b"</v>")
            zout.writestr(info, data)
    with pytest.raises(CalcError) as caught:
        calc(bad, tmp_path / "out.xlsx")
    text = str(caught.value)
    assert "S!A1" in text and held.decode() in text and "nothing was written" in text, text
    assert "Unable to read workbook" not in text
    assert not (tmp_path / "out.xlsx").exists()
