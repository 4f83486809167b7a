"""REGEXTEST, REGEXEXTRACT and REGEXREPLACE (``excelcalc.lib.regexes``), issue 41 item 7: functions of
Excel-saved workbooks that calc answered "#NAME? ... is not computed by benchsheet". Each expected value
is an example of Microsoft's pages (support.microsoft.com/en-us/office/regextest-function,
regexextract-function, regexreplace-function: "REGEXTEST Function", "REGEXEXTRACT Function",
"REGEXREPLACE Function"), quoted, or follows from a statement of the page quoted beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl.worksheet.formula import ArrayFormula

from excelcalc.formula import evaluate
from excelcalc.lib import regexes
from tests.excelcalc.lib.workbooks import book

PHONE = r'"^\([0-9]{3}\) [0-9]{3}-[0-9]{4}$"'
PEOPLE = [
    ("Sonia Rees", "(378) 555-4195"),
    ("Angel Brown", "(878) 555-8622"),
    ("Blake Martin", "(437) 555-8987"),
    ("William Kirby", "(619) 555-4212"),
    ("Avery Smith", "(579) 555-5658"),
    ("Parker Jones", "(346) 555-0925"),
    ("Liam Small", "(405) 555-0887"),
    ("Hollie Rees", "(666) 555-1872"),
]
LINES = "&CHAR(10)&".join(f'"{name} {phone}"' for name, phone in PEOPLE)

EXAMPLES: dict[str, Any] = {
    # REGEXTEST, Example 1: "Check different aspects of the string 'alfalfa'"
    '=REGEXTEST("alfalfa","a")': True,  # "Does it contain the letter 'a'?"
    '=REGEXTEST("alfalfa","[a-z]")': True,  # "Does it contain any lowercase letters?"
    '=REGEXTEST("alfalfa","[A-Z]")': False,  # "Does it contain any uppercase letters?"
    '=REGEXTEST("alfalfa","[aeiou]")': True,  # "Does it contain any vowels?"
    '=REGEXTEST("alfalfa","[0-9]")': False,  # "Does it contain any number digits?"
    # Example 2: "Check if phone numbers have the specific format "(###) ###-####""
    f'=REGEXTEST("(378) 555-4195",{PHONE})': True,
    f'=_xlfn.REGEXTEST("+1 (878) 555-8622",{PHONE})': False,
    # case_sensitivity "1: Case insensitive"; "any part of supplied text" (formulas: its start only)
    '=REGEXTEST("alfalfa","[A-Z]",1)': True,
    '=REGEXTEST("xalfalfa","alf")': True,
    # REGEXEXTRACT, Example 1: "Extract names based on capital letters with pattern "[A-Z][a-z]+""
    '=REGEXEXTRACT("Dylan Williams","[A-Z][a-z]+")': "Dylan",
    '=_xlfn.REGEXEXTRACT("Dylan Williams","[A-Z][a-z]+",1)': [["Dylan"], ["Williams"]],
    # Example 2: "Extract phone numbers based on their structure with pattern "[0-9()]+ [0-9-]+""
    f'=REGEXEXTRACT({LINES},"[0-9()]+ [0-9-]+",1)': [[phone] for _, phone in PEOPLE],
    # return_mode "2: Return capturing groups from the first match as an array"
    '=REGEXEXTRACT("Dylan Williams","([A-Z][a-z]+) ([A-Z][a-z]+)",2)': [["Dylan", "Williams"]],
    '=REGEXEXTRACT("Dylan Williams","[a-z]+",,1)': "Dylan",
    '=REGEXEXTRACT(12345,"3.")': "34",  # "REGEXEXTRACT always return text values"
    '=REGEXEXTRACT("Dylan","[0-9]")': "#N/A",
    '=REGEXEXTRACT("Dylan","[A-Z]",3)': "#VALUE!",  # return_mode is 0, 1 or 2
    # REGEXREPLACE, Example 1: "Sanitize phone numbers, using the pattern "[0-9]+-"" and "***-"
    '=REGEXREPLACE("Sonia Rees (378) 555-4195","[0-9]+-","***-")': "Sonia Rees (378) ***-4195",
    # Example 2: capture groups "([A-Z][a-z]+)([A-Z][a-z]+)" replaced by "$2, $1" (formulas: "$2, $1")
    '=REGEXREPLACE("SoniaRees","([A-Z][a-z]+)([A-Z][a-z]+)","$2, $1")': "Rees, Sonia",
    '=_xlfn.REGEXREPLACE("AngelBrown","(?<first>[A-Z][a-z]+)(?<last>[A-Z][a-z]+)","${last}, $first")': "Brown, Angel",
    # occurrence: "By default, occurrence is 0, which replaces all instances. A negative number replaces
    # that instance, searching from the end"
    '=REGEXREPLACE("0000abcd","0","1")': "1111abcd",
    '=REGEXREPLACE("0000abcd","0","1",2)': "0100abcd",
    '=REGEXREPLACE("0000abcd","0","1",-1)': "0001abcd",
    '=REGEXREPLACE("0000abcd","0","1",9)': "0000abcd",
    '=REGEXREPLACE("aaaAbcd","a","0",,1)': "0000bcd",  # case_sensitivity "1: Case insensitive"
    '=REGEXREPLACE("aaaAbcd","a","0",,0)': "000Abcd",  # "0: Case sensitive"
    '=REGEXREPLACE("a1b22","[0-9]+","<$0>$$")': "a<1>$b<22>$",  # PCRE2: $0 the match, $$ a dollar
    '=REGEXREPLACE("ab","(x)?b","[$1]")': "a[]",  # a group that took no part: empty
    '=REGEXREPLACE("ab","b","\\1")': "a\\1",  # a backslash is itself in PCRE2's replacement
    '=REGEXREPLACE("ab","(b)","$2")': "#VALUE!",  # no group 2
    '=REGEXREPLACE("ab","b","$")': "#VALUE!",
    '=REGEXTEST("ab","(")': "#VALUE!",  # no regular expression
}


@pytest.mark.parametrize("formula", EXAMPLES)
def test_as_microsoft_documents_them(formula: str) -> None:
    got = evaluate(formula)
    want = EXAMPLES[formula]
    assert (str(got) if isinstance(want, str) else got) == want


# PCRE2's meaning where the regex package reads a pattern otherwise: rewritten, or refused with the reason
PCRE2: dict[str, Any] = {
    '=REGEXTEST("a"&CHAR(10),"a\\Z")': True,  # \Z: "at the end, or before a newline at the end"
    '=REGEXTEST("a"&CHAR(10),"a\\z")': False,
    '=REGEXTEST("a{e<=1}","a{e<=1}")': True,  # a { that is no quantifier is itself (regex: a fuzzy match)
    '=REGEXTEST("b","a{e<=1}")': False,
    '=REGEXTEST("A","\\x{41}")': True,
    '=REGEXTEST("aa","(?<n>a)\\k<n>")': True,
    '=REGEXTEST("aa","(a)\\g{1}")': True,
    '=REGEXTEST(CHAR(10),"\\v")': True,  # vertical white space (regex: the character 11 only)
    '=REGEXTEST("x","\\N")': True,  # any character but a newline
    '=REGEXTEST("xa","(?i)XA")': True,
    '=REGEXEXTRACT("x(a(b)c)y","\\((?:[^()]|(?R))*\\)")': "(a(b)c)",  # recursion
    '=REGEXEXTRACT("a"&CHAR(10)&"b"&CHAR(10),"(?m)^.*",1)': [["a"], ["b"]],  # no ^ after the last newline
    '=REGEXTEST("a","\\Qa\\E")': "#VALUE!",  # refused, with the reason
    '=REGEXTEST("aB","a(?i)b")': "#VALUE!",  # an option group inside the pattern
    '=REGEXTEST("é","\\w")': "#VALUE!",  # ASCII-only or Unicode: PCRE2's options decide
    '=REGEXTEST("e","\\w")': True,
}


@pytest.mark.parametrize("formula", PCRE2)
def test_patterns_read_as_pcre2_reads_them(formula: str) -> None:
    got = evaluate(formula)
    want = PCRE2[formula]
    assert (str(got) if isinstance(want, str) else got) == want


def test_a_refused_pattern_says_why() -> None:
    got = evaluate('=REGEXTEST("a","\\Qa\\E")')
    assert "\\Q is not computed by benchsheet" in got.reason


def test_cell_by_cell_over_arrays_and_ranges(tmp_path: Path) -> None:
    """ "The text or the reference to a cell containing the text": a range or array is answered cell by
    cell (formulas' REGEXTEST of an array was FALSE throughout); an array a cell would answer is its
    first value, as Excel makes no array of arrays."""
    assert evaluate('=REGEXTEST({"a";"B";"c"},"[a-z]")') == [[True], [False], [True]]
    assert evaluate('=REGEXTEST("a",{"a","b"})') == [[True, False]]
    assert evaluate('=REGEXEXTRACT({"a1b2";"c3"},"[0-9]",1)') == [["1"], ["3"]]
    cells: dict[str, Any] = {"A1": "SoniaRees", "A2": "AngelBrown", "A3": 12}
    cells["B1"] = ArrayFormula("B1:B3", '=_xlfn.REGEXREPLACE(A1:A3,"([A-Z][a-z]+)([A-Z][a-z]+)","$2 $1")')
    cells["C1"] = '=_xlfn.REGEXTEST(A1,"rees",1)'
    got = book(tmp_path, cells)
    assert (got["B1"], got["B2"], got["B3"], got["C1"]) == ("Rees Sonia", "Brown Angel", "12", True)


def test_a_pattern_that_backtracks_without_end_is_stopped() -> None:
    """PCRE2 stops a match at its match limit; the engine after ``TIMEOUT`` seconds, with the reason."""
    got = evaluate('=REGEXTEST(REPT("a",40)&"b","(a|aa)+$")')
    assert str(got) == "#VALUE!"
    assert f"stopped after {regexes.TIMEOUT:g} s" in got.reason


def test_texts_bounded_as_excel_bounds_them() -> None:
    """A text holds at most 32,767 characters: a replacement making more answers #VALUE! before it is made."""
    got = evaluate('=REGEXREPLACE(REPT("a",1000),"a",REPT("b",100))')
    assert str(got) == "#VALUE!"
    assert "32,767" in got.reason
