"""HEADLINES: every workload's round-over-round best per-accelerator ratio, found in one formula."""

from __future__ import annotations

import pytest

from benchsheet.udfs import functions as udf


def _rows(table: list[list[object]]) -> dict[tuple[object, object], dict[object, object]]:
    return {(r[0], r[1]): dict(zip(table[0], r, strict=True)) for r in table[1:]}


def test_deepseek_server_is_565x_and_304x_available_only() -> None:
    table = udf.HEADLINES()
    ds = _rows(table)[("deepseek-r1", "Server")]
    assert ds["ratio"] == pytest.approx(5.650, abs=1e-3)
    assert (ds["new entry"], ds["old entry"], ds["new round"], ds["old round"]) == (
        "6.1-0107",
        "5.1-0072",
        "6.1",
        "5.1",
    )
    assert ds["available ratio"] == pytest.approx(3.043, abs=1e-3)
    assert ds["available ratio"] == pytest.approx(udf.HEADLINE("deepseek-r1", "Server", "5.1", "6.1", "available"))
    ratios = [r[2] for r in table[1:]]
    assert ratios == sorted(ratios, reverse=True)  # highest first: "5.7x" is near the top, not recalled
    assert len(table) > 10


def test_headlines_between_two_given_rounds() -> None:
    ds = _rows(udf.HEADLINES("6.0", "6.1"))[("deepseek-r1", "Server")]
    assert ds["ratio"] == pytest.approx(udf.HEADLINE("deepseek-r1", "Server", "6.0", "6.1"))
    assert ds["old round"] == "6.0"
    assert udf.HEADLINES("6.1", "6.0").startswith("#VALUE! old_round (6.1) must be earlier")
