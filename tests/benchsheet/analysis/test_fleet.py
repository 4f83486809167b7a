"""A power cap (issue 33): GPUs and tokens/s that fit in a site's megawatts at a PUE, and tokens/s per
provisioned MW, with power per GPU an input or measured where a PERWATT row exists."""

from __future__ import annotations

from typing import Any

import pytest

from benchsheet.catalogue.engine import evaluate
from benchsheet.data.table import Table
from benchsheet.udfs import functions as udf
from excelcalc.values import ReasonedError


def test_gpus_in_a_power_cap_by_hand() -> None:
    # 10 MW of facility power at PUE 1.3 leaves 10,000 / 1.3 kW for IT; at 1.2 kW a GPU that is 6,410.26 GPUs,
    # 801 whole 8-GPU nodes = 6,408 GPUs
    assert round(10_000 / (1.2 * 1.3), 3) == 6410.256
    assert udf.MWGPUS(10, 1.2, 1.3) == 6408
    assert udf.MWGPUS(10, 1.2, 1.3, 1) == 6410
    assert udf.MWGPUS(10, 1.2, 1.3, 72) == 89 * 72  # 6,410.26 / 72 = 89.03 racks of 72, of which 89 fit
    assert udf.MWGPUS(1, 1.25, 1) == 800  # exactly 800: no GPU lost to floating point
    assert udf.MWGPUS(0.001, 1.2, 1.3) == 0


def test_tokens_in_a_power_cap_by_hand() -> None:
    best = udf.BEST("B200", "gpt-oss-120b", "Server", "available", 8)
    got = udf.MWTOKENS(10, 1.2, 1.3, best)
    assert got == pytest.approx(6408 * best, rel=1e-12)
    assert udf.TOKENSPERMW(1000, 1.2, 1.3) == pytest.approx(1000 * 1000 / (1.2 * 1.3), rel=1e-12)
    assert round(udf.TOKENSPERMW(1000, 1.2, 1.3)) == 641026


def test_tokens_per_mw_from_a_measured_row(table: Table) -> None:
    row = table.get("5.1-0061", "llama2-70b-99", "Offline")
    assert row is not None and row.has_power
    got = evaluate(
        '=TOKENSPERMW(PERGPU("5.1-0061","llama2-70b-99","Offline"),KWPERGPU("5.1-0061","llama2-70b-99","Offline"),1)'
    )
    # tokens per joule of measured power x 10^6 J/s in a megawatt, computed from the row itself
    assert got == pytest.approx(row.result / row.power_result * 1e6, rel=1e-12)
    assert got == pytest.approx(udf.PERWATT("5.1-0061", "llama2-70b-99", "Offline") * 1e6, rel=1e-12)
    at_pue = udf.TOKENSPERMW(
        udf.PERGPU("5.1-0061", "llama2-70b-99", "Offline"), udf.KWPERGPU("5.1-0061", "llama2-70b-99", "Offline"), 1.25
    )
    assert at_pue == pytest.approx(got / 1.25, rel=1e-12)


@pytest.mark.parametrize(
    ("formula", "reason"),
    [
        ("=MWGPUS(-1,1.2,1.3)", "megawatts must be a number >= 0"),
        ("=MWGPUS(10,0,1.3)", "kw_per_gpu must be a number > 0"),
        ("=MWGPUS(10,1.2,0.9)", "pue must be a number >= 1"),
        ('=MWGPUS("ten",1.2,1.3)', "megawatts must be a number, not 'ten'"),
        ("=MWGPUS(10,1.2,1.3,0)", "gpus_per_node must be a whole number >= 1"),
        ("=MWTOKENS(10,1.2,1.3,0)", "tokens_per_sec_per_gpu must be a number > 0"),
        ("=TOKENSPERMW(1000,1.2,0.5)", "pue must be a number >= 1"),
        ("=TOKENSPERMW(1000,-1,1.3)", "kw_per_gpu must be a number > 0"),
    ],
)
def test_bad_input_answers_an_error_with_its_reason(formula: str, reason: str) -> None:
    got = evaluate(formula)
    assert isinstance(got, ReasonedError) and str(got) == "#VALUE!" and reason in got.reason, (formula, got)


# ------------------------------------------------------------------ a mix of workloads

MIX: list[list[Any]] = [["gpt-oss-120b", "Server", 1_000_000], ["deepseek-r1", "Server", 200_000]]
HEADER = [
    "family",
    "benchmark",
    "scenario",
    "target/s",
    "per-GPU/s",
    "units",
    "entry",
    "GPUs",
    "nodes",
    "$/GPU-hour",
    "monthly $",
    "$/M units",
]


def _columns(mix: list[list[Any]]) -> tuple[list[list[Any]], ...]:
    """The workloads as three columns of a sheet: benchmarks, scenarios, targets."""
    return tuple([[row[i]] for row in mix] for i in range(3))


def test_a_mix_of_workloads_per_family_by_hand() -> None:
    got = udf.FLEET(*_columns(MIX), [["B200"], ["GB300"]], [[5], [7]], 0.7, 8, 730)
    assert got[0] == HEADER
    assert len(got) == 1 + 2 * (len(MIX) + 1)
    for block, (family, price) in enumerate((("B200", 5), ("GB300", 7))):
        rows = got[1 + block * 3 : 4 + block * 3]
        monthly = []
        for row, (bench, scen, target) in zip(rows[:2], MIX, strict=True):
            best = udf.BEST(family, bench, scen)
            gpus = udf.GPUSNEEDED(target, best, 0.7, 8)
            assert row[:8] == [family, bench, scen, target, best, "Tokens/s", udf.BESTENTRY(family, bench, scen), gpus]
            assert row[8] == gpus // 8 and row[9] == price
            assert row[10] == pytest.approx(gpus * price * 730, rel=1e-12)
            assert row[11] == pytest.approx(gpus * price * 730 * 1e6 / (target * 3600 * 730), rel=1e-12)
            monthly.append(gpus * price * 730)
        total = rows[2]
        assert total[:4] == [family, "total", "", 1_200_000]
        assert total[7] == rows[0][7] + rows[1][7] and total[8] == rows[0][8] + rows[1][8]
        assert total[10] == pytest.approx(sum(monthly), rel=1e-12)
        # blended: the month's cost over the month's tokens of both workloads
        assert total[11] == pytest.approx(sum(monthly) * 1e6 / (1_200_000 * 3600 * 730), rel=1e-12)


def test_one_scenario_and_one_price_for_all_and_the_engine_agrees() -> None:
    got = evaluate('=FLEET({"gpt-oss-120b";"deepseek-r1"},"Server",{1000000;200000},{"B200","GB300"},5,0.7)')
    assert got == udf.FLEET(*_columns(MIX), [["B200", "GB300"]], 5, 0.7)
    assert [row[9] for row in got[1:]] == [5] * 6
    one = evaluate('=FLEET("gpt-oss-120b","Server",1000000,"B200",5,0.7)')
    assert one[1] == got[1] and one[2][1] == "total"


def test_a_family_without_a_row_for_a_workload_is_incomplete() -> None:
    mix = [["gpt-oss-120b", "Server", 1_000_000], ["deepseek-r1", "Interactive", 50_000]]
    got = udf.FLEET(*_columns(mix), "B200", 5)
    missing, total = got[2], got[3]
    assert missing[:4] == ["B200", "deepseek-r1", "Interactive", 50_000]
    assert missing[6].startswith("none: B200 has no closed deepseek-r1 Interactive rows")
    assert missing[7] == missing[10] == missing[11] == ""
    assert total[1] == "total" and total[6] == "incomplete: no row for 1 of 2 workloads"
    assert total[7] == total[10] == total[11] == ""


BENCHES, SCENS, TARGETS = _columns(MIX)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ((BENCHES, SCENS, TARGETS, "B200", -5), "price_per_gpu_hour must be a number >= 0"),
        ((BENCHES, SCENS, TARGETS, [["B200", "GB300"]], [[5, 6, 7]]), "prices must be one cell or one per family"),
        ((BENCHES, SCENS, TARGETS, "B200", 5, 0), "utilization must be > 0 and <= 1"),
        ((BENCHES, SCENS, "lots", "B200", 5), "targets row 1 must be a number >= 0"),
        ((BENCHES, [["Server"], ["Server"], ["Offline"]], TARGETS, "B200", 5), "scenarios must be one cell or one"),
        ((BENCHES, SCENS, TARGETS, "", 5), "families names no family"),
        (("", "Server", 1000, "B200", 5), "benchmarks names no workload"),
    ],
)
def test_bad_fleet_input_answers_an_error_with_its_reason(args: tuple[object, ...], reason: str) -> None:
    got = udf.FLEET(*args)
    assert isinstance(got, str) and got.startswith("#") and reason in got, got


# ---------------------------------------------- shares of a total, and a latency target per workload


def test_shares_of_a_total_target_by_hand() -> None:
    # 1,200,000 tokens/s in all, 5/6 of it gpt-oss-120b and 1/6 deepseek-r1: the same fleet as the targets typed
    shares = [[5 / 6], [1 / 6]]
    got = udf.FLEET(BENCHES, SCENS, 1_200_000, "B200", 5, 0.7, 8, 730, None, None, None, None, shares)
    typed = udf.FLEET(BENCHES, SCENS, TARGETS, "B200", 5, 0.7, 8, 730)
    assert isinstance(got, list), got
    assert [row[3] for row in got[1:]] == pytest.approx([1_000_000, 200_000, 1_200_000], rel=1e-12)
    gpus = [
        udf.GPUSNEEDED(1_200_000 * s[0], udf.BEST("B200", b[0], "Server"), 0.7, 8)
        for s, b in zip(shares, BENCHES, strict=True)
    ]
    assert [row[7] for row in got[1:3]] == gpus == [row[7] for row in typed[1:3]]
    assert got[3][7] == sum(gpus)


def test_shares_leave_blank_workload_rows_out() -> None:
    benches = [["gpt-oss-120b"], [""], ["deepseek-r1"]]
    got = udf.FLEET(benches, "Server", 1000, "B200", 5, 1, 8, 730, None, None, None, None, [[0.25], [""], [0.75]])
    assert [row[1:4] for row in got[1:]] == [
        ["gpt-oss-120b", "Server", 250],
        ["deepseek-r1", "Server", 750],
        ["total", "", 1000],
    ]


def test_a_latency_target_chooses_the_scenario() -> None:
    # deepseek-r1 at p99 TTFT 2,000 ms and TPOT 20 ms: only Interactive's bounds (1,500 ms, 15 ms) are as strict
    # as that (Server allows TPOT 80 ms), so GB300's row is its best Interactive one, as SLOBEST says
    benches = [["gpt-oss-120b"], ["deepseek-r1"]]
    got = udf.FLEET(
        benches, [["Server"], [""]], [[1_000_000], [50_000]], "GB300", 5, 0.7, 8, 730,
        None, None, None, None, None, [[""], [2000]], [[""], [20]],
    )  # fmt: skip
    assert isinstance(got, list), got
    slo = got[2]
    assert slo[1:3] == ["deepseek-r1", "Interactive"]
    assert slo[4] == udf.SLOBEST("GB300", "deepseek-r1", 2000, 20) == udf.BEST("GB300", "deepseek-r1", "Interactive")
    assert slo[6] == udf.SLOBESTENTRY("GB300", "deepseek-r1", 2000, 20)
    assert slo[7] == udf.GPUSNEEDED(50_000, slo[4], 0.7, 8)
    assert got[1][2] == "Server" and got[1][4] == udf.BEST("GB300", "gpt-oss-120b", "Server")
    # a looser target lets both scenarios serve it: the best of the two (Server's, here)
    loose = udf.FLEET("deepseek-r1", "", 50_000, "GB300", 5, 0.7, 8, 730, None, None, None, None, None, 5000, 100)
    assert loose[1][2] == udf.SLOBESTSCENARIO("GB300", "deepseek-r1", 5000, 100) == "Server"
    assert loose[1][4] == udf.SLOBEST("GB300", "deepseek-r1", 5000, 100)


def test_a_latency_target_no_scenario_meets_is_a_row_without_gpus() -> None:
    got = udf.FLEET("deepseek-r1", "", 50_000, "GB300", 5, 0.7, 8, 730, None, None, None, None, None, 1000, 10)
    row, total = got[1], got[2]
    assert row[6].startswith("none: ") and "you asked" in row[6] and "no MLPerf row shows it" in row[6], row
    assert row[7] == "" and total[6] == "incomplete: no row for 1 of 1 workloads"
    # a scenario typed beside the target must be one whose bounds meet it
    server = udf.FLEET("deepseek-r1", "Server", 50_000, "GB300", 5, 0.7, 8, 730, None, None, None, None, None, 2000, 20)
    assert server[1][2] == "Server" and server[1][6].startswith("none: ") and "Interactive" in server[1][6], server[1]


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ((BENCHES, SCENS, TARGETS, "B200", 5, 1, 8, 730, None, None, None, None, [[0.5], [0.5]]), "targets must be"),
        ((BENCHES, SCENS, 1000, "B200", 5, 1, 8, 730, None, None, None, None, [[0.5], [0.4]]), "add up to 90%"),
        ((BENCHES, SCENS, 1000, "B200", 5, 1, 8, 730, None, None, None, None, [[0.5], [-0.5]]), "shares row 2"),
        ((BENCHES, SCENS, 1000, "B200", 5, 1, 8, 730, None, None, None, None, [["x"], [1]]), "shares row 1"),
        ((BENCHES, SCENS, 1000, "B200", 5, 1, 8, 730, None, None, None, None, [[1]]), "shares must be one per"),
        (("deepseek-r1", "", 1000, "GB300", 5, 1, 8, 730, None, None, None, None, None, 2000), "TTFT target without"),
        (("deepseek-r1", "", 1000, "GB300", 5, 1, 8, 730, None, None, None, None, None, -1, 20), "ttft_ms row 1"),
        (("deepseek-r1", "", 1000, "GB300", 5), "benchmarks and scenarios row 1 must be text"),
    ],
)
def test_bad_share_or_latency_input_answers_an_error_with_its_reason(args: tuple[object, ...], reason: str) -> None:
    got = udf.FLEET(*args)
    assert isinstance(got, str) and got.startswith("#") and reason in got, got


def test_node_sizes_and_prices_per_family_beside_blank_family_cells() -> None:
    # a sheet's candidate column: families with blank slots between, a node size and a price per slot
    families = [["B200"], [""], ["GB300"]]
    got = udf.FLEET(BENCHES, SCENS, TARGETS, families, [[5], [""], [7]], 0.7, [[8], [""], [4]], 730)
    assert isinstance(got, list), got
    for block, (family, price, node) in enumerate((("B200", 5, 8), ("GB300", 7, 4))):
        alone = udf.FLEET(BENCHES, SCENS, TARGETS, family, price, 0.7, node, 730)
        assert got[1 + 3 * block : 4 + 3 * block] == alone[1:]
    gb300 = got[4]
    assert gb300[7] == udf.GPUSNEEDED(1_000_000, udf.BEST("GB300", "gpt-oss-120b", "Server"), 0.7, 4)
    assert gb300[8] == gb300[7] // 4


@pytest.mark.parametrize(
    ("node", "reason"),
    [
        ([[8], [8.5]], "gpus_per_node must be a whole number, not 8.5"),
        ([[8], ["x"]], "gpus_per_node must be a number, not 'x'"),
        ([[8], [0]], "gpus_per_node must be a whole number >= 1"),
        ([[8], [8], [8]], "gpus_per_node must be one cell or one per family (2), not 3"),
    ],
)
def test_bad_node_sizes_per_family_answer_an_error_with_its_reason(node: list[list[object]], reason: str) -> None:
    got = udf.FLEET(BENCHES, SCENS, TARGETS, [["B200"], ["GB300"]], 5, 0.7, node)
    assert isinstance(got, str) and got.startswith("#") and reason in got, got


def test_empty_slots_as_excel_sends_them() -> None:
    # from Excel an empty cell (or one showing "") may arrive as None beside a family slot left blank
    got = udf.FLEET(BENCHES, SCENS, TARGETS, [["B200"], [None], ["GB300"]], [[5], [None], [7]], 0.7, [[8], [None], [4]])
    want = udf.FLEET(BENCHES, SCENS, TARGETS, [["B200"], [""], ["GB300"]], [[5], [""], [7]], 0.7, [[8], [""], [4]])
    assert isinstance(got, list) and got == want, got


def test_entry_gives_the_node_size_fleet_takes_where_yours_is_blank() -> None:
    """ENTRY(entry, "gpus_per_node"): the MLPerf system's accelerators / its nodes, as FLEET takes a blank node
    size; a whole number even where they do not divide (6.0-0003: 94 GPUs in 12 nodes of unequal size)."""
    assert udf.ENTRY("6.1-0075", "gpus_per_node") == udf.ENTRY("6.1-0075", "gpus") // udf.ENTRY("6.1-0075", "nodes")
    assert (udf.ENTRY("6.0-0003", "gpus"), udf.ENTRY("6.0-0003", "nodes")) == (94, 12)
    assert udf.ENTRY("6.0-0003", "gpus_per_node") == 8
    got = udf.FLEET("gpt-oss-120b", "Server", 1_000_000, "6.0-0003", 5, 0.7, None, 730)
    assert isinstance(got, list), got
    assert got[1][8] == got[1][7] // 8  # nodes: whole 8-GPU nodes
