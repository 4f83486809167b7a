"""The workbook shows the rounds each paired number divides (issue 29) and prints pages a person can
read (issue 32): headroom beside the counts it changes, Claims at the other sheets' scale, headers as
tall as their text, a price cell's text named (real data, real file)."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from benchsheet.catalogue.calls import call
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.data import store
from benchsheet.templates import sheets as S
from benchsheet.templates.layout import TableBlock
from excelcalc.workbook.calc import calc
from tests.templates.test_builder import clean, counted


def fn(name: str, *args: Any) -> Any:
    return call(BY_NAME[name], store.get_table(), list(args), on_error=lambda e: e.text)


def shown(path: Path, sheet: str) -> Any:
    return openpyxl.load_workbook(path, data_only=True)[sheet]


def test_quotes_show_the_rounds_each_break_even_pairs(book: Path) -> None:
    """Each quote's break-even ratio and ceiling say the rounds they divide, as PAIRED names them;
    the sample's H200 quote divides v6.0 by v6.1, the B300 ones one round."""
    q = shown(book, S.QUOTES)
    w = {k: q[c.a1].value for k, c in S.QUOTES_WORKLOAD.cells().items()}
    base = q[S.BASELINE["accelerator"].a1].value
    seen = {}
    for i, (_, accelerator, _, _) in enumerate(S.SAMPLE_QUOTES):
        row = S.QUOTES_TABLE.row(i)
        paired = fn("PAIRED", base, accelerator, w["benchmark"], w["scenario"], w["availability"], w["max_gpus"])
        assert q[row["rounds"].a1].value == paired.split(": candidate")[0]
        assert f"candidate {q[row['entry'].a1].value} " in paired  # the entry shown is the one divided
        seen[accelerator] = q[row["rounds"].a1].value
    assert seen["B300"] == "same round (v6.1)" and seen["H200"] == "across rounds: v6.0 over v6.1"
    assert q[S.QUOTES_TABLE.row(len(S.SAMPLE_QUOTES))["rounds"].a1].value is None  # an empty slot stays empty


def test_compare_shows_the_round_of_each_best(book: Path) -> None:
    c = shown(book, S.COMPARE)
    rounds = {}
    for i in range(S.COMPARE_TABLE.slots):
        row = S.COMPARE_TABLE.row(i)
        if c[row["family"].a1].value:
            assert c[row["round"].a1].value == f"v{fn('ENTRY', c[row['entry'].a1].value, 'round')}"
            rounds[c[row["family"].a1].value] = c[row["round"].a1].value
    assert rounds["H200"] == "v6.0" and rounds["B300"] == "v6.1"


def test_claims_show_where_the_gains_lie_and_the_outlier_flag(book: Path) -> None:
    ws = shown(book, S.CLAIMS)
    a = {k: ws[c.a1].value for k, c in S.RANGE_ANSWER.cells().items()}
    assert a["observed_verdict"] == "the data show a wider range: -11% to +149%"
    assert a["observed_range"].startswith("81 pairs from -11.3% to +148.7%; quartiles")
    assert (a["below_pairs"], a["inside_pairs"], a["above_pairs"]) == (
        "57 like-for-like pairs below 8%",
        "14 like-for-like pairs from 8% to 36%",
        "10 like-for-like pairs above 36%",
    )
    assert a["below_strengths"] == "26 same platform, 9 same system, 22 weak match only"
    assert str(a["low_verdict"]).startswith("holds")
    header = {ws.cell(S.GAINS_TABLE.header_row, j + 1).value for j in range(len(S.GAINS_TABLE.columns))}
    assert "Flag (an outlier is left out of GAINRANGE)" in header
    assert ws[S.CLAIMED_AT["rounds"].a1].value == "same round (v6.1)"  # 6.1-0106 over 6.1-0074


def test_sizing_shows_the_headroom_beside_every_count_it_changes(book: Path) -> None:
    s = shown(book, S.SIZING)
    assert s[S.WORKLOAD["headroom"].a1].value == 0.2
    for i in range(S.SIZING_TABLE.slots):
        row = S.SIZING_TABLE.row(i)
        gpus = s[row["gpus"].a1].value
        assert s[row["headroom"].a1].value == ("incl. 20% headroom" if isinstance(gpus, int | float) else None)


def test_claims_print_at_the_scale_of_the_other_sheets(book: Path) -> None:
    """One page wide and as many long as it takes, landscape like Sizing: at a fixed scale, since its chart starts
    a page (a manual break, which "fit to pages" would override in Excel: test_printing)."""
    with zipfile.ZipFile(book) as zf:
        names = re.findall(r'<sheet name="([^"]+)"', zf.read("xl/workbook.xml").decode())
        xml = zf.read(f"xl/worksheets/sheet{names.index(S.CLAIMS) + 1}.xml").decode()
    setup = re.search(r"<pageSetup[^>]*>", xml)
    assert setup is not None and 'orientation="landscape"' in setup.group(0)
    assert re.search(r'\bscale="\d+"', setup.group(0)) and "fitToHeight" not in setup.group(0)


def test_sensitivity_prints_portrait(book: Path) -> None:
    """Its grid and two charts stand one above the other: on a landscape page they printed at half the other
    sheets' scale (issue 40, rendered page 4)."""
    assert openpyxl.load_workbook(book)[S.SENSITIVITY].page_setup.orientation == "portrait"


def test_claims_gains_chart_starts_a_printed_page(book: Path) -> None:
    """The software-gains chart printed split over two pages (issue 40): a row break before its anchor row
    starts a page with it (the rendered pages: test_builder's test_every_bar_chart_prints_whole_on_one_page)."""
    ws = openpyxl.load_workbook(book)[S.CLAIMS]
    assert [b.id for b in ws.row_breaks.brk] == [S.GAINS_CHART.top - 2]  # the blank row above it starts the page


@pytest.mark.parametrize(("table", "lines"), [(S.SIZING_TABLE, 3), (S.QUOTES_TABLE, 3)], ids=["Sizing", "Quotes"])
def test_header_rows_are_as_tall_as_their_text(book: Path, table: TableBlock, lines: int) -> None:
    """The longest header wraps to ``lines`` lines as LibreOffice renders it (Arial 10 bold; its
    metrics are Liberation Sans'): the row is that tall and no taller (a line is 13.5 points, and the cell's
    padding: at 40 points LibreOffice cut the third line of Quotes' headers, issue 40)."""
    ws = openpyxl.load_workbook(book)[table.sheet]
    assert (lines - 1) * 13.5 < ws.row_dimensions[table.header_row].height <= lines * 13.5 + 4


def test_compare_table_title_is_not_directly_under_the_filters() -> None:
    assert S.COMPARE_TABLE.header_row - 1 == S.COMPARE_FILTERS.end + 2  # a blank row, then the title


def test_read_me_says_libreoffice_shows_name_until_calc(book: Path) -> None:
    ws = shown(book, S.READ_ME)
    text = " ".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)
    assert "#NAME?" in text and "LibreOffice" in text and "benchsheet template calc" in text


def test_text_typed_in_a_price_cell_is_named(book: Path, tmp_path: Path) -> None:
    """As a blank price is (Quotes!C22 is empty), text typed in one names its cell (Quotes!C21)."""
    edited = tmp_path / "edited.xlsx"
    shutil.copy(book, edited)
    row = S.QUOTES_TABLE.row(1)
    wb = openpyxl.load_workbook(edited)
    wb[S.QUOTES][row["price"].a1] = "lots"
    wb.save(edited)
    report = calc(edited, edited)
    said = f"#VALUE! price_per_gpu_hour must be a number, not 'lots': {S.QUOTES}!{row['price'].a1} holds it"
    q = shown(edited, S.QUOTES)
    assert q[row["cost_per_mtok"].a1].value == said
    assert q[row["verdict"].a1].value == said
    assert {e.text for e in counted(report)} == {said}


PAIR_LISTS = ("below_farthest", "above_farthest", "low_pairs", "high_pairs")
"""Claims' lists of pairs: long texts, merged across the block (B:H) and wrapped there."""


def test_claims_pair_lists_wrap_inside_the_block(book: Path, tmp_path: Path) -> None:
    """The farthest and nearest pairs print inside the page: each merged over B:H (the width of the GAINS
    table under them) and wrapped, its row as tall as the text needs at that width, when built and after
    ``template calc`` recomputes it (which refits a changed wrapped text across the merged width)."""
    ws = openpyxl.load_workbook(book)[S.CLAIMS]
    merged = {str(r) for r in ws.merged_cells.ranges}
    for key in PAIR_LISTS:
        cell = S.RANGE_ANSWER[key]
        assert f"B{cell.row}:H{cell.row}" in merged, key
        assert ws[cell.a1].alignment.wrap_text, key
    below = S.RANGE_ANSWER["below_farthest"]
    assert len(shown(book, S.CLAIMS)[below.a1].value) > 140  # wider than B:H: two lines
    assert 2 * 12 < ws.row_dimensions[below.row].height <= 3 * 13.5
    recomputed = tmp_path / "recomputed.xlsx"
    openpyxl.load_workbook(book).save(recomputed)  # formulas kept, cached values dropped: calc fills and refits
    assert clean(calc(recomputed, recomputed, force=True))
    again = openpyxl.load_workbook(recomputed)[S.CLAIMS]
    for key in PAIR_LISTS:
        row = S.RANGE_ANSWER[key].row
        assert (again.row_dimensions[row].height or 0) <= 3 * 13.5, (key, again.row_dimensions[row].height)
    assert again.row_dimensions[below.row].height == pytest.approx(ws.row_dimensions[below.row].height, abs=0.75)
