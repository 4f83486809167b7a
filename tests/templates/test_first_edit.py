"""The workbook survives the first edit (issue 40): a built workbook edited as a new user would (openpyxl),
recomputed by ``benchsheet template calc``, its cells and its exit status checked.

Every figure and reason is the catalogue functions' own answer on the official results, never a number kept here.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.data.table import round_sort_key
from benchsheet.templates import sheets as S
from benchsheet.templates.layout import Cell, TableBlock
from benchsheet.templates.sheets import tco as T
from tests.templates.test_decision_sheets import Book, fn  # the catalogue's own answers; values by Cell


@pytest.fixture(scope="module")
def built(book: Path) -> Path:
    """The built workbook (conftest's ``book``), by the name this module's tests take it."""
    return book


@pytest.fixture
def template(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "edited.xlsx"
    shutil.copy(built, copy)
    return copy


def where(cell: Cell) -> str:
    return f"{cell.sheet}!{cell.a1}"


def edit_and_calc(path: Path, changes: dict[Cell, Any], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, Book]:
    """Type ``changes`` through openpyxl, run ``benchsheet template calc`` on the file: its exit status, its
    stderr and the values it wrote."""
    wb = openpyxl.load_workbook(path)
    for cell, value in changes.items():
        wb[cell.sheet][cell.a1] = value
    wb.save(path)
    capsys.readouterr()
    status = main(["template", "calc", str(path)])
    return status, capsys.readouterr().err, Book(path)


# ------------------------------------------------------------------ item 6: every error is counted


def test_an_owned_quote_for_a_family_sizing_does_not_price_is_an_error(
    template: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The workbook's own reason ("#N/A no owned $/GPU-hour ...") is an error calc counts, not plain text."""
    row = S.QUOTES_TABLE.row(len(S.SAMPLE_QUOTES))
    status, err, book = edit_and_calc(
        template, {row["vendor"]: "Own fleet", row["accelerator"]: "GB200", row["price"]: "owned"}, capsys
    )
    reason = book[row["price_used"]]
    assert reason.startswith("#N/A ") and "GB200" in reason
    assert status == 1
    assert reason in err and where(row["price_used"]) in err


def test_a_fresh_template_calcs_with_status_0(template: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err, _ = edit_and_calc(template, {}, capsys)
    assert status == 0, err


def test_the_owned_price_keeps_tcos_own_reason(template: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Depreciation years = 0: the owned quote says OWNEDGPUHOUR's reason, not "not a Sizing candidate"."""
    row = S.QUOTES_TABLE.row(len(S.SAMPLE_QUOTES))
    status, _, book = edit_and_calc(
        template,
        {row["vendor"]: "Own fleet", row["accelerator"]: "B300", row["price"]: "owned", S.TCO_INPUTS["years"]: 0},
        capsys,
    )
    owned = book[S.TCO_TABLE.row(1)["owned"]]
    capex = book[S.TCO_TABLE.row(1)["capex_gpu"]]
    own = fn("OWNEDGPUHOUR", capex, 0, 0.08, capex * 0.1, 1.2, 1.3, 0.1, 150, 4500)
    assert own.startswith("#") and "years" in own
    assert owned.startswith(own.split(" ", 1)[0]) and "years" in owned, owned
    assert book[row["price_used"]] == owned
    assert "Sizing's candidates" not in book[row["price_used"]]
    assert status == 1


def test_a_quote_that_is_no_number_is_not_replaced_by_sizings_price(
    template: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "3,40" (a decimal comma: no en-US number) on B300's first quote: TCO's rented B300 price says so and names
    the quote's cell; it never falls back to Sizing's $3.00."""
    quote = S.QUOTES_TABLE.row(0)
    assert S.SAMPLE_QUOTES[0][1] == "B300" and S.CANDIDATES[1][0] == "B300"
    status, err, book = edit_and_calc(template, {quote["price"]: "3,40"}, capsys)
    rented = book[S.TCO_TABLE.row(1)["rented"]]
    assert isinstance(rented, str) and rented.startswith("#VALUE!"), rented
    assert rented == book[quote["cost_per_mtok"]] and "'3,40'" in rented  # the quote's own reason
    assert status == 1 and where(S.TCO_TABLE.row(1)["rented"]) in err


def test_a_blank_target_is_named_not_zero_gpus(template: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = S.WORKLOAD["target"]
    status, err, book = edit_and_calc(template, {target: None}, capsys)
    for i in range(len(S.CANDIDATES)):
        gpus = book[S.SIZING_TABLE.row(i)["gpus"]]
        assert isinstance(gpus, str) and gpus.startswith("#VALUE!") and f"{where(target)} is empty" in gpus, gpus
        assert book[S.SIZING_TABLE.row(i)["monthly_cost"]] == gpus
    assert status == 1 and f"{where(target)} is empty" in err


# ------------------------------------------------------------------ item 3: the benchmark's unit flows


def _workload_unit(benchmark: str, scenario: str) -> str:
    """The unit of the workload's latest round's rows, from the official table."""
    rows = [r for r in store.get_table().bench_rows(benchmark, scenario) if r.division == "closed"]
    latest = max(rows, key=lambda r: round_sort_key(r.round)).round
    (unit,) = {r.units for r in rows if r.round == latest}
    return unit


@pytest.mark.parametrize(("benchmark", "scenario"), [("stable-diffusion-xl", "Server"), ("whisper", "Offline")])
def test_a_benchmark_in_queries_or_samples_is_sized_in_its_unit(
    template: Path, capsys: pytest.CaptureFixture[str], benchmark: str, scenario: str
) -> None:
    """Sizing, Quotes and Sensitivity size and price a benchmark measured in queries or samples per million of
    them (COSTPERMTOK's and GPUSNEEDED's units: the workload), and their headings say the unit."""
    unit = _workload_unit(benchmark, scenario)
    assert unit != "Tokens/s"
    items = unit.removesuffix("/s").lower()
    w = S.WORKLOAD
    status, err, book = edit_and_calc(template, {w["benchmark"]: benchmark, w["scenario"]: scenario}, capsys)
    workload = f"{benchmark} {scenario}"
    assert book[w["unit"]] == unit
    sized = 0
    for i in range(len(S.CANDIDATES)):
        row = {k: book[c] for k, c in S.SIZING_TABLE.row(i).items()}
        if not isinstance(row["per_gpu"], float | int):
            assert "units" not in str(row["per_gpu"]), row  # a family with no row says so, not "give units"
            continue
        sized += 1
        want = fn("GPUSNEEDED", book[w["target_with_headroom"]], row["per_gpu"], 0.6, row["gpus_per_node"], workload)
        assert row["gpus"] == want
        cost = fn("COSTPERMTOK", row["price"], row["per_gpu"], 0.6, workload)
        assert row["cost_per_mtok"] == pytest.approx(cost, rel=1e-12)
    assert sized >= 2
    header = S.SIZING_TABLE.header_row
    headings = [book[Cell(S.SIZING, header, j)] for j in range(len(S.SIZING_COLUMNS))]
    assert f"$ per million {items} at utilization" in headings and f"Per-GPU ({unit})" in headings
    assert not any("tokens" in str(h) for h in headings)
    quotes = {k: book[c] for k, c in S.BASELINE.cells().items()}
    if isinstance(quotes["per_gpu"], float):
        assert quotes["cost_per_mtok"] == pytest.approx(fn("COSTPERMTOK", 3.0, quotes["per_gpu"], 0.6, workload))
    lines = err.splitlines()
    for reason, cells in zip(lines[1::2], lines[2::2], strict=False):
        mine = [c for c in cells.split() if c.startswith((f"{S.SIZING}!", f"{S.QUOTES}!", f"{S.SENSITIVITY}!"))]
        assert "give units" not in reason or not mine, (reason, cells)  # TCO and Fleet: their modules' to pass
    title = book[S.SENS_GRID.title_cell]
    assert title.startswith(f"Cost per million {items} ($)"), title
    del status  # TCO and Fleet are sized elsewhere (their own sheets' modules)


# ------------------------------------------------------------------ item 4: Sources cites every entry used

ENTRY_ID = re.compile(r"^\d+\.\d+-\d{4}$")  # an MLPerf entry ID as the official results files write it


def _cited(book: Book) -> dict[str, list[str]]:
    """Sources' cited entries: entry -> the "Used on" of each row citing it."""
    ws = book.wb[S.SOURCES]
    out: dict[str, list[str]] = {}
    for i in range(S.CITED.slots):
        row = S.CITED.row(i)
        entry = ws[row["entry"].a1].value
        if entry:
            out.setdefault(entry, []).append(str(ws[row["used_on"].a1].value))
    return out


def test_sources_cites_every_entry_a_sheet_shows_with_the_sheets_using_it(built: Path) -> None:
    """Every entry ID any answering sheet shows (Fleet's and TCO's too) is cited on Sources, and its "Used on"
    names each sheet that shows it."""
    book = Book(built)
    cited = _cited(book)
    shown: dict[str, set[str]] = {}
    for sheet in S.ANSWERING:
        ws = book.wb[sheet.name]
        hidden = {n for d in ws.column_dimensions.values() if d.hidden or d.width == 0 for n in range(d.min, d.max + 1)}
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and ENTRY_ID.match(cell.value) and cell.column not in hidden:
                    shown.setdefault(cell.value, set()).add(sheet.name)
    fleet = {e for e, sheets in shown.items() if S.FLEET in sheets}
    assert len(fleet) >= 4, shown  # the six: 6.0-0048, 6.0-0024, 6.1-0014, ...
    missing = sorted(set(shown) - set(cited))
    assert not missing, missing
    for entry, sheets in shown.items():
        places = [p for used_on in cited[entry] for p in used_on.split(", ")]
        for name in sheets:
            assert any(p == name or p.startswith(f"{name} ") for p in places), (entry, name, places)


# ------------------------------------------------------------------ item 5: reasons readable where they show


def _width(ws: Any, cell: Cell) -> float:
    dim = next(d for d in ws.column_dimensions.values() if d.min <= cell.col + 1 <= d.max)
    return float(dim.width)


@pytest.mark.parametrize("typed", ["GB30", "GB3OO"])
def test_a_typo_shows_its_suggestion_in_the_rows_status(
    template: Path, capsys: pytest.CaptureFixture[str], typed: str
) -> None:
    """A misspelt family (GB30; GB3OO with the letter O) shows "did you mean GB300?" in a status column wide
    enough to read it, on Sizing and on Quotes; the other rows say ok."""
    sizing, quote = S.SIZING_TABLE.row(2), S.QUOTES_TABLE.row(3)
    assert S.CANDIDATES[2][0] == "GB300" and S.SAMPLE_QUOTES[3][1] == "GB300"
    status, err, book = edit_and_calc(template, {sizing["candidate"]: typed, quote["accelerator"]: typed}, capsys)
    assert status == 1 and typed in err
    for cell in (sizing["status"], quote["status"]):
        shown = book[cell]
        assert shown.startswith("#N/A ") and typed in shown, shown
        end = shown.index("Did you mean GB300?") + len("Did you mean GB300?")
        width = _width(openpyxl.load_workbook(template)[cell.sheet], cell)
        assert width >= end, (cell, width, shown)  # characters of the default font the column shows
    assert book[S.SIZING_TABLE.row(0)["status"]] == "ok" and book[S.QUOTES_TABLE.row(0)["status"]] == "ok"


# ------------------------------------------------------------------ item 7: rows behind each BEST


def _rows_by_hand(family: str, benchmark: str, scenario: str, availability: str, max_gpus: int) -> set[str]:
    """The official rows BEST chooses from, counted here from the table: closed division, the family, the
    workload, the availability, at most ``max_gpus`` accelerators, in the latest round that has such rows."""
    rows = [
        r
        for r in store.get_table().bench_rows(benchmark, scenario)
        if r.division == "closed"
        and r.family == family
        and r.availability.lower() == availability
        and 0 < r.gpus <= max_gpus
        and r.id_source != "local"
    ]
    latest = max(rows, key=lambda r: round_sort_key(r.round)).round
    return {r.entry for r in rows if r.round == latest}


def test_each_best_says_how_many_rows_stand_behind_it(template: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """H200's per-GPU value (and so its quote's verdict) rests on one row, 6.0-0092: Sizing and Quotes say so;
    every other candidate's count is the rows BEST chose from; an entry ID typed as a candidate rests on itself."""
    slot = S.SIZING_TABLE.row(len(S.CANDIDATES))
    capex = T.CAPEX_TABLE.row(len(S.CANDIDATES))  # a new candidate's capex, typed on TCO (it has none else)
    typed = {slot["candidate"]: "6.1-0052", slot["gpus_per_node"]: 8, capex["candidate"]: "6.1-0052"}
    status, err, book = edit_and_calc(template, {**typed, capex["capex_server"]: 480_000}, capsys)
    assert status == 0, err
    for i, (family, _) in enumerate(S.CANDIDATES):
        row = {k: book[c] for k, c in S.SIZING_TABLE.row(i).items()}
        behind = _rows_by_hand(family, "gpt-oss-120b", "Server", "available", 8)
        assert row["entry"] in behind and row["rows"] == len(behind) == fn(
            "ROWSBEHIND", family, "gpt-oss-120b", "Server", "available", 8
        ), (family, row["rows"], behind)
    h200 = {k: book[c] for k, c in S.SIZING_TABLE.row(4).items()}
    assert h200["candidate"] == "H200" and h200["entry"] == "6.0-0092" and h200["rows"] == 1
    assert book[slot["rows"]] == 1  # an entry ID
    quote = S.QUOTES_TABLE.row(4)
    assert S.SAMPLE_QUOTES[4][1] == "H200" and book[quote["rows"]] == 1
    assert book[S.BASELINE["rows"]] == len(_rows_by_hand("B200", "gpt-oss-120b", "Server", "available", 8))


# ------------------------------------------------------------------ item 8: printing and scrolling


def test_every_sheet_freezes_its_headers_and_long_ones_print_their_column_headers(built: Path) -> None:
    """Every answering sheet freezes column A and its title rows (or down to a table's header near the top); a
    sheet printed over several pages repeats the header row of the table a page break cuts on every page
    (Excel's print titles, the _xlnm.Print_Titles defined name, which openpyxl reads as print_title_rows)."""
    wb = openpyxl.load_workbook(built)
    for sheet in S.ANSWERING:
        ws = wb[sheet.name]
        assert ws.freeze_panes is not None and ws.freeze_panes[0] == "B", (sheet.name, ws.freeze_panes)
        frozen = int(ws.freeze_panes[1:]) - 1
        assert 2 <= frozen <= 20, (sheet.name, frozen)
    # Sources' citations run onto further pages: its header repeats there; FLEET's rows start a page of their own
    # (its empty slots hairlines: test_printing), and on TCO and Claims no page break cuts a table with the sample
    assert wb[S.SOURCES].print_title_rows == f"${S.CITED.header_row}:${S.CITED.header_row}"
    assert [b.id + 1 for b in wb[S.FLEET].row_breaks.brk] == [S.FLEET_TABLE.header_row - 3]  # "FLEET answers"
    for sheet in S.ANSWERING:
        rows = wb[sheet.name].print_title_rows
        heads = {f"${b.header_row}:${b.header_row}" for b in sheet.blocks if isinstance(b, TableBlock)}
        assert rows is None or rows in heads, (sheet.name, rows)
    assert wb[S.SIZING].freeze_panes == f"B{S.SIZING_TABLE.header_row + 1}"


def test_a_tornado_ranks_every_inputs_effect_with_a_chart(built: Path) -> None:
    """Each owning input -10% and +10% alone (OWNEDGPUHOUR's own answers on TCO's first candidate), and the two
    that divide $/M tokens (utilization, per-GPU throughput), ranked by swing on Sensitivity, with a bar chart."""
    from benchsheet.templates.sheets.sensitivity import TORNADO, TORNADO_INPUTS

    book = Book(built)
    first = S.TCO_TABLE.row(0)
    i = {f.key: book[S.TCO_INPUTS[f.key]] for f in S.TCO_INPUTS.fields}
    base = dict(capex=book[first["capex_gpu"]], kw=book[first["kw"]], **{k: i[k] for k in i if k not in ("api", "kw")})
    owned = book[first["owned"]]

    def moved(key: str, factor: float) -> float:
        a = {k: v * factor if k == key else v for k, v in base.items()}
        args = (a["capex"], a["years"], a["rate"], a["capex"] * a["residual"], a["kw"], a["pue"], a["kwh"], a["colo"])
        more = (a[k] for k in ("software", "support", "network", "tax", "staff", "availability"))
        return float(fn("OWNEDGPUHOUR", *args, *more)) / float(owned) - 1

    # unmoved, the inputs give TCO's owned price: every cost line counted (the tornado left out support,
    # network, tax, staff and availability, so that every input moved it down by some 21%, both ways)
    assert moved("capex", 1.0) == pytest.approx(0, abs=1e-12)

    labels = dict(TORNADO_INPUTS)
    want = {labels[k]: (moved(k, 0.9), moved(k, 1.1)) for k in base if k in labels}
    for key in ("utilization", "per_gpu"):
        want[labels[key]] = (1 / 0.9 - 1, 1 / 1.1 - 1)
    got = [tuple(book[c] for c in TORNADO.row(k).values()) for k in range(TORNADO.slots)]
    flat = {(name, side): v for name, low, high in got for side, v in (("low", low), ("high", high))}
    expected = {(n, side): v for n, (low, high) in want.items() for side, v in (("low", low), ("high", high))}
    assert flat == pytest.approx(expected, rel=1e-9)
    assert all(low * high < 0 for _, low, high in got)  # -10% and +10% move it opposite ways
    swings = [abs(high - low) for _, low, high in got]
    assert swings == sorted(swings, reverse=True) and len(got) == len(want) >= 11
    assert book[S.ANSWERS["tornado"]].startswith(f"{got[0][0]}: -10% / +10% moves")
    with zipfile.ZipFile(built) as zf:
        charts = [zf.read(n).decode() for n in zf.namelist() if n.startswith("xl/charts/chart")]
    tornado = [c for c in charts if f"$A${TORNADO.first}:$A${TORNADO.end}" in c]
    assert len(tornado) == 1 and '<c:barDir val="bar"/>' in tornado[0] and tornado[0].count("<c:ser>") == 2
