"""``benchsheet functions NAME``: one function's help in the terminal, from the catalogue, on the real data."""

from __future__ import annotations

import pytest

from benchsheet import cli
from benchsheet.analysis import choices
from benchsheet.catalogue.functions import BY_NAME, CATALOGUE
from benchsheet.catalogue.literal import answer, literal_call
from benchsheet.catalogue.wizard import function_help
from benchsheet.data.store import get_table


def test_breakeven_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["functions", "BREAKEVEN"]) == 0
    out = capsys.readouterr().out
    fn = BY_NAME["BREAKEVEN"]
    assert out.startswith(fn.signature + "\n")
    flat = " ".join(out.split())  # help texts are wrapped to the terminal
    assert " ".join(fn.help.split()) in flat
    for arg in fn.args:  # every argument, with its help and whether it may be left out
        assert f"  {arg.name}" in out and " ".join(arg.help.split()) in flat
    assert '(optional; default "available")' in out and "(required)" in out
    benchmarks = ", ".join(choices.benchmarks(get_table()))
    assert benchmarks[:60] in " ".join(out.split())  # the allowed values, from the loaded results
    assert fn.example in out
    found = literal_call(fn.example)
    assert found is not None
    assert f"answers {answer(*found)!r}" in out  # what the example answers, computed
    assert "Errors" in out and "an argument left out: #VALUE! baseline is required" in out
    assert "#N/A" in out


@pytest.mark.parametrize("fn", CATALOGUE, ids=lambda fn: fn.name)
def test_every_function_has_help(fn: object) -> None:
    from benchsheet.catalogue.declare import Function

    assert isinstance(fn, Function)
    text = function_help(fn.name.lower())  # any case
    assert text.startswith(fn.signature) and fn.example in text and "Errors" in text
    assert "answers" in text


def test_an_unknown_name_says_which_are_close(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["functions", "BREAKEVN"]) == 2
    got = capsys.readouterr()
    assert got.out == ""
    assert got.err == "error: no function BREAKEVN; did you mean BREAKEVEN, BREAKEVENPRICE?\n"
    assert cli.main(["functions", "XYZZYQ"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no function XYZZYQ; the functions are: PERGPU, RESULT, ") and err.count("\n") == 1


def test_gain_names_what_both_entries_share() -> None:
    found = literal_call('=GAIN("6.0-0073","6.1-0071","llama2-70b-99","Server")')
    assert found is not None
    value = answer(*found)
    table = get_table()
    both = sorted(
        {f"{r.benchmark} {r.scenario}" for r in table.entry_rows("6.0-0073")}
        & {f"{r.benchmark} {r.scenario}" for r in table.entry_rows("6.1-0071")}
    )
    assert both  # the example's pair shares some
    assert value.code == "#N/A"
    assert value.reason.endswith(f"6.0-0073 and 6.1-0071 both have: {', '.join(both)}")
    assert "6.0-0073 and 6.1-0071 both have: deepseek-r1 Offline" in " ".join(function_help("GAIN").split())
