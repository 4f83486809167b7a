"""The criteria of SUMIF, SUMIFS, COUNTIF, COUNTIFS, AVERAGEIF, AVERAGEIFS and MAXIFS
(``excelcalc.lib.criteria``, issue 44 item 7: SUMIF criteria answered other numbers than Excel's).
Each expected value is Excel's: the examples of Microsoft's function pages, and the rules Apache
POI's TestCountFuncs checks its COUNTIF against (values Excel gives), cited beside each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from excelcalc.lib.criteria import criterion
from tests.excelcalc.lib.workbooks import book


def test_conditional_functions_as_microsoft_documents_them(tmp_path: Path) -> None:
    """The examples of Microsoft's pages (support.microsoft.com/en-us/office/<name>-function-...).
    COUNTIF: apples, oranges, peaches, apples and 32, 54, 75, 86. SUMIF: property values 100,000 to
    400,000 with commissions 7,000 to 28,000; categories with a blank one, foods, sales. AVERAGEIF:
    the same property values and profits by region. AVERAGEIFS: quiz grades with "Incomplete"."""
    cells: dict[str, Any] = {}
    for i, (fruit, n) in enumerate([("apples", 32), ("oranges", 54), ("peaches", 75), ("apples", 86)]):
        cells |= {f"A{i + 2}": fruit, f"B{i + 2}": n}
    for i, value in enumerate([100000, 200000, 300000, 400000]):
        cells |= {f"C{i + 2}": value, f"D{i + 2}": 7000 * (i + 1)}
    food: list[tuple[str | None, str, int]] = [("Vegetables", "Tomatoes", 2300), ("Vegetables", "Celery", 5500)]
    food += [("Fruits", "Oranges", 800)]
    food += [(None, "Butter", 400), ("Vegetables", "Carrots", 4200), ("Fruits", "Apples", 1200)]
    for i, (category, name, sales) in enumerate(food):
        cells |= {f"F{i + 2}": name, f"G{i + 2}": sales} | ({f"E{i + 2}": category} if category else {})
    regions = [("East", 45678), ("West", 23789), ("North", -4789), ("South (New Office)", 0), ("MidWest", 9678)]
    for i, (region, profit) in enumerate(regions):
        cells |= {f"H{i + 2}": region, f"I{i + 2}": profit}
    quiz = [(75, 85, 87), (94, 80, 88), (86, 93, "Incomplete"), ("Incomplete", 75, 75)]
    for i, (a, b, c) in enumerate(quiz):
        cells |= {f"J{i + 2}": a, f"K{i + 2}": b, f"L{i + 2}": c}
    expected: dict[str, Any] = {
        '=COUNTIF(A2:A5,"apples")': 2,
        "=COUNTIF(A2:A5,A4)": 1,
        '=COUNTIF(B2:B5,">55")': 2,
        '=COUNTIF(B2:B5,"<>"&B4)': 3,
        '=COUNTIF(B2:B5,">=32")-COUNTIF(B2:B5,">85")': 3,
        '=COUNTIF(A2:A5,"*")': 4,
        '=COUNTIF(A2:A5,"?????es")': 2,
        '=SUMIF(C2:C5,">160000",D2:D5)': 63000,
        '=SUMIF(C2:C5,">160000")': 900000,
        "=SUMIF(C2:C5,300000,D2:D5)": 21000,
        '=SUMIF(E2:E7,"Fruits",G2:G7)': 2000,
        '=SUMIF(E2:E7,"Vegetables",G2:G7)': 12000,
        '=SUMIF(F2:F7,"*es",G2:G7)': 4300,
        '=SUMIF(E2:E7,"",G2:G7)': 400,
        '=AVERAGEIF(D2:D5,"<23000")': 14000,
        '=AVERAGEIF(C2:C5,"<250000")': 150000,
        '=AVERAGEIF(C2:C5,"<95000")': "#DIV/0!",
        '=AVERAGEIF(C2:C5,">250000",D2:D5)': 24500,
        '=AVERAGEIF(H2:H6,"=*West",I2:I6)': 16733.5,
        '=AVERAGEIF(H2:H6,"<>*(New Office)",I2:I6)': 18589,
        '=AVERAGEIFS(J2:J5,J2:J5,">70",J2:J5,"<90")': 80.5,
        '=AVERAGEIFS(K2:K5,K2:K5,">95")': "#DIV/0!",
        '=AVERAGEIFS(L2:L5,L2:L5,"<>Incomplete",L2:L5,">80")': 87.5,
    }
    at = {f"N{i + 1}": formula for i, formula in enumerate(expected)}
    got = book(tmp_path, cells | at)
    assert {formula: got[cell] for cell, formula in at.items()} == expected


# A range of one of each kind of value (POI's TestCountFuncs' cases, put together), and what each
# criterion counts there: blank, the text "" a formula answers, numbers, texts, truth values, an error
RANGE: list[Any] = [None, '=""', 17, "17", "apple", "Apple pie", "a*b", "b", True, 45301, 0, "=NA()"]
COUNTS: dict[str, int] = {
    "17": 2,  # POI: '=42' matches 42 and the text "42"
    '"17"': 2,
    '">10"': 2,  # numbers only: POI's '<=5' does not match the text "4.9"
    '"<>17"': 10,  # POI: '<>123' matches every text ("123" too), a blank and TRUE; not an error
    '"="': 1,  # POI: '=' matches a blank cell but not the text ""
    '""': 2,  # POI: '' matches both
    '"<>"': 11,  # POI: '<>' matches the text "" but not a blank cell; numbers, texts, errors alike
    '"a*"': 3,  # wildcards in any case, the whole text: POI's 'a*b' does not match "abc"
    '"A*"': 3,
    '"?"': 1,  # one character: "b"
    '"a~*b"': 1,  # the tilde: the character itself
    '"<>apple"': 11,  # everything but "apple": blanks and numbers too
    '">b"': 0,  # texts only, in order: POI's '>abc' does not match 4
    '"<b"': 5,  # "", "17", "apple", "Apple pie", "a*b"
    '">1/1/2024"': 1,  # a date written as text is its serial number
    "TRUE": 1,  # truth values only
    '"true"': 1,
    '"#N/A"': 1,  # POI: an error text matches that error
    "E1": 1,  # a blank cell is 0 (Microsoft's COUNTIFS page): the 0
}


def test_countif_criteria_as_excel_matches_them(tmp_path: Path) -> None:
    cells: dict[str, Any] = {f"A{i + 1}": v for i, v in enumerate(RANGE) if v is not None}
    at = {f"C{i + 1}": f"=COUNTIF(A1:A{len(RANGE)},{c})" for i, c in enumerate(COUNTS)}
    got = book(tmp_path, cells | at)
    assert {c: got[f"C{i + 1}"] for i, c in enumerate(COUNTS)} == COUNTS


@pytest.mark.parametrize(
    ("condition", "value", "expected"),
    [
        ("12?12", 12812, False),  # POI testWildCards: a wildcard criterion matches texts only
        ("12?12", "12812", True),
        ("a.b", "aab", False),  # POI testNotQuiteWildCards: no regular expression
        ("a~b", "a~b", True),
        ("~*a", "*a", True),
        (">4t3", "500", True),  # POI testCountifComparisons: text in order, a number never
        (">4t3", 500, False),
        ("<=#REF!a", "#DIV/0!", True),  # POI: not quite an error, a text
    ],
)
def test_one_cell_against_a_criterion(condition: str, value: Any, expected: bool) -> None:
    assert criterion(condition)(value) is expected


def test_summed_cells_are_numbers_only(tmp_path: Path) -> None:
    """Microsoft's SUMIF page: "Blank and text values are ignored"; a text that reads as a number is
    text (calc added the "5" of B1: 8 where Excel has 3). AVERAGEIF and MAXIFS read the same cells."""
    cells: dict[str, Any] = {"A1": 1, "A2": 2, "A3": 3, "B1": "5", "B2": 3, "B3": True}
    cells |= {"C1": '=SUMIF(A1:A3,">0",B1:B3)', "C2": '=AVERAGEIF(A1:A3,">0",B1:B3)'}
    cells |= {"C3": '=SUMIFS(B1:B3,A1:A3,">0")', "C4": '=_xlfn.MAXIFS(B1:B3,A1:A3,">0")', "C5": '=SUMIF(B1:B3,"*")'}
    got = book(tmp_path, cells)
    assert [got[f"C{i}"] for i in range(1, 6)] == [3, 3, 3, 3, 0]


def test_a_running_sumif_adds_no_text(tmp_path: Path) -> None:
    """The same rule where SUMIF reads a range from its first row, filled down (``lib.running``):
    the texts "5" and " 5" match the criterion 5 (POI: '=42' matches "42") and add nothing."""
    cells: dict[str, Any] = {"A1": 5, "A2": "5", "A3": " 5", "A4": 5}
    cells |= {f"B{r}": f"=SUMIF($A$1:A{r},5)" for r in range(1, 5)}
    cells |= {f"C{r}": f"=COUNTIF($A$1:A{r},5)" for r in range(1, 5)}
    got = book(tmp_path, cells)
    assert [got[f"B{r}"] for r in range(1, 5)] == [5, 5, 5, 10]
    assert [got[f"C{r}"] for r in range(1, 5)] == [1, 2, 3, 4]


def test_averageif_averages_an_average_range_of_the_range_s_shape(tmp_path: Path) -> None:
    """Microsoft's AVERAGEIF page (support.microsoft.com/en-us/office/averageif-function): "Average_range
    does not have to be the same size and shape as range. The actual cells that are averaged are
    determined by using the top, left cell in average_range as the beginning cell, and then including
    cells that correspond in size and shape to range": range A1:A5 with average_range B1:B3 averages
    B1:B5, A1:B4 with C1:C2 averages C1:D4. Its AVERAGEIFS page: "Unlike the range and criteria arguments
    in the AVERAGEIF function, in AVERAGEIFS each criteria_range must be the same size and shape as
    sum_range" (#VALUE!). calc averaged the cells as given (issue 41)."""
    cells: dict[str, Any] = {f"A{r}": r for r in range(1, 6)} | {f"B{r}": 10 * r for r in range(1, 6)}
    cells |= {f"C{r}": 100 * r for r in range(1, 5)} | {f"D{r}": 1000 * r for r in range(1, 5)}
    cells |= {"F1": '=AVERAGEIF(A1:A5,">=2",B1:B5)', "F2": '=AVERAGEIF(A1:A5,">=2",B1:B3)'}
    cells |= {"F3": '=AVERAGEIF(A1:A5,">=2",B1)', "F4": '=AVERAGEIF(A1:B4,">=3",C1:D4)'}
    cells |= {"F5": '=AVERAGEIF(A1:B4,">=3",C1:C2)', "F6": '=AVERAGEIF(A1:A5,">=2",B2)'}
    cells |= {"F7": '=AVERAGEIFS(B1:B3,A1:A5,">=2")'}
    got = book(tmp_path, cells)
    assert (got["F1"], got["F2"], got["F3"]) == (35, 35, 35)  # B2:B5: 20, 30, 40, 50
    # A1:B4 >= 3: A3, A4 and every B (10..40): C3, C4 and D1..D4
    assert (got["F4"], got["F5"]) == ((300 + 400 + 1000 + 2000 + 3000 + 4000) / 6,) * 2
    assert got["F6"] == (30 + 40 + 50) / 3  # B2:B6, B6 empty: not averaged
    assert got["F7"] == "#VALUE!"


def test_a_blank_criterion_cell_is_zero(tmp_path: Path) -> None:
    """Microsoft's COUNTIFS page (support.microsoft.com/en-us/office/countifs-function-dda3dc6e-f74e-4aee-
    88bc-aa8c2a866842): "If the criteria argument is a reference to an empty cell, the COUNTIFS function
    treats the empty cell as a 0 value"; its AVERAGEIF page (...averageif-function-faec8e2e-0dec-4308-af69-
    f5576d8ac642): "If a cell in criteria is empty, AVERAGEIF treats it as a 0 value". So it matches the
    zeros and not a blank cell nor the text "" (apache/poi test-data/spreadsheet/countifExamples.xls, saved
    by Excel, sheet "POI Tests" rows 14 and 15: 0 and 0). calc matched nothing (POI's Countif comment)."""
    cells: dict[str, Any] = {"A1": 0, "A3": '=""', "A4": 5, "A5": 0, "A6": "x"}
    cells |= {f"B{r}": 10 * r for r in range(1, 7)}
    cells |= {"D1": "=COUNTIF(A1:A6,C1)", "D2": "=COUNTIFS(A1:A6,C1)", "D3": "=SUMIF(A1:A6,C1,B1:B6)"}
    cells |= {"D4": "=AVERAGEIF(A1:A6,C1,B1:B6)", "D5": "=SUMIFS(B1:B6,A1:A6,C1)", "D6": "=COUNTIF(A2:A3,C1)"}
    got = book(tmp_path, cells)
    assert [got[f"D{r}"] for r in range(1, 7)] == [2, 2, 60, 30, 60, 0]


def weighted_counts(tmp_path: Path, values: list[Any], operand: str) -> list[int]:
    """Gnumeric's countif.xlsx layout: COUNTIF of each value alone (None: a blank cell) against "=", ">", ">=",
    "<>", "<=" and "<" the operand, the i-th value weighted 2^i, summed per operator."""
    cells: dict[str, Any] = {f"A{i + 1}": v for i, v in enumerate(values) if v is not None}
    for j, op in enumerate(("=", ">", ">=", "<>", "<=", "<")):
        cells |= {f"{'CDEFGH'[j]}{i + 1}": f'=COUNTIF(A{i + 1},"{op}{operand}")*{2**i}' for i in range(len(values))}
    got = book(tmp_path, cells)
    return [sum(got[f"{col}{i + 1}"] for i in range(len(values))) for col in "CDEFGH"]


def test_not_a_number_matches_the_truth_values(tmp_path: Path) -> None:
    """``"<>1"`` matches every cell but the number 1: FALSE and TRUE too. GNOME/gnumeric
    samples/excel12/countif.xlsx (commit 4c259546), sheet CmpNum: COUNTIF of each of 0, 1, 10, FALSE,
    TRUE, a blank, "0", "1", "String" (weighted 1, 2, 4... 256) against "=1", ">1", ">=1", "<>1", "<=1",
    "<1" is expected 130, 4, 6, 509, 3, 1; apache/poi pull request 1327 (Bugzilla 69853, checked
    against Excel by its reporter) makes POI's "<>5" match truth values alike. calc left TRUE and FALSE
    out of "<>1" (485)."""
    values: list[Any] = [0, 1, 10, False, True, None, "0", "1", "String"]
    assert weighted_counts(tmp_path, values, "1") == [130, 4, 6, 509, 3, 1]
    assert criterion("<>" + "23")(True) and criterion("<>23")(False) and not criterion("<>23")(23)


def test_not_a_truth_value_matches_the_texts(tmp_path: Path) -> None:
    """``"<>TRUE"`` matches every cell but TRUE: a text too. GNOME/gnumeric samples/excel12/countif.xlsx
    (commit 4c259546), sheet CmpBool: COUNTIF of each of 0, 1, 10, FALSE, TRUE, a blank, "String"
    (weighted 1, 2, 4... 64) against "=TRUE", ">TRUE", ">=TRUE", "<>TRUE", "<=TRUE", "<TRUE" is expected
    16, 0, 16, 111, 24, 8; apache/poi pull request 1327 (Bugzilla 69853) makes POI's "<>TRUE" match
    texts alike. calc left the text out of "<>TRUE" (47)."""
    values: list[Any] = [0, 1, 10, False, True, None, "String"]
    assert weighted_counts(tmp_path, values, "TRUE") == [16, 0, 16, 111, 24, 8]


ROWS, COLUMNS = 1_048_576, 16_384  # Microsoft's "Excel specifications and limits": the worksheet's size


def test_a_whole_column_counts_its_empty_rows(tmp_path: Path) -> None:
    """A whole column is every one of its 1,048,576 cells, the empty ones blank: a blank cell meets
    ``""`` (Microsoft's SUMIF example ``SUMIF(E2:E7,"",G2:G7)`` adds the row of the blank category) and
    ``"<>x"`` (POI: '<>ABC' matches a blank), so COUNTIF of a whole column counts its empty rows as it
    does those of ``A1:A9``; ``"<>"`` and ``"x"`` do not. calc read the column as its cells present and
    counted none of them (2 where Excel has 1,048,573), and COUNTIFS and SUMIFS of two columns that end
    in other rows answered #VALUE!."""
    cells: dict[str, Any] = {"A1": "x", "A2": "y", "A3": "x", "A4": 7, "A5": "x", "B1": 1, "B2": 2, "B3": 3}
    formulas = {
        "D1": ('=COUNTIF(A:A,"<>x")', ROWS - 3),
        "D2": ('=COUNTIF(A:A,"")', ROWS - 5),
        "D3": ('=COUNTIF(A:A,"<>")', 5),
        "D4": ('=COUNTIF(A:A,"x")', 3),
        "D5": ('=COUNTIF(A:A,"<>"&7)', ROWS - 1),
        "D6": ('=COUNTIFS(A:A,"x",B:B,"<>")', 2),
        "D7": ('=COUNTIFS(A:A,"<>y",B:B,"<>2")', ROWS - 1),
        "D8": ('=SUMIFS(B:B,A:A,"x")', 4),
        "D9": ('=COUNTIF(20:20,"")', COLUMNS),
        "D10": ("=COUNTIF($A:$A,A2)", 1),
        "D11": ('=COUNTIF(C:C,"<>x")', ROWS),
    }
    got = book(tmp_path, cells | {cell: formula for cell, (formula, _) in formulas.items()})
    assert {formula: got[cell] for cell, (formula, _) in formulas.items()} == dict(formulas.values())
