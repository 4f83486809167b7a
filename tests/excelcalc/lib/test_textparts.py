"""TEXTBEFORE and TEXTAFTER (``excelcalc.lib.textparts``), issue 41 item 7: functions of Excel-saved
workbooks that calc answered "#NAME? ... is not computed by benchsheet". Each expected value is from
Microsoft's pages (support.microsoft.com/en-us/office/textbefore-function, textafter-function), quoted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl.worksheet.formula import ArrayFormula

from excelcalc.formula import evaluate
from tests.excelcalc.lib.workbooks import book

T = '"Little Red Riding Hood\'s red hood"'

EXAMPLES: dict[str, Any] = {
    # TEXTBEFORE page: "Returns text that occurs before a given character or string"; match_mode "0 Case
    # sensitive", "1 Case insensitive"; a negative instance_num "starts searching text from the end"
    f'=TEXTBEFORE({T},"Red")': "Little ",
    f'=TEXTBEFORE({T},"red")': "Little Red Riding Hood's ",
    f'=TEXTBEFORE({T},"red",2)': "#N/A",  # "returns #N/A if instance_num > number of occurrences"
    f'=TEXTBEFORE({T},"red",2,1)': "Little Red Riding Hood's ",
    f'=_xlfn.TEXTBEFORE({T},"red",-2,1)': "Little ",
    f'=TEXTBEFORE({T},"Red",,FALSE)': "Little ",
    f'=TEXTBEFORE({T},"red",,1)': "Little ",
    f'=TEXTBEFORE({T},"basket")': "#N/A",  # "returns #N/A error if delimiter isn't contained in text"
    f'=TEXTBEFORE({T},"basket",,,,"none")': "none",  # if_not_found "Value returned if no match is found"
    '=TEXTBEFORE("a-b-c","-",0)': "#VALUE!",  # "If instance_num = 0, #VALUE!"
    '=TEXTBEFORE("a-b-c","-",6)': "#VALUE!",  # "If instance_num is greater than the length of text, #VALUE!"
    '=TEXTBEFORE("abc","x",,,1)': "abc",  # match_end "Treats the end of text as a delimiter"
    '=TEXTBEFORE("abc","")': "",  # "When searching with an empty delimiter value, TEXTBEFORE matches
    '=TEXTBEFORE("abc","",-1)': "abc",  # immediately. It returns empty text when searching from the front"
    '=TEXTBEFORE("","-")': "",  # "If text is an empty string, Excel returns empty text"
    '=TEXTBEFORE("a.b-c",{"-","."})': "a",  # several delimiters, as an array constant
    # TEXTAFTER page: the opposite
    f'=TEXTAFTER({T},"Red")': " Riding Hood's red hood",
    f'=TEXTAFTER({T},"basket")': "#N/A",
    f'=TEXTAFTER({T},"red",2,1)': " hood",
    f'=_xlfn.TEXTAFTER({T},"red",-2,1)': " Riding Hood's red hood",
    f'=TEXTAFTER({T},"Red",,FALSE)': " Riding Hood's red hood",
    '=TEXTAFTER("a-b-c","-",-3,,1)': "a-b-c",  # the start, from the end, treated as a delimiter (formulas: "b-c-")
    '=TEXTAFTER("abc","")': "abc",  # "It returns the entire text when searching from the front"
    '=TEXTAFTER("abc","",-1)': "",
}


@pytest.mark.parametrize("formula", EXAMPLES)
def test_as_microsoft_documents_them(formula: str) -> None:
    got = evaluate(formula)
    assert str(got) == EXAMPLES[formula]


def test_a_text_of_several_cells_cell_by_cell(tmp_path: Path) -> None:
    """Of a range, Excel answers each cell's part; a number is its text ("12345" after "3" is "45")."""
    assert evaluate('=TEXTBEFORE({"a-b";"c-d"},"-")') == [["a"], ["c"]]
    assert evaluate("=TEXTAFTER(12345,3)") == "45"
    got = book(tmp_path, {"A1": "x@mail.org", "A2": "y@web.net", "B1": '=_xlfn.TEXTAFTER(A1,"@")'})
    assert got["B1"] == "mail.org"


# TEXTSPLIT function (support.microsoft.com/en-us/office/textsplit-function): the page's examples, with its
# data in A2 (and A3), and the results its pictures show
YODA = "Do. Or do not. There is no try. -Anonymous"
NA = "#N/A"
TEXTSPLIT: dict[str, Any] = {
    # Example 1: "Split a name and a sentence by using a common delimiter"
    '=TEXTSPLIT("Dakota Lennon Sanchez", " ")': [["Dakota", "Lennon", "Sanchez"]],
    '=TEXTSPLIT("To be or not to be", " ")': [["To", "be", "or", "not", "to", "be"]],
    # Example 2: "Split an array constant in A2 into a 2X3 array"
    '=TEXTSPLIT("1,2,3;4,5,6",",",";")': [["1", "2", "3"], ["4", "5", "6"]],
    # Example 3
    f'=TEXTSPLIT("{YODA}",".")': [["Do", " Or do not", " There is no try", " -Anonymous"]],
    f'=TEXTSPLIT("{YODA}",{{".","-"}})': [["Do", " Or do not", " There is no try", " ", "Anonymous"]],
    f'=TEXTSPLIT("{YODA}",{{".","-"}},,FALSE)': [["Do", " Or do not", " There is no try", " ", "Anonymous"]],
    # Example 4, 5 and 6: down the rows
    f'=TEXTSPLIT("{YODA}",,".")': [["Do"], [" Or do not"], [" There is no try"], [" -Anonymous"]],
    f'=TEXTSPLIT("{YODA}",,{{".","-"}})': [["Do"], [" Or do not"], [" There is no try"], [" "], ["Anonymous"]],
    f'=_xlfn.TEXTSPLIT("{YODA}",,{{".","-"}},TRUE)': [
        ["Do"],
        [" Or do not"],
        [" There is no try"],
        [" "],
        ["Anonymous"],
    ],
    # Example 7: "pad_with The value with which to pad the result. The default is #N/A"
    f'=TEXTSPLIT("{YODA}"," ",".",TRUE)': [
        ["Do", NA, NA, NA],
        ["Or", "do", "not", NA],
        ["There", "is", "no", "try"],
        ["-Anonymous", NA, NA, NA],
    ],
    f'=TEXTSPLIT("{YODA}"," ",".",TRUE,,"")': [
        ["Do", "", "", ""],
        ["Or", "do", "not", ""],
        ["There", "is", "no", "try"],
        ["-Anonymous", "", "", ""],
    ],
    # ignore_empty "Defaults to FALSE, which creates an empty cell"; match_mode "Specify 1 to perform a
    # case-insensitive match"
    '=TEXTSPLIT("a,,b",",")': [["a", "", "b"]],
    '=TEXTSPLIT("a,,b",",",,TRUE)': [["a", "b"]],
    '=TEXTSPLIT("aXbxc","x")': [["aXb", "c"]],
    '=TEXTSPLIT("aXbxc","x",,,1)': [["a", "b", "c"]],
    '=TEXTSPLIT("abc",",")': "abc",
    '=TEXTSPLIT(1.5,".")': [["1", "5"]],  # a number is split as its text
    '=TEXTSPLIT("a-b","-",,,2)': "#VALUE!",  # match_mode is 0 or 1
    '=TEXTSPLIT("a-b",,)': "#VALUE!",  # no delimiter at all
}


@pytest.mark.parametrize("formula", TEXTSPLIT)
def test_textsplit_as_microsoft_documents_it(formula: str) -> None:
    got = evaluate(formula)
    want = TEXTSPLIT[formula]
    if isinstance(got, list):
        got = [[str(v) for v in row] for row in got]
    assert (str(got) if isinstance(want, str) else got) == want


def test_textsplit_of_a_cell_and_of_a_range(tmp_path: Path) -> None:
    """A cell's text spills from the formula's cell; of a range of several texts, Excel answers each
    cell's first piece (arrays of arrays it does not make)."""
    cells: dict[str, Any] = {"A1": "x,y", "A2": "z,w", "B1": ArrayFormula("B1:B2", '=_xlfn.TEXTSPLIT(A1:A2,",")')}
    cells["C1"] = ArrayFormula("C1:D1", '=_xlfn.TEXTSPLIT(A1,",")')
    cells["E1"] = "=_xlfn.TEXTSPLIT(A1,Z1)"  # a blank cell is a delimiter of empty text: refused
    got = book(tmp_path, cells)
    assert (got["B1"], got["B2"], got["C1"], got["D1"], got["E1"]) == ("x", "z", "x", "y", "#VALUE!")
    assert evaluate('=TEXTSPLIT({"x,y";"z,w"},",")') == [["x"], ["z"]]
