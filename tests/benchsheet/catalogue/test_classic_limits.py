"""No answer of the classic Windows shell is longer than classic Excel can show (255 characters).

xlwings hands every UDF answer to VBA as a Variant array (``udfs.call_udf``), and Excel shows
``#VALUE!`` for an element longer than 255 characters (xlwings issue #456). These tests call
every catalogue function through xlwings' own ``call_udf`` (``tests/xlwings_windows.py``: the real
``_xlwindows`` and ``udfs`` under pywin32 stand-ins) over the whole real table (every entry's
citation for each of its benchmark/scenario rows, every workload's tables, every ENTRY field) and
over a few hundred bad inputs, and look at every cell of every answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from benchsheet import analysis as A
from benchsheet import evaluate
from benchsheet.catalogue.functions import CATALOGUE
from benchsheet.data.table import Table
from benchsheet.errors import CELL_TEXT_LIMIT, CLASSIC_TEXT_LIMIT, BenchError, shortened
from tests.xlwings_windows import MISSING, TimeType, Windows, cell, column, windows

__all__ = ["windows"]  # the fixture, used by name


def _cells(answer: Any) -> Iterator[Any]:
    if isinstance(answer, list):
        for row in answer:
            yield from (row if isinstance(row, list) else [row])
    else:
        yield answer


def _too_long(answer: Any) -> list[str]:
    return [c for c in _cells(answer) if isinstance(c, str) and len(c) > CLASSIC_TEXT_LIMIT]


def test_every_citation_fits_and_loses_nothing(windows: Windows, table: Table) -> None:
    """Every row's CITE, as classic Excel receives it: a column of lines, each at most 255 characters,
    each exactly the line the citation is made of (nothing had to be cut); each part alone fits too."""
    long: dict[str, int] = {}
    for r in table.rows:
        got = windows.call("CITE", r.entry, r.benchmark, r.scenario)
        lines = [line for _, line in A.citation(table, r)]
        assert got == [[line] for line in lines], (r.entry, r.benchmark, r.scenario)
        long.update({f"{r.entry} {r.benchmark} {r.scenario}": len(c) for c in _too_long(got)})
    assert long == {}
    r = next(r for r in table.rows if A.row_notes(table, r))
    for part in A.CITE_PARTS:
        (got,) = _cells(windows.call("CITE", r.entry, r.benchmark, r.scenario, part))  # VBA gets [[text]]
        assert isinstance(got, str) and 0 < len(got) <= CLASSIC_TEXT_LIMIT, part


def _workload_calls(table: Table) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """Every table function over every workload of the real table, and every ENTRY field of every entry."""
    workloads = sorted({(r.benchmark, r.scenario) for r in table.rows})
    families = sorted(set(table.families.values()))
    for bench, scen in workloads:
        yield "RESULTS", (bench, scen, MISSING, "any")
        yield "FAMILIES", (bench, scen, "any")
        yield "GAINS", (bench, scen, MISSING, MISSING, MISSING, "any", True)
        yield "LATENCYBOUNDS", (bench, scen)
    for family in families:
        yield "RATIOS", (family, "B200")
        yield "HISTORY", (family, workloads[0][0], workloads[0][1], "any")
    for entry in sorted({r.entry for r in table.rows}):
        for field in (*A.ENTRY_FIELDS, *A.RUN_FIELDS):
            yield "ENTRY", (entry, field)
    yield "DATAINFO", (MISSING,)
    for field in ("rounds", "rows", "origin", "sources", "sha256", "imported_at"):
        yield "DATAINFO", (field,)


BAD: tuple[Any, ...] = (
    "B3OO",
    "6.1-9999",
    "no such benchmark",
    "lots",
    "",
    "x" * 300,
    "#N/A " + "y" * 400,
    -1.0,
    1e308,
    0.0,
    True,
    TimeType(2026, 6, 1),
    -2146826243,  # #SPILL! as pywin32 gives it
)


def _bad_calls() -> Iterator[tuple[str, tuple[Any, ...]]]:
    """Each argument of each function, in turn, given a bad value; the others a good example."""
    good = {"entry": "6.1-0052", "entry_id": "6.1-0052", "benchmark": "gpt-oss-120b", "scenario": "Server"}
    for fn in CATALOGUE:
        base = [good.get(a.name, "B200" if a.kind in ("text", "spec") else 8.0) for a in fn.args]
        for i in range(len(fn.args)):
            for bad in BAD:
                yield fn.name, (*base[:i], bad, *base[i + 1 :])
        yield fn.name, (column(["B3OO", "6.1-9999", "lots"]), *base[1:])


def test_no_answer_of_the_classic_shell_is_longer_than_255(windows: Windows, table: Table) -> None:
    calls = [*_workload_calls(table), *_bad_calls()]
    assert len([c for c in calls if c[0] != "ENTRY"]) > 700
    long = {}
    for name, args in calls:
        got = windows.call(name, *args)
        for text in _too_long(got):
            long[f"{name}{args!r:.80}"] = text[:80]
    assert long == {}


def test_a_long_reason_keeps_its_code_and_its_first_suggestions(windows: Windows, table: Table) -> None:
    # TPU9: close to no family (B3OO, a letter O for a zero, now gets "Did you mean B300?")
    (got,) = _cells(windows.call("BEST", "TPU9", "gpt-oss-120b", "Server"))
    families = sorted(set(table.families.values()))
    assert isinstance(got, str) and len(got) <= CLASSIC_TEXT_LIMIT
    assert got.startswith("#N/A No family 'TPU9': use one of " + ", ".join(families[:3]))
    left_out = int(got.rsplit(" and ", 1)[1].removesuffix(" more"))
    assert left_out > 0 and got.count(", ") + 1 + left_out == len(families)
    whole = evaluate('=BEST("TPU9","gpt-oss-120b","Server")')
    assert all(f in whole.reason for f in families)


def test_a_range_answers_short_texts_in_every_cell(windows: Windows) -> None:
    got = windows.call("BEST", column(["B3OO", "B200", "no such family " + "z" * 300]), "gpt-oss-120b", "Server")
    assert [len(row) for row in got] == [1, 1, 1] and _too_long(got) == []
    assert got[0][0].startswith("#N/A Did you mean B300? No family 'B3OO'.") and got[2][0].startswith("#")
    one = windows.call("CITE", cell("6.1-0052"), "gpt-oss-120b", "Server")
    assert _too_long(one) == [] and len(one) >= 6


@pytest.mark.parametrize("limit", [CLASSIC_TEXT_LIMIT, 80])
def test_shortened_keeps_the_start_and_counts_what_it_leaves_out(limit: int) -> None:
    items = [f"family{i}" for i in range(60)]
    text = "#N/A No family 'B3OO': use one of " + ", ".join(items)
    short = shortened(text, limit)
    assert len(short) <= limit and short.startswith("#N/A No family 'B3OO': use one of family0, ")
    assert short.endswith(" more")
    plain = shortened("#VALUE! " + "word " * 200, limit)
    assert len(plain) <= limit and plain.startswith("#VALUE! word") and plain.endswith("…")


def test_no_error_text_is_longer_than_a_cell_holds() -> None:
    err = BenchError("#N/A", "Unknown family: use one of " + ", ".join(f"f{i}" for i in range(10_000)))
    assert len(err.text) <= CELL_TEXT_LIMIT and err.text.startswith("#N/A Unknown family: use one of f0, f1")
    assert err.text.endswith(" more")
