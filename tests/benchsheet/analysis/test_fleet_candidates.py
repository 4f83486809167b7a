"""FLEET after the first edit (issue 40, items 1 and 2) and sized as Sizing sizes (issue 39, item 5).

A bad family gets "none: reason" rows beside the good ones instead of blanking the table; FLEET's own argument
errors (an unknown availability, an error value among the benchmarks) are errors, not "none:" rows; a share
typed as text "50%" is read as Excel reads it (0.5, en-US, as every other argument reads text numbers); an
entry ID is a candidate of its own row. Headroom is Sizing's (target x (1 + headroom)); a node is the MLPerf
system's (its accelerators / its nodes) unless the user gives a size; pooled nodes are whole nodes of the sum.
Every figure is recomputed here from the rows, not by FLEET."""

from __future__ import annotations

import math

import pytest

from benchsheet.catalogue.engine import evaluate
from benchsheet.data.table import Table
from benchsheet.udfs import functions as udf


def ceil_to(gpus: float, node: int) -> int:
    return math.ceil(math.ceil(gpus - 1e-9) / node) * node


def test_a_typo_in_one_family_leaves_the_others() -> None:
    got = evaluate('=FLEET({"gpt-oss-120b";"deepseek-r1"},"Server",{1000000;200000},{"B200";"GB30"},3,0.7)')
    assert isinstance(got, list), got
    b200 = [row for row in got[1:] if row[0] == "B200"]
    assert [row[1] for row in b200] == ["gpt-oss-120b", "deepseek-r1", "total"] and b200[2][7] > 0
    bad = [row for row in got[1:] if row[0] == "GB30"]
    assert [row[1] for row in bad] == ["gpt-oss-120b", "deepseek-r1", "total"]
    assert bad[0][6].startswith("none: Did you mean GB300? No family 'GB30'."), bad[0][6]
    assert bad[2][6] == "incomplete: no row for 2 of 2 workloads"


@pytest.mark.parametrize(
    ("formula", "reason"),
    [
        ('=FLEET("gpt-oss-120b","Server",1000000,"B200",3,0.7,8,730,"nope")', "No availability"),
        ('=FLEET(NA(),"Server",1000000,"B200",3,0.7)', "benchmarks row 1 is #N/A"),
    ],
)
def test_fleets_own_argument_errors_are_errors(formula: str, reason: str) -> None:
    got = evaluate(formula)
    assert not isinstance(got, list), got
    assert reason in got.reason, got.reason


def test_a_share_typed_as_text_is_read_as_excel_reads_it() -> None:
    text = udf.FLEET(
        [["gpt-oss-120b"], ["deepseek-r1"]], "Server", 1_000_000, "B200", 3, 0.7, 8, 730,
        None, None, None, None, [["50%"], ["50%"]],
    )  # fmt: skip
    numbers = udf.FLEET(
        [["gpt-oss-120b"], ["deepseek-r1"]], "Server", 1_000_000, "B200", 3, 0.7, 8, 730,
        None, None, None, None, [[0.5], [0.5]],
    )  # fmt: skip
    assert isinstance(text, list), text
    assert text == numbers and [row[3] for row in text[1:]] == [500_000, 500_000, 1_000_000]


def test_an_entry_id_is_a_candidate_of_its_own_row(table: Table) -> None:
    row = table.get("6.1-0052", "gpt-oss-120b", "Server")
    assert row is not None
    rate = row.result / row.gpus
    got = udf.FLEET("gpt-oss-120b", "Server", 1_000_000, [["B200"], ["6.1-0052"]], 3, 0.7, 8)
    line = next(r for r in got[1:] if r[0] == "6.1-0052" and r[1] == "gpt-oss-120b")
    assert line[4] == pytest.approx(rate, rel=1e-12) and line[6] == "6.1-0052"
    assert line[7] == ceil_to(1_000_000 / (rate * 0.7), 8)
    # an entry without a row for the workload says why, in its row
    got = udf.FLEET("deepseek-r1", "Interactive", 1000, "6.1-0052", 3)
    assert got[1][6].startswith("none: 6.1-0052 has no deepseek-r1 Interactive result"), got[1][6]


def test_headroom_as_sizing_applies_it(table: Table) -> None:
    rate = udf.BEST("B200", "gpt-oss-120b", "Server")
    got = udf.FLEET(
        "gpt-oss-120b", "Server", 1_000_000, "B200", 3, 0.6, 8, 730, None, None, None, None, None, None, None, 0.2
    )
    line = got[1]
    assert line[7] == ceil_to(1_000_000 * 1.2 / (rate * 0.6), 8) == udf.GPUSNEEDED(1_200_000, rate, 0.6, 8)
    # $ per million as bought: the month's cost of the GPUs bought over the month's output at the target
    assert line[11] == pytest.approx(line[7] * 3 * 730 * 1e6 / (1_000_000 * 3600 * 730), rel=1e-12)


def test_nodes_are_the_mlperf_systems_unless_given(table: Table) -> None:
    entry = udf.BESTENTRY("GB300", "gpt-oss-120b", "Server")
    row = table.get(entry, "gpt-oss-120b", "Server")
    assert row is not None and row.gpus // row.nodes == 4  # GB300's MLPerf nodes hold 4
    got = udf.FLEET("gpt-oss-120b", "Server", 1_000_000, "GB300", 3, 0.7)
    line = got[1]
    assert line[7] == ceil_to(1_000_000 / (row.result / row.gpus * 0.7), 4) and line[8] == line[7] // 4
    given = udf.FLEET("gpt-oss-120b", "Server", 1_000_000, "GB300", 3, 0.7, 8)
    assert given[1][7] == ceil_to(1_000_000 / (row.result / row.gpus * 0.7), 8)


def test_pooled_nodes_are_whole_nodes_of_the_sum() -> None:
    benches = [["gpt-oss-120b"], ["deepseek-r1"]]
    targets = [[1_000_000], [200_000]]
    rates = [udf.BEST("GB300", b[0], "Server") for b in benches]
    got = udf.FLEET(benches, "Server", targets, "GB300", 3, 0.7, 4, 730, *[None] * 7, 0, True)
    total = got[3]
    exact = sum(t[0] / (r * 0.7) for t, r in zip(targets, rates, strict=True))
    assert total[7] == ceil_to(exact, 4) and total[8] == total[7] // 4
    assert [r[7] for r in got[1:3]] == [math.ceil(t[0] / (r * 0.7)) for t, r in zip(targets, rates, strict=True)]
    assert total[10] == pytest.approx(total[7] * 3 * 730, rel=1e-12)
    apart = udf.FLEET(benches, "Server", targets, "GB300", 3, 0.7, 4, 730)
    assert total[7] <= apart[3][7]  # pooling never needs more
