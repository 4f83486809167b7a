"""Numbers in reasons say what they are (issue 42, item 8): a huge figure in scientific notation, not 301 digits;
a tiny price with its significant digits, not "$0.00"; the user's own share as typed, not rounded to a whole
percent that contradicts the reason ("add up to 100%, not 100%", "pairs below 30%" for a claim of 30.5%).
Every expected figure is recomputed here from its definition."""

from __future__ import annotations

import math
import re

import pytest

from benchsheet.udfs import functions as udf


def _long_digit_runs(text: str) -> list[str]:
    return re.findall(r"\d[\d,]{20,}", text)


def test_a_huge_gpu_cost_is_in_scientific_notation() -> None:
    # $1E300 per GPU-hour at 1,000 tokens/s: 1e300 x 1e6 / 3.6e6 = 2.778E+299 $ per million tokens
    got = udf.APIUTILIZATION(1e300, 1000, 0.6)
    assert f"{1e300 * 1e6 / 3.6e6:.4G}" == "2.778E+299"
    assert got.startswith("#N/A The GPU costs $2.778E+299 per million tokens at 100% utilization"), got
    assert not _long_digit_runs(got)


def test_a_tiny_api_price_keeps_its_significant_digits() -> None:
    # $3 per GPU-hour at 1,000 tokens/s: 3e6 / 3.6e6 = $0.833 per million; the API's $1E-09 is not "$0.00"
    got = udf.APIUTILIZATION(3, 1000, 1e-9)
    assert got == (
        "#N/A The GPU costs $0.833 per million tokens at 100% utilization, more than the API's $1E-09: "
        "no utilization <= 100% reaches it"
    )
    got = udf.APIUTILIZATION(3, 1, 0.0001)  # 3e6 / 3,600 = $833.33
    assert "$833.33 per million" in got and "the API's $0.0001:" in got


def test_shares_that_do_not_add_up_are_shown_as_typed() -> None:
    benches, scens, targets = [["gpt-oss-120b"], ["deepseek-r1"]], [["Server"], ["Server"]], 1000
    got = udf.FLEET(benches, scens, targets, "B200", 5, 1, 8, 730, None, None, None, None, [[0.5], [0.496]])
    assert got.startswith("#VALUE! shares add up to 99.6%, not 100%"), got


def test_a_claimed_gain_is_quoted_as_claimed() -> None:
    rows = udf.GAINRANGE(0.305, 0.555, "Blackwell", "6.0", "6.1")
    texts = {r[0]: r[2] for r in rows[1:]}
    assert texts["below"].endswith("pairs below 30.5%"), texts
    assert texts["inside"].endswith("pairs from 30.5% to 55.5%"), texts
    assert texts["above"].endswith("pairs above 55.5%"), texts


def test_a_latency_target_is_quoted_as_asked() -> None:
    # deepseek-r1 Server's bounds are TTFT 2,000 ms / TPOT 80 ms (LATENCYBOUNDS): a target a hair under them is
    # stricter, and the reason must not print it as the bound itself ("looser than ... TPOT 80 ms")
    assert udf.LATENCYBOUNDS("deepseek-r1", "Server") == [[2000.0, 80.0]]
    target = (1999.9999, 79.99999)
    got = udf.FLEET("deepseek-r1", "Server", 50_000, "GB300", 5, 0.7, 8, 730, None, None, None, None, None, *target)
    assert "(TTFT 1,999.9999 ms, TPOT 79.99999 ms)" in got[1][6], got[1][6]


@pytest.mark.parametrize(("nodes", "shown"), [(8.0000001, "8.0000001"), (math.inf, "inf"), (math.nan, "nan")])
def test_a_node_size_that_is_not_whole_is_quoted_as_given(nodes: float, shown: str) -> None:
    # 8.0000001 read "must be a whole number, not 8"; infinity and NaN (from Python) reached int() unguarded
    got = udf.FLEET("gpt-oss-120b", "Server", 1e6, "B200", 5, 1, nodes)
    assert got == f"#VALUE! gpus_per_node must be a whole number, not {shown}"
