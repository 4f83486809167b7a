"""The buyer's decision in the template (issue 33): the TCO sheet (owning against renting), the Fleet sheet (a
mix of workloads and a power cap), Quotes taking an owned price, and the Read me's sensitivity row.

Each figure is checked against the catalogue functions' own answers on the real data, and the owned cost once
more against the published method computed here by hand (NVIDIA's: yearly cost = capex / years + software +
hosting; with a cost of capital, the capital recovery factor r(1+r)^n/((1+r)^n-1)).
"""

from __future__ import annotations

import re
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils.cell import absolute_coordinate, get_column_letter, range_to_tuple

from benchsheet.analysis.fleet import FLEET_HEADER
from benchsheet.catalogue.calls import call
from benchsheet.catalogue.engine import calc
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.data import store
from benchsheet.templates import sheets as S
from benchsheet.templates.layout import CHART_GAPS, Cell
from benchsheet.templates.report import not_gaps
from benchsheet.templates.sheets import tco as T
from benchsheet.templates.sheets.common import STATUS_WIDTH
from benchsheet.templates.worksheet import columns_of
from benchsheet.templates.writer import FONT_SIZE
from excelcalc.workbook.calc import CellError
from excelcalc.workbook.rows import ONE_LINE, text_height


def fn(name: str, *args: Any) -> Any:
    """A catalogue function's own answer (error text on failure, as the add-in shows it)."""
    return call(BY_NAME[name], store.get_table(), list(args), on_error=lambda e: e.text)


@pytest.fixture(scope="module")
def built(book: Path) -> Path:
    """The built workbook (conftest's ``book``), by the name this module's tests take it."""
    return book


@pytest.fixture
def template(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "edited.xlsx"
    shutil.copy(built, copy)
    return copy


class Book:
    """A built workbook's computed values, read through the sheet descriptions' cells."""

    def __init__(self, path: Path) -> None:
        self.wb = openpyxl.load_workbook(path, data_only=True)

    def __getitem__(self, cell: Cell) -> Any:
        return self.wb[cell.sheet][cell.a1].value


def fleet_cell(k: int, j: int) -> Cell:
    """Column ``j`` of FLEET's ``k``-th row after its header, on the Fleet sheet."""
    return S.FLEET_TABLE.row(k)[f"c{j}"]


def fleet_note(k: int) -> Cell:
    """The status of FLEET's ``k``-th row: "ok", or FLEET's note on it ("none: <reason>", "incomplete: ...")."""
    return S.FLEET_TABLE.row(k)["status"]


def edit(path: Path, changes: dict[Cell, Any]) -> None:
    wb = openpyxl.load_workbook(path)
    for cell, value in changes.items():
        wb[cell.sheet][cell.a1] = value
    wb.save(path)
    calc(path, path)


def crf(rate: float, years: float) -> float:
    """The capital recovery factor, as finance textbooks state it; 1/n without a cost of capital."""
    return 1 / years if rate == 0 else rate * (1 + rate) ** years / ((1 + rate) ** years - 1)


def owned_by_hand(capex: float, years: float, rate: float, residual: float, kw: float, **k: float) -> float:
    """$ per available GPU-hour of owning: the yearly capital charge of capex with its network/storage and
    tax/installation shares, net of the residual value (recovered at the end: its present value's annuity,
    residual x (CRF - r)), colocation per kW of IT power, software, support (a share of capex a year), staff,
    and electricity at the facility's PUE every hour; over the hours the GPU is available."""
    f = crf(rate, years)
    upfront = capex * (1 + k.get("network", 0) + k.get("tax", 0))
    yearly = upfront * f - residual * (f - rate) + k["colo"] * kw * 12 + k["software"]
    yearly += k.get("support", 0) * capex + k.get("staff", 0) + kw * k["pue"] * k["kwh"] * 8760
    return yearly / (8760 * k.get("availability", 1))


MORE = ("support", "network", "tax", "staff", "availability")


def test_every_owning_input_is_a_labelled_input_with_its_source(built: Path) -> None:
    wb = openpyxl.load_workbook(built)
    ws = wb[S.TCO]
    header = [ws.cell(S.INPUT_HEADER.row, 1 + j).value for j in range(3)]
    assert header == ["Owning input", "Value", "Source / assumption"]
    for field in S.TCO_INPUTS.fields:
        value = ws[S.TCO_INPUTS[field.key].a1]
        assert value.data_type == "n" and not value.protection.locked, field.key  # a number to type over
        assert field.note.startswith("assumption: "), field.key  # never presented as data
    capex = T.CAPEX_TABLE.row(0)["capex_server"]  # typed per candidate (keyed by its name, not Sizing's row)
    assert ws[capex.a1].data_type == "n" and not ws[capex.a1].protection.locked
    assert "example" in str(ws.cell(T.CAPEX_TABLE.header_row, capex.col + 1).value)


def test_owned_against_rented_per_candidate(built: Path) -> None:
    book = Book(built)
    i = {f.key: book[S.TCO_INPUTS[f.key]] for f in S.TCO_INPUTS.fields}
    sl = {f.key: book[T.SERVICE[f.key]] for f in T.SERVICE.fields}
    util = book[S.WORKLOAD["utilization"]]
    bench, scen = book[S.WORKLOAD["benchmark"]], book[S.WORKLOAD["scenario"]]
    seen = []
    for slot in range(S.SIZING_TABLE.slots):
        row = {k: book[c] for k, c in S.TCO_TABLE.row(slot).items()}
        sizing = {k: book[c] for k, c in S.SIZING_TABLE.row(slot).items()}
        if not sizing["candidate"]:
            assert row["candidate"] in ("", None) and row["owned"] in ("", None)
            continue
        seen.append(row["candidate"])
        assert row["candidate"] == sizing["candidate"]
        assert row["gpus_server"] == sizing["gpus_per_node"]
        capex = row["capex_server"] / row["gpus_server"]
        assert row["capex_gpu"] == pytest.approx(capex)
        # no gpt-oss-120b Server row of the candidates has measured power: the row's own kW input, said so
        assert fn("KWPERGPU", sizing["entry"], bench, scen).startswith("#N/A")
        assert row["kw"] == row["kw_own"] and row["kw_source"].startswith(f"your input for {row['candidate']}")
        args = (capex, i["years"], i["rate"], capex * i["residual"], row["kw"], i["pue"], i["kwh"], i["colo"])
        more = [i[k] for k in MORE]
        assert row["owned"] == pytest.approx(fn("OWNEDGPUHOUR", *args, i["software"], *more), rel=1e-12)
        lines = {k: i[k] for k in (*MORE, "pue", "kwh", "colo", "software")}
        assert row["owned"] == pytest.approx(owned_by_hand(*args[:5], **lines), rel=1e-12)
        # the rate at the service level the API sells: SLOBEST's row, its scenario beside it
        rate = fn("SLOBEST", row["candidate"], bench, sl["ttft"], sl["tpot"], "available", 8)
        if not isinstance(rate, float):
            assert row["per_gpu"] == row["scenario"] == T.NO_RATE == row["owned_sl"] == row["api_owned"]
            continue
        assert row["per_gpu"] == rate
        assert row["scenario"] == fn("SLOBESTSCENARIO", row["candidate"], bench, sl["ttft"], sl["tpot"], "available", 8)
        assert row["owned_sl"] == pytest.approx(row["owned"] * 1e6 / (rate * 3600 * util), rel=1e-12)
        assert row["rented_sl"] == pytest.approx(row["rented"] * 1e6 / (rate * 3600 * util), rel=1e-12)
        # one rental model (reserved: every hour paid): the break-even rental is the owned price itself
        assert row["breakeven"] == pytest.approx(row["owned"], rel=1e-12)
        api = sl["api"] + sl["in_tokens"] / sl["out_tokens"] * sl["api_in"]  # cached share 0
        assert row["api_owned"] == pytest.approx(row["owned"] * 1e6 / (rate * 3600) / api, rel=1e-12)
        assert row["api_rented"] == pytest.approx(row["rented"] * 1e6 / (rate * 3600) / api, rel=1e-12)
    assert seen == ["B200", "B300", "GB300", "MI355X", "H200"]
    # rented prices from Quotes: the baseline's for B200, a family's first quote with a price, as typed there
    rented = {book[S.TCO_TABLE.row(k)["candidate"]]: book[S.TCO_TABLE.row(k)["rented"]] for k in range(5)}
    assert rented["B200"] == book[S.BASELINE["price"]]
    quotes = [(book[S.QUOTES_TABLE.row(k)["accelerator"]], book[S.QUOTES_TABLE.row(k)["price"]]) for k in range(9)]
    assert rented["B300"] == next(p for a, p in quotes if a == "B300") == 3.60
    assert rented["H200"] == next(p for a, p in quotes if a == "H200")
    assert book[S.TCO_TABLE.row(1)["rented_source"]] == "Quotes: Example vendor A"


def test_the_chart_table_is_cost_per_mtok_at_each_utilization(built: Path) -> None:
    book = Book(built)
    for k in range(S.TCO_CURVES.slots):
        row = S.TCO_CURVES.row(k)
        candidate = S.TCO_TABLE.row(k // 2)
        if not book[candidate["candidate"]]:
            assert book[row["series"]] in ("", None)
            continue
        price = book[candidate["rented" if k % 2 else "owned"]]
        per_gpu = book[candidate["per_gpu"]]
        name = f"{book[candidate['candidate']]} {'rented' if k % 2 else 'owned'}"
        assert book[row["series"]] == (name if isinstance(per_gpu, float) else f"{name}: {T.NO_RATE}")
        if per_gpu == T.NO_RATE:
            assert all(book[row[f"u{j}"]] == T.NO_RATE for j in range(len(S.UTILIZATIONS)))
            continue
        for j, u in enumerate(S.UTILIZATIONS):
            got = book[row[f"u{j}"]]
            assert got == pytest.approx(fn("COSTPERMTOK", price, per_gpu, u), rel=1e-12)


def chart_series(path: Path) -> list[tuple[str, list[Any]]]:
    """Every series of every chart in the file: its values' range and the values its cells hold (as cached)."""
    wb = openpyxl.load_workbook(path, data_only=True)
    out = []
    with zipfile.ZipFile(path) as zf:
        charts = [zf.read(n).decode() for n in zf.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n)]
    for xml in charts:
        for ref in re.findall(r"<c:val><c:numRef><c:f>([^<]+)</c:f>", xml):
            sheet, (c1, r1, c2, r2) = range_to_tuple(ref.replace("&apos;", "'"))
            cells = wb[sheet].iter_rows(min_row=r1, max_row=r2, min_col=c1, max_col=c2, values_only=True)
            out.append((ref, [v for row in cells for v in row]))
    return out


def test_a_chart_plots_numbers_or_gaps_never_text(built: Path) -> None:
    """A line through a text is drawn at 0 by Excel (and LibreOffice): TCO's utilization chart drew a candidate
    with no row at the service level ("none") as a flat line at $0.00 (issue 40). A point with no value is #N/A,
    which a chart leaves out (Microsoft: "Display empty cells, null (#N/A) values, and hidden worksheet data in a
    chart"), in cells the workbook names ChartGaps, so that calc does not count them as errors."""
    series = chart_series(built)
    assert len(series) > 20
    for ref, values in series:
        bad = [
            v
            for v in values
            if not (v is None or v == "#N/A" or (isinstance(v, int | float) and not isinstance(v, bool)))
        ]
        assert not bad, (ref, bad)
    gaps = [ref for ref, values in series if values and all(v == "#N/A" for v in values)]
    assert gaps, "the default build has candidates with no rate at the service level (GB300, H200)"


def test_only_a_charts_gaps_are_not_counted_as_errors(built: Path) -> None:
    """calc's exit status counts every error a cell shows, except the #N/A of the cells named ChartGaps."""
    gaps = T.CURVES_CHART.gaps
    assert gaps is not None
    inside, outside = f"{T.TCO}!{gaps.first.a1}", f"{T.TCO}!{replace(gaps.last, col=gaps.last.col + 1).a1}"
    errors = [CellError(inside, "#N/A"), CellError(inside, "#VALUE! no number"), CellError(outside, "#N/A")]
    assert not_gaps(errors, built) == tuple(errors[1:])
    named = openpyxl.load_workbook(built).defined_names[CHART_GAPS]
    assert list(named.destinations) == [(T.TCO, absolute_coordinate(gaps.a1()))]


def test_which_input_moves_owned_cost_most(built: Path) -> None:
    book = Book(built)
    i = {f.key: book[S.TCO_INPUTS[f.key]] for f in S.TCO_INPUTS.fields}
    first = S.TCO_TABLE.row(0)
    capex, kw = book[first["capex_gpu"]], book[first["kw"]]
    base = dict(capex=capex, years=i["years"], rate=i["rate"], residual=i["residual"], kw=kw)
    costs = {k: i[k] for k in ("pue", "kwh", "colo", "software", *MORE)}

    def owned(**up: float) -> float:
        b, c = (
            {**base, **{k: v for k, v in up.items() if k in base}},
            {**costs, **{k: v for k, v in up.items() if k in costs}},
        )
        return owned_by_hand(b["capex"], b["years"], b["rate"], b["capex"] * b["residual"], b["kw"], **c)

    now = owned()
    moved = [key for key, _ in S.MOVED if key != "utilization"]
    assert "availability" not in moved  # +10% of 98% is no share of hours: it stays as typed
    want = {key: owned(**{key: {**base, **costs}[key] * 1.1}) / now - 1 for key in moved}
    want["utilization"] = 1 / 1.1 - 1
    got = {key: book[S.MOVES.row(k)["change"]] for k, (key, _) in enumerate(S.MOVED)}
    assert got == pytest.approx(want, rel=1e-9)
    most = max(want, key=lambda key: abs(want[key]))
    label = dict(S.MOVED)[most]
    said = book[S.MOST["most"]]
    assert said.startswith(f"{label}: +10% moves B200's owned $/M tokens by "), said
    assert book[S.ANSWERS["matters_most"]] == said  # the Read me's sensitivity row
    names = [f.key for f in S.ANSWERS.fields]
    assert names[: len(S.SHEETS) - 1] == [s.name for s in S.SHEETS[1:]]  # every sheet, in order, then the row
    assert {"TCO", "Fleet", "Sensitivity"} <= set(names)


def test_a_measured_row_gives_its_power_and_says_so(template: Path) -> None:
    slot = S.SIZING_TABLE.row(5)
    edit(
        template,
        {
            S.WORKLOAD["benchmark"]: "llama2-70b-99",
            S.WORKLOAD["scenario"]: "Offline",
            slot["candidate"]: "5.1-0061",
            S.TCO_TABLE.row(5)["capex_server"]: 200_000,
        },
    )
    book = Book(template)
    row = {k: book[c] for k, c in S.TCO_TABLE.row(5).items()}
    measured = fn("KWPERGPU", "5.1-0061", "llama2-70b-99", "Offline")
    assert isinstance(measured, float) and row["kw"] == pytest.approx(measured, rel=1e-12)
    assert row["kw_source"] == "measured: 5.1-0061 system power / GPUs (KWPERGPU)"
    more = [book[S.TCO_INPUTS[k]] for k in MORE]
    owned = fn("OWNEDGPUHOUR", row["capex_gpu"], 4, 0.08, row["capex_gpu"] * 0.1, measured, 1.3, 0.1, 150, 4500, *more)
    assert row["owned"] == pytest.approx(owned, rel=1e-12)
    # FLEET takes the entry ID as a candidate of its own rows (issue 40, item 2): the Fleet mix's workloads
    # are not ones 5.1-0061 ran, and its rows say so instead of vanishing
    fleet = [book[fleet_cell(k, 0)] for k in range(S.FLEET_TABLE.slots)]
    assert "5.1-0061" in fleet and "B200" in fleet
    own = next(k for k in range(S.FLEET_TABLE.slots) if book[fleet_cell(k, 0)] == "5.1-0061")
    assert book[fleet_note(own)].startswith("none: 5.1-0061 has no gpt-oss-120b Server result")


def test_a_quote_may_take_the_owned_price(template: Path, built: Path) -> None:
    before = Book(built)
    slot = len(S.SAMPLE_QUOTES)  # the first empty quote row
    owned_row = S.QUOTES_TABLE.row(slot)
    edit(template, {owned_row["vendor"]: "Own fleet", owned_row["accelerator"]: "B300", owned_row["price"]: "owned"})
    book = Book(template)
    b300 = book[S.TCO_TABLE.row(1)["owned"]]
    util = book[S.WORKLOAD["utilization"]]
    assert book[owned_row["price_used"]] == pytest.approx(b300, rel=1e-12)
    assert book[owned_row["cost_per_mtok"]] == pytest.approx(
        fn("COSTPERMTOK", b300, book[owned_row["per_gpu"]], util), rel=1e-12
    )
    assert book[owned_row["ratio"]] == pytest.approx(b300 / book[S.BASELINE["price"]], rel=1e-12)
    assert book[owned_row["breakeven"]] == book[S.QUOTES_TABLE.row(0)["breakeven"]]  # B300 against B200 as quoted
    for k in range(slot):  # the quoted rows keep their values and use their own price
        row = S.QUOTES_TABLE.row(k)
        assert book[row["price_used"]] == book[row["price"]]
        assert [book[c] for c in row.values() if c != row["price_used"]] == [
            before[c] for c in row.values() if c != row["price_used"]
        ]
    # the quote's owned price comes from TCO, not from the quote: TCO's rented B300 price stays vendor A's
    assert book[S.TCO_TABLE.row(1)["rented"]] == 3.60
    edit(template, {owned_row["accelerator"]: "GB200"})
    book = Book(template)
    reason = book[owned_row["price_used"]]
    assert reason == "#N/A no owned $/GPU-hour for GB200: owning is priced for Sizing's candidates", reason
    assert book[owned_row["cost_per_mtok"]] == reason and book[owned_row["verdict"]] == reason


def test_the_fleet_table_is_fleets_answer(built: Path) -> None:
    book = Book(built)
    mix = [{k: book[c] for k, c in S.MIX.row(k).items()} for k in range(S.MIX.slots)]
    fams = [[book[S.FLEET_CANDIDATES.row(k)["candidate"]] or ""] for k in range(S.FLEET_CANDIDATES.slots)]
    prices = [[book[S.FLEET_CANDIDATES.row(k)["price"]] or ""] for k in range(S.FLEET_CANDIDATES.slots)]
    nodes = [[book[S.FLEET_CANDIDATES.row(k)["gpus_node"]] or ""] for k in range(S.FLEET_CANDIDATES.slots)]
    w = {k: book[c] for k, c in S.FLEET_WORKLOAD.cells().items()}
    col = [[m[key] if m[key] is not None else "" for m in mix] for key in ("benchmark", "scenario", "share")]
    lat = [[m[key] if m[key] is not None else "" for m in mix] for key in ("ttft", "tpot")]
    want = fn(
        "FLEET",
        [[v] for v in col[0]],
        [[v] for v in col[1]],
        book[S.MIX_INPUTS["total"]],
        fams,
        prices,
        w["utilization"],
        nodes,
        w["hours"],
        w["availability"],
        w["max_gpus"],
        None,
        None,
        [[v] for v in col[2]],
        [[v] for v in lat[0]],
        [[v] for v in lat[1]],
        book[S.WORKLOAD["headroom"]],
        book[S.MIX_INPUTS["pool"]] == "yes",
    )
    assert isinstance(want, list), want
    width, entry = len(FLEET_HEADER), FLEET_HEADER.index("entry")
    got = [[book[fleet_cell(k, j)] for j in range(width)] for k in range(S.FLEET_TABLE.slots)]
    got = [[v if v is not None else "" for v in row] for row in got]  # empty text, as the array formula caches it
    notes = [book[fleet_note(k)] or "" for k in range(S.FLEET_TABLE.slots)]
    # the entry column shows entry IDs; FLEET's note on a row (a total's, a "none:" row's) is its status
    for row, note in zip(got, notes, strict=False):
        row[entry] = row[entry] or (note if note != "ok" else "")
    assert got == want[1:] + [[""] * width] * (S.FLEET_TABLE.slots - len(want) + 1)
    assert all(note for row, note in zip(got, notes, strict=True) if row[0])
    assert book[S.FLEET_REASON["reason"]] == "the table below"
    # llama2-70b-99.9 at p99 TTFT 1,000 ms and TPOT 100 ms: only Interactive's bounds are that strict
    slo = next(row for row in want[1:] if row[0] == "B200" and row[1] == "llama2-70b-99.9")
    assert slo[2] == "Interactive" == fn("SLOBESTSCENARIO", "B200", "llama2-70b-99.9", 1000, 100)
    total = next(row for row in want[1:] if row[0] == "B200" and row[1] == "total")
    assert total[3] == book[S.MIX_INPUTS["total"]]


def test_the_power_cap_per_candidate(built: Path) -> None:
    book = Book(built)
    mw, pue = book[S.POWER_INPUTS["mw"]], book[S.POWER_INPUTS["pue"]]
    assert pue == book[S.TCO_INPUTS["pue"]]
    for k in range(5):
        r = {key: book[c] for key, c in S.FLEET_CANDIDATES.row(k).items()}
        assert r["gpus"] == fn("MWGPUS", mw, r["kw"], pue, r["gpus_node"])
        assert r["tokens"] == pytest.approx(fn("MWTOKENS", mw, r["kw"], pue, r["per_gpu"], r["gpus_node"]))
        assert r["per_mw"] == pytest.approx(fn("TOKENSPERMW", r["per_gpu"], r["kw"], pue), rel=1e-12)
        assert r["price"] == book[S.TCO_TABLE.row(k)["rented"]]


def test_shares_that_do_not_add_up_say_so_and_owned_prices_flow(template: Path) -> None:
    edit(template, {S.MIX.row(0)["share"]: 0.5, S.MIX_INPUTS["basis"]: "owned"})
    book = Book(template)
    assert book[S.FLEET_REASON["reason"]].startswith("#VALUE! shares add up to 90%, not 100%")
    assert all(book[fleet_cell(k, 0)] in ("", None) for k in range(S.FLEET_TABLE.slots))
    assert book[S.FLEET_CANDIDATES.row(0)["price"]] == book[S.TCO_TABLE.row(0)["owned"]]


# ------------------------------------------------ issue 39: the buyer's numbers complete and consistent


def test_sizing_shows_cost_as_bought_beside_the_rate(built: Path) -> None:
    # B200: 184 GPUs (1,000,000 x 1.2 at 60%, whole nodes of 8) x $3.00 x 730 h = $402,960 a month, over the
    # month's output at the target: $0.153 per million as bought; the rate alone at 60% is $0.123
    book = Book(built)
    w = {k: book[S.WORKLOAD[k]] for k in ("target", "hours", "utilization")}
    row = {k: book[c] for k, c in S.SIZING_TABLE.row(0).items()}
    assert row["monthly_cost"] == row["gpus"] * row["price"] * w["hours"] == 402_960
    by_hand = row["monthly_cost"] * 1e6 / (w["target"] * 3600 * w["hours"])
    assert row["bought_mtok"] == pytest.approx(by_hand, rel=1e-12) and round(by_hand, 3) == 0.153
    at_rate = row["price"] * 1e6 / (row["per_gpu"] * 3600 * w["utilization"])
    assert row["cost_per_mtok"] == pytest.approx(at_rate, rel=1e-12) and round(at_rate, 3) == 0.123
    header = S.SIZING_TABLE.header_row
    headers = {
        c.key: book[Cell(S.SIZING, header, S.SIZING_TABLE.left + j)] for j, c in enumerate(S.SIZING_TABLE.columns)
    }
    assert headers["bought_mtok"] == "$ per million tokens as bought"
    assert headers["cost_per_mtok"] == "$ per million tokens at utilization"


def test_fleet_buys_sizings_headroom(built: Path) -> None:
    book = Book(built)
    headroom, util = book[S.WORKLOAD["headroom"]], book[S.WORKLOAD["utilization"]]
    assert book[S.MIX_INPUTS["headroom"]] == headroom == 0.2
    nodes = {
        book[S.FLEET_CANDIDATES.row(i)["candidate"]]: book[S.FLEET_CANDIDATES.row(i)["gpus_node"]] for i in range(5)
    }
    checked = 0
    for k in range(S.FLEET_TABLE.slots):
        family, bench, target, rate = (book[fleet_cell(k, j)] for j in (0, 1, 3, 4))
        if not isinstance(rate, float):
            continue
        node = nodes[family]
        assert book[fleet_cell(k, 7)] == fn("GPUSNEEDED", target * (1 + headroom), rate, util, node), (family, bench)
        checked += 1
    assert checked >= 10


def test_one_place_for_the_service_level_and_rates_that_meet_it(built: Path) -> None:
    book = Book(built)
    assert (book[T.SERVICE["ttft"]], book[T.SERVICE["tpot"]]) == (2000, 15)
    b200 = {k: book[c] for k, c in S.TCO_TABLE.row(0).items()}
    # gpt-oss-120b at 2,000 ms / 15 ms: only Interactive's bounds (LoadGen's mlperf.conf) are that strict
    assert b200["scenario"] == "Interactive"
    server = fn("BEST", "B200", "gpt-oss-120b", "Server", "available", 8)
    assert round(b200["per_gpu"] / server, 2) == 0.15  # the API's speed: 0.15x the Server rate on B200
    # the API as it charges: $0.60/M out + 1,112 / 1,278.2 x $0.15/M in
    api = book[T.SERVICE["api_cost"]]
    assert api == pytest.approx(0.60 + 1112 / 1278.2 * 0.15, rel=1e-12)


def test_every_cost_line_has_a_labelled_input_and_reaches_owned(built: Path) -> None:
    wb = openpyxl.load_workbook(built)
    ws = wb[S.TCO]
    labels = {ws.cell(S.TCO_INPUTS[k].row, 1).value: k for k in MORE}
    assert set(labels.values()) == set(MORE)
    for k in MORE:
        note = ws.cell(S.TCO_INPUTS[k].row, 3).value
        assert note and note.startswith("assumption"), k
    book = Book(built)
    i = {f.key: book[S.TCO_INPUTS[f.key]] for f in S.TCO_INPUTS.fields}
    for slot in range(5):
        row = {k: book[c] for k, c in S.TCO_TABLE.row(slot).items()}
        parts = {k: book[c] for k, c in T.BREAKDOWN.row(slot).items()}
        assert parts["candidate"] == row["candidate"]
        total = sum(parts[k] for k, _ in T.PARTS)
        assert total == pytest.approx(row["owned"], rel=1e-12)
        # each part by hand, per available hour
        hours = 8760 * i["availability"]
        capital = row["capex_gpu"] * (1 + i["network"] + i["tax"]) * crf(i["rate"], i["years"])
        capital -= row["residual_gpu"] * (crf(i["rate"], i["years"]) - i["rate"])
        assert parts["capital"] == pytest.approx(capital / hours, rel=1e-12)
        assert parts["energy"] == pytest.approx(row["kw"] * i["pue"] * i["kwh"] * 8760 / hours, rel=1e-12)
        assert parts["rest"] == pytest.approx((i["support"] * row["capex_gpu"] + i["staff"]) / hours, rel=1e-12)
        # residual value in $ per GPU beside the share typed above, both said
        assert row["residual_gpu"] == pytest.approx(row["capex_gpu"] * i["residual"], rel=1e-12)


def test_npv_schedule_and_one_rental_model(built: Path) -> None:
    book = Book(built)
    i = {f.key: book[S.TCO_INPUTS[f.key]] for f in S.TCO_INPUTS.fields}
    for slot in range(5):
        row = {k: book[c] for k, c in S.TCO_TABLE.row(slot).items()}
        args = (row["capex_gpu"], i["years"], i["rate"], row["residual_gpu"], row["kw"], i["pue"], i["kwh"])
        flows = fn("TCOCASHFLOW", row["rented"], *args, i["colo"], i["software"], *[i[k] for k in MORE])
        npv = flows[int(i["years"]) + 2]
        assert row["npv_own"] == pytest.approx(npv[1], rel=1e-9) and row["npv_rent"] == pytest.approx(npv[2])
        assert row["cheaper"] == flows[int(i["years"]) + 3][1]
        # reserved renting throughout: the NPV verdict is the $/GPU-hour verdict, and the break-even rental
        assert row["cheaper"] == ("owning" if row["owned"] <= row["rented"] else "renting")
        assert row["breakeven"] == pytest.approx(row["owned"], rel=1e-12)
        if slot == 0:  # the first candidate's schedule, as TCOCASHFLOW answers it
            shown = [
                [book[c] if book[c] is not None else "" for c in T.CASH_TABLE.row(k).values()]
                for k in range(len(flows) - 1)
            ]
            assert shown == [pytest.approx(line) if isinstance(line[1], float) else line for line in flows[1:]]
    headers = {c.key: str(c.header) for c in S.TCO_TABLE.columns}
    assert all("reserved" in headers[k] for k in ("rented_usd", "rented_sl", "npv_rent", "breakeven"))


def test_nodes_per_candidate_from_the_mlperf_row(template: Path) -> None:
    # GB300's node size left blank on Sizing: TCO takes its MLPerf system's, accelerators / nodes
    edit(template, {S.SIZING_TABLE.row(2)["gpus_per_node"]: None})
    book = Book(template)
    entry = book[S.SIZING_TABLE.row(2)["entry"]]
    by_hand = fn("ENTRY", entry, "gpus") / fn("ENTRY", entry, "nodes")
    assert by_hand == 4
    assert book[S.TCO_TABLE.row(2)["gpus_server"]] == 4
    kws = {book[S.TCO_TABLE.row(k)["kw"]] for k in range(5)}
    assert len(kws) > 1  # power per GPU per candidate, not one figure for all


def test_a_typo_and_an_entry_id_on_sizing_keep_the_fleet_table(template: Path) -> None:
    # issue 40: Sizing's candidate GB300 typed GB30, and an entry ID in an empty slot (the header invites
    # "family or entry ID"): FLEET's table keeps every other candidate and says why for these two
    edit(template, {S.SIZING_TABLE.row(2)["candidate"]: "GB30", S.SIZING_TABLE.row(5)["candidate"]: "6.1-0052"})
    book = Book(template)
    assert book[S.FLEET_REASON["reason"]] == "the table below"
    rows = [
        [book[fleet_cell(k, 0)], book[fleet_cell(k, 1)], book[fleet_note(k)], book[fleet_cell(k, 7)]]
        for k in range(S.FLEET_TABLE.slots)
    ]
    families = [r[0] for r in rows if r[0]]
    assert {"B200", "B300", "MI355X", "H200", "GB30", "6.1-0052"} <= set(families)
    typo = [r for r in rows if r[0] == "GB30"]
    assert typo[0][2] == "none: Did you mean GB300? No family 'GB30'.", typo[0][2]
    own = next(r for r in rows if r[0] == "6.1-0052" and r[1] == "gpt-oss-120b")
    assert own[2] == "ok" and book[fleet_cell(rows.index(own), 6)] == "6.1-0052" and own[3] > 0


def test_fleets_notes_read_whole_in_a_status_column(built: Path) -> None:
    # issue 40: FLEET answers a row's reason in its entry column ("none: No closed GB300 llama2-70b-99.9
    # Interactive rows with availability available, at most 8 GPUs"), where the GPUs column beside it cut it
    # after 40 characters; the entry column keeps the entry IDs, and a status column, wrapping in rows as tall
    # as their text, shows the reason whole
    book, ws = Book(built), openpyxl.load_workbook(built)[S.FLEET]
    first = S.FLEET_TABLE.row(0)["status"]
    assert ws.column_dimensions[first.a1.rstrip("0123456789")].width >= STATUS_WIDTH
    notes = []
    for k in range(S.FLEET_TABLE.slots):
        family, bench, entry, note = (
            book[c] for c in (fleet_cell(k, 0), fleet_cell(k, 1), fleet_cell(k, 6), fleet_note(k))
        )
        if not family:
            assert note in ("", None) and entry in ("", None)
            continue
        assert (entry not in ("", None)) == (note == "ok" and bench != "total"), (k, entry, note)
        cell = ws[fleet_note(k).a1]
        assert cell.alignment.wrap_text
        needed = text_height(note, STATUS_WIDTH, FONT_SIZE, FONT_SIZE) or ONE_LINE
        assert (ws.row_dimensions[cell.row].height or ONE_LINE) >= needed - 0.75, (k, note)  # whole pixels
        notes.append(note)
    assert {n.split(":")[0] for n in notes if n != "ok"} == {"none", "incomplete"}
    assert max(map(len, notes)) > 2 * 40  # whole: twice what the entry column showed


def test_tcos_texts_wrap_in_rows_as_tall_as_they_are(built: Path) -> None:
    # issue 40: TCO's "Power per GPU: measured or your input" ("your input for MI355X: no measured power in
    # 6.1-0003's row", 58 characters in a column of 36) was cut by the next column; it, the status and where
    # the rented price is from (a vendor's name as typed) wrap in their columns, in rows as tall as their text
    # (since TCO's table prints in parts, the texts' columns are merged over several: one line is enough)
    book, ws = Book(built), openpyxl.load_workbook(built)[S.TCO]
    merged = {(r.min_row, r.min_col): r.max_col for r in ws.merged_cells.ranges}
    letters = dict(columns_of(S.TCO_SHEET.widths))
    widths = {  # a text over several columns (merged) wraps across them
        k: sum(letters[get_column_letter(j)] for j in range(c.col + 1, merged.get((c.row, c.col + 1), c.col + 1) + 1))
        for k, c in S.TCO_TABLE.row(0).items()
    }
    seen = 0
    for k in range(S.TCO_TABLE.slots):
        for key in ("status", "kw_source", "rented_source"):
            cell, text = S.TCO_TABLE.row(k)[key], book[S.TCO_TABLE.row(k)[key]]
            assert ws[cell.a1].alignment.wrap_text, key
            if text:
                needed = text_height(text, widths[key], FONT_SIZE, FONT_SIZE) or ONE_LINE
                assert (ws.row_dimensions[cell.row].height or ONE_LINE) >= needed - 0.75, (key, text)
                seen += 1
    assert seen == 3 * len(S.CANDIDATES)  # each sample candidate's three texts, wrapped where they need it
