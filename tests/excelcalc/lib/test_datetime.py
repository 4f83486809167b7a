"""Excel's Date & Time functions (``excelcalc.lib.datetime``): YEARFRAC on every basis, and the
date functions in a workbook of the 1904 date system, which calc and eval answered as errors
before (issue 19). Each expected value is Excel's: from Microsoft's function pages or
PhpSpreadsheet's YEARFRAC test data (values Excel gives), cited beside the test."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from excelcalc.formula import evaluate
from tests.excelcalc.lib.workbooks import book

# PhpSpreadsheet's tests/data/Calculation/DateTime/YEARFRAC.php (values Excel gives): expected,
# start, end, basis. formulas' own YEARFRAC answered 8 of them otherwise (basis 1 across a year).
YEARFRAC_CASES = """
0.025 2007-1-10 2007-1-1 0
0.02465753424658 2007-1-1 2007-1-10 1
1.01111111111111 2007-1-1 2007-12-31 2
0.99722222222222 2007-1-1 2007-12-31 4
1.49658002735978 2007-1-1 2008-7-1 1
0.08055555555556 2007-1-1 2007-1-31 4
0.08611111111111 2007-1-31 2007-3-1 0
0.07945205479452 2007-1-31 2007-3-1 1
0.08611111111111 2007-1-31 2007-3-1 4
0.16666666666667 2007-1-31 2007-3-31 0
0.66666666666667 2008-1-1 2008-9-1 1
0.66849315068493 2008-1-1 2008-9-1 3
1.16279069767442 2007-2-1 2008-4-1 1
47.5216225276567 1960-12-19 2008-6-28 1
25.5571892111134 1982-12-7 2008-6-28 1
25.9305555555556 1982-12-7 2008-6-28 2
0.163934426 1960-01-01 1960-03-01 1
0.161643836 1963-03-01 1963-01-01 1
1.086183311 1960-01-01 1961-02-01 1
1.083447332 1963-01-01 1964-02-01 1
1.162790698 1963-01-01 1964-03-01 1
0.841530055 2020-02-28 2021-01-01 1
0.764383562 2020-03-28 2021-01-01 1
0.841530055 2023-04-28 2024-03-01 1
0.838797814 2023-04-28 2024-02-29 1
0.838356164 2023-04-28 2024-02-28 1
0.753424658 2023-04-28 2024-01-28 1
1.0 2020-01-01 2021-01-01 1
0.99726776 2020-02-28 2021-02-27 1
1.082191781 2022-04-28 2023-05-28 1
1.002739726 2022-04-27 2023-04-28 1
0.084699454 2024-04-27 2024-05-28 1
2.085766423 2023-04-27 2025-05-28 1
"""


def _serial(text: str) -> int:
    return (datetime.date(*map(int, text.split("-"))) - datetime.date(1899, 12, 30)).days


def test_yearfrac_as_excel_computes_it() -> None:
    wrong = []
    for case in YEARFRAC_CASES.strip().splitlines():
        expected, start, end, basis = case.split()
        got = evaluate(f"=YEARFRAC({_serial(start)},{_serial(end)},{basis})")
        if got != pytest.approx(float(expected), abs=1e-9):
            wrong.append(f"{case}: {got}")
    assert wrong == []


def test_yearfrac_end_of_february_on_basis_0() -> None:
    """Microsoft's YEARFRAC page: YEARFRAC(2012-1-1, 2012-7-30) is 0.58055556 on basis 0,
    0.57650273 on basis 1, 0.57808219 on basis 3. Basis 0 counts a start on the last day of
    February as the 30th, and an end on the last day of February then too (Excel's US 30/360;
    POI's YearFracCalculator): 2007-02-28 to 2008-02-29 is one year; a basis of 5 is #NUM!."""
    assert evaluate("=YEARFRAC(40909,41120)") == pytest.approx(0.58055556, abs=1e-8)
    assert evaluate("=YEARFRAC(40909,41120,1)") == pytest.approx(0.57650273, abs=1e-8)
    assert evaluate("=YEARFRAC(40909,41120,3)") == pytest.approx(0.57808219, abs=1e-8)
    assert evaluate(f"=YEARFRAC({_serial('2007-2-28')},{_serial('2008-2-29')},0)") == 1
    assert str(evaluate("=YEARFRAC(40909,41120,5)")) == "#NUM!"


def test_yearfrac_in_a_1904_workbook_counts_from_1904(tmp_path: Path) -> None:
    """Microsoft's "Date systems in Excel": a 1904 serial is 1,462 lower than the 1900 serial of
    the same date. YEARFRAC answered #VALUE! there; now the dates are read in their system."""

    def mac(wb: Any) -> None:
        wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904

    got = book(tmp_path, {"A1": 40909 - 1462, "A2": 41120 - 1462, "B1": "=YEARFRAC(A1,A2,1)"}, mac)
    assert got["B1"] == pytest.approx(0.57650273, abs=1e-8)


def test_date_functions_of_a_1904_workbook_read_and_make_its_dates(tmp_path: Path) -> None:
    """Microsoft's "Date systems in Excel": serial 0 of the 1904 system is 1904-01-01, so
    2012-01-01 is 40909 - 1462. YEAR, MONTH, DAY, DATE, EDATE, EOMONTH, DAYS, DAYS360, DATEDIF and
    WORKDAY read and make dates of that system (they answered #VALUE! naming it), and TEXT shows
    them; a function that would need more (VALUE of a date text) still answers that error, never
    a date 4 years off."""

    def mac(wb: Any) -> None:
        wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904

    cells: dict[str, Any] = {"A1": 40909 - 1462, "B1": "=YEAR(A1)*10000+MONTH(A1)*100+DAY(A1)"}
    cells |= {"B2": "=DATE(2012,1,1)", "B3": "=EOMONTH(A1,1)", "B4": "=EDATE(A1,-1)", "B5": "=DATE(1903,12,31)"}
    cells |= {"B6": "=DAYS360(A1,B3)", "B7": '=DATEDIF(A1,B3,"D")', "B8": "=WORKDAY(A2,1,A3)", "B9": "=YEAR(C1)"}
    cells |= {"B10": '=VALUE("1/1/2012")', "B11": '=TEXT(A1,"yyyy")'}
    cells |= {"A2": 40910 - 1462, "A3": 40911 - 1462}  # Monday 2012-01-02, a holiday
    got = book(tmp_path, cells, mac)
    assert (got["B1"], got["B2"], got["B3"], got["B4"]) == (20120101, 40909 - 1462, 40968 - 1462, 40878 - 1462)
    assert (got["B5"], got["B6"], got["B7"], got["B8"], got["B9"]) == ("#NUM!", 58, 59, 40912 - 1462, 1904)
    assert got["B10"] == "#VALUE!" and "1904" in got["reasons"]["B10"]
    assert got["B11"] == "2012"


# ------------------------------------------------------------------------ working days

# Microsoft's pages of WORKDAY, WORKDAY.INTL, NETWORKDAYS and NETWORKDAYS.INTL: their examples
WORKING_DAYS = {
    "WORKDAY(DATE(2008,10,1),151)": 39933,  # 4/30/2009
    "WORKDAY(DATE(2008,10,1),151,{39778,39786,39834})": 39938,  # 5/5/2009, holidays 11/26/2008 12/4/2008 1/21/2009
    "WORKDAY.INTL(DATE(2012,1,1),30,0)": "#NUM!",
    "WORKDAY.INTL(DATE(2012,1,1),90,11)": 41013,
    'TEXT(WORKDAY.INTL(DATE(2012,1,1),30,17),"m/dd/yyyy")': "2/05/2012",
    "NETWORKDAYS(DATE(2012,10,1),DATE(2013,3,1))": 110,
    "NETWORKDAYS(DATE(2012,10,1),DATE(2013,3,1),DATE(2012,11,22))": 109,
    "NETWORKDAYS(DATE(2012,10,1),DATE(2013,3,1),{41235,41247,41295})": 107,
    "NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31))": 22,
    "NETWORKDAYS.INTL(DATE(2006,2,28),DATE(2006,1,31))": -21,
    'NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,2,1),7,{"2006/1/2","2006/1/16"})': 22,
    'NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,2,1),"0010001",{"2006/1/2","2006/1/16"})': 20,
}


def test_working_days_as_microsoft_documents_them() -> None:
    """formulas answered #VALUE! for a start on a day off (WORKDAY.INTL's example starts on Sunday
    January 1, 2012, a day off with weekend 11) and NETWORKDAYS/.INTL were not computed."""
    got = {f: evaluate("=" + f) for f in WORKING_DAYS}
    assert {f: v if isinstance(v, str) else int(v) for f, v in got.items()} == WORKING_DAYS | {
        "WORKDAY.INTL(DATE(2012,1,1),30,0)": got["WORKDAY.INTL(DATE(2012,1,1),30,0)"]
    }
    assert str(got["WORKDAY.INTL(DATE(2012,1,1),30,0)"]) == "#NUM!"
    assert evaluate("=_xlfn.WORKDAY.INTL(DATE(2012,1,1),90,11)") == 41013


def test_workday_from_a_weekend_and_past_the_calendar() -> None:
    """From Saturday January 6, 2024: 0 working days is that Saturday, 1 Monday the 8th, -1 Friday
    the 5th (formulas answered #VALUE!). WORKDAY's page: "If start_date plus days yields an invalid
    date, WORKDAY returns the #NUM! error value" (past December 31, 9999, or before 1900); a weekend
    of all seven days, or a text that is not seven 0s and 1s, is #VALUE!."""
    saturday = "DATE(2024,1,6)"
    got = [evaluate(f"=WORKDAY({saturday},{n})") for n in (0, 1, -1)]
    assert got == [45297, 45299, 45296]
    assert evaluate(f'=WORKDAY.INTL({saturday},1,"0000011")') == 45299
    assert evaluate(f"=WORKDAY.INTL({saturday},1,12)") == 45298  # Monday off only: Sunday the 7th
    assert str(evaluate("=WORKDAY(DATE(9999,12,30),5)")) == "#NUM!"
    assert str(evaluate("=WORKDAY(1,-5)")) == "#NUM!"
    assert str(evaluate("=WORKDAY(1,1E+300)")) == "#NUM!"
    assert str(evaluate(f'=WORKDAY.INTL({saturday},1,"1111111")')) == "#VALUE!"
    assert str(evaluate(f'=WORKDAY.INTL({saturday},1,"weekend")')) == "#VALUE!"


def test_working_days_in_a_1904_workbook(tmp_path: Path) -> None:
    """Microsoft's "Date systems in Excel": serial 0 of the 1904 system is January 1, 1904."""

    def mac(wb: Any) -> None:
        wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904

    cells: dict[str, Any] = {"A1": 45297 - 1462, "A2": 45299 - 1462, "A3": None}  # Saturday, Monday (a holiday)
    cells |= {"B1": "=WORKDAY.INTL(A1,1,1,A2:A3)", "B2": "=NETWORKDAYS(A1,A1+9,A2:A3)"}
    got = book(tmp_path, cells, mac)
    assert (got["B1"], got["B2"]) == (45300 - 1462, 5)


def test_edate_and_eomonth_at_the_end_of_excels_calendar() -> None:
    """Issue 41: EOMONTH(2958465,0) (December 31, 9999, the last date Excel has: "Excel specifications
    and limits") answered #VALUE! "wrong type" where Excel answers 2958465, and a month past December
    9999 #VALUE! where Excel answers #NUM! (Microsoft's EOMONTH page: "If start_date plus months yields
    an invalid date, EOMONTH returns the #NUM! error value"; EDATE the same)."""
    assert evaluate("=EOMONTH(2958465,0)") == 2958465
    assert evaluate("=EDATE(2958465,0)") == 2958465
    assert evaluate("=EOMONTH(2958100,11)") == 2958434  # December 31, 9998 + 11 months: November 30, 9999
    assert evaluate("=EDATE(2958100,12)") == 2958465
    for formula in ("=EOMONTH(2958465,1)", "=EDATE(2958465,1)", "=EDATE(2958435,1)", "=EOMONTH(45000,1E10)"):
        assert str(evaluate(formula)) == "#NUM!", formula
    assert evaluate("=EOMONTH(45000,1)") == 45046  # April 30, 2023, as before


def test_days360_of_whole_columns_reads_the_formulas_row(tmp_path: Path) -> None:
    """Issue 44: DAYS360 with whole-column arguments (``DAYS360(F:F,G:G)``) took the columns' first
    cells. Microsoft's "Implicit intersection operator: @" page: an ordinary formula reads a range
    given where one value is needed as the cell in the formula's own row (Excel writes it
    ``DAYS360(@F:F,@G:G)``); DAYS360's dates are single values (its page)."""
    cells: dict[str, Any] = {"F1": 45000, "F2": 45010, "F3": 45020, "G1": 45100, "G2": 45200, "G3": 45300}
    cells |= {"H2": "=DAYS360(F:F,G:G)", "H3": "=DAYS360($F$1:$F$3,$G$1:$G$3)", "I2": "=DAYS360(F2,G2)"}
    cells |= {"I3": "=DAYS360(F3,G3)"}
    got = book(tmp_path, cells)
    assert (got["H2"], got["H3"]) == (got["I2"], got["I3"]) == (186, 275)


# formula -> Excel's answer, from Microsoft's DATEVALUE page (support.microsoft.com/en-us/office/
# datevalue-function-df8b07d4-7761-4a93-bc33-b7471bbff252: "8/22/2011" 40777, "22-MAY-2011" 40685,
# "2011/02/23" 40597, the text of cells 3, 14, 2011 joined 40616; "Time information in the date_text
# argument is ignored") and its TIMEVALUE page (support.microsoft.com/en-us/office/timevalue-function-
# 0b615c12-33d8-4431-bf3d-f3eb6d186645: "2:24 AM" 0.1, "22-Aug-2011 6:35 AM" 0.2743055556; "Date
# information in time_text is ignored"). Issue 44: DATEVALUE("2024-01-10") answered "#NAME? DATEVALUE is
# not computed by benchsheet" where Excel answers 45301, as the engine already read "2024-01-10"+0.
DATE_TEXTS: dict[str, float] = {
    '=DATEVALUE("8/22/2011")': 40777,
    '=DATEVALUE("22-MAY-2011")': 40685,
    '=DATEVALUE("2011/02/23")': 40597,
    '=DATEVALUE(3&"/"&14&"/"&2011)': 40616,
    '=DATEVALUE("2024-01-10")': 45301,
    '=DATEVALUE("2024-01-10 18:00")': 45301,
    '=TIMEVALUE("2:24 AM")': 0.1,
    '=TIMEVALUE("22-Aug-2011 6:35 AM")': 0.2743055556,
    '=TIMEVALUE("18:45")': 0.78125,
    '=TIMEVALUE("6:45 PM")': 0.78125,
}


@pytest.mark.parametrize("formula", DATE_TEXTS)
def test_datevalue_and_timevalue_as_microsoft_documents_them(formula: str) -> None:
    assert evaluate(formula) == pytest.approx(DATE_TEXTS[formula], abs=5e-11)


def test_datevalue_and_timevalue_of_no_date_text_are_value_errors(tmp_path: Path) -> None:
    """Microsoft's "How to correct a #VALUE! error in the DATEVALUE function": "The date_text argument
    has to be a valid text value, and not a number or a date" (a cell holding a date is a number);
    a date outside January 1, 1900 to December 31, 9999 is #VALUE! (the DATEVALUE page). A text the
    engine cannot read as Excel does (a date without its year, which Excel takes from the clock) is
    #VALUE! naming what is not computed, never another date."""
    for formula in ('=DATEVALUE("abc")', '=DATEVALUE("1/1/1899")', "=DATEVALUE(45301)", "=TIMEVALUE(0.5)"):
        assert str(evaluate(formula)) == "#VALUE!", formula
    assert "not computed" in evaluate('=DATEVALUE("5-JUL")').reason
    got = book(tmp_path, {"A1": 45301, "A2": "2024-01-10", "B1": "=DATEVALUE(A1)", "B2": "=DATEVALUE(A2)"})
    assert (got["B1"], got["B2"]) == ("#VALUE!", 45301)


# formula -> the answer of its Microsoft page: WEEKDAY (2/14/2008: 5, 4 from Monday, 3 from Monday = 0),
# WEEKNUM (3/9/2012: week 10, 11 with weeks from Monday), ISOWEEKNUM (3/9/2012: 10). They answered
# "#NAME? ... is not computed by benchsheet" (issue 41: the functions a finance model uses).
WEEKS: dict[str, Any] = {
    "=WEEKDAY(DATE(2008,2,14))": 5,
    "=WEEKDAY(DATE(2008,2,14),2)": 4,
    "=WEEKDAY(DATE(2008,2,14),3)": 3,
    "=WEEKNUM(DATE(2012,3,9))": 10,
    "=WEEKNUM(DATE(2012,3,9),2)": 11,
    "=ISOWEEKNUM(DATE(2012,3,9))": 10,
    "=_xlfn.ISOWEEKNUM(DATE(2012,3,9))": 10,
    '=WEEKDAY("2024-01-10")': 4,  # a date written as text, read as the engine reads one
    "=WEEKDAY(DATE(2008,2,14),4)": "#NUM!",  # "If return_type is out of the range specified", #NUM!
    "=WEEKDAY(-1)": "#NUM!",  # "If serial_number is out of range for the current date base value"
}


@pytest.mark.parametrize("formula", WEEKS)
def test_weekdays_and_weeks_as_microsoft_documents_them(formula: str) -> None:
    got = evaluate(formula)
    assert (str(got) if isinstance(WEEKS[formula], str) else got) == WEEKS[formula]


def test_weekday_in_a_1904_workbook_counts_from_1904(tmp_path: Path) -> None:
    """Microsoft's "Date systems in Excel": in the 1904 date system serial 0 is January 1, 1904, a
    Friday (WEEKDAY 6); 45301 - 1462 is January 10, 2024, a Wednesday (4)."""

    def mac(wb: Any) -> None:
        wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904

    got = book(tmp_path, {"A1": 0, "A2": 45301 - 1462, "B1": "=WEEKDAY(A1)", "B2": "=WEEKDAY(A2)"}, mac)
    assert (got["B1"], got["B2"]) == (6, 4)
