"""Every argument that sets a loop or a size is bounded as Excel bounds it (issue 44 item 4):
``TRUNC(5,100000000)`` and ``TRUNC(5,1E300)`` never returned, and ``EXPAND(5,100000000,1,1)`` took
seven minutes to make a hundred million cells. Each call answers at once, with Excel's value or
error; the work is bounded by count, not by the clock: each answer is checked, none is timed."""

from __future__ import annotations

from excelcalc.formula import evaluate


def test_trunc_and_round_of_any_number_of_digits() -> None:
    """Microsoft's TRUNC and ROUND pages: digits beyond the number's own change nothing; to the
    left of the number's first digit the answer is 0."""
    for call in ("TRUNC(5,100000000)", "TRUNC(5,1E300)", "ROUND(5,1E300)", "ROUNDUP(5,1E300)", "ROUNDDOWN(5,1E300)"):
        assert evaluate(f"={call}") == 5, call
    for call in ("TRUNC(1E308,-400)", "ROUND(1E308,-1E300)", "TRUNC(-5,-1E300)"):
        assert evaluate(f"={call}") == 0, call


def test_expand_beyond_a_sheet_is_num() -> None:
    """Microsoft's EXPAND page: "Excel returns a #NUM when array is too large"; an array is at most
    a sheet, 1,048,576 rows by 16,384 columns ("Excel specifications and limits"), and at most
    2,000,000 cells here, refused with the reason. Its examples: EXPAND(A2:B3,3,3) pads with #N/A."""
    for call in ("EXPAND(5,100000000,1,1)", "EXPAND(5,2,100000000)", "EXPAND(5,1E300)", "EXPAND(5,1048576,16384,0)"):
        got = evaluate(f"={call}")
        assert str(got) == "#NUM!" and "EXPAND" in got.reason, (call, got)
    assert evaluate('=EXPAND({1,2;3,4},3,3,"-")') == [[1, 2, "-"], [3, 4, "-"], ["-", "-", "-"]]
    assert evaluate("=EXPAND(5,1000,1,0)") == [[5]] + [[0]] * 999
    assert str(evaluate("=EXPAND({1,2;3,4},1,2)")) == "#VALUE!"


def test_rand_takes_no_arguments() -> None:
    """Microsoft's RAND page: "RAND has no arguments". ``RAND(5,2,100000000)`` made a billion
    random numbers (two minutes); it is #VALUE! naming the rule, RAND() a number in [0, 1)."""
    for call in ("RAND(5,2,100000000)", "RAND(100000000)", "RAND(1)"):
        got = evaluate(f"={call}")
        assert str(got) == "#VALUE!" and "RAND" in got.reason, (call, got)
    assert 0 <= evaluate("=RAND()") < 1


def test_numbers_at_excels_edges() -> None:
    """Issue 41 item 3, Excel's answers: ``MOD(1E308,0.3)`` #NUM! (formulas 0.0614: a number of 2^53
    divisors or more leaves no digit of a remainder), ``INT(1E308)`` 1E+308 and ``TRUNC(1E308,-400)``
    0 (both #VALUE! "wrong type"). MOD's page: MOD(3,2) 1, MOD(-3,2) 1, MOD(3,-2) -1, MOD(-3,-2) -1."""
    got = evaluate("=MOD(1E308,0.3)")
    assert str(got) == "#NUM!" and "MOD" in got.reason
    assert [evaluate(f"=MOD({a})") for a in ("3,2", "-3,2", "3,-2", "-3,-2")] == [1, 1, -1, -1]
    assert str(evaluate("=MOD(5,0)")) == "#DIV/0!"
    assert evaluate("=INT(1E308)") == 1e308 and evaluate("=INT(-1E308)") == -1e308
    assert evaluate("=TRUNC(1E308,-400)") == 0
