"""Messages that send the user to the right knob, on the real data."""

from __future__ import annotations

import pytest

from benchsheet.udfs import functions as udf


def test_a_family_given_as_an_entry_names_best_and_bestentry() -> None:
    answer = udf.PERGPU("B200", "gpt-oss-120b", "Server")
    assert answer.startswith("#N/A B200 is an accelerator family, not an entry")
    assert "BEST(" in answer and "BESTENTRY(" in answer and len(answer) < 255
    assert udf.GPUS("B300").startswith("#N/A B300 is an accelerator family")
    assert udf.PERGPU("6.1-9999", "gpt-oss-120b", "Server") == "#N/A Unknown entry 6.1-9999"


def test_ratios_lists_the_families_as_best_does() -> None:
    from benchsheet.catalogue.engine import evaluate
    from excelcalc.values import ReasonedError

    full = evaluate('=RATIOS("TPU9","GB300")')  # the engine keeps the whole reason
    assert isinstance(full, ReasonedError)
    assert full.text.startswith("#N/A Unknown entry or family 'TPU9' (candidate): use one of ")
    assert "GB300" in full.text and "Vera Rubin" in full.text
    answer = udf.RATIOS("TPU9", "GB300")  # classic Excel: the first families and a count, in 255 characters
    assert answer.startswith("#N/A Unknown entry or family 'TPU9' (candidate): use one of ")
    assert len(answer) <= 255 and "GB300" in answer and answer.endswith(" more")


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: udf.BEST("B200", "llama2-70b", "Server"), "did you mean llama2-70b-99 or llama2-70b-99.9?"),
        (lambda: udf.BEST("B200", "gpt oss 120b", "Server"), "did you mean gpt-oss-120b?"),
        (lambda: udf.BEST("B200", "gpt-oss-120b", "Sever"), "did you mean Server?"),
        (lambda: udf.RATIOS("Vera Rubn", "GB300"), "did you mean Vera Rubin?"),
        (lambda: udf.BEST("GB30", "deepseek-r1", "Server"), "did you mean GB300"),
        (lambda: udf.GAINS("llama2-70b", "Server"), "did you mean llama2-70b-99 or llama2-70b-99.9?"),
    ],
)
def test_a_close_misspelling_gets_did_you_mean(call: object, expected: str) -> None:
    answer = call()  # type: ignore[operator]
    assert answer.startswith("#") and expected in answer, answer
    assert answer.index(expected) < 80  # before any list, so a short cell still shows it


def test_best_blames_what_is_really_missing() -> None:
    answer = udf.BEST("Vera Rubin", "gpt-oss-120b", "Server", "available")
    assert "with availability" not in answer and "Vera Rubin has no closed gpt-oss-120b Server rows" in answer, answer
    # where availability is what empties it, it is still blamed
    answer = udf.BEST("Vera Rubin", "deepseek-r1", "Server", "available")
    assert "with availability available" in answer and "preview" in answer, answer


@pytest.mark.parametrize(
    ("call", "spelled"),
    [
        (("BEST", "Vera Rubin", "DeepSeek-R1", "offline"), "Vera Rubin deepseek-r1 Offline rows"),
        (("PERGPU", "6.1-0094", "deepseek-r1", "offline"), "has no deepseek-r1 Offline result"),
        (("FAMILIES", "deepseek-r1", "offline", "available", 1), "No closed deepseek-r1 Offline rows"),
        (("GAINS", "DEEPSEEK-R1", "interactive", "6.0", "6.1", "MI355X"), "MI355X deepseek-r1 Interactive"),
    ],
)
def test_reasons_spell_the_workload_as_the_results_do(call: tuple[object, ...], spelled: str) -> None:
    """A workload typed in another case reads in the official spelling, as the workbook's titles show it."""
    name, *args = call
    reason = getattr(udf, str(name))(*args)
    assert reason.startswith("#") and spelled in reason, reason
