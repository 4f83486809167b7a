"""The rate's unit checked wherever a per-GPU rate is priced or multiplied (issue 42 item 5), on the real data.

APIUTILIZATION, MWTOKENS and TOKENSPERMW took any number as tokens/s: a stable-diffusion-xl BEST (samples/s)
answered "$341.15 per million tokens". They now read the rate as COSTPERMTOK and GPUSNEEDED do: a rate the
table gives in queries or samples is refused without its unit, a row may be named with its workload as units,
and units naming another workload than the one the rate is from is refused, in all five."""

from __future__ import annotations

import pytest

from benchsheet.catalogue.engine import evaluate
from benchsheet.catalogue.functions import BY_NAME

SDXL = 'BEST("B200","stable-diffusion-xl","Offline")'
GPT = 'BEST("B200","gpt-oss-120b","Server")'
LLAMA = 'BEST("B200","llama2-70b-99","Offline")'


def _text(formula: str) -> str:
    got = evaluate(formula)
    return str(getattr(got, "text", got))


def _number(formula: str) -> float:
    got = evaluate(formula)
    assert isinstance(got, float | int), (formula, got)
    return float(got)


@pytest.mark.parametrize(
    "formula",
    [
        f"=APIUTILIZATION(5,{SDXL},0.6)",  # the case: "$341.15 per million tokens" for a Samples/s rate
        f"=MWTOKENS(10,1.2,1.3,{SDXL})",
        f"=TOKENSPERMW({SDXL},1.2,1.3)",
    ],
)
def test_a_samples_rate_from_the_table_is_refused_without_its_unit(formula: str) -> None:
    text = _text(formula)
    assert text.startswith("#VALUE!") and "Samples/s" in text and "stable-diffusion-xl Offline" in text, text


def test_an_api_price_compares_only_with_tokens() -> None:
    for units in ("Samples/s", "stable-diffusion-xl Offline"):
        text = _text(f'=APIUTILIZATION(5,{SDXL},0.6,,,,,,,"{units}")')
        assert text.startswith("#VALUE!") and "tokens" in text and "Samples/s" in text, text
    text = _text('=APIUTILIZATION(5,"B200",0.6,,,,,,,"stable-diffusion-xl Offline")')
    assert text.startswith("#VALUE!") and "Samples/s" in text, text


def test_the_power_functions_answer_in_the_rates_unit_once_it_is_given() -> None:
    rate = _number(f"={SDXL}")
    per_mw = _number('=TOKENSPERMW("B200",1.2,1.3,"stable-diffusion-xl Offline")')
    assert per_mw == pytest.approx(rate * 1000 / (1.2 * 1.3))
    assert _number(f'=TOKENSPERMW({SDXL},1.2,1.3,"Samples/s")') == per_mw
    fleet = _number('=MWTOKENS(10,1.2,1.3,"B200",8,"stable-diffusion-xl Offline")')
    assert fleet == pytest.approx(_number("=MWGPUS(10,1.2,1.3,8)") * rate)
    assert _number(f"=MWTOKENS(10,1.2,1.3,{GPT})") > 0  # a tokens/s rate as before


def test_a_named_row_prices_against_the_api_at_its_workloads_lengths() -> None:
    rate = _number(f"={GPT}")
    named = _number('=APIUTILIZATION(2,"B200",0.6,0.15,870,1000,,,,"gpt-oss-120b Server")')
    assert named == pytest.approx(_number(f"=APIUTILIZATION(2,{rate!r},0.6,0.15,870,1000)"))


@pytest.mark.parametrize(
    ("formula", "named"),
    [
        (f'=COSTPERMTOK(5,{GPT},0.6,"stable-diffusion-xl Offline")', "gpt-oss-120b Server"),
        (f'=COSTPERMTOK(5,{SDXL},0.6,"whisper Offline")', "stable-diffusion-xl Offline"),  # both Samples/s
        (f'=COSTPERMTOK(5,{LLAMA},0.6,"gpt-oss-120b Server")', "llama2-70b-99 Offline"),  # both Tokens/s
        (f'=GPUSNEEDED(1000,{GPT},0.6,8,"llama2-70b-99 Offline")', "gpt-oss-120b Server"),
        (f'=APIUTILIZATION(2,{LLAMA},0.6,0.15,870,1000,,,,"gpt-oss-120b Server")', "llama2-70b-99 Offline"),
        (f'=MWTOKENS(10,1.2,1.3,{GPT},8,"llama2-70b-99 Offline")', "gpt-oss-120b Server"),
        (f'=TOKENSPERMW({SDXL},1.2,1.3,"whisper Offline")', "stable-diffusion-xl Offline"),
    ],
)
def test_units_naming_another_workload_than_the_rates_is_refused(formula: str, named: str) -> None:
    text = _text(formula)
    assert text.startswith("#VALUE!") and named in text and "units" in text, text


@pytest.mark.parametrize("name", ["APIUTILIZATION", "MWTOKENS", "TOKENSPERMW"])
def test_the_help_says_what_a_bare_number_is_taken_for(name: str) -> None:
    fn = BY_NAME[name]
    words = fn.help + " ".join(a.help for a in fn.args)
    assert "bare number" in words and "units" in [a.name for a in fn.args], words
