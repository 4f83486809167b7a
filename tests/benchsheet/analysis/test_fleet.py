"""A power cap (issue 33): GPUs and tokens/s that fit in a site's megawatts at a PUE, and tokens/s per
provisioned MW, with power per GPU an input or measured where a PERWATT row exists."""

from __future__ import annotations

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
