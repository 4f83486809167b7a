"""The template's description language: the formula builder, the writer's guard against a cell
described twice, and the table ``build`` takes its drop-down lists from."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from benchsheet.analysis import choices
from benchsheet.data.table import Table
from benchsheet.templates import sheets as S
from benchsheet.templates.builder import build
from benchsheet.templates.layout import Cell, Field, Fields, Formula, Input, Lines, call, eq, if_, lit
from benchsheet.templates.worksheet import Sheet
from benchsheet.templates.writer import write_workbook


def test_formulas_get_the_parentheses_their_precedence_needs() -> None:
    a, b, c = (Cell("S", 5, col).rel for col in range(3))
    assert ((a + b) * c).render("S") == "(A5+B5)*C5"
    assert (a + b * c).render("S") == "A5+B5*C5"
    assert (a - (b - c)).render("S") == "A5-(B5-C5)"
    assert (a / b - 1).render("S") == "A5/B5-1"
    assert (lit("x ") & (a + b)).render("S") == '"x "&A5+B5'
    assert (eq(a, b) & lit("!")).render("S") == '(A5=B5)&"!"'
    assert eq(a & b, lit("")).render("S") == 'A5&B5=""'


def test_references_name_their_sheet_only_from_another_sheet() -> None:
    here = Cell("Read me", 5, 1)
    formula = if_(eq(here, lit('say "hi"')), call("LEN", here.rel), here.fixed(row=False, col=True))
    assert formula.render("Read me") == 'IF($B$5="say ""hi""",LEN(B5),$B5)'
    assert formula.render("Sizing") == "IF('Read me'!$B$5=\"say \"\"hi\"\"\",LEN('Read me'!B5),'Read me'!$B5)"


def test_a_cell_described_twice_is_refused() -> None:
    fields = Fields("S", top=5, fields=(Field("x", "X", Input(1)), Field("y", "Y", Formula(lambda f: f["x"] + 1))))
    overlapping = Sheet("S", "title", "subtitle", (("A", 10),), (fields, Lines("S", 6, ("a note over Y's label",))))
    no_choices = {name: () for _, name in S.LISTS.columns}
    with pytest.raises(ValueError, match=r"S!A6 is described twice"):
        write_workbook(io.BytesIO(), [overlapping], S.LISTS, no_choices, None, "now", {})


def test_build_takes_its_drop_down_lists_from_the_table_given(table: Table, tmp_path: Path) -> None:
    one = Table(tuple(r for r in table.rows if r.benchmark == "gpt-oss-120b"), table.sources)
    assert choices.benchmarks(one) == ["gpt-oss-120b"] != choices.benchmarks(table)
    out = tmp_path / "one.xlsx"
    build(out, table=one)
    wb = openpyxl.load_workbook(out)
    lists = wb[S.LISTS.name]
    assert [c.value for c in lists["A"][1:] if c.value] == ["gpt-oss-120b"]
    assert [c.value for c in lists["C"][1:] if c.value] == choices.families(one)
    rules = {str(dv.sqref): dv.formula1 for dv in wb[S.SIZING].data_validations.dataValidation}
    assert rules[S.WORKLOAD["benchmark"].a1] == f"{S.LISTS.name}!$A$2:$A$2"
