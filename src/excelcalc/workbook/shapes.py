"""Formula shapes: each formula cell prepared, parsed once per shape, its references placed.

The formulas of a filled-down column differ only by rows: written relative to their cells
(``references.relative``) they are one text, the shape. ``prepare_cell`` rewrites a cell's
structured and 3-D references (``tables.rewrite``), finds its shape's program (prepared and
parsed by the engine once per shape, ``FormulaShape``) and places the shape's references at the
cell (as numbers, ``Offsets``, where every reference is a cell or a range of this workbook); a
cell that cannot be computed gets its reason as ``FormulaCell.problem``. The next cells of a
filled-down column are known by their text in their row (``ColumnRun``) and placed by arithmetic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from excelcalc.formula import PLACEHOLDER, as_written, prepare, program
from excelcalc.lib.datetime import IN_1904
from excelcalc.values import ReasonedError
from excelcalc.workbook.book import FormulaCell, Ref, WorkbookCells
from excelcalc.workbook.cells import MAX_COL, MAX_ROW
from excelcalc.workbook.dynamic import spilled
from excelcalc.workbook.references import (
    A1_REFERENCE,
    absolute,
    cell_references,
    meaning_at,
    relative,
    resolve,
    resolve_text,
)
from excelcalc.workbook.tables import NotComputed, rewrite

__all__ = ["DATE_FUNCTIONS", "ColumnRun", "FormulaShape", "Offsets", "prepare_cell"]

# functions that read or make dates: in a workbook of the 1904 date system (serial 0 is 1904-01-01,
# Microsoft's "Date systems in Excel" page) they answer an error rather than a date 1,462 days off,
# except those that read the workbook's date system (excel_refs.IN_1904, YEARFRAC)
DATE_FUNCTIONS = frozenset(
    f"{p}{name}"
    for p in ("", "_XLFN.")
    for name in [
        "DATE",
        "DATEVALUE",
        "DATEDIF",
        "DAY",
        "DAYS",
        "DAYS360",
        "EDATE",
        "EOMONTH",
        "MONTH",
        "YEAR",
        "WEEKDAY",
        "WEEKNUM",
        "ISOWEEKNUM",
        "NETWORKDAYS",
        "NETWORKDAYS.INTL",
        "WORKDAY",
        "WORKDAY.INTL",
        "TODAY",
        "NOW",
        "TEXT",
        "VALUE",
    ]
) - frozenset(IN_1904)


@dataclass(frozen=True)
class FormulaShape:
    """What a formula shape prepares to: the same for every cell that shares it."""

    prog: Any  # Program or the ReasonedError of a formula that cannot be read
    refs: tuple[str, ...]  # references, relative (``relative``)
    order: tuple[int | str, ...]  # the program's references: a placeholder's number, or a literal reference
    fast: tuple[Offsets, ...] | None = None  # the references as numbers, when all are cells or ranges
    own: tuple[int, ...] | None = None  # ``order`` when every reference is one written in the formula


# sheet, then (absolute?, column or offset, absolute?, row or offset) of both corners
Offsets = tuple[int, tuple[bool, int, bool, int], tuple[bool, int, bool, int]]
_FAST = re.compile(
    r"^(?P<prefix>(?:'(?:[^'\x00]|'')*'|[^'!\x00]*)!)?\x00(\$?)(-?\d+)\x01(\$?)(-?\d+)\x00"
    r"(?::\x00(\$?)(-?\d+)\x01(\$?)(-?\d+)\x00)?$"
)


def _offsets(book: WorkbookCells, home: int, rel: str) -> Offsets | None:
    """A relative reference (``relative``) as numbers; None for anything but a cell or range of a
    sheet of this book."""
    m = _FAST.match(rel)
    if not m:
        return None
    sheet = home
    if m.group("prefix"):
        found = resolve(book, home, m.group("prefix") + "A1")
        if isinstance(found, ReasonedError):
            return None
        sheet = found[0]
    g = m.groups()
    first = (g[1] == "$", int(g[2]), g[3] == "$", int(g[4]))
    second = (g[5] == "$", int(g[6]), g[7] == "$", int(g[8])) if g[6] is not None else first
    return sheet, first, second


def _place(offsets: Offsets, row: int, col: int) -> Ref | None:
    """The reference of ``_offsets`` for the cell at (row, col); None when it leaves the sheet."""
    sheet, first, second = offsets
    if second is first:  # a cell (``_offsets`` gives its one corner twice)
        ac, c, ar, r = first
        c = c if ac else c + col
        r = r if ar else r + row
        return (sheet, r, c, r, c) if 1 <= c <= MAX_COL and 1 <= r <= MAX_ROW else None
    (ac1, c1, ar1, r1), (ac2, c2, ar2, r2) = first, second
    c1 = c1 if ac1 else c1 + col
    r1 = r1 if ar1 else r1 + row
    c2 = c2 if ac2 else c2 + col
    r2 = r2 if ar2 else r2 + row
    if c1 > c2:
        c1, c2 = c2, c1
    if r1 > r2:
        r1, r2 = r2, r1
    if c1 < 1 or r1 < 1 or c2 > MAX_COL or r2 > MAX_ROW:
        return None
    return sheet, r1, c1, r2, c2


def prepare_cell(
    book: WorkbookCells,
    f: FormulaCell,
    shapes: dict[tuple[int, str], FormulaShape | None],
    runs: dict[tuple[int, int], ColumnRun] | None = None,
) -> None:
    """Resolve the formula's references and find its program: parsed once per shape (a filled-down
    column is one shape), the references of each cell its own. ``runs``: the shape last met in each
    column (``ColumnRun``), by which the next cells of a filled-down column are placed without
    deriving their shape again."""
    if f.problem is not None:
        return
    home, row, col = f.pos
    run = runs.get((home, col)) if runs is not None else None
    if run is not None and not f.array and run.placed(f, row):
        return
    try:  # structured, 3-D and [0]! references as the A1 references they stand for
        text = rewrite(spilled(f.text, book, home), book, home, row, col)
    except NotComputed as exc:
        f.problem = exc.error
        return
    key = (home, ("{" if f.array else "") + relative(text, row, col)) if "\x00" not in text else None
    shape = shapes.get(key) if key is not None else None
    if shape is None:
        shape = _new_shape(book, f, text, key, shapes)
        if shape is None:
            return
    if isinstance(shape.prog, ReasonedError):
        f.problem = as_written(shape.prog, f.text)
        return
    if book.date1904 and (dated := DATE_FUNCTIONS.intersection(shape.prog.functions)):
        f.problem = ReasonedError(
            "#VALUE!",
            f"{min(dated).removeprefix('_XLFN.')} in a workbook of the 1904 date system is not computed by "
            "benchsheet (its dates would be 4 years off)",
        )
        return
    placed: list[Ref | None] = [_place(o, row, col) for o in shape.fast] if shape.fast is not None else [None]
    if None in placed:
        placed = []
        for rel in shape.refs:
            r = resolve(book, home, absolute(rel, row, col))
            if isinstance(r, ReasonedError):
                f.problem = r
                return
            placed.append(r)
    if shape.own is not None:  # no reference from a literal text (INDIRECT("A1")): all placed
        f.prog, f.refs = shape.prog, tuple([p for i in shape.own if (p := placed[i]) is not None])
        same = runs is not None and key is not None and shapes.get(key) is shape and not f.array and text == f.text
        if same and (run is None or run.hits or run.missed()):  # (shapes that change: rarely made again)
            made = ColumnRun.of(text, row, col, shape)
            if made is not None and runs is not None:
                runs[(home, col)] = made
        return
    refs: list[Ref] = []
    for i in shape.order:
        got = placed[i] if isinstance(i, int) else resolve_text(book, home, i)  # INDIRECT("A1"), read as A1
        if isinstance(got, ReasonedError) or got is None:
            f.problem = got or ReasonedError("#REF!", "a reference outside the sheet")
            return
        refs.append(got)
    f.prog = shape.prog
    f.refs = tuple(refs)


class ColumnRun:
    """A formula shape met at one cell of a column, as the text it has in each row: literal pieces and the
    row numbers of its relative references between them (``=B2*$C$1`` in row 2: ``=B``, row + 0,
    ``*$C$1``). A later cell of the column whose text is that of its row has the same shape: its
    references are those of ``relative``, because its text differs only in those row numbers, each of
    as many digits (the digits ``_masked`` reads as 0: the same references are found at the same
    places) and ``tables.rewrite`` and ``dynamic.spilled`` leave it as written, as they left the first
    (what they look for, ``[``, ``!`` with ``:``, ``ANCHORARRAY``, is in the literal pieces or in neither).
    Such a cell is placed by arithmetic: no text rewritten, no pattern searched, no key made
    (200,000 ``=B2`` filled down: 0.54 s of CPU to 0.27 s)."""

    __slots__ = ("cells", "col", "hi", "hits", "lo", "misses", "pieces", "rows", "shape")

    def __init__(
        self, pieces: tuple[str, ...], rows: tuple[int, ...], lo: int, hi: int, col: int, shape: FormulaShape
    ) -> None:
        self.pieces, self.rows, self.lo, self.hi, self.col, self.shape = pieces, rows, lo, hi, col, shape
        self.hits = self.misses = 0
        # the references of a shape of cells alone, by their sheet, column and row offset (the column is the
        # run's): None where one is a range or can leave the sheet by its column
        cells: list[tuple[int, int, bool, int]] = []
        for sheet, first, second in shape.fast or ():
            ac, c, ar, r = first
            c = c if ac else c + col
            if second is not first or not 1 <= c <= MAX_COL:
                self.cells: tuple[tuple[int, int, bool, int], ...] | None = None
                return
            cells.append((sheet, c, ar, r))
        self.cells = tuple(cells)

    @classmethod
    def of(cls, text: str, row: int, col: int, shape: FormulaShape) -> ColumnRun | None:
        """The run of ``shape`` from the cell at (row, col) whose text (as written, and as prepared) is
        ``text``; None where its text has what ``tables.rewrite`` or ``dynamic.spilled`` may change."""
        if shape.fast is None or shape.own is None:  # a reference placed by its text: not by arithmetic
            return None
        if "[" in text or ("!" in text and ":" in text) or "\x00" in text or "ANCHORARRAY" in text.upper():
            return None
        pieces: list[str] = []
        rows: list[int] = []
        lo, hi, last = 1, MAX_ROW * 10, 0
        for _start, digits, end, _number, _col_fixed, row_fixed in cell_references(text):
            if row_fixed:
                continue
            pieces.append(text[last:digits])
            offset = int(text[digits:end]) - row
            rows.append(offset)
            # the rows where it has as many digits (never a sign): 0-9, 10-99...
            width = end - digits
            lo = max(lo, (10 ** (width - 1) if width > 1 else 0) - offset)
            hi = min(hi, 10**width - 1 - offset)
            last = end
        pieces.append(text[last:])
        return cls(tuple(pieces), tuple(rows), lo, hi, col, shape)

    def missed(self) -> bool:
        """Whether a run that placed no cell is made again at this miss: at every 16th."""
        self.misses += 1
        return self.misses % 16 == 0

    def placed(self, f: FormulaCell, row: int) -> bool:
        """Place ``f``, a cell of the run's column in ``row``, if its text is the run's in that row (as
        ``prepare_cell`` would place it); False where it is not (nothing done)."""
        if not self.lo <= row <= self.hi:
            return False
        pieces = self.pieces
        if len(pieces) == 2:
            text = f"{pieces[0]}{row + self.rows[0]}{pieces[1]}"
        else:
            out = [pieces[0]]
            for offset, piece in zip(self.rows, pieces[1:], strict=True):
                out += (str(row + offset), piece)
            text = "".join(out)
        if text != f.text:
            return False
        shape = self.shape
        placed: list[Ref | None] = []
        if self.cells is not None:
            for sheet, c, ar, r in self.cells:
                r = r if ar else r + row
                if not 1 <= r <= MAX_ROW:
                    return False
                placed.append((sheet, r, c, r, c))
        else:
            placed = [_place(o, row, self.col) for o in shape.fast or ()]
            if None in placed:
                return False
        f.prog, f.refs = shape.prog, tuple([p for i in shape.own or () if (p := placed[i]) is not None])
        self.hits += 1
        return True


def _new_shape(
    book: WorkbookCells,
    f: FormulaCell,
    text: str,
    key: tuple[int, str] | None,
    shapes: dict[tuple[int, str], FormulaShape | None],
) -> FormulaShape | None:
    """Prepare and parse the formula ``text`` of ``f`` (as rewritten by ``tables.rewrite``); None
    when it cannot be (``f.problem`` says why)."""
    home, row, col = f.pos

    def meaning(name: str) -> str | None:
        found = meaning_at(book.name(home, name), row, col)
        return None if found is None else rewrite(found, book, home, row, col, in_name=True)

    try:
        prepared = prepare(text, meaning, intersect=not f.array, as_typed=f.text)
    except NotComputed as exc:  # a defined name standing for a reference that is not computed
        f.problem = exc.error
        return None
    if prepared.problem is not None:
        f.problem = prepared.problem
        return None
    prog = program(prepared.text)
    order: tuple[int | str, ...] = ()
    if not isinstance(prog, ReasonedError):
        order = tuple(_reference_order(name) for name in prog.references)
    rels = tuple(relative(t, row, col) for t in prepared.refs)
    fast = [_offsets(book, home, rel) for rel in rels]
    own = tuple(i for i in order if isinstance(i, int))
    shape = FormulaShape(
        prog,
        rels,
        order,
        None if None in fast else tuple(o for o in fast if o is not None),
        own if own == order else None,
    )
    # the shortcut holds when every cell reference the pattern finds is one the engine reads
    if key is not None and key not in shapes:
        found = sum(1 for part in text.split('"')[::2] for _ in A1_REFERENCE.finditer(part))
        inside = sum(1 for t in prepared.refs for _ in A1_REFERENCE.finditer(t))
        ok = found == inside and not A1_REFERENCE.search(
            prepared.text.split('"', 1)[0] if '"' not in prepared.text else "".join(prepared.text.split('"')[::2])
        )
        shapes[key] = shape if ok else None
    return shape


def _reference_order(name: str) -> int | str:
    """Where a reference of a program comes from: the n-th reference of the prepared formula
    (``_BSREF3``), or a reference formulas read from a literal text itself (``INDIRECT("H47:I48")``)."""
    digits = name[len(PLACEHOLDER) :]
    return int(digits) if name.startswith(PLACEHOLDER) and digits.isdigit() else name
