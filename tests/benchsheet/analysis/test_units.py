"""Cost and sizing in the unit of the rate they are given (issue 29, item 4), on the real data.

Excel hands a function only the number BEST returned, never its unit, so COSTPERMTOK and GPUSNEEDED
take the unit as an optional last argument: a unit, or the workload the rate was looked up for."""

from __future__ import annotations

import pytest

from benchsheet.catalogue.functions import BY_NAME
from benchsheet.udfs import functions as udf

SDXL = ("B200", "stable-diffusion-xl", "Server", "available", 8, "5.1")


def test_a_bare_number_keeps_todays_answer_in_tokens() -> None:
    rate = udf.BEST(*SDXL)
    assert udf.COSTPERMTOK(5, rate, 0.5) == pytest.approx(5e6 / (rate * 3600 * 0.5))
    assert udf.COSTPERMTOK(5, rate, 0.5, "Tokens/s") == udf.COSTPERMTOK(5, rate, 0.5)
    assert udf.GPUSNEEDED(1000, rate, 0.7, 8) == udf.GPUSNEEDED(1000, rate, 0.7, 8, "tokens/s")


def test_a_queries_rate_is_per_million_queries_when_its_unit_is_given() -> None:
    rate = udf.BEST(*SDXL)
    bare = udf.COSTPERMTOK(5, rate, 0.5)
    assert round(bare, 2) == 774.18  # the case: a Queries/s rate
    assert udf.COSTPERMTOK(5, rate, 0.5, "Queries/s") == bare  # dollars per million queries
    assert udf.COSTPERMTOK(5, rate, 0.5, "stable-diffusion-xl Server") == bare  # the workload names its unit
    assert udf.GPUSNEEDED(100, rate, 1, 8, "stable-diffusion-xl Server") == udf.GPUSNEEDED(100, rate, 1, 8)
    help_ = BY_NAME["COSTPERMTOK"].help + " ".join(a.help for a in BY_NAME["COSTPERMTOK"].args)
    assert "per million queries" in help_ and "bare number" in help_


@pytest.mark.parametrize(
    ("units", "reason"),
    [
        ("Latency (ms)", "#VALUE! units Latency (ms) is a latency, not a rate"),
        ("resnet SingleStream", "#VALUE! units: resnet SingleStream is a latency in Latency (ms), not a rate"),
        ("furlongs", "#VALUE! units 'furlongs'"),
    ],
)
def test_a_unit_that_is_no_rate_is_refused(units: str, reason: str) -> None:
    assert str(udf.COSTPERMTOK(5, 10, 1, units)).startswith(reason)
    assert str(udf.GPUSNEEDED(100, 10, 1, 8, units)).startswith(reason)
