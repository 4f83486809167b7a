"""COUNTS: what a round holds, by division, on the real v6.1 file (the news' "30 submitters and 120 systems")."""

from __future__ import annotations

import pytest

from benchsheet.udfs import functions as udf


def _by_division(table: list[list[object]]) -> dict[object, dict[object, object]]:
    return {r[0]: dict(zip(table[0], r, strict=True)) for r in table[1:]}


def test_v61_submitters_and_entry_ids_by_division() -> None:
    counts = _by_division(udf.COUNTS("6.1"))
    assert counts["closed"]["submitters"] == 30 and counts["closed"]["entry IDs"] == 108
    assert counts["all"]["submitters"] == 33 and counts["all"]["entry IDs"] == 120
    assert counts["open"]["entry IDs"] == 12 and counts["all"]["results"] == 492


def test_counts_filter_by_suite_and_availability() -> None:
    everything = _by_division(udf.COUNTS("6.1"))["all"]["entry IDs"]
    parts = [
        _by_division(udf.COUNTS("6.1", av))["all"]["entry IDs"] if not isinstance(udf.COUNTS("6.1", av), str) else 0
        for av in ("available", "preview", "rdi")
    ]
    assert sum(parts) == everything  # type: ignore[arg-type]
    suites = udf.COUNTS("6.1", "any", "datacenter")
    assert _by_division(suites)["all"]["entry IDs"] < everything  # type: ignore[operator]


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (("9.9",), "#N/A No rows in round 9.9 (rounds: 5.1, 6.0, 6.1)"),
        (("6.1", "sometimes"), "#VALUE! No availability 'sometimes': use one of"),
    ],
)
def test_counts_errors(args: tuple[str, ...], start: str) -> None:
    assert udf.COUNTS(*args).startswith(start)


def test_roundcount_is_one_number_of_counts() -> None:
    assert udf.ROUNDCOUNT("6.1", "submitters", "closed") == 30
    assert udf.ROUNDCOUNT("6.1", "entry IDs") == 120
    assert udf.ROUNDCOUNT("6.1", "colour").startswith("#VALUE! No count")


def test_systems_shows_both_counts() -> None:
    """Issue 29, item 6: "systems" is MLCommons' count of entry IDs (the news' 120) or the distinct system
    names (106); the header and the answer say which is which."""
    table = udf.COUNTS("6.1")
    assert table[0] == ["division", "submitters", "entry IDs", "system names", "results"]
    assert udf.ROUNDCOUNT("6.1", "system names") == 106
    assert udf.ROUNDCOUNT("6.1", "entry IDs") == 120
    both = udf.ROUNDCOUNT("6.1", "systems")
    assert isinstance(both, str) and both.startswith("#VALUE!")
    assert "120 entry IDs" in both and "106 system names" in both and "MLCommons" in both
    from benchsheet.catalogue.functions import BY_NAME

    for name in ("COUNTS", "ROUNDCOUNT"):
        text = BY_NAME[name].help + " ".join(a.help for a in BY_NAME[name].args)
        assert "system names" in text and "entry IDs" in text and "MLCommons" in text
