"""Family groups (Blackwell, Hopper, CDNA 3, CDNA 4, Rubin) wherever a family is accepted; GAINS of every
workload; a range claim checked at both ends, on the real data."""

from __future__ import annotations

import pytest

from benchsheet.data.names import FAMILIES, FAMILY_GROUPS
from benchsheet.udfs import functions as udf


def test_groups_are_data_over_known_families() -> None:
    names = {f.name for f in FAMILIES}
    assert set(FAMILY_GROUPS) == {"Blackwell", "Hopper", "CDNA 3", "CDNA 4", "Rubin"}
    for members in FAMILY_GROUPS.values():
        assert set(members) <= names


def test_a_group_is_accepted_wherever_a_family_is() -> None:
    best = udf.BEST("Blackwell", "gpt-oss-120b", "Server")
    assert best == max(udf.BEST(f, "gpt-oss-120b", "Server") for f in ("B200", "B300", "GB300") if True)
    assert udf.ENTRY(udf.BESTENTRY("Hopper", "llama2-70b-99", "Offline"), "family") in ("H100", "H200", "GH200")
    assert udf.RATIOS("Rubin", "GB300")[1][2] == pytest.approx(udf.RATIOS("Vera Rubin", "GB300")[1][2])
    assert isinstance(udf.HISTORY("CDNA 4", "llama2-70b-99", "Offline"), list)
    assert isinstance(udf.BREAKEVEN("Hopper", "Blackwell", "llama2-70b-99", "Offline"), float)


def test_gains_of_every_workload_for_a_group_pair_within_a_family() -> None:
    table = udf.GAINS("all", "all", "6.0", "6.1", "Blackwell")
    head = table[0]
    rows = [dict(zip(head, r, strict=True)) for r in table[1:]]
    assert len({(r["benchmark"], r["scenario"]) for r in rows}) > 3
    assert {r["family"] for r in rows} <= set(FAMILY_GROUPS["Blackwell"])
    assert all((r["old round"], r["new round"]) == ("6.0", "6.1") for r in rows)
    one = udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1", "Blackwell")
    assert [r[:11] for r in one[1:]] == [
        [*r.values()][:11] for r in rows if r["benchmark"] == "gpt-oss-120b" and r["scenario"] == "Server"
    ]


def test_a_range_claim_is_checked_at_both_ends() -> None:
    table = udf.GAINRANGE(0.08, 0.36, "Blackwell", "6.0", "6.1")
    low, high = (dict(zip(table[0], r, strict=True)) for r in table[1:3])
    assert low["verdict"].startswith("holds")
    assert "Nebius 8x B200 deepseek-r1 Server +8.08% (same system)" in low["nearest pairs at or above it"]
    # Lambda's 4x GB300 (+8.85%) pairs only as a weak match: v6.0's submitter was Lambda_SIT
    gains = udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1", "GB300")
    lam = next(r for r in gains[1:] if r[1] == "Lambda")
    assert lam[7] == pytest.approx(0.0885, abs=1e-4) and lam[10].startswith("same submitter, family and size only")
    assert low["same submitter, family and size only"] >= 1
    # the high end: what the data says, at each strength (no figure is assumed)
    assert high["verdict"].startswith(("holds", "only weak", "not found"))
    assert all(len(str(c)) < 255 for r in table for c in r)
    assert udf.GAINRANGE(0.5, 0.1, "Blackwell").startswith("#VALUE! low and high")
