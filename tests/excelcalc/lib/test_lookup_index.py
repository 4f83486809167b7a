"""The look-up index (``excelcalc.lib.lookup_index``, issue 41): MATCH, VLOOKUP, HLOOKUP and
XLOOKUP answered from an index built once per range answer what formulas' own functions, which
scan the range for each look-up, answer: compared on random lines of numbers with repeats, texts
in both cases (``ß`` and ``SS`` as formulas folds them), TRUE/FALSE, blanks and errors; and the same
over a range the engine hands to many readers (``args.Running``), read from its first rows."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from excelcalc.args import Running
from excelcalc.backend import EMPTY, error, make_range, range_parts
from excelcalc.formula import functions
from excelcalc.values import plain

POOL: list[Any] = [1, 2, 2.0, 3, 7.5, -4, 0, "a", "A", "b", "ss", "SS", "ß", "x y", True, False, EMPTY]


def _line(rng: random.Random, n: int) -> list[Any]:
    return [error("#N/A") if rng.random() < 0.03 else rng.choice(POOL) for _ in range(n)]


def _column(values: list[Any]) -> np.ndarray[Any, Any]:
    out = np.empty((len(values), 1), dtype=object)
    for i, v in enumerate(values):
        out[i, 0] = v
    return out


def _same(a: Any, b: Any) -> bool:
    a, b = plain(a), plain(b)
    a = a[0][0] if isinstance(a, list) else a
    b = b[0][0] if isinstance(b, list) else b
    if {type(a), type(b)} <= {int, float} or type(a) is type(b):
        return bool(a == b)
    blank = (None, "")  # a blank cell found: formulas answers it blank, the index Excel's 0
    return (a in blank and b == 0) or (b in blank and a == 0)


CALLS: list[tuple[str, Callable[..., tuple[Any, ...]]]] = [
    ("MATCH", lambda v, col, ret, tab: (v, col, 0)),
    ("VLOOKUP", lambda v, col, ret, tab: (v, tab, 2, False)),
    ("HLOOKUP", lambda v, col, ret, tab: (v, tab.T.copy(), 2, 0)),
    ("XLOOKUP", lambda v, col, ret, tab: (v, col, ret)),
    ("XLOOKUP", lambda v, col, ret, tab: (v, col, ret, "none", -1)),
    ("XLOOKUP", lambda v, col, ret, tab: (v, col, ret, "none", 1)),
    ("XMATCH", lambda v, col, ret, tab: (v, col)),
]


@pytest.mark.parametrize("seed", range(6))
def test_the_index_answers_what_the_scan_answers(seed: int) -> None:
    rng = random.Random(seed)
    table = functions()
    keys = _line(rng, 40)
    col = _column(keys)
    ret = _column([f"r{i}" for i in range(len(keys))])
    tab = np.concatenate([col, ret], axis=1)
    for name, args in CALLS:
        ours, theirs = table[name], table.excel(name)
        for v in [*POOL[:-1], 99, -99, "zz", "0"]:
            a = args(v, col, ret, tab)
            assert _same(ours(*a), theirs(*a)), (name, v, keys, a[2:])


def test_a_range_read_by_many_answers_from_its_first_rows() -> None:
    """``MATCH(A9,$A$2:A9,0)`` filled down: each reader reads the first rows of one ``Running``,
    its index grown with them; a value found later in the column is not in a shorter reader's rows."""
    rng = random.Random(7)
    keys = _line(rng, 60)
    running = Running(1)
    table = functions()
    for n in range(1, len(keys) + 1):
        running.add([keys[n - 1]])
        rows = running.rows(n)
        known = make_range(range_parts("S0", 1, 1, n, 1), rows, running)
        for v in ("a", 2, True, "ss", 7.5):
            assert _same(table["MATCH"](v, known, 0), table.excel("MATCH")(v, rows.copy(), 0)), (n, v)


def test_an_index_goes_with_its_range() -> None:
    """An index of a range outside a ``Running`` never keeps the range (nor itself) once the range
    is gone: a long-lived process does not hold the last ranges looked in."""
    import gc

    from excelcalc.lib import lookup_index

    grid = _column([float(i) for i in range(1000)])
    assert lookup_index.position(3.0, grid, grid) == 3
    assert any(ref() is grid for ref, _ in lookup_index._recent.values())
    del grid
    gc.collect()
    assert all(ref() is not None for ref, _ in lookup_index._recent.values())
    assert not any(len(index.first) == 1000 for _, index in lookup_index._recent.values())
