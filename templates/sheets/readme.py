"""The Read me sheet: what each sheet answers (its ``purpose``) and which input moves $ per million tokens most
(the sensitivity row, from the TCO sheet), how to use the workbook, where the data comes from (DATAINFO) and the
notes.
"""

from __future__ import annotations

from benchsheet.templates.layout import Expr, Field, Fields, Formula, Stamp, Text, call, lit, under
from benchsheet.templates.sheets.common import READ_ME, TEXTS, prose, sheet
from benchsheet.templates.sheets.sensitivity import TORNADO
from benchsheet.templates.sheets.sources import ANSWERING, SOURCES_SHEET
from benchsheet.templates.sheets.tco import MOST

SENSITIVITY_ROW = Field(
    "matters_most",
    "Input that matters most",
    Formula(Expr.of(MOST["most"]), "out_wrap"),
    label_style="label",
)
"""Which owning input moves owned $ per million tokens most at the current values (TCO's sensitivity block)."""


def _tornado_top() -> Expr:
    first = TORNADO.row(0)
    said = (
        first["input"].abs
        & lit(": -10% / +10% moves the owned $/M tokens by ")
        & call("TEXT", first["low"].abs, lit("+0.0%;-0.0%"))
        & lit(" / ")
        & call("TEXT", first["high"].abs, lit("+0.0%;-0.0%"))
        & lit("; every input ranked in the Sensitivity sheet's tornado")
    )
    return call("IFERROR", said, lit("no owned $/M tokens on TCO's first candidate row: see its reason on TCO"))


TORNADO_ROW = Field("tornado", "Every input's effect", Formula(_tornado_top(), "out_wrap"), label_style="label")
"""The tornado's largest effect (each input -10% and +10% alone, ranked on Sensitivity)."""

ANSWERS = Fields(
    READ_ME,
    top=5,
    title="What it answers",
    fields=(
        *(Field(s.name, s.name, Text(s.purpose, "wrap")) for s in (*ANSWERING, SOURCES_SHEET)),
        SENSITIVITY_ROW,
        TORNADO_ROW,
    ),
)
HOW_TO = Fields(
    READ_ME,
    top=under(ANSWERS),
    title="How to use it",
    fields=tuple(
        Field(label, label, Text(prose(text), "wrap"), label_style="label" if i else "in_text")  # a yellow sample
        for i, (label, text) in enumerate(TEXTS["read_me"]["how"].items())
    ),
)
_DATAINFO = (
    ("rounds", "Rounds", "out_left"),
    ("rows", "Result rows", "out_left"),
    ("origin", "Loaded from", "out_left"),
    ("imported_at", "Imported at (UTC)", "out_left"),
)
_FILES = "Each file, the copy it was read from, its SHA-256 and when: on the Sources sheet (one line a file)."
DATA = Fields(
    READ_ME,
    top=under(HOW_TO),
    title="Where the data comes from (DATAINFO)",
    fields=(
        *(Field(key, label, Formula(call("DATAINFO", lit(key)), style)) for key, label, style in _DATAINFO),
        Field("sources", "Source files", Text(_FILES, "wrap")),  # a list of them is too long for classic Excel
        Field("built", "Built", Stamp()),
    ),
)
NOTES = Fields(
    READ_ME,
    top=under(DATA),
    title="Notes",
    fields=tuple(Field(label, label, Text(prose(text), "wrap")) for label, text in TEXTS["read_me"]["notes"].items()),
)
READ_ME_SHEET = sheet(READ_ME, (("A", 24), ("B", 120)), (ANSWERS, HOW_TO, DATA, NOTES), landscape=False, one_page=False)
