"""A range claim checked against where the like-for-like gains lie, and outliers flagged (issue 29, items 2
and 3), on the real v6.0 -> v6.1 files: the Blackwell gains run from -11% to +149%, and one GB10 pair
(the same software string in both rounds) shows +4,401.5%."""

from __future__ import annotations

from typing import Any

from benchsheet.analysis.claims import GAINS_HEADER, OUTLIER_GAIN
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.udfs import functions as udf


def _rows(table: list[list[Any]]) -> dict[Any, list[Any]]:
    return {r[0]: r for r in table[1:]}


def test_gains_flags_a_gain_software_cannot_give() -> None:
    header, *rows = udf.GAINS("yolo-99", "Offline", "6.0", "6.1")
    assert header == list(GAINS_HEADER) and header[-1] == "flag"
    (row,) = [r for r in rows if r[header.index("family")] == "GB10"]
    assert round(row[header.index("gain")], 4) == 44.0152
    assert row[header.index("flag")].startswith("outlier")
    header, *rows = udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1")
    assert all(r[header.index("gain")] <= OUTLIER_GAIN and r[header.index("flag")] == "" for r in rows)


def test_a_range_that_holds_for_any_range_no_longer_holds() -> None:
    verdicts = {(0.01, 0.02): "the data show a wider range", (0.08, 0.36): "the data show a wider range"}
    verdicts[(0.08, 5)] = "the data run lower than the claim"
    for (low, high), verdict in verdicts.items():
        rows = _rows(udf.GAINRANGE(low, high, "Blackwell", "6.0", "6.1"))
        assert rows["observed"][2] == f"{verdict}: -11% to +149%"
        below, inside, above = (sum(rows[k][3:6]) for k in ("below", "inside", "above"))
        assert below > 0 and inside > 0 and below + inside + above == sum(rows["observed"][3:6])
    rows = _rows(udf.GAINRANGE(0.08, 5, "Blackwell", "6.0", "6.1"))
    assert sum(rows["above"][3:6]) == 0  # the +4,401% pairs are outliers, left out
    assert "quartiles" in rows["observed"][6] and "outliers left out: 2" in rows["observed"][6]
    wide = _rows(udf.GAINRANGE(-0.2, 1.6, "Blackwell", "6.0", "6.1"))
    assert wide["observed"][2] == "every pair lies in the range, but none reaches +160%: the data show -11% to +149%"
    asked = _rows(udf.GAINRANGE(-0.2, 1.6, "Blackwell", "6.0", "6.1", "available", True))
    assert sum(asked["above"][3:6]) == 2 and "+4402%" in asked["observed"][2]


def test_the_help_states_the_outlier_bound() -> None:
    assert f"{OUTLIER_GAIN:+.0%}" in BY_NAME["GAINS"].help
    assert "include_outliers" in BY_NAME["GAINRANGE"].signature
