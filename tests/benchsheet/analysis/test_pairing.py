"""BREAKEVEN's rounds made visible and askable (issue 29, item 1), on the real data: B300's best
gpt-oss-120b Server row is of v6.1, H200's of v6.0, so the default BREAKEVEN pairs two rounds."""

from __future__ import annotations

import pytest

from benchsheet.catalogue.functions import BY_NAME
from benchsheet.udfs import functions as udf

ARGS = ("H200", "B300", "gpt-oss-120b", "Server", "available")


def _ratios_row(candidate: str, baseline: str, bench: str, scen: str, *rest: object) -> dict[str, object]:
    header, *rows = udf.RATIOS(candidate, baseline, *rest)
    row = next(r for r in rows if r[0] == bench and r[1] == scen)
    return dict(zip(header, row, strict=True))


def test_the_default_pairs_each_sides_latest_round_and_says_so() -> None:
    assert round(udf.BREAKEVEN(*ARGS), 4) == 4.7166  # unchanged: each side's latest round
    paired = udf.PAIRED(*ARGS)
    assert paired.startswith("across rounds: v6.1 over v6.0")
    assert udf.BESTENTRY("B300", "gpt-oss-120b", "Server", "available") in paired
    assert udf.BESTENTRY("H200", "gpt-oss-120b", "Server", "available") in paired


def test_same_is_the_latest_round_both_sides_have_and_equals_ratios() -> None:
    same = udf.BREAKEVEN(*ARGS, None, "same")
    assert round(same, 4) == 4.5909
    row = _ratios_row("B300", "H200", "gpt-oss-120b", "Server", "available")
    assert row["ratio"] == pytest.approx(same, rel=1e-12)
    assert udf.PAIRED(*ARGS, None, "same").startswith("same round (v6.0)")
    assert row["candidate round"] == row["baseline round"] == "6.0"
    assert udf.BREAKEVENPRICE(2, *ARGS, None, "same") == pytest.approx(2 * same)
    across = _ratios_row("B300", "H200", "gpt-oss-120b", "Server", "available", None, None, False, True)
    assert across["ratio"] == pytest.approx(udf.BREAKEVEN(*ARGS), rel=1e-12)  # across_rounds = the default


def test_same_with_an_entry_takes_the_entrys_round() -> None:
    entry = udf.BESTENTRY("H200", "gpt-oss-120b", "Server", "available")  # a v6.0 entry
    value = udf.BREAKEVEN(entry, "B300", "gpt-oss-120b", "Server", "available", None, "same")
    assert value == pytest.approx(udf.BREAKEVEN(*ARGS, None, "same"))
    assert udf.PAIRED(entry, "B300", "gpt-oss-120b", "Server", "available", None, "same").startswith(
        "same round (v6.0)"
    )


def test_same_without_a_common_round_says_each_sides_rounds() -> None:
    answer = udf.BREAKEVEN("H100", "B300", "llama2-70b-99", "Server", "available", None, "same")
    assert isinstance(answer, str) and answer.startswith("#N/A")
    assert "H100" in answer and "5.1" in answer and "B300" in answer and "6.0" in answer


def test_the_help_says_why_ratios_and_breakeven_defaults_differ() -> None:
    text = BY_NAME["BREAKEVEN"].help + " ".join(a.help for a in BY_NAME["BREAKEVEN"].args)
    assert '"same"' in text and "PAIRED" in text
