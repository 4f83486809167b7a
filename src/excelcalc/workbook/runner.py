"""The runner: each formula's program run over the value map, in order, within the deadline.

``run_all`` runs the formula cells in their dependency order (``graph.dependency_order``); a
reference made at run time (OFFSET, INDIRECT) that needs a formula later in the order has it
computed first (``dynamic.run_on_demand``). ``Runner`` gives a formula the ranges it reads (built
once for all their readers, whole columns trimmed to the cells present) and answers a pure
formula once per distinct input. ``store`` puts an answer into the value map; one formula's
failure is its own cell's answer, never the workbook's. ``Deadline`` bounds a workbook's time:
checked between formulas and, by a timer signal, inside a long one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from excelcalc.args import Running
from excelcalc.backend import EMPTY, XlError, make_range, quiet_numpy, range_parts, reshape_as_excel
from excelcalc.formula import run
from excelcalc.formula_text import MAX_TEXT
from excelcalc.lib import sheets as excel_refs
from excelcalc.lib.sheets import FULL
from excelcalc.values import ReasonedError, plain
from excelcalc.workbook import dynamic
from excelcalc.workbook.book import FormulaCell, Pos, Ref, WorkbookCells
from excelcalc.workbook.cells import ComputeError
from excelcalc.workbook.explain import NOT_A_NUMBER, REQUIRED, explain, name_array_inputs, name_blank, name_text
from excelcalc.workbook.graph import Producers

__all__ = ["MAX_RANGE", "TOO_LONG", "Deadline", "Runner", "failed", "run_all", "store"]

MAX_RANGE = 4_000_000  # cells of one range a formula may read (after trimming to the cells present)
# the memo of pure formulas is dropped once it holds MEMO_TRIAL answers of which fewer than one in
# MEMO_WORTH was asked again: 1,000,000 formulas =A2, =A3... kept one each, 200 MB of a 1.3 GB peak
MEMO_TRIAL = 20_000
MEMO_WORTH = 20
CHECK_EVERY = 256  # formulas answered by ``run_all``'s shortcut between two readings of the clock


class Runner:
    """What a formula reads while it runs: its ranges, built from the value map, and its memo."""

    def __init__(self, book: WorkbookCells) -> None:
        self.book = book
        self.cache: dict[Ref, Any] = {}  # a range read by several formulas, built once
        self.memo: dict[tuple[Any, ...], Any] | None = {}
        self.memo_hits = 0
        self.sheet_ids = [f"S{s}" for s in range(len(book.titles))]  # formulas' names of the sheets
        # how many formulas still read each range: built once, kept until its last reader ran
        # (running totals, SUM($B$2:B9) filled down, read each range once: never kept)
        self.readers: dict[Ref, int] = {}
        # ranges from the same first cell over the same columns, read by several formulas (a running
        # total ``SUM($A$2:A9)`` filled down, ``SUM(Sales[Qty])`` from each row): one ``Running``
        # grown by rows as they are read, kept until its last reader ran
        self.starts: dict[tuple[int, int, int, int], int] = {}
        self.running: dict[tuple[int, int, int, int], Running] = {}
        for f in book.formulas:
            for r in f.refs:
                if r[1] != r[3] or r[2] != r[4]:  # a range (not sliced: 200,000 =B2, 40 ms)
                    self.readers[r] = self.readers.get(r, 0) + 1
                    start = (r[0], r[1], r[2], r[4])
                    self.starts[start] = self.starts.get(start, 0) + 1

    def ranges(self, ref: Ref) -> Any:
        s, r1, c1, r2, c2 = ref
        if r1 == r2 and c1 == c2:
            return make_range(
                range_parts(self.sheet_ids[s], r1, c1, r1, c1), _one(self.book.values.get((s, r1, c1), EMPTY))
            )
        start = (s, r1, c1, c2)
        if self.starts.get(start, 0) > 1 or start in self.running:
            return self._running(ref, start)
        left = self.readers.get(ref, 1) - 1
        self.readers[ref] = left
        found = self.cache.pop(ref, None) if left <= 0 else self.cache.get(ref)
        if found is not None:
            return found
        r2, c2 = self.book.trimmed(ref)
        rows, cols = r2 - r1 + 1, c2 - c1 + 1
        if rows * cols > MAX_RANGE:
            raise _TooLarge(rows * cols)
        out = _blank((rows, cols))
        values = self.book.values
        if rows * cols <= len(values):
            for r in range(r1, r2 + 1):
                for c in range(c1, c2 + 1):
                    v = values.get((s, r, c), EMPTY)
                    if v is not EMPTY:
                        out[r - r1, c - c1] = v
        else:
            for (vs, r, c), v in values.items():
                if vs == s and r1 <= r <= r2 and c1 <= c <= c2:
                    out[r - r1, c - c1] = v
        parts = range_parts(f"S{s}", r1, c1, r2, c2)
        if (r2, c2) != ref[3:]:
            parts[FULL] = ref[3:]  # a whole column read as the cells present: OFFSET(A:A,...) moves all of it
        rng = make_range(parts, out)
        if left > 0:
            self.cache[ref] = rng
        return rng

    def _running(self, ref: Ref, start: tuple[int, int, int, int]) -> Any:
        """A range read by several formulas from the same first cell: its rows from the ``Running``
        of that start, which reads each row of the sheet once for all of them (its cells were all
        computed before their first reader: ``dependency_order``)."""
        s, r1, c1 = ref[:3]
        left = self.starts.get(start, 1) - 1
        self.starts[start] = left
        found = self.running.pop(start, None) if left <= 0 else self.running.get(start)
        r2, c2t = self.book.trimmed(ref)
        rows, cols = r2 - r1 + 1, c2t - c1 + 1
        if rows * cols > MAX_RANGE:
            raise _TooLarge(rows * cols)
        if found is None or found.cols != cols:
            found = Running(cols)
            if left > 0:
                self.running[start] = found
        values = self.book.values
        for r in range(r1 + found.count, r2 + 1):
            found.add([values.get((s, r, c), EMPTY) for c in range(c1, c2t + 1)])
        parts = range_parts(f"S{s}", r1, c1, r2, c2t)
        if (r2, c2t) != ref[3:]:
            parts[FULL] = ref[3:]  # a whole column read as the cells present: OFFSET(A:A,...) moves all of it
        return make_range(parts, found.rows(rows), found)

    def value(self, f: FormulaCell) -> Any:
        s, row, col = f.pos
        prog = f.prog
        if prog is not None and prog.reference_only and len(f.refs) == 1:
            sr, r1, c1, r2, c2 = f.refs[0]
            if r1 == r2 and c1 == c2:  # =B2 alone: the cell's value, as ``run`` answers its one-cell range
                v = self.book.values.get((sr, r1, c1), EMPTY)
                if v is EMPTY:
                    return 0  # an empty cell read by a formula is 0
                if not isinstance(v, str) or len(v) <= MAX_TEXT:  # (a longer text: run says what is wrong)
                    return _one(v)
        memo_key: tuple[Any, ...] | None = None
        if self.memo is not None and f.shape == (1, 1) and prog is not None and prog.pure:
            # a formula that does not read its own position answers the same for the same inputs: a
            # filled-down column repeating its IDs is answered once per distinct row. A range is the
            # same input wherever it is read: its formula cells were all computed before its readers
            # (``dependency_order``), so ``SUMIF(T[Key],[@Key],T[Amount])`` runs once per distinct key
            memo_key = _inputs(self.book.values, f)
            try:
                found = self.memo[memo_key]
                self.memo_hits += 1
                return found
            except KeyError:
                pass
            except TypeError:  # an unhashable value
                memo_key = None
        try:
            refs = [self.ranges(r) for r in f.refs]
        except _TooLarge as big:
            return ReasonedError(
                "#VALUE!", f"a range of {big.cells:,} cells is more than benchsheet reads ({MAX_RANGE:,})"
            )
        here = None
        if f.prog.uses_cell:
            parts = range_parts(f"S{s}", row, col, row + f.shape[0] - 1, col + f.shape[1] - 1)
            here = make_range(parts, _blank(f.shape))
        value = run(f.prog, refs, here)
        if memo_key is not None and self.memo is not None:
            self.memo[memo_key] = value
            if len(self.memo) >= MEMO_TRIAL and self.memo_hits * MEMO_WORTH < len(self.memo):
                self.memo = None  # inputs that do not repeat (=A2, =A3...): its memory for nothing
        return value


def _inputs(values: dict[Pos, Any], f: FormulaCell) -> tuple[Any, ...]:
    """What a formula's answer depends on, as the key of its memo: its program, and per reference
    the type, value and reason of its cell, or the range itself (``_RangeInput``)."""
    key: list[Any] = [id(f.prog)]
    for s, r1, c1, r2, c2 in f.refs:
        if r1 == r2 and c1 == c2:
            v = values.get((s, r1, c1), EMPTY)
            key += (type(v), v, v.reason if isinstance(v, ReasonedError) else None)
        else:
            key += (_RangeInput, (s, r1, c1, r2, c2), None)
    return tuple(key)


class _RangeInput:
    """Marks a range a formula reads, in the key of its memo."""


class _TooLarge(Exception):
    def __init__(self, cells: int) -> None:
        self.cells = cells


def _blank(shape: tuple[int, int]) -> np.ndarray[Any, Any]:
    """Empty cells of a range. Not ``np.full``: numpy makes a copy of the EMPTY token that is the plain
    text "empty", which formulas then read as text (a blank cell in ``SUMPRODUCT(A1:A3*1)`` was
    #VALUE!, CONCAT wrote "empty", COUNTA counted blanks)."""
    out = np.empty(shape, dtype=object)
    out.fill(EMPTY)
    return out


def _one(v: Any) -> np.ndarray[Any, Any]:
    out = np.empty((1, 1), dtype=object)
    out[0, 0] = v
    return out


def failed(exc: Exception) -> ReasonedError:
    return ReasonedError("#VALUE!", f"cannot compute this formula ({type(exc).__name__}: {str(exc)[:120]})")


def run_all(
    book: WorkbookCells, producers: Producers, order: list[int], deadline: Deadline, circular: set[int]
) -> tuple[dict[int, Any], dict[int, str]]:
    """Every formula's answer in ``order`` (by index), and the reasons found for plain errors. A
    reference made at run time (OFFSET) may need a formula later in the order: computed first
    (``dynamic.run_on_demand``)."""
    runner = Runner(book)
    reasons: dict[int, str] = {}
    results: dict[int, Any] = {}
    sheets = dynamic.BookSheets(book, producers, runner, results)

    def one(i: int) -> None:
        sheets.running(book.formulas[i].pos, book.formulas[i].array)
        _run_one(book, producers, runner, i, results, reasons)

    def reads(i: int) -> Iterator[int]:
        return (j for ref in book.formulas[i].refs for j in producers.within(ref))

    def in_circle(i: int) -> None:
        why = "not computed (a circular reference, through OFFSET or INDIRECT?)"
        results[i] = store(book, book.formulas[i], ReasonedError("#VALUE!", why))

    token = excel_refs.use(sheets)
    values, formulas = book.values, book.formulas
    quick = 0  # formulas answered by the shortcut since the deadline was last checked
    try:
        with quiet_numpy():
            for i in order:
                if i in results:
                    continue
                f = formulas[i]
                prog = f.prog
                if prog is not None and prog.reference_only and len(f.refs) == 1 and f.problem is None:
                    v = _referenced(values, f.refs[0]) if f.shape == (1, 1) else None
                    if v is not None:  # =B2 of a number or a text: its value, as ``_run_one`` answers it
                        quick += 1
                        if quick >= CHECK_EVERY:  # (each takes a microsecond: the clock is read every 256)
                            quick = 0
                            deadline.check()
                        results[i] = values[f.pos] = v
                        continue
                dynamic.run_on_demand(i, results, one, reads, in_circle, deadline.check, circular)
    finally:
        excel_refs.reset(token)
    return results, reasons


def _referenced(values: dict[Pos, Any], ref: Ref) -> Any:
    """The answer of a formula that is a reference alone (``=B2``) where ``ref`` is one cell holding a
    number, TRUE/FALSE or a text (an empty one: 0), as ``Runner.value`` and ``store`` make it; None
    for anything else (an error, whose reason is looked for; a range), which runs as any formula. 200,000
    of them: 0.55 s to 0.15 s."""
    s, r1, c1, r2, c2 = ref
    if r1 != r2 or c1 != c2:
        return None
    v = values.get((s, r1, c1), EMPTY)
    if v is EMPTY:
        return 0  # an empty cell read by a formula is 0
    kind = type(v)
    if kind is int or kind is float or kind is bool or (kind is str and len(v) <= MAX_TEXT):
        return v
    return None


def _run_one(
    book: WorkbookCells, producers: Producers, runner: Runner, i: int, results: dict[int, Any], reasons: dict[int, str]
) -> None:
    """Formula ``i``'s answer into ``results`` (and the value map), a reason for a plain error into ``reasons``."""
    f = book.formulas[i]
    try:
        value = f.problem if f.problem is not None else runner.value(f)
        results[i] = value = store(book, f, value)
        if isinstance(value, ReasonedError) and value.reason.endswith(REQUIRED) and f.problem is None:
            results[i] = value = book.values[f.pos] = name_blank(book, producers, f, value)
        elif isinstance(value, ReasonedError) and NOT_A_NUMBER in value.reason and f.problem is None:
            results[i] = value = book.values[f.pos] = name_text(book, producers, f, value)
        elif isinstance(value, list) and f.shape != (1, 1) and f.problem is None:
            results[i] = value = name_array_inputs(book, producers, f, value)
    except Exception as exc:  # one formula never sinks the file: its cell says what failed
        results[i] = value = store(book, f, failed(exc))
    if (isinstance(value, XlError) and not isinstance(value, ReasonedError)) or isinstance(value, list):
        # tried again only where every reference is one cell: reading a range again would count its reader twice
        cells = f.problem is None and all(r[1:3] == r[3:5] for r in f.refs)
        reason = explain(book, producers, f, value, reasons, _rerun(book, runner, f) if cells else None)
        if reason:
            reasons[i] = reason


def _rerun(book: WorkbookCells, runner: Runner, f: FormulaCell) -> Callable[[Pos, Any], Any]:
    """``f``'s answer with one cell's value replaced (the cell as it was after)."""

    def again(pos: Pos, value: Any) -> Any:
        had = pos in book.values
        old = book.values.get(pos)
        book.values[pos] = value
        try:
            return runner.value(f)
        finally:
            if had:
                book.values[pos] = old
            else:
                del book.values[pos]

    return again


TOO_LONG = (
    "refused: computing it takes too long (more than {seconds:g} s: many long or distinct formulas?); "
    "nothing was written. Excel computes it; or split the workbook"
)


REPEAT = 0.05  # seconds between the timer's signals once the deadline has passed


class _OutOfTime(BaseException):
    """Raised by the timer inside whatever runs when the time is up (not an ``Exception``: no
    formula's own error handling may take it for a cell's failure)."""


class Deadline:
    """The time a workbook may take, for every step: checked between formulas and, where the
    process can take a timer signal (the main thread, no other timer set), inside a long one."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds
        self.before: Any = None
        self.armed = True

    def check(self) -> None:
        if time.monotonic() > self.end:
            raise ComputeError(TOO_LONG.format(seconds=self.seconds))

    def __enter__(self) -> Deadline:
        import signal
        import threading

        if (
            hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL)[0] == 0
        ):
            self.before = signal.signal(signal.SIGALRM, self._alarm)
            # fired again every REPEAT seconds until taken: an exception raised where Python cannot
            # raise it (a garbage-collector callback, a ``__del__``) is dropped as "unraisable"
            signal.setitimer(signal.ITIMER_REAL, max(self.seconds, 0.001), REPEAT)
        return self

    def _alarm(self, _signum: int, _frame: object) -> None:
        if self.armed:
            raise _OutOfTime

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        self.armed = False  # first: a signal still on its way while the timer is stopped raises nothing
        if self.before is not None:
            import signal

            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.before)
        if kind is _OutOfTime:
            raise ComputeError(TOO_LONG.format(seconds=self.seconds)) from None


def store(book: WorkbookCells, f: FormulaCell, value: Any) -> Any:
    """Put a formula's answer into the value map (an array formula's over its range); the answer
    as plain Python."""
    s, row, col = f.pos
    if f.shape == (1, 1):
        answer = v = plain(value)
        if isinstance(v, list):
            v = v[0][0] if v and v[0] else EMPTY
        book.values[f.pos] = EMPTY if v is None else v
        return answer
    grid = reshape_as_excel(value, f.shape)
    for dr in range(f.shape[0]):
        for dc in range(f.shape[1]):
            v = plain(grid[dr, dc])
            book.values[(s, row + dr, col + dc)] = EMPTY if v is None else v
    return plain(grid)
