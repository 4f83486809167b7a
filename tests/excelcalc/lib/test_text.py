"""Excel's Text functions (``excelcalc.lib.text``): DOLLAR, which calc and eval answered as an
error before (issue 19); each expected value is from Microsoft's function page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from excelcalc.formula import evaluate
from excelcalc.values import ReasonedError
from tests.excelcalc.lib.workbooks import book


def test_dollar_as_microsoft_documents_it() -> None:
    """Microsoft's DOLLAR page: DOLLAR(1234.567,2) "$1,234.57", DOLLAR(1234.567,-2) "$1,200",
    DOLLAR(-1234.567,-2) "($1,200)", DOLLAR(-0.123,4) "($0.1230)", DOLLAR(99.888) "$99.89". It
    answered #NAME? (formulas has none)."""
    examples = {
        "=DOLLAR(1234.567,2)": "$1,234.57",
        "=DOLLAR(1234.567,-2)": "$1,200",
        "=DOLLAR(-1234.567,-2)": "($1,200)",
        "=DOLLAR(-0.123,4)": "($0.1230)",
        "=DOLLAR(99.888)": "$99.89",
    }
    assert {f: evaluate(f) for f in examples} == examples


# ------------------------------------------------------------------------ TEXT of dates and times

# PhpSpreadsheet's tests/data/Calculation/TextData/TEXT.php (values Excel gives), the number forms of
# its dates; and the codes of Microsoft's "Number format codes" page ("m" 1-12, "mmmmm" the month's
# first letter, "[h]:mm" elapsed hours, "h AM/PM"...).
TEXT_OF_DATES = {
    '=TEXT(6,"yyyy-mm-dd hh:mm")': "1900-01-06 00:00",
    '=TEXT(DATE(2014,2,15)+TIME(16,17,0),"dd-mmm-yyyy HH:MM:SS AM/PM")': "15-Feb-2014 04:17:00 PM",
    '=TEXT(DATE(1960,12,19),"yyyy-mm-dd")': "1960-12-19",
    '=TEXT(TIME(9,1,0),"HH:MM:SS")': "09:01:00",
    '=TEXT(DATE(2012,1,1),"dddd, mmmm d, yyyy")': "Sunday, January 1, 2012",
    '=TEXT(DATE(2012,3,4),"m/d/yy mmm ddd mmmmm")': "3/4/12 Mar Sun M",
    '=TEXT(2.5,"[h]:mm")': "60:00",
    '=TEXT(0.75,"h AM/PM")': "6 PM",
    '=TEXT(DATE(2016,3,9),"dd\\ mmm\\ yyyy")': "09 Mar 2016",  # tests/corpus poi/59106.xlsx, Test!A2
}


def test_text_of_a_date_as_excel_shows_it() -> None:
    assert {f: evaluate(f) for f in TEXT_OF_DATES} == TEXT_OF_DATES


def test_text_of_a_time_just_before_midnight_is_the_next_day() -> None:
    """Excel rounds a date-time to the second a format shows (to its fraction of a second, with
    ss.00) before it reads the parts: 23:59:59.9 on December 31 is 00:00:00 on January 1. formulas
    answered #VALUE! (even for "yyyy"), its reason naming the format as a text where a number is needed."""
    late = "DATE(2023,12,31)+TIME(23,59,59)+0.9/86400"
    assert evaluate(f'=TEXT({late},"yyyy")') == "2024"
    assert evaluate(f'=TEXT({late},"mm/dd/yyyy hh:mm:ss")') == "01/01/2024 00:00:00"
    assert evaluate(f'=TEXT({late},"hh:mm:ss.0")') == "23:59:59.9"
    assert evaluate('=TEXT(TIME(10,29,45),"h:mm")') == "10:29"  # minutes are not rounded


def test_text_of_a_date_outside_the_calendar_names_it() -> None:
    got = evaluate('=TEXT(-1,"yyyy")')
    assert isinstance(got, ReasonedError) and str(got) == "#VALUE!" and "TEXT" in got.reason


def test_text_of_a_date_in_a_1904_workbook(tmp_path: Path) -> None:
    """Microsoft's "Date systems in Excel": in the 1904 date system serial 0 is January 1, 1904.
    TEXT of a date in such a workbook was refused (#VALUE!, "its dates would be 4 years off")."""

    def mac(wb: Any) -> None:
        wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904

    cells = {"A1": 0, "B1": '=TEXT(A1,"yyyy-mm-dd dddd")', "B2": '=TEXT(DATE(2024,1,5)+0.5,"d mmm yyyy h AM/PM")'}
    cells |= {"B3": '=TEXT(A1,"0.00")', "B4": '=TEXT(DATE(9999,12,31),"yyyy")'}
    got = book(tmp_path, cells, mac)
    assert (got["B1"], got["B2"], got["B3"], got["B4"]) == ("1904-01-01 Friday", "5 Jan 2024 12 PM", "0.00", "9999")


# ------------------------------------------------------------------------ FIXED and TEXT: 15 digits


def test_fixed_as_microsoft_documents_it() -> None:
    """Microsoft's FIXED page (support.microsoft.com/en-us/excel/fixed-function), its examples."""
    examples = {
        "=FIXED(1234.567,1)": "1,234.6",
        "=FIXED(1234.567,-1)": "1,230",
        "=FIXED(-1234.567,-1,TRUE)": "-1230",
        "=FIXED(44.332)": "44.33",
    }
    assert {f: evaluate(f) for f in examples} == examples


def test_fixed_and_text_write_the_15_digits_excel_holds() -> None:
    """Microsoft's FIXED page: "Numbers in Microsoft Excel can never have more than 15 significant
    digits, but decimals can be as large as 127": the text is made from the 15 digits, rounded in
    decimal, as ROUND does (issue 41: FIXED(2.675,2) was 2.67, Excel 2.68; FIXED(0.1+0.2,20) showed
    the double's digits past the 15th, where Excel writes zeros)."""
    examples = {
        "=FIXED(2.675,2)": "2.68",
        "=FIXED(1.005,2)": "1.01",
        "=FIXED(1E23,0)": "100,000,000,000,000,000,000,000",
        "=FIXED(0.1+0.2,20)": "0.30000000000000000000",
        "=FIXED(-2.675,2,TRUE)": "-2.68",
        '=TEXT(0.1+0.2,"0.00000000000000000000")': "0.30000000000000000000",
        '=TEXT(2.675,"0.00")': "2.68",
        '=TEXT(1E23,"#,##0")': "100,000,000,000,000,000,000,000",
        "=FIXED(1,128)": "#VALUE!",  # decimals "can be as large as 127"
    }
    got = {f: evaluate(f) for f in examples}
    assert {f: str(v) for f, v in got.items()} == examples
    assert evaluate("=ROUND(2.675,2)") == 2.68  # the same digits ROUND rounds


def test_rept_of_a_negative_count_is_value() -> None:
    """Issue 41 (measured in Excel): REPT("a",-1) is #VALUE!; it answered "". Microsoft's REPT page:
    number_times is "a positive number specifying the number of times to repeat text"; 0 is ""."""
    assert str(evaluate('=REPT("a",-1)')) == "#VALUE!"
    assert evaluate('=REPT("a",0)') == ""
    assert evaluate('=REPT("ab",2.9)') == "abab"


def test_unicode_and_unichar_as_microsoft_documents_them() -> None:
    """Issue 44: UNICODE and UNICHAR answered "not computed". Microsoft's UNICHAR page: UNICHAR(66)
    is "B", UNICHAR(32) a space; 0 is #VALUE!; "partial surrogates" #N/A. The UNICODE page:
    UNICODE(" ") is 32, UNICODE("B") 66. Files write them _xlfn.UNICHAR, _xlfn.UNICODE."""
    assert [evaluate("=UNICHAR(66)"), evaluate("=UNICHAR(32)"), evaluate("=_xlfn.UNICHAR(128512)")] == ["B", " ", "😀"]
    assert [evaluate('=UNICODE(" ")'), evaluate('=UNICODE("B")'), evaluate('=_xlfn.UNICODE("😀")')] == [32, 66, 128512]
    assert str(evaluate("=UNICHAR(0)")) == "#VALUE!"
    assert str(evaluate("=UNICHAR(55296)")) == "#N/A"


def test_search_with_wildcards_as_microsoft_documents_it() -> None:
    """Microsoft's SEARCH page: "the question mark (?) matches any single character; an asterisk (*)
    matches any sequence of characters. If you want to find an actual question mark or asterisk, type
    a tilde (~) before the character"; its examples SEARCH("e","Statements",6) is 7 and
    SEARCH("margin","Profit Margin") 8. formulas looked for * ? ~ as they are (issue 44: SEARCH of "~")."""
    examples = {
        '=SEARCH("e","Statements",6)': 7,
        '=SEARCH("margin","Profit Margin")': 8,
        '=SEARCH("a*c","xAbC")': 2,
        '=SEARCH("b?d","abcd")': 2,
        '=SEARCH("~*","a*b")': 2,
        '=SEARCH("~?","a?b")': 2,
        '=SEARCH("~~","a~b")': 2,
        '=SEARCH("p*r","printer",2)': "#VALUE!",
    }
    assert {
        f: (v if isinstance(v, int | float) else str(v)) for f, v in ((f, evaluate(f)) for f in examples)
    } == examples


def test_proper_and_numbervalue_as_microsoft_documents_them() -> None:
    """Microsoft's PROPER page: "this is a TITLE" is "This Is A Title", "2-way street" "2-Way Street",
    "76BudGet" "76Budget". Its NUMBERVALUE page: NUMBERVALUE("2.500,27",",",".") is 2500.27,
    NUMBERVALUE("3.5%") 0.035; "If an empty string ("") is specified as the Text argument, the result
    is 0"; "Empty spaces in the Text argument are ignored, even in the middle of the argument. For
    example, " 3 000 " is returned as 3000"; "If a decimal separator is used more than once", #VALUE!;
    "If multiple percent signs are used, they are additive" (9%% is 0.0009). Both answered "#NAME?
    ... is not computed by benchsheet" (issue 41)."""
    assert [evaluate(f'=PROPER("{t}")') for t in ("this is a TITLE", "2-way street", "76BudGet")] == [
        "This Is A Title",
        "2-Way Street",
        "76Budget",
    ]
    assert evaluate('=NUMBERVALUE("2.500,27",",",".")') == 2500.27
    assert evaluate('=_xlfn.NUMBERVALUE("3.5%")') == 0.035
    assert evaluate('=NUMBERVALUE("")') == 0
    assert evaluate('=NUMBERVALUE(" 3 000 ")') == 3000
    assert evaluate('=NUMBERVALUE("9%%")') == pytest.approx(0.0009, rel=1e-15)
    assert str(evaluate('=NUMBERVALUE("1.2.3")')) == "#VALUE!"
