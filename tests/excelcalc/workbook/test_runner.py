"""The runner's deadline (``excelcalc.workbook.runner.Deadline``)."""

from __future__ import annotations

import time

import pytest

from excelcalc.workbook.cells import ComputeError
from excelcalc.workbook.runner import Deadline


def test_the_deadline_fires_again_when_its_first_signal_is_swallowed() -> None:
    """The timer's exception can land where Python cannot raise it (a garbage-collector callback, a
    ``__del__``: it is printed as "unraisable" and dropped). A one-shot timer then never fires again
    and the formula runs to its end; the deadline keeps firing until it is taken. Bounded by count:
    at most 2,000 sleeps of 5 ms, where the deadline is 1 ms."""
    swallowed: list[BaseException] = []
    slept = 0
    with pytest.raises(ComputeError, match="takes too long"), Deadline(0.001):
        for slept in range(2_000):  # noqa: B007 (read after the loop)
            try:
                time.sleep(0.005)
            except BaseException as exc:  # what an unraisable context does with the first one
                if swallowed:
                    raise
                swallowed.append(exc)
    assert len(swallowed) == 1 and slept < 2_000 - 1
