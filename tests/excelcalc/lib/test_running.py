"""Functions of a range read from its first row by many formulas (``excelcalc.lib.running``, issue 41):
MAX, MIN, AVERAGE, COUNT, COUNTA, SUMPRODUCT, COUNTIF and SUMIF of the first rows of a ``Running``
answer what the same functions answer of those rows as a plain array, which they compute cell by
cell (COUNTIF and SUMIF are formulas' own; SUMIF's sums, added in another order, to 1E-9): compared
on random columns of numbers, texts that read as numbers or dates and texts that do not,
TRUE/FALSE, blanks and errors, with criteria of every kind."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from excelcalc.args import Running
from excelcalc.backend import EMPTY, Array, error, make_range, range_parts
from excelcalc.formula import functions
from excelcalc.values import plain

CELLS: list[Any] = [1, 2, 2.5, -3, 0, 5, "5", " 5", "abc", "ABC", "x", "1/2/2020", "inf", True, False, EMPTY]
CRITERIA: list[Any] = [1, 2.5, 5, -3, 0, "abc", "x", "5", ">2", "<>abc", "a*", "=x", "", True, "TRUE", "#N/A"]


def _column(rng: random.Random, n: int, cols: int, kinds: list[Any]) -> list[list[Any]]:
    return [[error("#DIV/0!") if rng.random() < 0.02 else rng.choice(kinds) for _ in range(cols)] for _ in range(n)]


def _array(rows: list[list[Any]]) -> Any:
    out = np.empty((len(rows), len(rows[0])), dtype=object)
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            out[r, c] = v
    return out.view(Array)


def _same(a: Any, b: Any) -> bool:
    a, b = plain(a), plain(b)
    a = a[0][0] if isinstance(a, list) else a
    b = b[0][0] if isinstance(b, list) else b
    if type(a) is type(b) or {type(a), type(b)} <= {int, float}:
        return bool(a == b)
    return False


@pytest.mark.parametrize(("seed", "cols", "numbers_only"), [(0, 1, False), (1, 1, True), (2, 2, False), (3, 1, True)])
def test_a_running_range_answers_as_its_rows(seed: int, cols: int, numbers_only: bool) -> None:
    rng = random.Random(seed)
    kinds = [v for v in CELLS if not isinstance(v, str) or v is EMPTY] if numbers_only else CELLS
    rows = _column(rng, 50, cols, kinds)
    a, b = Running(cols), Running(cols)
    table = functions()
    for n in range(1, len(rows) + 1):
        a.add(rows[n - 1])
        b.add([v if isinstance(v, int | float) else 1.5 for v in rows[n - 1]])
        ra = make_range(range_parts("S0", 1, 1, n, cols), a.rows(n), a)
        rb = make_range(range_parts("S0", 1, 9, n, 8 + cols), b.rows(n), b)
        plain_a, plain_b = _array(rows[:n]), b.rows(n).copy().view(Array)
        for name in ("MAX", "MIN", "AVERAGE", "COUNT", "COUNTA"):
            assert _same(table[name](ra), table[name](plain_a)), (name, n)
        assert _same(table["SUMPRODUCT"](ra, rb), table["SUMPRODUCT"](plain_a, plain_b)), n
        for criterion in rng.sample(CRITERIA, 6):
            got, want = table["COUNTIF"](ra, criterion), table.excel("COUNTIF")(plain_a, criterion)
            assert _same(got, want), (criterion, n, rows[:n])
            got, want = table["SUMIF"](ra, criterion, rb), table.excel("SUMIF")(plain_a, criterion, plain_b)
            assert _same(got, want) or abs(float(plain(got)) - float(plain(want))) < 1e-9, ("SUMIF", criterion, n)
            got, want = table["SUMIF"](ra, criterion), table.excel("SUMIF")(plain_a, criterion)
            assert _same(got, want) or abs(float(plain(got)) - float(plain(want))) < 1e-9, ("SUMIF/2", criterion, n)
