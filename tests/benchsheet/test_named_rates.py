"""COSTPERMTOK and GPUSNEEDED name the row, so the unit is known (issue 42 item 5, these two functions).

Excel passes no unit from BEST to COSTPERMTOK: a bare number that is exactly a per-GPU value the table has in
queries or samples is recognised, but ``ROUND(BEST(<stable-diffusion-xl>),2)`` or ``BEST(...)*0.5`` is not,
and answered as if tokens/s; a ``units`` naming another workload was accepted. The form that names an entry
ID or a family with its workload in ``units`` looks the rate up itself, so its unit is the row's; the help
of the bare-number form says what it assumes.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchsheet.catalogue import engine
from benchsheet.catalogue.functions import BY_NAME

SDXL = '"stable-diffusion-xl Server"'


def _value(formula: str) -> Any:
    return engine.evaluate(formula)


def test_a_family_with_its_workload_is_costed_per_million_of_its_unit() -> None:
    named = _value(f'=COSTPERMTOK(5,"B200",0.5,{SDXL})')
    bare = _value('=COSTPERMTOK(5,BEST("B200","stable-diffusion-xl","Server"),0.5,"Queries/s")')
    assert isinstance(named, float) and named == bare


def test_an_entry_id_with_its_workload_is_its_rows_per_gpu_value() -> None:
    named = _value('=COSTPERMTOK(5,"6.1-0052",1,"gpt-oss-120b Server")')
    bare = _value('=COSTPERMTOK(5,PERGPU("6.1-0052","gpt-oss-120b","Server"),1)')
    assert isinstance(named, float) and named == bare
    gpus = _value('=GPUSNEEDED(1000000,"6.1-0052",0.7,8,"gpt-oss-120b Server")')
    assert gpus == _value('=GPUSNEEDED(1000000,PERGPU("6.1-0052","gpt-oss-120b","Server"),0.7,8)')


def test_gpusneeded_of_a_named_family_sizes_in_its_unit() -> None:
    named = _value(f'=GPUSNEEDED(100,"B200",1,8,{SDXL})')
    bare = _value('=GPUSNEEDED(100,BEST("B200","stable-diffusion-xl","Server"),1,8,"Queries/s")')
    assert isinstance(named, int) and named == bare


def test_a_named_row_needs_its_workload() -> None:
    value = _value('=COSTPERMTOK(5,"B200",0.5)')
    assert str(value) == "#VALUE!" and "workload" in value.reason, value.reason


def test_units_naming_another_workload_than_the_rates_is_refused() -> None:
    """The rate is exactly stable-diffusion-xl's (samples/s) while units says a tokens/s workload."""
    value = _value('=COSTPERMTOK(5,BEST("B200","stable-diffusion-xl","Server"),1,"gpt-oss-120b Server")')
    assert str(value) == "#VALUE!" and "stable-diffusion-xl" in value.reason, value.reason


@pytest.mark.parametrize("name", ["COSTPERMTOK", "GPUSNEEDED"])
def test_the_help_says_what_a_bare_number_is_assumed_to_be(name: str) -> None:
    fn = BY_NAME[name]
    text = fn.help + " ".join(a.help for a in fn.args)
    assert "assumed" in text and "tokens/s" in text and "entry ID or a family" in text, text
