"""RATIOS, GAINS and HISTORY on the real shared data: the questions buyers bring, answered in one formula.

Expected figures are recomputed here from the official rows (result / total
accelerators) or from the single-pair functions (BREAKEVEN, GAIN, BEST).
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from benchsheet.analysis import claims as C
from benchsheet.catalogue.engine import evaluate
from benchsheet.data.table import Table
from benchsheet.udfs import functions as udf


def _col(out: list[list[Any]], name: str) -> int:
    return out[0].index(name)


def _per_gpu(table: Table, entry: str, bench: str, scen: str) -> float:
    row = table.get(entry, bench, scen)
    assert row is not None
    return row.result / row.gpus


# ------------------------------------------------------------------ RATIOS


def test_ratios_finds_where_vera_rubins_up_to_comes_from(table: Table) -> None:
    out = udf.RATIOS("Vera Rubin", "GB300", "any")
    assert out[0] == list(C.RATIOS_HEADER)
    top = dict(zip(out[0], out[1], strict=True))
    assert top["ratio"] > 3.5
    assert (top["benchmark"], top["scenario"]) == ("qwen3-vl-235b-a22b", "Interactive")
    cand = _per_gpu(table, top["candidate entry"], top["benchmark"], top["scenario"])
    base = _per_gpu(table, top["baseline entry"], top["benchmark"], top["scenario"])
    assert top["ratio"] == pytest.approx(cand / base)
    assert table.entry_rows(top["candidate entry"])[0].family == "Vera Rubin"
    assert table.entry_rows(top["baseline entry"])[0].family == "GB300"
    ratios = [r[2] for r in out[1:]]
    assert ratios == sorted(ratios, reverse=True) and len(ratios) > 3


def test_every_ratios_row_is_the_breakeven_of_its_benchmark() -> None:
    out = udf.RATIOS("B300", "H200", "available", None, 8)
    assert len(out) > 5
    for line in out[1:]:
        bench, scen, ratio, rnd = line[0], line[1], line[2], line[11]
        assert rnd == line[12]  # both sides of one round: BREAKEVEN in that round
        assert ratio == pytest.approx(udf.BREAKEVEN("H200", "B300", bench, scen, "available", 8, rnd)), (bench, scen)
        assert line[7] <= 8 and line[8] <= 8 and line[9] == line[10] == "available"


def test_available_only_ratio_is_lower_than_with_preview() -> None:
    anywhere = udf.RATIOS("Vera Rubin", "GB300", "any")[1][2]
    assert udf.RATIOS("Vera Rubin", "GB300", "available").startswith("#N/A No benchmark and scenario")
    assert anywhere > 3.5


def test_same_gpus_pairs_only_systems_of_one_size() -> None:
    out = udf.RATIOS("Vera Rubin", "GB300", "any", None, None, True)
    assert all(line[7] == line[8] for line in out[1:])
    loose = {(r[0], r[1]): r for r in udf.RATIOS("Vera Rubin", "GB300", "any")[1:]}
    # deepseek-r1 Server: the best GB300 row has 8 GPUs, the best Vera Rubin row 36: no like-for-like pair there
    assert loose[("deepseek-r1", "Server")][7] != loose[("deepseek-r1", "Server")][8]
    strict = {(r[0], r[1]): r for r in out[1:]}
    assert strict[("deepseek-r1", "Server")][7] == 72


def test_ratios_takes_an_entry_as_a_side(table: Table) -> None:
    out = udf.RATIOS("6.1-0003", "6.0-0002")
    assert {r[3] for r in out[1:]} == {"6.1-0003"} and {r[4] for r in out[1:]} == {"6.0-0002"}
    gpt = next(r for r in out[1:] if (r[0], r[1]) == ("gpt-oss-120b", "Server"))
    assert gpt[2] == pytest.approx(udf.GAIN("6.0-0002", "6.1-0003", "gpt-oss-120b", "Server") + 1)


def test_ratios_leaves_out_pairs_in_different_units() -> None:
    # H200's llama3.1-8b Interactive rows are v5.1's Queries/s; B300's are Tokens/s
    out = udf.RATIOS("B300", "H200", "any")
    assert ("llama3.1-8b", "Interactive") not in {(r[0], r[1]) for r in out[1:]}


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("TPU9", "GB300"), "#N/A No entry or family 'TPU9' (candidate)"),
        (("B200", "6.1-9999"), "#N/A No entry '6.1-9999' in the loaded results"),
        (("5.1-0378", "H200"), "#N/A 5.1-0378 is an open-division entry (model run: llama3_1-70b-fp8_dyn)"),
        (("B200", "GB300", "soon"), "#VALUE! No availability"),
        (("B200", "GB300", "any", None, None, "maybe"), "#VALUE! same_gpus must be TRUE or FALSE"),
    ],
)
def test_ratios_errors(args: tuple[Any, ...], error: str) -> None:
    assert udf.RATIOS(*args).startswith(error)


# ------------------------------------------------------------------- GAINS


def _raw_submitter(shared: Path, rel: str, entry: str) -> str:
    rows = json.loads((shared / rel).read_bytes())
    return str(next(r["Submitter"] for r in rows if r["ID"] == entry))


def test_gains_finds_amd_and_lambda_pairs(shared: Path, table: Table) -> None:
    out = udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1")
    assert out[0] == list(C.GAINS_HEADER)
    pairs = {(r[3], r[4]): dict(zip(out[0], r, strict=True)) for r in out[1:]}
    amd = pairs[("6.0-0002", "6.1-0003")]
    assert (amd["family"], amd["submitter"], amd["GPUs"], amd["match"]) == ("MI355X", "AMD", 8, "same platform")
    assert amd["gain"] == pytest.approx(udf.GAIN("6.0-0002", "6.1-0003", "gpt-oss-120b", "Server"))
    assert amd["old per-GPU"] == pytest.approx(_per_gpu(table, "6.0-0002", "gpt-oss-120b", "Server"))
    lam = pairs[("6.0-0063", "6.1-0065")]
    assert (lam["family"], lam["submitter"], lam["GPUs"]) == ("GB300", "Lambda", 4)
    assert _raw_submitter(shared, "v6.0/summary_results.json", "6.0-0063") == "Lambda_SIT"  # normalized by the rule
    assert "Lambda_SIT" in lam["match"]
    gains = [r[7] for r in out[1:]]
    assert gains == sorted(gains, reverse=True)
    assert all(not str(r[10]).startswith("resized") for r in out[1:])


def test_gains_defaults_to_the_two_latest_rounds() -> None:
    assert udf.GAINS("gpt-oss-120b", "Server") == udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1")


def test_gains_keeps_joint_submitters_apart_when_both_names_submit_in_both_rounds(table: Table) -> None:
    out = udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1")
    for line in out[1:]:
        old = table.entry_rows(line[3])[0].submitter.casefold()
        new = table.entry_rows(line[4])[0].submitter.casefold()
        assert old == new or (old, new) == ("lambda_sit", "lambda"), (old, new)


def test_gains_lists_resized_pairs_only_when_asked_and_marked(table: Table) -> None:
    plain = udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1")
    wide = udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1", None, "available", True)
    assert wide[: len(plain)] == plain  # the like-for-like pairs first, unchanged
    extra = wide[len(plain) :]
    assert extra and all(str(r[10]).startswith("resized: ") and "not a software gain" in r[10] for r in extra)
    for line in extra:
        assert table.entry_rows(line[3])[0].gpus != table.entry_rows(line[4])[0].gpus


def test_gains_leaves_out_pairs_whose_units_differ() -> None:
    # llama3.1-8b Interactive: Queries/s in v5.1, Tokens/s in v6.0
    out = udf.GAINS("llama3.1-8b", "Interactive", "5.1", "6.0", None, "any", True)
    assert isinstance(out, str) and out.startswith("#N/A No like-for-like")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("gpt-oss-120b", "Server", "6.1", "6.0"), "#VALUE! old_round (6.1) must be earlier than new_round (6.0)"),
        (("gpt-oss-120b", "Server", "5.1", "6.1"), "#N/A No closed gpt-oss-120b Server rows in round 5.1"),
        (("deepseek-r1", "Server", None, None, "TPU9"), "#N/A No family 'TPU9'"),
        (("e2e-rag-qna", "Offline"), "#N/A e2e-rag-qna times a whole pipeline"),
        (("whisper", "Sometimes"), "#VALUE! No scenario"),
    ],
)
def test_gains_errors(args: tuple[Any, ...], error: str) -> None:
    assert udf.GAINS(*args).startswith(error)


# ----------------------------------------------------------------- HISTORY


def test_history_of_gb300_deepseek_server(table: Table) -> None:
    out = udf.HISTORY("GB300", "deepseek-r1", "Server")
    assert out[0] == list(C.HISTORY_HEADER)
    rounds = [r[0] for r in out[1:]]
    assert {"5.1", "6.1"} <= set(rounds) and rounds == sorted(rounds, key=lambda r: tuple(map(int, r.split("."))))
    for rnd, best, entry, gpus, median, n, units in out[1:]:
        assert best == udf.BEST("GB300", "deepseek-r1", "Server", "available", None, rnd)
        assert entry == udf.BESTENTRY("GB300", "deepseek-r1", "Server", "available", None, rnd)
        assert median == udf.MEDIANPERGPU("GB300", "deepseek-r1", "Server", "available", None, rnd)
        rows = [
            r
            for r in table.bench_rows("deepseek-r1", "Server")
            if r.round == rnd and r.family == "GB300" and r.division == "closed" and r.availability == "available"
        ]
        assert n == len(rows) and gpus == table.entry_rows(entry)[0].gpus and units == "Tokens/s"
        assert median == pytest.approx(statistics.median(r.result / r.gpus for r in rows))


def test_history_shows_a_relabelled_round_units() -> None:
    out = udf.HISTORY("B200", "llama3.1-8b", "Interactive", "any")
    units = {r[0]: r[6] for r in out[1:]}
    assert units["5.1"] == "Queries/s" and units["6.0"] == "Tokens/s"


def test_history_max_gpus_filters(table: Table) -> None:
    out = udf.HISTORY("GB300", "deepseek-r1", "Server", "available", 8)
    assert all(r[3] <= 8 for r in out[1:]) and "5.1" not in [r[0] for r in out[1:]]  # v5.1's one row had 72


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("TPU9", "deepseek-r1", "Server"), "#N/A No family 'TPU9'"),
        (("GB300", "yolo-99", "SingleStream"), "#N/A yolo-99 SingleStream is a latency"),
        (("GB300", "e2e-rag-db", "Offline"), "#N/A e2e-rag-db times a whole pipeline"),
        (
            ("Vera Rubin", "deepseek-r1", "Server"),
            "#N/A No closed Vera Rubin deepseek-r1 Server rows with availability",
        ),
    ],
)
def test_history_errors(args: tuple[Any, ...], error: str) -> None:
    assert udf.HISTORY(*args).startswith(error)


# ------------------------------------------------------------ every shell


@pytest.mark.parametrize(
    ("formula", "direct", "cell"),
    [
        ('=INDEX(RATIOS("Vera Rubin","GB300"),2,3)', lambda: udf.RATIOS("Vera Rubin", "GB300"), (1, 2)),
        (
            '=INDEX(GAINS("gpt-oss-120b","Server","6.0","6.1"),2,8)',
            lambda: udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1"),
            (1, 7),
        ),
        (
            '=INDEX(HISTORY("GB300","deepseek-r1","Server"),2,2)',
            lambda: udf.HISTORY("GB300", "deepseek-r1", "Server"),
            (1, 1),
        ),
    ],
)
def test_through_eval(formula: str, direct: Any, cell: tuple[int, int]) -> None:
    value = evaluate(formula)
    assert isinstance(value, float) and value == direct()[cell[0]][cell[1]]


def test_booleans_through_eval() -> None:
    wide = udf.GAINS("gpt-oss-120b", "Server", "6.0", "6.1", None, None, True)
    last = evaluate(f'=INDEX(GAINS("gpt-oss-120b","Server","6.0","6.1",,,TRUE),{len(wide)},11)')
    assert last == wide[-1][10] and str(last).startswith("resized")
    same = evaluate('=INDEX(RATIOS("Vera Rubin","GB300","any",,,TRUE),4,8)')
    assert same == udf.RATIOS("Vera Rubin", "GB300", "any", None, None, True)[3][7]
