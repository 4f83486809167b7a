"""The terminal in a new user's first hour: the function list, `info`, and formulas typed as people type them.

Issue 43 item 4 and issue 41 item 6 (its `eval` half): `benchsheet functions` alone is a list a person reads, not
the Markdown of docs/functions.md; `info` ends with what to run next and never shows a user cache that does not
exist as if it did; a mistyped function name, texts in single quotes or in the quotes a mail program makes, and
`;` between arguments each answer what is wrong and the formula to type instead.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from benchsheet import evaluate
from benchsheet.catalogue.functions import CATALOGUE
from benchsheet.cli import main
from excelcalc.values import ReasonedError

RIGHT = '=PERGPU("6.1-0052","gpt-oss-120b","Server")'


def test_functions_alone_is_a_readable_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["functions"]) == 0
    out = capsys.readouterr().out
    assert "<!--" not in out and "|---" not in out and "`" not in out  # no Markdown
    listed = re.findall(r"^  ([A-Z][A-Z0-9.]+)\b", out, flags=re.MULTILINE)
    assert sorted(listed) == sorted(fn.name for fn in CATALOGUE)  # each once
    assert max(len(line) for line in out.splitlines()) <= 100  # a terminal's width
    assert out.rstrip().endswith(": benchsheet functions NAME")  # what to do next


def test_info_names_a_missing_user_cache_as_missing(user_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("user cache:"))
    assert str(user_home / "results.json") in line and "none yet" in line, line


def test_info_shows_an_existing_user_cache_as_it_is(
    user_home: Path, shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refresh", str(shared / "v6.1" / "summary.json")]) == 0
    capsys.readouterr()
    assert main(["info"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("user cache:"))
    assert line == f"user cache: {user_home / 'results.json'}", line


def test_info_ends_with_a_next_step_that_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    commands = re.findall(r"`benchsheet ([^`]+)`", last)
    assert last.startswith("Next:") and commands, last
    for command in commands:  # each one it names runs
        assert main(shlex.split(command)) == 0, command
    capsys.readouterr()


@pytest.mark.parametrize(
    ("typed", "what"),
    [
        ("=PERGPU('6.1-0052','gpt-oss-120b','Server')", "single quotes"),
        ('=PERGPU(“6.1-0052”,"gpt-oss-120b","Server")', "“ ”"),
        ("=PERGPU(“6.1-0052”,“gpt-oss-120b”,“Server”)", "“ ”"),
        ("=PERGPU(‘6.1-0052’,'gpt-oss-120b',\"Server\")", "single quotes"),
        ('=PERGPU("6.1-0052";"gpt-oss-120b";"Server")', "semicolon"),
        ("=PERGPU('6.1-0052';'gpt-oss-120b';'Server')", "semicolon"),
    ],
)
def test_eval_says_what_to_type_instead(typed: str, what: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", typed]) == 1
    err = capsys.readouterr().err
    assert what in err and f"type {RIGHT}" in err, err
    answer = evaluate(typed)
    assert isinstance(answer, ReasonedError) and RIGHT in answer.reason
    assert isinstance(evaluate(RIGHT), float)  # what it says to type answers


def test_a_sheet_name_in_single_quotes_is_left_alone() -> None:
    """Excel quotes a sheet's name with single quotes ('My sheet'!A1): eval has no sheets, and says only that."""
    answer = evaluate("='My sheet'!A1+1")
    assert isinstance(answer, ReasonedError) and "no cells to refer to" in answer.reason
    assert "type" not in answer.reason


def test_array_rows_keep_their_semicolons() -> None:
    """In an array constant `;` separates rows (Excel's own syntax), so it is no mistyped separator."""
    assert evaluate("=SUM({1,2;3,4})") == 10
    assert evaluate("=ROWS({1,2;3,4})") == 2


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ('=PERGUP("6.1-0052","gpt-oss-120b","Server")', "PERGPU"),
        ("=SUMM(1,2)", "SUM"),
        ('=BREAKEVN("B200","B300","gpt-oss-120b","Server")', "BREAKEVEN"),
        ("=VLOKUP(1,{1,2},2,FALSE)", "VLOOKUP"),
    ],
)
def test_a_mistyped_name_gets_a_did_you_mean(typed: str, meant: str, capsys: pytest.CaptureFixture[str]) -> None:
    answer = evaluate(typed)
    assert isinstance(answer, ReasonedError) and str(answer) == "#NAME?"
    assert f"did you mean {meant}" in answer.reason, answer.reason
    assert main(["eval", typed]) == 1
    assert f"did you mean {meant}" in capsys.readouterr().err


def test_a_name_like_nothing_says_where_the_names_are() -> None:
    answer = evaluate("=XYZZYQ(1)")
    assert isinstance(answer, ReasonedError) and str(answer) == "#NAME?"
    assert "unknown function XYZZYQ" in answer.reason and "benchsheet functions" in answer.reason
