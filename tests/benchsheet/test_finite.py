"""Never inf or nan in a cell, a frame or the terminal: ``#NUM!`` with its reason on every path (issue 42 item 4).

Excel has no infinity and no NaN: a number beyond about 1.8E+308 is ``#NUM!`` (Microsoft, "Excel
specifications and limits": largest allowed positive number 1.7976931348623158e+308). FLEET with a price of
1E300 (its monthly cost and $ per million tokens overflow) answered ``inf`` with exit status 0 in literal
``eval``, the add-in's UDF and ``frames.FLEET``, while the engine path answered ``#NUM!``; APIUTILIZATION
at a price of 1E306 said "$inf per million tokens". The catalogue now converts every answer once, for every
shell: a number that is not finite, alone or in a table, is ``#NUM!`` with the reason.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from benchsheet import frames
from benchsheet.catalogue import engine
from benchsheet.catalogue.calls import call
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.cli import main
from benchsheet.data.store import get_table
from excelcalc.values import ReasonedError

FLEET_HUGE_PRICE = '=FLEET("gpt-oss-120b","Server",1000000,"GB300",1E306,0.7)'
FLEET_ARGS: list[Any] = [[["gpt-oss-120b"]], [["Server"]], [[1000000.0]], [["GB300"]], [[1e306]], 0.7]
NOT_A_NUMBER = re.compile(r"(?<![\w.])-?(inf|nan)(?![\w])", re.IGNORECASE)


def _cells(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [c for v in value for c in _cells(v)]
    return [value]


def _finite(value: Any) -> None:
    for v in _cells(value):
        assert not (isinstance(v, float) and not math.isfinite(v)), value
        assert not (isinstance(v, str) and NOT_A_NUMBER.search(v)), v


def test_literal_eval_of_an_overflowing_fleet_is_num_not_inf(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", FLEET_HUGE_PRICE]) == 1  # an answer holding errors says so by its exit status
    out, err = capsys.readouterr()
    assert not NOT_A_NUMBER.search(out), out
    assert "#NUM!" in out and "of the answer's cells" in err


@pytest.mark.parametrize("formula", [FLEET_HUGE_PRICE, "=APIUTILIZATION(1E306,1000,0.5)", "=COSTPERMTOK(1E306,1E-3)"])
def test_the_engine_and_the_literal_path_answer_num_with_the_reason(formula: str) -> None:
    fn = BY_NAME[formula[1:].split("(")[0]]
    literal = call(fn, get_table(), _literal_args(formula), lambda e: ReasonedError(e.code, e.reason))
    computed = engine.evaluate("=0+" + formula[1:]) if fn.returns == "number" else engine.evaluate(formula)
    for value in (literal, computed):
        _finite(value)
        errors = [v for v in _cells(value) if isinstance(v, ReasonedError)]
        assert errors and all(str(e) == "#NUM!" for e in errors), value
        assert all("too large" in e.reason for e in errors), value


def _literal_args(formula: str) -> list[Any]:
    from benchsheet.catalogue.literal import literal_call

    found = literal_call(formula)
    assert found is not None
    return found[1]


def test_the_udf_answers_num_text_never_inf() -> None:
    from benchsheet.udfs import functions

    value = functions.FLEET(*FLEET_ARGS)
    _finite(value)
    assert any(isinstance(v, str) and v.startswith("#NUM! ") for v in _cells(value)), value


def test_frames_raise_the_num_error_never_hold_inf() -> None:
    with pytest.raises(frames.FrameError) as raised:
        frames.FLEET("gpt-oss-120b", "Server", 1000000, "GB300", 1e306, 0.7)
    assert raised.value.code == "#NUM!" and "too large" in raised.value.reason
    assert raised.value.reason.startswith("row 2 of FLEET's answer: monthly $: ")  # where it is


def test_lite_answers_num_and_reports_the_reason() -> None:
    from benchsheet import lite

    said: list[str] = []
    value = lite.answer(BY_NAME["FLEET"], FLEET_ARGS, said.append)
    _finite(value)
    assert "#NUM!" in _cells(value)
    assert any(line.startswith("FLEET: #NUM! monthly $: the answer is too large") for line in said), said
