"""What several sheets share: the sheet names, the texts (texts.toml) and notices, the hidden Lists
and xlwings.conf sheets, the book's properties, and the formula pieces the sheets are written in.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from benchsheet.addin.config import UDF_MODULE
from benchsheet.analysis.citations import NOT_VERIFIED, TRADEMARK
from benchsheet.templates.hidden import ListsSheet, SettingsSheet
from benchsheet.templates.layout import (
    Block,
    Cell,
    Expr,
    Field,
    Fields,
    Formula,
    Input,
    Lifted,
    Lines,
    ListRule,
    NumberRule,
    RowCells,
    Term,
    call,
    eq,
    if_,
    lit,
)
from benchsheet.templates.worksheet import Sheet

READ_ME, SIZING, QUOTES, SENSITIVITY, COMPARE, CLAIMS, SOURCES = (
    "Read me",
    "Sizing",
    "Quotes",
    "Sensitivity",
    "Compare",
    "Claims",
    "Sources",
)
TEXTS: dict[str, Any] = tomllib.loads((Path(__file__).parents[1] / "texts.toml").read_text(encoding="utf-8"))
"""The sheets' words: titles, purposes, notes and the Read me's (``benchsheet/templates/texts.toml``)."""
NOTICES = {"derived": str(TEXTS["notices"]["derived"]), "not_verified": NOT_VERIFIED, "trademark": TRADEMARK}
DERIVED_NOTE = NOTICES["derived"]
BOOK_PROPERTIES = {**TEXTS["book"], "comments": " ".join(NOTICES.values())}


def prose(text: str) -> str:
    """A text of texts.toml with the notices filled in."""
    return text.format(**NOTICES)


def sheet(name: str, widths: tuple[tuple[str, float], ...], blocks: tuple[Block, ...], **page: Any) -> Sheet:
    """A sheet with its title, subtitle and purpose from texts.toml."""
    t = TEXTS["sheets"][name]
    return Sheet(name, t["title"], t["subtitle"], widths, blocks, t.get("purpose", ""), **page)


def notes(name: str, top: int) -> Lines:
    """The sheet's notes (texts.toml) down column A from ``top``."""
    return Lines(name, top, tuple(prose(line) for line in TEXTS["sheets"][name]["notes"]))


LISTS = ListsSheet(
    "Lists",
    (
        ("Benchmarks", "benchmarks"),
        ("Scenarios", "scenarios"),
        ("Families", "families"),
        ("Availability", "availability"),
        ("Workload", "workloads"),
        ("Units", "units"),
    ),
    TEXTS["lists"]["note"],
)
XLWINGS_CONF = SettingsSheet("xlwings.conf", (("UDF Modules", UDF_MODULE),), TEXTS["xlwings_conf"]["note"])
"""What xlwings' Import Functions imports for this workbook (and for no other one: this sheet is its own)."""
FAMILY_RULE = ListRule("families", title=TEXTS["families"]["title"], message=TEXTS["families"]["message"])


# ------------------------------------------------------------ formula pieces


def if_number(x: Term, then: Term) -> Expr:
    """``then`` if ``x`` is a number, else ``x`` itself: its error or reason passes on."""
    return if_(call("ISNUMBER", x), then, x)


def unless_blank(cell: Term, then: Term) -> Expr:
    """Empty text while ``cell`` is empty (an unused slot), else ``then``."""
    return if_(eq(cell, lit("")), lit(""), then)


def unless_error(entry: Term, then: Term) -> Expr:
    """``then`` unless ``entry`` is an error (an error value, or the add-in's error text)."""
    return if_(eq(call("LEFT", entry, 1), lit("#")), entry, then)


def filters(workload: Fields) -> tuple[Cell, Cell, Cell, Cell]:
    """A workload block's benchmark, scenario, availability and max GPUs."""
    return workload["benchmark"], workload["scenario"], workload["availability"], workload["max_gpus"]


def entry_used(spec: Cell, workload: Fields) -> Expr:
    """An entry ID stays itself; a family becomes the entry behind its best per-GPU value."""
    return if_(call("ISNUMBER", call("GPUS", spec)), spec, call("BESTENTRY", spec, *filters(workload)))


def per_gpu(entry: Cell, workload: Fields) -> Expr:
    """PERGPU of ``entry`` for the workload; an error in ``entry`` passes on."""
    return unless_error(entry, call("PERGPU", entry, workload["benchmark"], workload["scenario"]))


def units(workload: Fields | RowCells) -> Expr:
    """The workload as COSTPERMTOK's and GPUSNEEDED's units read it ("stable-diffusion-xl Server"): its per-GPU
    values' unit, so a benchmark in queries or samples is sized and priced per million of them."""
    return workload["benchmark"] & lit(" ") & workload["scenario"]


def cost_per_mtok(price: Term, per_gpu: Cell, utilization: Term, workload: Fields) -> Expr:
    """COSTPERMTOK at ``price`` and ``utilization`` once ``per_gpu`` is a number (else its reason), per million
    of the workload's unit."""
    return if_number(per_gpu, call("COSTPERMTOK", price, per_gpu, utilization, units(workload)))


def unit_name(workload: Fields | RowCells) -> Expr:
    """The unit of the workload's per-GPU values as the Lists sheet has it ("Tokens/s", "Samples/s"); where the
    workload is not listed, "the benchmark's units"."""
    at = call("MATCH", units(workload), LISTS.ref("workloads"), 0)
    return call("IFERROR", call("INDEX", LISTS.ref("units"), at), lit("the benchmark's units"))


def per_million(workload: Fields | RowCells) -> Expr:
    """What a cost per million counts: "tokens", "samples", "queries"."""
    return call("LOWER", call("SUBSTITUTE", unit_name(workload), lit("/s"), lit("")))


def canonical(cell: Cell, source: str) -> Expr:
    """What ``cell`` holds in the spelling of the Lists sheet's ``source`` ("offline" -> "Offline"),
    as titles show it; the text as typed where the list does not have it."""
    listed = LISTS.ref(source)
    return call("IFERROR", call("INDEX", listed, call("MATCH", cell, listed, 0)), cell)


EMPTY_ROW_HEIGHT = 1.5
"""Points: on Sources and Fleet, a row that shows nothing (a slot no entry, or no candidate and workload, fills) is
a hairline, so the empty slots after the last take no page; a row that shows something has its own height (calc
sets it too)."""
STATUS_WIDTH = 52
"""Characters a table's status column shows: a reason's first words, where the functions put what to do
("#N/A Did you mean GB300? No family 'GB30' ..."); the rest runs on over the empty cells to its right."""


def status(filled: str, last: str) -> Callable[[RowCells], Expr]:
    """A row's status: "ok", or the error its ``last`` column carries (each column passes on the first error
    of the ones it reads), in full, where a narrow number column shows only its start; empty for an empty slot."""
    return lambda r: unless_blank(r[filled], unless_error(r[last], lit("ok")))


def rows_behind(spec: str, entry: str, workload: Fields) -> Lifted:
    """How many rows stand behind each row's per-GPU value: ROWSBEHIND of every row's ``spec`` (a family) under
    the workload's filters, one call for the column, or 1 where ``spec`` is an entry ID (its own row); in a
    hidden column the shown one reads (``rows_shown``). Empty for an empty slot, and where the entry is an
    error: the row's own cells show that reason."""

    def value(c: Mapping[str, Expr]) -> Expr:
        counted = if_(eq(c[entry], c[spec]), 1, call("ROWSBEHIND", c[spec], *filters(workload)))
        return unless_blank(c[spec], call("IFERROR", counted, lit("")))

    return Lifted(value, "out_int")


def rows_shown(spec: str, entry: str, hidden: str) -> Formula:
    """The row's count of rows behind its per-GPU value (``rows_behind``, in its ``hidden`` cell), or the entry's
    error."""
    return Formula(lambda r: unless_blank(r[spec], unless_error(r[entry], r[hidden])), "out_int")


# ------------------------------------------------------------ the input blocks several sheets repeat


def accelerator_fields(workload: Fields, default: str, label: str = "Accelerator") -> tuple[Field, Field, Field]:
    """An accelerator typed as a family or an entry ID, the entry used for it and its per-GPU value under the
    workload: the block Quotes' baseline and Sensitivity's accelerator share (keys accelerator, entry,
    per_gpu); ``label`` "Baseline accelerator" makes the others "Baseline entry used", "Baseline per-GPU ..."."""
    prefix = label.removesuffix("Accelerator").removesuffix("accelerator")

    def labelled(text: str) -> str:
        return (prefix + text)[:1].upper() + (prefix + text)[1:]

    return (
        Field("accelerator", label, Input(default), "a family (its best entry) or an entry ID", FAMILY_RULE),
        Field("entry", labelled("entry used"), Formula(lambda f: entry_used(f["accelerator"], workload))),
        Field(
            "per_gpu",
            labelled("per-GPU throughput"),
            Formula(lambda f: per_gpu(f["entry"], workload), "out_num"),
        ),
    )


def example_price(key: str, label: str, value: float) -> Field:
    """A $/GPU-hour typed by the user, with the sample's value and its notice (an example, not data)."""
    return Field(key, label, Input(value, "in_money"), "an example price, not data", NumberRule(0))
