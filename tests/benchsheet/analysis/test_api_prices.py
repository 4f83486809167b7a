"""API prices as APIs charge them (issue 39, item 3) and the service level of the rate compared (item 2).

MLPerf's LLM rates count output tokens (the GPU's hour already bears the prefill of the inputs); an API
charges input and output tokens separately, so its cost per million output tokens is the output price plus
input tokens per output token x the input price (cached input at its own price). Every figure below is
recomputed by hand from that definition. The default lengths are MLCommons' published means: for
gpt-oss-120b the reference mean output length of its performance dataset, 1,278.20 tokens
(mlcommons/inference compliance/TEST09/gpt-oss-120b/audit.config); MLCommons publishes no mean input for it
(the others: test_published_lengths.py).
"""

from __future__ import annotations

import pytest

from benchsheet.data.table import Table
from benchsheet.udfs import functions as udf


def test_the_api_cost_includes_the_input_it_charges() -> None:
    # $0.15/M input, $0.60/M output, 870 input tokens per 1,000 output: 0.60 + 0.87 x 0.15 = $0.7305
    by_hand = 0.60 + 870 / 1000 * 0.15
    assert round(by_hand, 4) == 0.7305
    assert udf.APICOSTPERMTOK(0.6, 0.15, 870, 1000) == pytest.approx(by_hand, rel=1e-12)
    assert udf.APICOSTPERMTOK(0.6) == 0.6  # output price only, as before


def test_cached_input_at_its_own_price() -> None:
    # half the input cached at $0.075/M: 0.60 + 0.87 x (0.5 x 0.15 + 0.5 x 0.075)
    by_hand = 0.60 + 0.87 * (0.5 * 0.15 + 0.5 * 0.075)
    assert udf.APICOSTPERMTOK(0.6, 0.15, 870, 1000, 0.075, 0.5) == pytest.approx(by_hand, rel=1e-12)


def test_summarization_input_heavy_error_is_several_fold() -> None:
    # 4 input tokens per output token at $0.15 in / $0.60 out: the output price alone is half the cost
    assert udf.APICOSTPERMTOK(0.6, 0.15, 4000, 1000) == pytest.approx(0.6 + 4 * 0.15, rel=1e-12)


def test_break_even_utilization_moves_with_the_input_price(table: Table) -> None:
    # gpt-oss-120b on B200 at the Interactive rate: the break-even is COSTPERMTOK at 100% / the API's cost
    entry = udf.BESTENTRY("B200", "gpt-oss-120b", "Interactive")
    row = table.get(entry, "gpt-oss-120b", "Interactive")
    assert row is not None
    rate = row.result / row.gpus
    price = 3.0
    at_full = price * 1e6 / (rate * 3600)
    alone = udf.APIUTILIZATION(price, rate, 0.6)
    charged = udf.APIUTILIZATION(price, rate, 0.6, 0.15, 870, 1000)
    assert alone == pytest.approx(at_full / 0.6, rel=1e-12)
    assert charged == pytest.approx(at_full / 0.7305, rel=1e-12)
    # the case: 60.5% on the output price alone is 60.5% x 0.60 / 0.7305 = 49.7% with the input charged
    assert round(0.605 * 0.60 / 0.7305, 3) == 0.497
    assert charged / alone == pytest.approx(0.60 / 0.7305, rel=1e-12)


def test_the_service_level_changes_the_answer(table: Table) -> None:
    # Interactive per-GPU throughput is 0.15x Server's for gpt-oss-120b on B200: the break-even utilization
    # against an API is 1 / 0.15 = 6.9x higher at the interactive speed an API streams at
    server = udf.BEST("B200", "gpt-oss-120b", "Server")
    interactive = udf.SLOBEST("B200", "gpt-oss-120b", 2000, 15)
    assert udf.SLOBESTSCENARIO("B200", "gpt-oss-120b", 2000, 15) == "Interactive"
    assert round(interactive / server, 2) == 0.15
    ratio = udf.APIUTILIZATION(3, interactive, 0.6) / udf.APIUTILIZATION(3, server, 0.6)
    assert ratio == pytest.approx(server / interactive, rel=1e-12)


def test_published_mean_lengths_stand_in_where_the_user_gives_none() -> None:
    # gpt-oss-120b: MLCommons' mean output (1,278.20) with the user's input
    assert udf.APICOSTPERMTOK(0.6, 0.15, 1000, None, None, 0, "gpt-oss-120b") == pytest.approx(
        0.6 + 1000 / 1278.20 * 0.15, rel=1e-12
    )
    got = udf.APICOSTPERMTOK(0.6, 0.15, None, None, None, 0, "gpt-oss-120b")
    assert got.startswith("#N/A MLCommons publishes gpt-oss-120b's mean output (1,278.2 tokens) but no mean input")
    got = udf.APICOSTPERMTOK(0.6, 0.15, None, None, None, 0, "llama3.1-8b")  # none published: test_published_lengths
    assert got.startswith("#N/A give input_tokens and output_tokens") and "llama3.1-8b" in got
    assert udf.APIUTILIZATION(3, 1000, 0.6, 0.15).startswith("#N/A give input_tokens and output_tokens")


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ((0.6, -0.15, 870, 1000), "input_price_per_mtok must be a number >= 0"),
        ((0.6, 0.15, 0, 1000), "input_tokens must be a number of tokens per request > 0"),
        ((0.6, 0.15, 870, 1000, 0.1, 1.5), "cached_share must be a share"),
    ],
)
def test_bad_inputs_say_which(args: tuple[float, ...], reason: str) -> None:
    assert udf.APICOSTPERMTOK(*args).startswith("#VALUE! " + reason)
