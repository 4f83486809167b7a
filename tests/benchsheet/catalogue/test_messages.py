"""Messages that send the user to the right knob, on the real data."""

from __future__ import annotations

import pytest

from benchsheet.udfs import functions as udf


def test_a_family_given_as_an_entry_names_best_and_bestentry() -> None:
    answer = udf.PERGPU("B200", "gpt-oss-120b", "Server")
    assert answer.startswith("#N/A B200 is an accelerator family, not an entry")
    assert "BEST(" in answer and "BESTENTRY(" in answer and len(answer) < 255
    assert udf.GPUS("B300").startswith("#N/A B300 is an accelerator family")
    assert udf.PERGPU("6.1-9999", "gpt-oss-120b", "Server") == "#N/A No entry '6.1-9999' in the loaded results"


def test_ratios_lists_the_families_as_best_does() -> None:
    from benchsheet.catalogue.engine import evaluate
    from excelcalc.values import ReasonedError

    full = evaluate('=RATIOS("TPU9","GB300")')  # the engine keeps the whole reason
    assert isinstance(full, ReasonedError)
    assert full.text.startswith("#N/A No entry or family 'TPU9' (candidate): use one of ")
    assert "GB300" in full.text and "Vera Rubin" in full.text
    answer = udf.RATIOS("TPU9", "GB300")  # classic Excel: the first families and a count, in 255 characters
    assert answer.startswith("#N/A No entry or family 'TPU9' (candidate): use one of ")
    assert len(answer) <= 255 and "GB300" in answer and answer.endswith(" more")


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: udf.BEST("B200", "llama2-70b", "Server"), "Did you mean llama2-70b-99 or llama2-70b-99.9?"),
        (lambda: udf.BEST("B200", "gpt oss 120b", "Server"), "Did you mean gpt-oss-120b?"),
        (lambda: udf.BEST("B200", "gpt-oss-120b", "Sever"), "Did you mean Server?"),
        (lambda: udf.RATIOS("Vera Rubn", "GB300"), "Did you mean Vera Rubin?"),
        (lambda: udf.BEST("GB30", "deepseek-r1", "Server"), "Did you mean GB300"),
        (lambda: udf.GAINS("llama2-70b", "Server"), "Did you mean llama2-70b-99 or llama2-70b-99.9?"),
    ],
)
def test_a_close_misspelling_gets_did_you_mean(call: object, expected: str) -> None:
    answer = call()  # type: ignore[operator]
    assert answer.startswith("#") and answer.split(" ", 1)[1].startswith(expected), answer  # a short cell shows it


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


@pytest.mark.parametrize(
    ("formula", "start"),
    [
        ('=BEST("GB30","gpt-oss-120b","Server")', "#N/A Did you mean GB300? No family 'GB30'."),
        ('=BEST("GB3OO","gpt-oss-120b","Server")', "#N/A Did you mean GB300? No family 'GB3OO'."),
        ('=BEST("gb3oo","gpt-oss-120b","Server")', "#N/A Did you mean GB300? No family 'gb3oo'."),
        ('=BEST("H2OO","gpt-oss-120b","Server")', "#N/A Did you mean H200? No family 'H2OO'."),
        ('=BEST("GB300","gpt-oss-12b","Server")', "#N/A Did you mean gpt-oss-120b? No benchmark 'gpt-oss-12b'."),
        ('=BEST("GB300","gpt-oss-120b","Sever")', "#VALUE! Did you mean Server? No scenario 'Sever'."),
        ('=BEST("GB300","gpt-oss-120b","Server","availble")', "#VALUE! Did you mean available? No availability"),
        ('=RATIOS("Vera Rubn","GB300")', "#N/A Did you mean Vera Rubin? No entry or family 'Vera Rubn' (candidate)."),
        (
            '=PERGPU("6.1-OO52","gpt-oss-120b","Server")',
            "#N/A Did you mean 6.1-0052? No entry '6.1-OO52' in the loaded results",
        ),
        ('=ENTRY("6.1-0052","sistem")', "#VALUE! Did you mean system? No field 'sistem'."),
    ],
)
def test_a_reason_for_a_misspelt_name_starts_with_the_suggestion(formula: str, start: str) -> None:
    """Issue 40 item 5: a narrow cell shows only a reason's start ("#N/A Unknowr"): the suggestion comes first,
    a letter O or I typed for a zero or a one gets the one name it stands for, whatever the case."""
    from benchsheet.catalogue.engine import evaluate

    got = evaluate(formula)
    assert got.text.startswith(start), got.text


@pytest.mark.parametrize(
    ("formula", "start"),
    [
        ('=BEST("TPU9","gpt-oss-120b","Server")', "#N/A No family 'TPU9': use one of "),
        ('=PERGPU("6.1-9999","gpt-oss-120b","Server")', "#N/A No entry '6.1-9999' in the loaded results"),
        ('=BEST("B200","nope","Server")', "#N/A No benchmark 'nope': use one of "),
    ],
)
def test_a_name_close_to_nothing_says_what_is_missing_first(formula: str, start: str) -> None:
    from benchsheet.catalogue.engine import evaluate

    got = evaluate(formula)
    assert got.text.startswith(start), got.text
