"""Cost and sizing in the unit of the rate they are given (issue 29, item 4), on the real data.

Excel hands a function only the number BEST returned, never its unit, so COSTPERMTOK and GPUSNEEDED
take the unit as an optional last argument: a unit, or the workload the rate was looked up for. Left
out, a rate that is exactly a per-GPU value the table answers (PERGPU, BEST, MEDIANPERGPU) in queries
or samples is refused with the reason; any other bare number is tokens/s."""

from __future__ import annotations

import pytest

from benchsheet.catalogue.engine import evaluate
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.udfs import functions as udf

SDXL = ("B200", "stable-diffusion-xl", "Server", "available", 8, "5.1")


def test_a_bare_number_keeps_todays_answer_in_tokens() -> None:
    rate = 1234.5  # typed by the user: no row of the table has it
    assert udf.COSTPERMTOK(5, rate, 0.5) == pytest.approx(5e6 / (rate * 3600 * 0.5))
    assert udf.COSTPERMTOK(5, rate, 0.5, "Tokens/s") == udf.COSTPERMTOK(5, rate, 0.5)
    assert udf.GPUSNEEDED(1000, rate, 0.7, 8) == udf.GPUSNEEDED(1000, rate, 0.7, 8, "tokens/s")
    tokens = udf.BEST("B200", "gpt-oss-120b", "Server", "available", 8)  # a tokens/s value of the table
    assert udf.COSTPERMTOK(5, tokens, 0.5) == pytest.approx(5e6 / (tokens * 3600 * 0.5))


def test_a_queries_rate_is_per_million_queries_when_its_unit_is_given() -> None:
    rate = udf.BEST(*SDXL)
    priced = udf.COSTPERMTOK(5, rate, 0.5, "Queries/s")  # dollars per million queries
    assert round(priced, 2) == 774.18  # the case: a Queries/s rate
    assert priced == pytest.approx(5e6 / (rate * 3600 * 0.5))
    assert udf.COSTPERMTOK(5, rate, 0.5, "stable-diffusion-xl Server") == priced  # the workload names its unit
    assert udf.GPUSNEEDED(100, rate, 1, 8, "stable-diffusion-xl Server") == udf.GPUSNEEDED(100, rate, 1, 8, "Queries/s")
    help_ = BY_NAME["COSTPERMTOK"].help + " ".join(a.help for a in BY_NAME["COSTPERMTOK"].args)
    assert "per million queries" in help_ and "bare number" in help_ and "queries/samples" in help_


@pytest.mark.parametrize(
    "looked_up",
    [
        lambda: udf.BEST(*SDXL),  # the case: 774.18 "per million tokens" for a Queries/s result
        lambda: udf.PERGPU(udf.BESTENTRY(*SDXL), "stable-diffusion-xl", "Server"),
        lambda: udf.MEDIANPERGPU("B200", "stable-diffusion-xl", "Offline"),  # a median of an even count: a mean
        lambda: udf.BEST("RTX 4090", "resnet", "Offline"),  # Samples/s
    ],
)
def test_a_rate_the_table_gives_in_queries_or_samples_is_refused_without_its_unit(looked_up: object) -> None:
    rate = looked_up()  # type: ignore[operator]
    assert isinstance(rate, float)
    for answer in (udf.COSTPERMTOK(5, rate, 0.5), udf.GPUSNEEDED(100, rate, 1, 8)):
        text = str(answer)
        assert text.startswith("#VALUE!"), text
        assert "per-GPU" in text and ("Queries/s" in text or "Samples/s" in text) and "units" in text, text
    engine = evaluate(f"=COSTPERMTOK(5,{rate!r},0.5)").text  # the same through the engine (eval, calc, template)
    assert engine.startswith("#VALUE!") and "per-GPU" in engine, engine


def test_a_nested_lookup_is_refused_in_the_engine_as_in_excel() -> None:
    answer = evaluate('=COSTPERMTOK(5,BEST("B200","stable-diffusion-xl","Server","available",8,"5.1"),0.5)').text
    assert answer.startswith("#VALUE!") and "Queries/s" in answer, answer
    priced = evaluate('=COSTPERMTOK(5,BEST("B200","stable-diffusion-xl","Server","available",8,"5.1"),0.5,"Queries/s")')
    assert round(float(priced), 2) == 774.18
    help_ = BY_NAME["COSTPERMTOK"].help + " ".join(a.help for a in BY_NAME["COSTPERMTOK"].args)
    assert "per million queries" in help_ and "bare number" in help_ and "queries/samples" in help_


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
