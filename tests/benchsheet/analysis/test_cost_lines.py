"""A TCO's every cost line (issue 39, item 4): support/maintenance, back-end network and storage, sales tax and
installation, staff and availability reach OWNEDGPUHOUR (optional, after its nine arguments, so that existing
formulas answer as before), and a yearly cash-flow schedule of owning against renting with the NPV of each.

Each figure is recomputed here by hand: the capital recovery factor r(1+r)^n/((1+r)^n-1) on everything bought
up front, the residual back through its sinking fund r/((1+r)^n-1), NPV = sum of CF_t / (1+r)^t (Excel's NPV
discounts from period 1, so year 0 is added outside it, as Microsoft's NPV reference describes)."""

from __future__ import annotations

import pytest

from benchsheet.catalogue.engine import evaluate
from benchsheet.udfs import functions as udf

HOURS = 365 * 24
BASE = (50_000, 4, 0.08, 5_000, 1.2, 1.3, 0.10, 150, 4_500)  # TCO's B200 sample: $400,000 / 8 GPUs, 10% residual
MORE = (0.05, 0.10, 0.05, 600, 0.98)  # support 5%/yr, network+storage 10%, tax+install 5%, staff $600, 98% up


def crf(r: float, n: float) -> float:
    return float(r * (1 + r) ** n / ((1 + r) ** n - 1))


def by_hand(capex: float, n: float, r: float, residual: float, kw: float, pue: float, kwh: float, colo: float,
            software: float, support: float = 0, network: float = 0, tax: float = 0, staff: float = 0,
            up: float = 1) -> float:  # fmt: skip
    upfront = capex * (1 + network + tax)
    capital = upfront * crf(r, n) - residual * (crf(r, n) - r)
    yearly = capital + colo * kw * 12 + software + support * capex + staff + kw * pue * kwh * HOURS
    return yearly / (HOURS * up)


def test_existing_formulas_answer_as_before() -> None:
    assert udf.OWNEDGPUHOUR(*BASE) == pytest.approx(by_hand(*BASE), rel=1e-12)
    assert udf.OWNEDGPUHOUR(*BASE, 0, 0, 0, 0, 1) == udf.OWNEDGPUHOUR(*BASE)


def test_every_cost_line_by_hand() -> None:
    got = udf.OWNEDGPUHOUR(*BASE, *MORE)
    assert got == pytest.approx(by_hand(*BASE, *MORE), rel=1e-12)
    # each line alone adds what its definition says
    for k, name in enumerate(("support", "network", "tax", "staff", "up")):
        one: list[float] = [0, 0, 0, 0, 1]
        one[k] = MORE[k]
        alone = udf.OWNEDGPUHOUR(*BASE, *one)
        assert alone == pytest.approx(by_hand(*BASE, **{name: MORE[k]}), rel=1e-12), name
        assert alone > udf.OWNEDGPUHOUR(*BASE), name


def test_the_lines_together_flip_a_rental_verdict() -> None:
    # at these illustrative sizes the lines add 26.9%; at 70% utilization the break-even rental per hour served
    # moves from $3.59 to $4.56, so a $4.00 rental turns from "own" to "rent"
    base, full = by_hand(*BASE), by_hand(*BASE, *MORE)
    assert round(full / base - 1, 3) == 0.269
    assert base / 0.7 < 4.00 < full / 0.7
    assert udf.RENTVSOWN(udf.OWNEDGPUHOUR(*BASE), 0.7) == pytest.approx(base / 0.7, rel=1e-12)
    assert udf.RENTVSOWN(udf.OWNEDGPUHOUR(*BASE, *MORE), 0.7) == pytest.approx(full / 0.7, rel=1e-12)


def test_a_yearly_cash_flow_schedule_and_its_npv() -> None:
    capex, n, r, residual, kw, pue, kwh, colo, software = BASE
    support, network, tax, staff, up = MORE
    rent = 3.0
    got = udf.TCOCASHFLOW(rent, *BASE, *MORE)
    assert got[0] == ["year", "owning $ per GPU", "renting $ per GPU"]
    yearly = colo * kw * 12 + software + support * capex + staff + kw * pue * kwh * HOURS
    want_own = [capex * (1 + network + tax), yearly, yearly, yearly, yearly - residual]
    want_rent = [0.0] + [rent * HOURS * up] * 4
    assert [row[0] for row in got[1:6]] == [0, 1, 2, 3, 4]
    assert [row[1] for row in got[1:6]] == pytest.approx(want_own, rel=1e-12)
    assert [row[2] for row in got[1:6]] == pytest.approx(want_rent, rel=1e-12)
    npv_own = sum(cf / (1 + r) ** t for t, cf in enumerate(want_own))
    npv_rent = sum(cf / (1 + r) ** t for t, cf in enumerate(want_rent))
    assert got[6][0] == "NPV at 8.0%"
    assert got[6][1:] == pytest.approx([npv_own, npv_rent], rel=1e-12)
    # Excel's own NPV (from period 1) plus year 0
    excel = evaluate(f"={want_own[0]}+NPV({r},{','.join(repr(v) for v in want_own[1:])})")
    assert got[6][1] == pytest.approx(excel, rel=1e-12)
    assert got[7][:2] == ["cheaper", "owning" if npv_own <= npv_rent else "renting"]
    # the NPV verdict is the $/GPU-hour verdict: owning's NPV x CRF over the available hours is OWNEDGPUHOUR
    assert npv_own * crf(r, n) / (HOURS * up) == pytest.approx(udf.OWNEDGPUHOUR(*BASE, *MORE), rel=1e-12)


def test_bad_cost_lines_say_which() -> None:
    assert udf.OWNEDGPUHOUR(*BASE, -0.1).startswith("#VALUE! support_share_per_year is a share of capex")
    assert udf.OWNEDGPUHOUR(*BASE, 0, 0, 0, 0, 0).startswith("#VALUE! availability is the share of hours")
    assert udf.TCOCASHFLOW(3, 50_000, 4.5).startswith("#VALUE! years must be a whole number")
    assert udf.OWNEDGPUHOUR(50_000, 4, 0, 60_000).startswith("#VALUE! residual_value must be")
