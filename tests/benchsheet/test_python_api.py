"""benchsheet from Python, as a notebook uses it (issue 42 item 10): a clear exception, or a documented error
value whose repr shows the reason; never an internal TypeError/AttributeError or an error object held as data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import benchsheet
from benchsheet import frames
from benchsheet.catalogue.engine import ErrorValue


def test_evaluate_answers_an_error_value_whose_repr_is_its_reason() -> None:
    value = benchsheet.evaluate('=PERGPU("6.1-9999","gpt-oss-120b","Server")')
    assert isinstance(value, ErrorValue)
    assert (value.code, value.reason) == ("#N/A", "No entry '6.1-9999' in the loaded results")
    assert repr(value) == "ErrorValue('#N/A', \"No entry '6.1-9999' in the loaded results\")"
    cells = benchsheet.evaluate("={1,2;3,1/0}")
    assert cells[:1] == [[1, 2]] and cells[1][0] == 3
    assert repr(cells[1][1]) == "ErrorValue('#DIV/0!', 'division by zero')"


@pytest.mark.parametrize("formula", [None, 3, b"=PI()"])
def test_evaluate_of_something_not_text_is_a_clear_type_error(formula: object) -> None:
    with pytest.raises(TypeError, match="evaluate takes a formula as text"):
        benchsheet.evaluate(formula)  # type: ignore[arg-type]


def test_a_frame_never_holds_an_error_object_as_data() -> None:
    """frames.CITE over a range with an unknown entry returned a frame holding a FrameError in a cell."""
    with pytest.raises(frames.FrameError) as raised:
        frames.CITE([["6.1-0052"], ["6.1-9999"]], "gpt-oss-120b", "Server", "result")
    assert raised.value.code == "#N/A" and "6.1-9999" in raised.value.reason


@pytest.mark.parametrize(
    "entries",
    [
        pd.Series(["6.1-0052", "6.1-0052"]),
        np.array(["6.1-0052", "6.1-0052"]),
        pd.DataFrame({"entry": ["6.1-0052", "6.1-0052"]}),
    ],
    ids=["Series", "ndarray", "DataFrame"],
)
def test_pandas_and_numpy_arguments_are_ranges(entries: object) -> None:
    """A Series argument gave an internal TypeError; it is a column of cells, as a list of rows is."""
    expected = frames.CITE([["6.1-0052"], ["6.1-0052"]], "gpt-oss-120b", "Server", "result")
    pd.testing.assert_frame_equal(frames.CITE(entries, "gpt-oss-120b", "Server", "result"), expected)
