"""Rounds in view: every table answer that pairs rows shows each side's round, and pairs across rounds
only when asked (then it says so), on the real data."""

from __future__ import annotations

import pytest

from benchsheet.catalogue.functions import BY_NAME
from benchsheet.udfs import functions as udf


def _rows(table: list[list[object]]) -> list[dict[str, object]]:
    return [dict(zip(table[0], r, strict=True)) for r in table[1:]]  # type: ignore[arg-type]


def test_ratios_pair_rows_of_one_round_and_show_both_rounds() -> None:
    rows = _rows(udf.RATIOS("B300", "H200"))
    assert all(r["candidate round"] == r["baseline round"] for r in rows)
    assert all(r["rounds"] == f"same round (v{r['candidate round']})" for r in rows)
    assert float(rows[0]["ratio"]) < 10.4  # type: ignore[arg-type]  # the 10.48x of v6.1 over v6.0 is not a same-round pair
    assert {r["candidate round"] for r in rows} >= {"6.0", "6.1"}


def test_ratios_across_rounds_only_when_asked_and_then_say_so() -> None:
    rows = _rows(udf.RATIOS("B300", "H200", "any", None, None, False, True))
    top = rows[0]
    assert top["ratio"] == pytest.approx(10.4784, abs=1e-4)
    assert (top["candidate entry"], top["candidate round"]) == ("6.1-0046", "6.1")
    assert (top["baseline entry"], top["baseline round"]) == ("6.0-0095", "6.0")
    assert top["rounds"] == "across rounds: v6.1 over v6.0"


def test_gains_and_results_show_the_rounds() -> None:
    gains = _rows(udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1"))
    assert {(g["old round"], g["new round"]) for g in gains} == {("6.0", "6.1")}
    results = _rows(udf.RESULTS("deepseek-r1", "Offline", "GB300", "available", 8))
    assert {r["round"] for r in results} == {"6.1"}


def test_best_keeps_the_latest_round_and_says_so() -> None:
    assert udf.BEST("GB300", "deepseek-r1", "Offline", "available", 8) == pytest.approx(9628.9625)
    assert udf.BEST("GB300", "deepseek-r1", "Offline", "available", 8, "6.0") == pytest.approx(9820.5, abs=0.1)
    for name in ("BEST", "BESTENTRY", "MEDIANPERGPU", "RESULTS"):
        assert "latest round" in BY_NAME[name].help, name
