"""The catalogue's functions: worked examples on official data, through every shell, and their errors."""

from __future__ import annotations

import math
from typing import Any

import pytest

from benchsheet import analysis as A
from benchsheet.catalogue.engine import evaluate
from benchsheet.catalogue.functions import BY_NAME, CATALOGUE
from benchsheet.cli import main
from benchsheet.data.table import Table
from benchsheet.udfs import functions as udf
from excelcalc.values import ReasonedError
from tests.cites import cite_text
from tests.excel import literal


def _row(table: Table, entry: str, bench: str, scen: str) -> Any:
    row = table.get(entry, bench, scen)
    assert row is not None
    return row


# The worked examples of the functions issue. Expected figures come from the
# official rows (result / total accelerators), computed here from the table.


def test_pergpu_example(table: Table) -> None:
    row = _row(table, "5.1-0072", "deepseek-r1", "Server")
    expected = row.result / (4 * 18)
    assert udf.PERGPU("5.1-0072", "deepseek-r1", "Server") == pytest.approx(expected)
    assert round(udf.PERGPU("5.1-0072", "deepseek-r1", "Server"), 1) == 2907.3


def test_headline_example() -> None:
    assert round(udf.HEADLINE("deepseek-r1", "Server", "5.1", "6.1"), 2) == 5.65
    assert round(udf.HEADLINE("deepseek-r1", "Server", "5.1", "6.1", "available"), 2) == 3.04


def test_breakeven_example(table: Table) -> None:
    value = udf.BREAKEVEN("B200", "B300", "gpt-oss-120b", "Server", "available", 8)
    assert round(value, 3) == 1.260
    b300 = _row(table, udf.BESTENTRY("B300", "gpt-oss-120b", "Server", "available", 8), "gpt-oss-120b", "Server")
    b200 = _row(table, udf.BESTENTRY("B200", "gpt-oss-120b", "Server", "available", 8), "gpt-oss-120b", "Server")
    assert value == pytest.approx((b300.result / b300.gpus) / (b200.result / b200.gpus))
    assert b300.gpus <= 8 and b200.gpus <= 8 and b300.availability == b200.availability == "available"


def test_costpermtok_example() -> None:
    best = udf.BEST("B200", "gpt-oss-120b", "Server", "available", 8)
    value = udf.COSTPERMTOK(5, best, 0.5)
    assert value == pytest.approx(5 * 1e6 / (best * 3600 * 0.5))
    assert round(value, 3) == 0.246


def test_heterogeneous_example() -> None:
    assert udf.PERGPU("6.1-0016", "gpt-oss-120b", "Server") == (
        "#N/A 6.1-0016 is heterogeneous (H200 + MI350X): no per-GPU value"
    )


EXAMPLES = [
    ('=PERGPU("5.1-0072","deepseek-r1","Server")', 2907.3, 1),
    ('=HEADLINE("deepseek-r1","Server","5.1","6.1")', 5.65, 2),
    ('=HEADLINE("deepseek-r1","Server","5.1","6.1","available")', 3.04, 2),
    ('=BREAKEVEN("B200","B300","gpt-oss-120b","Server","available",8)', 1.260, 3),
    ('=COSTPERMTOK(5, BEST("B200","gpt-oss-120b","Server","available",8), 0.5)', 0.246, 3),
]


@pytest.mark.parametrize(("formula", "expected", "digits"), EXAMPLES)
def test_examples_through_eval(formula: str, expected: float, digits: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", formula]) == 0
    printed = capsys.readouterr().out.strip()
    assert round(float(printed), digits) == expected
    assert float(printed) == evaluate(formula)  # full precision printed


def test_heterogeneous_through_eval(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", '=PERGPU("6.1-0016","gpt-oss-120b","Server")']) == 1
    assert capsys.readouterr().err.strip() == "#N/A 6.1-0016 is heterogeneous (H200 + MI350X): no per-GPU value"
    value = evaluate('=PERGPU("6.1-0016","gpt-oss-120b","Server")')
    assert isinstance(value, ReasonedError) and str(value) == "#N/A"
    assert evaluate('=ISNA(PERGPU("6.1-0016","gpt-oss-120b","Server"))') is True
    assert evaluate('=IFERROR(PERGPU("6.1-0016","gpt-oss-120b","Server"),-1)') == -1


def test_eval_uses_excel_functions_and_prints_arrays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", '=ROUND(PERGPU("5.1-0072","deepseek-r1","Server"),0)*2']) == 0
    assert capsys.readouterr().out.strip() == str(round(2907.33) * 2)
    assert main(["eval", '=LATENCYBOUNDS("deepseek-r1","Interactive")']) == 0
    assert capsys.readouterr().out.strip() == "1500\t15"
    assert main(["eval", '=ENTRY("6.1-0003","platform")']) == 0
    assert capsys.readouterr().out.strip() == "8xMI355X_2xEPYC_9575F"


@pytest.mark.parametrize(
    ("formula", "start"),
    [("=NOSUCH(1)", "#NAME? unknown function NOSUCH"), ("=1+", "#VALUE! cannot evaluate"), ("=A1", "#REF!")],
)
def test_eval_errors_are_values(formula: str, start: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", formula]) == 1
    err = capsys.readouterr().err
    assert err.startswith(start) and "Traceback" not in err


def test_left_out_arguments_are_missing_not_zero() -> None:
    assert evaluate('=BEST("B200","gpt-oss-120b","Server",,8)') == udf.BEST("B200", "gpt-oss-120b", "Server", None, 8)


# ----------------------------------------------------------- per function


def test_pergpu_defaults(table: Table) -> None:
    one_bench = next(
        e
        for e in sorted({r.entry for r in table.rows})
        if len({r.benchmark for r in table.entry_rows(e) if r.throughput}) == 1
        and any(r.scenario == "Server" for r in table.entry_rows(e))
        and not table.entry_rows(e)[0].heterogeneous
        and table.entry_rows(e)[0].gpus > 0
    )
    bench = next(r.benchmark for r in table.entry_rows(one_bench) if r.throughput)
    assert udf.PERGPU(one_bench) == udf.PERGPU(one_bench, bench, "Server")
    assert udf.PERGPU("5.1-0072").startswith("#N/A 5.1-0072 has several benchmarks: give one of deepseek-r1")
    assert udf.PERGPU("6.1-0052", "gpt-oss-120b") == udf.PERGPU("6.1-0052", "gpt-oss-120b", "Server")
    offline_only = next(
        e
        for e in sorted({r.entry for r in table.rows})
        if {r.scenario for r in table.entry_rows(e)} == {"Offline", "SingleStream"}
        and len({r.benchmark for r in table.entry_rows(e)}) == 1
    )
    assert "has several scenarios: give one of Offline, SingleStream" in udf.PERGPU(
        offline_only, table.entry_rows(offline_only)[0].benchmark
    )


NO_CURVES = "#N/A No MLPerf Endpoints curves are loaded (benchsheet import-run <submission folder> adds them)"

ERRORS = [
    (("PERGPU", "6.1-9999", "gpt-oss-120b", "Server"), "#N/A No entry '6.1-9999' in the loaded results"),
    (("PERGPU", "6.1-0052", "deepseek-r1", "Interactive"), "#N/A 6.1-0052 has no deepseek-r1 Interactive result"),
    (("PERGPU", 5, "gpt-oss-120b", "Server"), "#VALUE! entry must be text"),
    (("PERGPU", None), "#VALUE! entry is required"),
    (("RESULT", "6.1-9999", "gpt-oss-120b", "Server"), "#N/A No entry"),
    (("RESULT", "6.1-0052", "gpt-oss-120b", True), "#VALUE! scenario must not be TRUE/FALSE"),
    (("GPUS", "nope"), "#N/A No entry 'nope' in the loaded results"),
    (("ENTRY", "6.1-0052", "colour"), "#VALUE! No field 'colour'"),
    (("BEST", "B200", "gpt-oss-120b", "Server", "soon"), "#VALUE! No availability"),
    (("BEST", "B200", "gpt-oss-120b", "Server", "available", 0), "#VALUE! max_gpus must be >= 1"),
    (("BEST", "B200", "gpt-oss-120b", "Server", "available", 8.5), "#VALUE! max_gpus must be a whole number"),
    (("BEST", "B200", "no-such-model", "Server"), "#N/A No benchmark 'no-such-model'"),
    (("BEST", "B200", "gpt-oss-120b", "Sometimes"), "#VALUE! No scenario"),
    (("BEST", "TPU9", "gpt-oss-120b", "Server"), "#N/A No family 'TPU9': use one of "),
    (("BEST", "H100", "gpt-oss-120b", "Server"), "#N/A H100 has no closed gpt-oss-120b Server rows in any round"),
    (
        ("BEST", "B200", "gpt-oss-120b", "Server", "available", None, "7.3"),
        "#N/A No closed B200 gpt-oss-120b Server rows in round 7.3",
    ),
    (("BEST", "B200", "gpt-oss-120b", "Server", "available", None, "six"), "#VALUE! round must look like"),
    (("BEST", "B200", "resnet", "SingleStream"), "is a latency in Latency (ms): no per-GPU value"),
    (("BESTENTRY", "TPU9", "gpt-oss-120b", "Server"), "#N/A No family 'TPU9'"),
    (("ROWSBEHIND", "TPU9", "gpt-oss-120b", "Server"), "#N/A No family 'TPU9'"),
    (
        ("MEDIANPERGPU", "B200", "gpt-oss-120b", "Server", "available", None, None, "NoSuchStack"),
        "software containing 'NoSuchStack'",
    ),
    (
        ("SPREAD", "B200", "gpt-oss-120b", "Server", 3),
        "#N/A No closed B200 gpt-oss-120b Server systems with exactly 3 GPUs",
    ),
    (
        ("SPREAD", "H200", "gpt-oss-120b", "Server", 8),
        "#N/A Only one H200 gpt-oss-120b Server system with exactly 8 GPUs",
    ),
    (("SPREAD", "B200", "gpt-oss-120b", "Server", 0), "#VALUE! gpus must be >= 1"),
    (("BREAKEVEN", "B200", "Nonesuch", "gpt-oss-120b", "Server"), "#N/A No entry or family 'Nonesuch'"),
    (("BREAKEVEN", "B200", -5, "gpt-oss-120b", "Server"), "#VALUE! a measured per-GPU throughput must be a number > 0"),
    (("BREAKEVEN", "6.1-0016", "B300", "gpt-oss-120b", "Server"), "is heterogeneous"),
    (("BREAKEVENPRICE", -1, "B200", "B300", "gpt-oss-120b", "Server"), "#VALUE! baseline_price must be a number >= 0"),
    (
        ("BREAKEVENPRICE", "cheap", "B200", "B300", "gpt-oss-120b", "Server"),
        "#VALUE! baseline_price must be a number, not 'cheap'",
    ),
    (("COSTPERMTOK", 5, 1000, 0), "#VALUE! utilization must be > 0 and <= 1"),
    (("COSTPERMTOK", 5, 1000, 1.5), "#VALUE! utilization must be > 0 and <= 1"),
    (("COSTPERMTOK", 5, 0), "#VALUE! tokens_per_sec_per_gpu must be a number > 0"),
    (("COSTPERMTOK", -5, 1000), "#VALUE! price_per_gpu_hour must be a number >= 0"),
    (("COSTPERMTOK", float("nan"), 1000), "#VALUE! price_per_gpu_hour must be a finite number"),
    (("GPUSNEEDED", 1000, 0), "#VALUE! tokens_per_sec_per_gpu must be a number > 0"),
    (("GPUSNEEDED", 1000, 10, 1, 0), "#VALUE! gpus_per_node must be a whole number >= 1"),
    (("GAIN", "6.1-9999", "6.1-0052", "gpt-oss-120b", "Server"), "#N/A No entry '6.1-9999' in the loaded results"),
    (("PAIRED", "H100", "B300", "llama2-70b-99", "Server", "available", None, "same"), "#N/A No round where both"),
    (("SCALING", "6.1-0052", "6.1-0016", "gpt-oss-120b", "Server"), "is heterogeneous"),
    (("HEADLINE", "deepseek-r1", "Server", "5.1", "9.9"), "#N/A No closed deepseek-r1 Server rows in round 9.9"),
    (("RESULTS", "no-such-model", "Server"), "#N/A No benchmark 'no-such-model': use one of"),
    (("CITE", "6.1-9999", "gpt-oss-120b", "Server"), "#N/A No entry"),
    (
        ("ENTRIESUSED", [["6.1-0052"], ["6.1-0021"]], [["a"], ["b"], ["c"]], "gpt-oss-120b", "Server"),
        "#VALUE! places must be one cell or one per cell of entries (2), not 3",
    ),
    (("ENTRIESUSED", "6.1-0052"), "#VALUE! places is required"),
    (("FAMILIES", "resnet", "SingleStream"), "is a latency in Latency (ms): no per-GPU value"),
    (("FAMILIES", "gpt-oss-120b", "Server", "available", None, "7.3"), "#N/A No closed gpt-oss-120b Server rows"),
    (("LATENCYBOUNDS", "resnet", "Offline"), "#N/A No latency bounds for resnet Offline"),
    (("DATAINFO", "colour"), "#VALUE! No field 'colour'"),
    (("RATIOS", "TPU9", "GB300"), "#N/A No entry or family 'TPU9' (candidate)"),
    (("RATIOS", "B200", "GB300", "any", None, None, "maybe"), "#VALUE! same_gpus must be TRUE or FALSE"),
    (("GAINS", "gpt-oss-120b", "Server", "6.1", "6.0"), "#VALUE! old_round (6.1) must be earlier"),
    (("GAINS", "e2e-rag-db", "Offline"), "#N/A e2e-rag-db times a whole pipeline with CPU stages"),
    (("HISTORY", "TPU9", "deepseek-r1", "Server"), "#N/A No family 'TPU9'"),
    (("HISTORY", "GB300", "yolo-99", "SingleStream"), "is a latency in Latency (ms): no per-GPU value"),
    (("COUNTS", "6.²"), "#VALUE! round must look like 6.1"),
    (("HEADLINES", "6.1", "5.1"), "#VALUE! old_round (6.1) must be earlier"),
    (("GAINRANGE", 0.5, 0.1, "Blackwell"), "#VALUE! low and high must be gains"),
    (("ROUNDCOUNT", "6.1", "colour"), "#VALUE! No count"),
    (("PERWATT", "6.1-0052", "gpt-oss-120b", "Server"), "#N/A 6.1-0052 gpt-oss-120b Server has no measured power"),
    (("ENERGYCITE", "6.1-9999", "gpt-oss-120b", "Server"), "#N/A No entry '6.1-9999' in the loaded results"),
    # the buyer's decision (issue 33); more in tests/benchsheet/analysis/test_tco.py
    (("OWNEDGPUHOUR", 30000, -4), "#VALUE! years must be a number > 0"),
    (("RENTVSOWN", 2, 0), "#VALUE! utilization must be > 0 and <= 1"),
    (("KWPERGPU", "6.1-0052", "gpt-oss-120b", "Server"), "#N/A 6.1-0052 gpt-oss-120b Server has no measured power"),
    (("SLOSCENARIOS", "deepseek-r1", 2000, 10), "#N/A deepseek-r1 Interactive allows TPOT 15 ms; you asked 10 ms"),
    (("SLOBEST", "GB300", "deepseek-r1", 0, 15), "#VALUE! ttft_ms must be a number > 0"),
    (("SLOBESTENTRY", "TPU9", "deepseek-r1", 1500, 15), "#N/A No family 'TPU9'"),
    (("SLOBESTSCENARIO", "B200", "deepseek-r1", 1500, 15), "#N/A B200 has no closed deepseek-r1 Interactive rows"),
    (("APIUTILIZATION", 5, 100, 2), "#N/A The GPU costs $13.89 per million tokens at 100% utilization"),
    (("MEANTOKENS", "deepseek-r1", "input"), "#N/A MLCommons publishes no mean input length for deepseek-r1"),
    (("MEANTOKENSSOURCE", "resnet"), "#N/A MLCommons publishes no mean lengths for resnet"),
    (("APICOSTPERMTOK", 0.6, 0.15), "#N/A give input_tokens and output_tokens"),
    (("TCOCASHFLOW", 3, 30000, 4.5), "#VALUE! years must be a whole number"),
    (("MWGPUS", 10, 1.2, 0.9), "#VALUE! pue must be a number >= 1"),
    (("MWTOKENS", 10, 0, 1.3, 1000), "#VALUE! kw_per_gpu must be a number > 0"),
    (("TOKENSPERMW", 0, 1.2, 1.3), "#VALUE! tokens_per_sec_per_gpu must be a number > 0"),
    (("FLEET", "gpt-oss-120b", "Server", 1e6, "B200", 5, 1, 8, 730, "nope"), "#VALUE! No availability"),
    # MLPerf Endpoints curves (issue 31): none is bundled, so each answers that none is loaded
    (("CURVES",), "#N/A No MLPerf Endpoints curves are loaded (benchsheet import-run <submission folder>"),
    (
        ("CURVEPOINTS", "sub_a/system_a/gpt-oss-120b"),
        NO_CURVES + " (asked for curve 'sub_a/system_a/gpt-oss-120b')",
    ),
    (("CURVEAT", "sub_a/system_a/gpt-oss-120b", "fast"), "#VALUE! tokens_per_sec_per_user"),
    (
        ("CURVEATPOINTS", "x", 130),
        NO_CURVES + " (asked for curve 'x')",
    ),
    (("BESTCURVE", "MI355X", "gpt-oss-120b"), "#N/A No MLPerf Endpoints curve of MI355X for gpt-oss-120b"),
    (
        ("CURVEOFFLINE", "sub_a/system_a/gpt-oss-120b"),
        NO_CURVES + " (asked for curve 'sub_a/system_a/gpt-oss-120b')",
    ),
    (
        ("CURVESTEPS", "sub_a/system_a/gpt-oss-120b"),
        NO_CURVES + " (asked for curve 'sub_a/system_a/gpt-oss-120b')",
    ),
    (
        ("CURVECITE", "sub_a/system_a/gpt-oss-120b", 64),
        NO_CURVES + " (asked for curve 'sub_a/system_a/gpt-oss-120b')",
    ),
]


@pytest.mark.parametrize(("call", "start"), ERRORS, ids=[f"{c[0]}-{i}" for i, (c, _) in enumerate(ERRORS)])
def test_errors_are_reasoned_text_in_cells(call: tuple[Any, ...], start: str) -> None:
    name, *args = call
    value = getattr(udf, name)(*args)
    assert isinstance(value, str), value
    assert value.startswith(start) or start in value, value


def test_every_function_has_error_tests() -> None:
    assert {c[0] for c, _ in ERRORS} == set(BY_NAME)


def test_error_values_in_the_engine_carry_the_same_reason() -> None:
    for call, _ in ERRORS[:6]:
        name, *args = call
        assert isinstance(name, str)
        cell = getattr(udf, name)(*args)
        formula = "=" + name + "(" + ",".join(literal(a) for a in args) + ")"
        value = evaluate(formula)
        assert isinstance(value, ReasonedError), formula
        assert value.text == cell


# ------------------------------------------------------------ money maths


def test_money_and_sizing_formulas() -> None:
    assert udf.COSTPERMTOK(3.6, 1000) == pytest.approx(1.0)
    assert udf.GPUSNEEDED(1000, 100) == 16  # 10 GPUs -> two nodes of 8
    assert udf.GPUSNEEDED(1000, 100, 1, 4) == 12
    assert udf.GPUSNEEDED(1000, 100, 0.5, 1) == 20
    assert udf.GPUSNEEDED(800, 100, 1, 8) == 8  # exactly one node, no float creep
    price = udf.BREAKEVENPRICE(5, "B200", "B300", "gpt-oss-120b", "Server", "available", 8)
    assert price == pytest.approx(5 * udf.BREAKEVEN("B200", "B300", "gpt-oss-120b", "Server", "available", 8))
    assert udf.BREAKEVEN(1000, 1500, "gpt-oss-120b", "Server") == pytest.approx(1.5)


def test_gain_scaling_spread_median() -> None:
    # Figures written out from the official files (tokens/s, accelerators), not read through the code under test.
    # GAIN: NVIDIA B300-SXM-270GBx8_TRT, gpt-oss-120b Server: 100328.0 on 8 (v6.0, 6.0-0073), 100630.0 on 8 (v6.1)
    assert udf.GAIN("6.0-0073", "6.1-0071", "gpt-oss-120b", "Server") == pytest.approx(
        (100630.0 / 8) / (100328.0 / 8) - 1
    )
    # SCALING: NVIDIA GB300-NVL72 deepseek-r1 Server (v6.1): 67578.3 on 8 (x8_TRT), 596944.0 on 72 (x72_TRT)
    assert udf.SCALING("6.1-0075", "6.1-0074", "deepseek-r1", "Server") == pytest.approx(
        (596944.0 / 72) / (67578.3 / 8)
    )
    # SPREAD: the closed, available 8-GPU B200 rows of v6.1 (CoreWeave 90204.7, Nebius 89856.3; GB200 is another family)
    assert udf.SPREAD("B200", "gpt-oss-120b", "Server", 8) == pytest.approx((90204.7 - 89856.3) / 8 / (89856.3 / 8))
    assert udf.MEDIANPERGPU("B200", "gpt-oss-120b", "Server") == pytest.approx((90204.7 / 8 + 89856.3 / 8) / 2)


def test_family_selection_rules(table: Table) -> None:
    rows = A.select(table, "gpt-oss-120b", "Server", "B300", A.Filters(max_gpus=8))
    assert rows and {r.round for r in rows} == {"6.1"}
    assert all(r.division == "closed" and r.availability == "available" and r.gpus <= 8 for r in rows)
    older = A.select(table, "gpt-oss-120b", "Server", "B300", A.Filters(round="v6.0"))
    assert {r.round for r in older} == {"6.0"}
    vllm = A.select(table, "gpt-oss-120b", "Server", None, A.Filters(software="vllm"))
    assert vllm and all("vllm" in r.software.lower() for r in vllm)
    assert udf.BEST("b300", "GPT-OSS-120B", "server", "Available", 8) == udf.BEST(
        "B300", "gpt-oss-120b", "Server", "available", 8
    )


def test_entry_gpus_result_fields(table: Table) -> None:
    assert udf.GPUS("5.1-0072") == 72
    assert udf.ENTRY("6.1-0003", "submitter") == "AMD"
    assert udf.ENTRY("6.1-0052", "family") == "B300"
    assert udf.ENTRY("6.1-0052", "round") == "6.1"
    assert udf.RESULT("6.1-0052", "gpt-oss-120b", "Server") == _row(table, "6.1-0052", "gpt-oss-120b", "Server").result


def test_results_table() -> None:
    out = udf.RESULTS("gpt-oss-120b", "Server", "B300", "available", 8)
    assert out[0] == list(A.RESULTS_HEADER)
    per_gpu = [r[6] for r in out[1:]]
    assert per_gpu == sorted(per_gpu, reverse=True)
    assert out[1][0] == udf.BESTENTRY("B300", "gpt-oss-120b", "Server", "available", 8)


def test_cite_satisfies_the_messaging_guidelines(table: Table) -> None:
    text = cite_text("6.1-0052", "gpt-oss-120b", "Server")
    row = _row(table, "6.1-0052", "gpt-oss-120b", "Server")
    for part in (
        "MLPerf® Inference v6.1",
        "Closed division",
        "Available category",
        "gpt-oss-120b Server",
        "entry 6.1-0052",
        row.sha256,
        "retrieved",
        "derived by benchsheet (result / 8)",
        "not an official MLPerf result",
        "trademarks of MLCommons Association",
        "benchsheet derives them from MLCommons' numbering",
    ):
        assert part in text, part
    # "not verified" belongs to the derived per-GPU figure, not to the official result
    assert text.index("Per-GPU value") < text.index("Result not verified by MLCommons Association.")
    official = cite_text("5.1-0072", "deepseek-r1", "Server")
    assert "benchsheet derives them from MLCommons' numbering" not in official
    latency = next(r for r in table.rows if r.units.startswith("Latency") and r.division == "closed")
    text = cite_text(latency.entry, latency.benchmark, latency.scenario)
    assert "Per-GPU" not in text and "not verified" not in text and "trademarks" in text


def test_datainfo(table: Table) -> None:
    assert udf.DATAINFO("rounds") == "5.1, 6.0, 6.1"
    assert udf.DATAINFO("rows") == len(table.rows)
    info = udf.DATAINFO()
    assert info[0][:4] == ["round", "file", "rows", "sha256"] and len(info) == len(table.sources) + 2


def test_a_range_in_the_first_argument_answers_the_same_shape() -> None:
    column = [["5.1-0072"], ["6.1-9999"], ["5.1-0072"]]
    out = udf.PERGPU(column, "deepseek-r1", "Server")
    assert len(out) == 3 and all(len(r) == 1 for r in out)
    assert out[0][0] == out[2][0] == udf.PERGPU("5.1-0072", "deepseek-r1", "Server")
    assert out[1][0] == "#N/A No entry '6.1-9999' in the loaded results"
    grid = udf.COSTPERMTOK([[1, 2, 3], [4, 5, 6]], 1000)
    assert [len(r) for r in grid] == [3, 3] and grid[1][2] == pytest.approx(udf.COSTPERMTOK(6, 1000))


def test_no_function_raises_on_odd_input() -> None:
    odd: list[Any] = [None, "", "x" * 10_000, -1, 0, 1e308, float("inf"), float("nan"), True, [[1, "a"], [None, 2]]]
    for fn in CATALOGUE:
        for value in odd:
            args = [value] * len(fn.args)
            out = getattr(udf, fn.name)(*args)
            cells = [c for row in out for c in row] if isinstance(out, list) else [out]
            for cell in cells:
                assert cell is not None and (cell != "" or fn.returns == "table")
                assert not (isinstance(cell, float) and not math.isfinite(cell))
                assert not (isinstance(cell, str) and "could not answer" in cell), (fn.name, value, cell)


@pytest.mark.parametrize("fn", CATALOGUE, ids=[f.name for f in CATALOGUE])
def test_every_catalogue_example_answers(fn: Any, endpoint_curves: Any) -> None:
    value = evaluate(fn.example)
    assert not isinstance(value, ReasonedError), (fn.example, value)


def test_error_cells_and_error_text_pass_through_unchanged() -> None:
    # xlwings gives an Excel error cell as its text (err_to_str); another function's error is text too
    failed = udf.BEST("TPU9", "gpt-oss-120b", "Server")
    assert udf.COSTPERMTOK(5, failed) == failed
    assert udf.PERGPU("#N/A") == "#N/A"
    assert udf.COSTPERMTOK([[5], ["#DIV/0!"]], 1000)[1][0] == "#DIV/0!"


def test_overflow_is_num_error_not_infinity() -> None:
    # found by the property tests: 1.8e302 $/GPU-hour overflowed to inf
    assert udf.COSTPERMTOK(1.797693134862316e302, 1).startswith("#NUM! the answer is too large")
    # and two tiny rates multiplied to 0.0: a division by zero, not a reason
    assert udf.COSTPERMTOK(0, 1.529378604957927e-22, 1e-308).startswith("#NUM! the answer is too large")
    assert udf.GPUSNEEDED(1, 1.529378604957927e-22, 1e-308).startswith("#NUM! the answer is too large")


def test_families_ranks_by_best_per_gpu(table: Table) -> None:
    ranked = [row[0] for row in udf.FAMILIES("gpt-oss-120b", "Server", "available", 8)]
    bests = [udf.BEST(f, "gpt-oss-120b", "Server", "available", 8) for f in ranked]
    assert bests == sorted(bests, reverse=True) and all(isinstance(b, float) for b in bests)
    closed = {r.family for r in A.select(table, "gpt-oss-120b", "Server", None, A.Filters("available", 8, "6.1"))}
    assert closed <= set(ranked)
    assert "H200 + MI350X" not in ranked


def test_ratios_refuse_rows_in_different_units(table: Table) -> None:
    # found in review: llama3.1-8b Interactive was Queries/s in v5.1 and Tokens/s later
    units = {r.round: r.units for r in table.bench_rows("llama3.1-8b", "Interactive") if r.division == "closed"}
    assert units["5.1"] == "Queries/s" and units["6.1"] == "Tokens/s"
    assert udf.BREAKEVEN("H200", "B300", "llama3.1-8b", "Interactive", "any").startswith("#N/A units differ")
    assert udf.HEADLINE("llama3.1-8b", "Interactive", "5.1", "6.1").startswith("#N/A units differ")
    old = next(r.entry for r in table.bench_rows("llama3.1-8b", "Interactive") if r.round == "5.1" and r.gpus)
    new = next(r.entry for r in table.bench_rows("llama3.1-8b", "Interactive") if r.round == "6.1" and r.gpus)
    assert udf.GAIN(old, new, "llama3.1-8b", "Interactive").startswith("#N/A units differ")
    ranked = [row[0] for row in udf.FAMILIES("llama3.1-8b", "Interactive", "any")]
    assert "H200" not in ranked and ranked  # H200's latest rows are Queries/s: not on the Tokens/s scale


def test_spread_uses_the_latest_round_with_systems_of_that_size(table: Table) -> None:
    sizes = {
        (r.round, r.entry)
        for r in table.bench_rows("gpt-oss-120b", "Server")
        if r.family == "B200" and r.gpus == 8 and r.division == "closed" and r.availability == "available"
    }
    assert {rnd for rnd, _ in sizes} >= {"6.0", "6.1"}
    assert isinstance(udf.SPREAD("B200", "gpt-oss-120b", "Server", 8, "available", "6.0"), float)


def test_an_accelerator_without_a_count_is_not_cpu_only(table: Table) -> None:
    row = table.entry_rows("5.1-0387")[0]
    assert row.accelerator and row.gpus == 0
    assert udf.GPUS("5.1-0387").startswith("#N/A 5.1-0387 does not give its accelerator count")
    throughput = next(r for r in table.entry_rows("5.1-0387") if r.throughput)
    assert "does not give its accelerator count" in udf.PERGPU("5.1-0387", throughput.benchmark, throughput.scenario)


def test_results_lists_heterogeneous_systems_without_a_per_gpu_value() -> None:
    out = udf.RESULTS("gpt-oss-120b", "Server", None, "any")
    hetero = [r for r in out if r[0] == "6.1-0016"]
    assert hetero and hetero[0][6] == ""
    blanks = [i for i, r in enumerate(out[1:]) if r[6] == ""]
    assert blanks == list(range(len(out) - 1 - len(blanks), len(out) - 1))  # rows without a per-GPU value last
    assert not any(r[0] == "6.1-0016" for r in udf.RESULTS("gpt-oss-120b", "Server", "H200", "any"))


def test_entries_used_cites_each_entry_once_with_its_places() -> None:
    """Blanks, errors (the engine's and the add-in's text) and numbers name no entry; one entry under two
    spellings of its workload is one row; the rows follow the first use."""
    formula = (
        '=ENTRIESUSED({"6.1-0052";"6.1-0021";"#N/A No family B999";"";"6.1-0052";7;"6.1-0021"},'
        '{"Sizing row 18";"Sizing row 19";"Sizing row 20";"Sizing row 21";"Quotes";"Quotes row 2";"Claims"},'
        '{"gpt-oss-120b";"gpt-oss-120b";"gpt-oss-120b";"gpt-oss-120b";"GPT-OSS-120B";"x";"deepseek-r1"},"server")'
    )
    assert evaluate(formula) == [
        ["entry", "used on", "benchmark", "scenario"],
        ["6.1-0052", "Sizing row 18, Quotes", "gpt-oss-120b", "Server"],
        ["6.1-0021", "Sizing row 19", "gpt-oss-120b", "Server"],
        ["6.1-0021", "Claims", "deepseek-r1", "Server"],
    ]
    cells = [["6.1-0052"], [None], ["#N/A No entry '6.1-9999' in the loaded results"]]
    assert udf.ENTRIESUSED(cells, "Compare", "gpt-oss-120b", [["#N/A no benchmark"]]) == [
        ["entry", "used on", "benchmark", "scenario"]
    ]
    assert udf.ENTRIESUSED(cells, "Compare", "gpt-oss-120b", "Server")[1] == [
        "6.1-0052",
        "Compare",
        "gpt-oss-120b",
        "Server",
    ]


def test_positional_binding_is_what_bind_gives(table: Table) -> None:
    """``Function.answer`` calls most impls positionally (no dict per call): every argument lands
    on the parameter ``bind`` would give it, left-out ones as their defaults."""
    import dataclasses
    import functools
    import inspect

    fast = 0
    seen: list[dict[str, Any]] = []
    for fn in CATALOGUE:

        @functools.wraps(fn.impl)
        def record(*args: Any, _impl: Any = fn.impl, **kwargs: Any) -> Any:
            seen.append(dict(inspect.signature(_impl).bind(*args, **kwargs).arguments))
            return 0.0

        copy = dataclasses.replace(fn, impl=record)
        for left_out in (False, True):
            values = [None if (left_out and a.optional) else object() for a in fn.args]
            copy.answer(table, values)
            if "filters" in copy.params or "bounds" in copy.params:
                continue
            want = {**({"table": table} if "table" in copy.params else {}), **copy.bind(table, values)}
            assert seen[-1] == want, fn.name
            fast += copy._in_order or copy._bare_order
    assert fast >= 10  # COSTPERMTOK, GPUSNEEDED and PERGPU among them


@pytest.mark.parametrize("kind", ["number", "int", "round", "spec", "text", "bool"])
def test_a_number_converts_as_convert_does(kind: str) -> None:
    """``_convert_all``'s shortcut for numbers answers what ``convert`` answers, errors alike."""
    import datetime as dt
    from decimal import Decimal

    from benchsheet.catalogue.calls import _convert_all, convert
    from benchsheet.catalogue.declare import Arg
    from benchsheet.errors import BenchError

    arg = Arg("x", kind, "")  # type: ignore[arg-type]
    when = (dt.datetime(2026, 12, 1, 9, 30), dt.date(2026, 12, 1), dt.time(9, 30))  # date and time cells
    numbers = (3, 3.0, -0.0, 2.5, 1e308, 2**62, True, False, math.inf, -math.inf, math.nan, Decimal("2.5"))
    for value in (*numbers, "3", *when):
        try:
            want: Any = convert(arg, value)
        except BenchError as exc:
            want = ("error", exc.code, exc.reason)
        try:
            got: Any = _convert_all([arg], [value], None)[0]
        except BenchError as exc:
            got = ("error", exc.code, exc.reason)
        assert type(got) is type(want) and (got == want or got != got), (kind, value, got, want)
