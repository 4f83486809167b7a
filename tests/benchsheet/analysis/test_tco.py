"""Owning against renting (issue 33): the owned $/GPU-hour from labelled inputs, the rent-versus-own
break-even, and power per GPU from a measured PERWATT row. Each formula is checked against its public
definition, computed here by hand (the capital recovery factor r(1+r)^n/((1+r)^n-1), straight-line at
r = 0; $/Mtok = $/GPU-hour x 10^6 / (tokens/s x 3,600 x utilization)) and by Excel's own PMT."""

from __future__ import annotations

import math

import pytest

from benchsheet.catalogue.engine import evaluate
from benchsheet.data.table import Table
from benchsheet.udfs import functions as udf
from excelcalc.values import ReasonedError

HOURS = 365 * 24  # a year of wall-clock hours: an owned GPU costs every one of them


def test_straight_line_by_hand() -> None:
    # capex $30,000 over 4 years, no cost of capital, no residual: $7,500 a year
    # power 1.2 kW x PUE 1.3 x $0.10/kWh = $0.156 an hour; colocation $150/kW-month x 1.2 kW x 12 = $2,160 a year;
    # software $4,000 a year
    got = udf.OWNEDGPUHOUR(30000, 4, 0, 0, 1.2, 1.3, 0.10, 150, 4000)
    by_hand = (30000 / 4 + 150 * 1.2 * 12 + 4000) / HOURS + 1.2 * 1.3 * 0.10
    assert got == pytest.approx(by_hand, rel=1e-12)
    assert round(got, 4) == round((7500 + 2160 + 4000) / 8760 + 0.156, 4) == 1.7154


def test_capital_recovery_factor_by_hand_and_by_excels_pmt() -> None:
    r, n, capex, residual = 0.08, 4, 30000.0, 3000.0
    crf = r * (1 + r) ** n / ((1 + r) ** n - 1)
    assert round(crf, 6) == 0.301921  # the textbook CRF(8%, 4 years)
    sinking = r / ((1 + r) ** n - 1)  # a residual value returned at the end, annualised
    yearly = capex * crf - residual * sinking
    assert udf.OWNEDGPUHOUR(capex, n, r, residual) == pytest.approx(yearly / HOURS, rel=1e-12)
    # the same annuity as Excel's own PMT computes it, independently of benchsheet
    pmt = evaluate(f"=PMT({r},{n},-{capex},{residual})")
    assert evaluate(f"=OWNEDGPUHOUR({capex},{n},{r},{residual})") == pytest.approx(pmt / HOURS, rel=1e-12)


def test_cost_of_capital_zero_is_straight_line_and_small_rates_approach_it() -> None:
    flat = udf.OWNEDGPUHOUR(40000, 5)
    assert flat == pytest.approx(40000 / 5 / HOURS, rel=1e-12)
    assert udf.OWNEDGPUHOUR(40000, 5, 0) == flat
    assert udf.OWNEDGPUHOUR(40000, 5, 1e-9) == pytest.approx(flat, rel=1e-6)
    assert udf.OWNEDGPUHOUR(40000, 5, 0.1) > flat


def test_costpermtok_takes_the_owned_price_like_a_rented_one() -> None:
    best = udf.BEST("B200", "gpt-oss-120b", "Server", "available", 8)
    owned = udf.OWNEDGPUHOUR(35000, 4, 0.08, 0, 1.0, 1.3, 0.08, 150, 3000)
    got = evaluate(
        '=COSTPERMTOK(OWNEDGPUHOUR(35000,4,0.08,0,1,1.3,0.08,150,3000),BEST("B200","gpt-oss-120b","Server",'
        '"available",8),0.6)'
    )
    assert got == pytest.approx(owned * 1e6 / (best * 3600 * 0.6), rel=1e-12)


def test_extreme_periods_answer_a_number_or_a_reason() -> None:
    """(1+r)^n past 1e308 (n = 1024 years at 100%) is r to every digit; n so short that (1+r)^n rounds to 1
    still repays the capital, at r / ln(1+r) / n a year, the factor's limit (found by the fuzz test:
    OverflowError, ZeroDivisionError)."""
    assert udf.OWNEDGPUHOUR(0, 1024, 1) == 0
    assert udf.OWNEDGPUHOUR(8760, 1024, 1) == pytest.approx(1.0)  # capex x r a year, over 8,760 hours
    short = udf.OWNEDGPUHOUR(8760, 1e-12, 0.08)
    assert short == pytest.approx(0.08 / math.log1p(0.08) * 1e12, rel=1e-9), short
    assert str(udf.OWNEDGPUHOUR(8760, 1e-320, 0.08)).startswith("#NUM! ")


def test_rent_versus_own_by_hand() -> None:
    owned = udf.OWNEDGPUHOUR(30000, 4, 0.08, 3000, 1.2, 1.3, 0.10, 150, 4000)
    # renting only the hours served against owning every hour, serving 40% of them
    assert udf.RENTVSOWN(owned, 0.4) == pytest.approx(owned / 0.4, rel=1e-12)
    # the break-even rent gives the same $/Mtok as owning, at any per-GPU throughput
    tps = 2500.0
    owned_mtok = udf.COSTPERMTOK(owned, tps, 0.4)
    rented_mtok = udf.COSTPERMTOK(udf.RENTVSOWN(owned, 0.4), tps, 1)
    assert rented_mtok == pytest.approx(owned_mtok, rel=1e-12)
    # at full utilization owning and renting every hour cost the same per hour
    assert udf.RENTVSOWN(owned, 1) == pytest.approx(owned, rel=1e-12)


def test_power_per_gpu_from_a_measured_row(table: Table) -> None:
    row = table.get("5.1-0061", "llama2-70b-99", "Offline")
    assert row is not None and row.has_power and row.power_units == "Watts"
    got = udf.KWPERGPU("5.1-0061", "llama2-70b-99", "Offline")
    assert got == pytest.approx(row.power_result / row.gpus / 1000, rel=1e-12)
    assert round(got, 3) == round(10400.9988793425 / 8 / 1000, 3) == 1.300
    owned = udf.OWNEDGPUHOUR(30000, 4, 0, 0, got, 1.3, 0.1)
    assert owned == pytest.approx(7500 / HOURS + got * 1.3 * 0.1, rel=1e-12)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("6.1-0052", "gpt-oss-120b", "Server"), "#N/A 6.1-0052 gpt-oss-120b Server has no measured power"),
        (("6.1-9999", "gpt-oss-120b", "Server"), "#N/A No entry"),
    ],
)
def test_no_measured_power_no_kw(args: tuple[str, str, str], reason: str) -> None:
    got = udf.KWPERGPU(*args)
    assert isinstance(got, str) and got.startswith(reason)


def test_a_millijoule_row_is_not_a_power(table: Table) -> None:
    row = next(r for r in table.rows if r.power_units == "millijoules")
    got = udf.KWPERGPU(row.entry, row.benchmark, row.scenario)
    assert isinstance(got, str) and got.startswith("#N/A") and "millijoules" in got


@pytest.mark.parametrize(
    ("formula", "code", "reason"),
    [
        ("=OWNEDGPUHOUR(30000,-4)", "#VALUE!", "years must be a number > 0"),
        ("=OWNEDGPUHOUR(30000,0)", "#VALUE!", "years must be a number > 0"),
        ("=OWNEDGPUHOUR(-1,4)", "#VALUE!", "capex_per_gpu must be a number >= 0"),
        ('=OWNEDGPUHOUR("lots",4)', "#VALUE!", "capex_per_gpu must be a number, not 'lots'"),
        ("=OWNEDGPUHOUR(30000,4,8)", "#VALUE!", "cost_of_capital is a yearly rate as a fraction"),
        ("=OWNEDGPUHOUR(30000,4,-0.1)", "#VALUE!", "cost_of_capital"),
        ("=OWNEDGPUHOUR(30000,4,0,40000)", "#VALUE!", "residual_value must be >= 0 and <= capex_per_gpu"),
        ("=OWNEDGPUHOUR(30000,4,0,0,1,0.9)", "#VALUE!", "pue must be a number >= 1"),
        ("=OWNEDGPUHOUR(30000,4,0,0,-1)", "#VALUE!", "kw_per_gpu must be a number >= 0"),
        ('=OWNEDGPUHOUR(30000,4,0,0,1,1.2,"cheap")', "#VALUE!", "price_per_kwh must be a number, not 'cheap'"),
        ("=RENTVSOWN(2,0)", "#VALUE!", "utilization must be > 0 and <= 1"),
        ("=RENTVSOWN(2,1.5)", "#VALUE!", "utilization must be > 0 and <= 1"),
        ('=RENTVSOWN("two",0.5)', "#VALUE!", "owned_price_per_gpu_hour must be a number, not 'two'"),
        ("=RENTVSOWN(-2,0.5)", "#VALUE!", "owned_price_per_gpu_hour must be a number >= 0"),
    ],
)
def test_bad_input_answers_an_error_with_its_reason(formula: str, code: str, reason: str) -> None:
    got = evaluate(formula)
    assert isinstance(got, ReasonedError), (formula, got)
    assert str(got) == code and reason in got.reason, (formula, got.reason)


# ------------------------------------------------------------------ against an API's price


def test_api_utilization_by_hand() -> None:
    # $5/GPU-hour at 1,000 tokens/s per GPU against an API's $2 per million output tokens:
    # 5 x 10^6 / (1,000 x 3,600 x u) = 2  =>  u = 5 x 10^6 / (1,000 x 3,600 x 2) = 0.6944...
    got = udf.APIUTILIZATION(5, 1000, 2)
    assert got == pytest.approx(5e6 / (1000 * 3600 * 2), rel=1e-12)
    assert round(got, 4) == 0.6944
    assert udf.COSTPERMTOK(5, 1000, got) == pytest.approx(2, rel=1e-12)  # the same cost per token there


def test_api_utilization_of_a_family_and_of_an_owned_gpu() -> None:
    best = udf.BEST("B200", "gpt-oss-120b", "Server", "available", 8)
    owned = udf.OWNEDGPUHOUR(30000, 4, 0.08, 3000, 1.2, 1.3, 0.1, 150, 4000)
    got = evaluate(
        '=APIUTILIZATION(OWNEDGPUHOUR(30000,4,0.08,3000,1.2,1.3,0.1,150,4000),BEST("B200","gpt-oss-120b","Server",'
        '"available",8),0.25)'
    )
    assert got == pytest.approx(owned * 1e6 / (best * 3600 * 0.25), rel=1e-12)
    assert 0 < got <= 1


def test_no_utilization_reaches_a_cheaper_api() -> None:
    full = udf.COSTPERMTOK(5, 100, 1)  # $13.89 per million tokens at 100%
    got = udf.APIUTILIZATION(5, 100, 2)
    assert isinstance(got, str) and got.startswith("#N/A"), got
    assert f"${full:,.2f} per million tokens at 100% utilization" in got
    assert "more than the API's $2.00: no utilization <= 100% reaches it" in got
    assert udf.APIUTILIZATION(5, 100, 0).startswith("#N/A")


@pytest.mark.parametrize(
    ("formula", "reason"),
    [
        ("=APIUTILIZATION(-5,1000,2)", "price_per_gpu_hour must be a number >= 0"),
        ("=APIUTILIZATION(5,0,2)", "tokens_per_sec_per_gpu must be a number > 0"),
        ("=APIUTILIZATION(5,1000,-2)", "api_price_per_mtok must be a number >= 0"),
        ('=APIUTILIZATION(5,1000,"cheap")', "api_price_per_mtok must be a number, not 'cheap'"),
    ],
)
def test_bad_api_input_answers_an_error_with_its_reason(formula: str, reason: str) -> None:
    got = evaluate(formula)
    assert isinstance(got, ReasonedError) and str(got) == "#VALUE!" and reason in got.reason, (formula, got)
