"""The dependency graph: which formula produces each cell, and the order formulas run in.

``Producers`` maps each cell to the formula that makes it (an array formula makes its whole
range). ``dependency_order`` sorts the formula cells so each comes after what it reads, without
recursion (a 100,000-long chain sorts), through a ``DependencyGraph`` whose ranges and column spans
(a segment tree) are shared nodes: a range read by thousands of cells is one node, not thousands
of edges. Formulas on or behind a circle are set apart; a workbook of too many dependencies is
refused (``MAX_EDGES``).
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Iterator

from excelcalc.workbook.book import Pos, Ref, WorkbookCells
from excelcalc.workbook.cells import ComputeError

__all__ = ["MAX_EDGES", "DependencyGraph", "Producers", "dependency_order"]

MAX_EDGES = 20_000_000  # dependencies between formula cells: beyond, the workbook is refused


class Producers:
    """Which formula produces each cell (an array formula produces its whole range)."""

    def __init__(self, book: WorkbookCells) -> None:
        self.at: dict[Pos, int] = {}
        at = self.at
        columns: dict[tuple[int, int], list[int]] = {}
        rows: list[int] = []
        last: tuple[int, int] | None = None  # the column of the formula before, whose rows are ``rows``
        for i, f in enumerate(book.formulas):
            pos = f.pos
            s, row, col = pos
            if f.shape == (1, 1):  # most formulas: one cell
                if pos not in at:
                    at[pos] = i
                if (s, col) != last:
                    last = (s, col)
                    rows = columns.setdefault(last, [])
                rows.append(row)
                continue
            last = None
            for r in range(row, row + f.shape[0]):
                for c in range(col, col + f.shape[1]):
                    self.at.setdefault((s, r, c), i)
                    columns.setdefault((s, c), []).append(r)
        self.columns = {k: sorted(set(v)) for k, v in columns.items()}
        self.by_sheet: dict[int, list[int]] = {}
        for s, c in self.columns:
            self.by_sheet.setdefault(s, []).append(c)
        for cols in self.by_sheet.values():
            cols.sort()

    def within(self, ref: Ref) -> Iterator[int]:
        """The formulas producing cells of ``ref`` (for references made at run time)."""
        s, r1, c1, r2, c2 = ref
        if (r1, c1) == (r2, c2):
            i = self.at.get((s, r1, c1))
            if i is not None:
                yield i
            return
        cols = self.by_sheet.get(s, [])
        for c in cols[bisect.bisect_left(cols, c1) : bisect.bisect_right(cols, c2)]:
            rows = self.columns[(s, c)]
            for r in rows[bisect.bisect_left(rows, r1) : bisect.bisect_right(rows, r2)]:
                yield self.at[(s, r, c)]


def dependency_order(book: WorkbookCells, producers: Producers) -> tuple[list[int], set[int]]:
    """Formula indices in an order where each comes after what it reads; the set is those on
    or behind a circular reference (never computed)."""
    n = len(book.formulas)
    graph = DependencyGraph(producers, n)
    at = producers.at
    for i, f in enumerate(book.formulas):
        refs = f.refs
        if len(refs) == 1:  # most formulas (=B2, SUM(B2:B9)): no set of those seen
            ref = refs[0]
            j = at.get(ref[:3]) if ref[1] == ref[3] and ref[2] == ref[4] else graph.range_node(ref)
            if j is not None:
                graph.link(j, i)
            continue
        seen: set[int] = set()
        for ref in refs:
            j = at.get(ref[:3]) if ref[1] == ref[3] and ref[2] == ref[4] else graph.range_node(ref)
            if j is not None and j not in seen:
                seen.add(j)
                graph.link(j, i)
    if not graph.edges:  # no formula reads another's cell: the formulas in their own order
        return list(range(n)), set()
    return _sorted(graph.succ, n)


class DependencyGraph:
    """Which node waits for which: the formulas (0 .. n-1), one node per range a formula reads, shared
    by all its readers, and one per span of a column's formula cells (a segment tree: a range is
    the few spans that cover its rows). So a table column read from each of its 7,274 rows is
    7,274 dependencies on one node, not 7,274 squared, and a running total ``SUM($C$2:C9)`` filled
    down a column of formulas about 13 per row, not one per row above it."""

    def __init__(self, producers: Producers, n: int) -> None:
        self.producers = producers
        self.succ: list[list[int]] = [[] for _ in range(n)]
        self.ranges: dict[Ref, int] = {}
        self.spans: dict[tuple[int, int, int, int], int] = {}  # (sheet, column, first, end) -> node
        self.edges = 0

    def link(self, before: int, after: int) -> None:
        self.succ[before].append(after)
        self.edges += 1
        if self.edges > MAX_EDGES:
            raise ComputeError(
                f"refused: its formulas depend on each other more than {MAX_EDGES:,} times "
                "(ranges over many formula cells); it would take too long to compute"
            )

    def _node(self) -> int:
        self.succ.append([])
        return len(self.succ) - 1

    def range_node(self, ref: Ref) -> int:
        """The node of a range: after every formula cell inside it."""
        j = self.ranges.get(ref)
        if j is None:
            j = self.ranges[ref] = self._node()
            s, r1, c1, r2, c2 = ref
            cols = self.producers.by_sheet.get(s, [])
            for c in cols[bisect.bisect_left(cols, c1) : bisect.bisect_right(cols, c2)]:
                rows = self.producers.columns[(s, c)]
                first, end = bisect.bisect_left(rows, r1), bisect.bisect_right(rows, r2)
                for k in self._cover((s, c), 0, len(rows), first, end):
                    self.link(k, j)
        return j

    def _cover(self, col: tuple[int, int], lo: int, hi: int, first: int, end: int) -> Iterator[int]:
        """The spans of the segment tree over the column's formula cells lo..hi that cover first..end."""
        if end <= lo or hi <= first:
            return
        if first <= lo and hi <= end:
            yield self._span(col, lo, hi)
            return
        mid = (lo + hi) // 2
        yield from self._cover(col, lo, mid, first, end)
        yield from self._cover(col, mid, hi, first, end)

    def _span(self, col: tuple[int, int], lo: int, hi: int) -> int:
        """The node after the column's formula cells lo..hi (by their order in the column)."""
        s, c = col
        if hi - lo == 1:
            return self.producers.at[(s, self.producers.columns[col][lo], c)]
        j = self.spans.get((s, c, lo, hi))
        if j is None:
            mid = (lo + hi) // 2
            left, right = self._span(col, lo, mid), self._span(col, mid, hi)
            j = self.spans[(s, c, lo, hi)] = self._node()
            self.link(left, j)
            self.link(right, j)
        return j


def _sorted(succ: list[list[int]], n: int) -> tuple[list[int], set[int]]:
    """The nodes of the graph ``succ`` in dependency order, the first ``n`` (the formulas) only; and
    the formulas left waiting (on or behind a circular reference)."""
    indeg = [0] * len(succ)
    for targets in succ:
        for j in targets:
            indeg[j] += 1
    queue = deque(i for i in range(len(succ)) if indeg[i] == 0)
    order: list[int] = []
    while queue:
        i = queue.popleft()
        if i < n:
            order.append(i)
        for j in succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                queue.append(j)
    return order, {i for i in range(n) if indeg[i] > 0}
