"""Round 2 of issues 39 and 40 on the workbook: inputs that belong to a candidate follow it, and a blank node
size is the MLPerf system's. Each test edits the built workbook with openpyxl as a user would, runs
``benchsheet template calc`` and reads the cells and its exit status; figures come from the catalogue functions.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from benchsheet.cli import main
from benchsheet.templates import sheets as S
from benchsheet.templates.layout import Cell
from benchsheet.templates.sheets import tco as T
from tests.templates import test_decision_sheets as decision
from tests.templates.test_decision_sheets import fn

built, template = decision.built, decision.template  # the same fixtures: a built workbook, a copy to edit


def calc_after(path: Path, changes: dict[Cell, Any]) -> dict[str, Any]:
    """Type ``changes`` as a user would (openpyxl), run ``benchsheet template calc``; the computed values by
    sheet, and the exit status under "status"."""
    wb = openpyxl.load_workbook(path)
    for cell, value in changes.items():
        wb[cell.sheet][cell.a1] = value
    wb.save(path)
    status = main(["template", "calc", str(path)])
    return {"status": status, "book": openpyxl.load_workbook(path, data_only=True)}


def value(book: Any, cell: Cell) -> Any:
    return book[cell.sheet][cell.a1].value


def test_a_blank_node_size_on_sizing_is_the_mlperf_systems(template: Path) -> None:
    """Issue 39 item 5: GB300's GPUs per node left blank on Sizing sizes it in whole nodes of its MLPerf
    system (4 GPUs), as FLEET does, not in 8-GPU nodes."""
    row = S.SIZING_TABLE.row(2)
    done = calc_after(template, {row["gpus_per_node"]: None})
    book = done["book"]
    assert done["status"] == 0
    entry = value(book, row["entry"])
    node = fn("ENTRY", entry, "gpus_per_node")
    assert node == 4 and value(book, row["candidate"]) == "GB300"
    w = {k: value(book, c) for k, c in S.WORKLOAD.cells().items()}
    units = f"{w['benchmark']} {w['scenario']}"
    gpus = fn("GPUSNEEDED", w["target_with_headroom"], value(book, row["per_gpu"]), w["utilization"], node, units)
    assert value(book, row["gpus"]) == gpus and value(book, row["nodes"]) == gpus // 4
    header = value(book, Cell(S.SIZING, S.SIZING_TABLE.header_row, row["gpus_per_node"].col))
    assert "blank = MLPerf node" in header
    assert value(book, S.TCO_TABLE.row(2)["gpus_server"]) == 4  # TCO takes the node size Sizing used


def tco_row(book: Any, i: int) -> dict[str, Any]:
    return {k: value(book, c) for k, c in S.TCO_TABLE.row(i).items()}


def test_capex_and_power_follow_the_candidate_not_its_row(template: Path) -> None:
    """Issue 40 item 6: H200 replaced by MI300X on Sizing does not give MI300X H200's $250,000 and 0.9 kW; its
    TCO row says what to type, first; typed into the per-candidate table, it is used. Swapping two Sizing rows
    swaps nothing on TCO's inputs."""
    s0, s1, s4 = (S.SIZING_TABLE.row(i)["candidate"] for i in (0, 1, 4))
    before = Path(str(template) + ".before.xlsx")
    shutil.copy(template, before)
    base = openpyxl.load_workbook(before, data_only=True)
    was = {value(base, S.TCO_TABLE.row(i)["candidate"]): tco_row(base, i) for i in range(5)}
    done = calc_after(template, {s0: "B300", s1: "B200", s4: "MI300X"})
    book = done["book"]
    assert done["status"] == 1  # a row without its capex is an error the command reports
    for i, family in enumerate(("B300", "B200")):
        row = tco_row(book, i)
        assert row["candidate"] == family
        for key in ("capex_server", "kw_own", "kw"):
            assert row[key] == was[family][key], (family, key)
    mi300x = tco_row(book, 4)
    assert mi300x["candidate"] == "MI300X" and mi300x["capex_server"] != was["H200"]["capex_server"]
    reason = "#N/A type MI300X's capex per server in the table above: it has none there"
    assert mi300x["capex_server"] == reason and mi300x["owned"] == reason
    assert mi300x["status"] == reason and tco_row(book, 0)["status"] == "ok"  # issue 40 item 5: in full
    assert mi300x["kw"] == value(book, T.INPUTS["kw"])  # no kW of its own: the input above, and it says so
    # MI300X typed into the per-candidate table: its capex is used
    slot = T.CAPEX_TABLE.row(len(S.CANDIDATES))
    done = calc_after(template, {slot["candidate"]: "MI300X", slot["capex_server"]: 300_000, slot["kw_own"]: 1.1})
    mi300x = tco_row(done["book"], 4)
    assert mi300x["capex_server"] == 300_000 and mi300x["kw"] == 1.1
    assert mi300x["capex_gpu"] == 300_000 / mi300x["gpus_server"]
    assert isinstance(mi300x["owned"], float)


def test_a_benchmark_in_samples_flows_through_tco_and_fleet(template: Path) -> None:
    """Issue 40 item 3: Sizing set to stable-diffusion-xl Offline (samples/s): TCO's and Fleet's formulas give
    the workload as units (no "give units" anywhere), their headings name the unit, and the service-level
    columns say they apply to token benchmarks."""
    w = S.WORKLOAD
    done = calc_after(template, {w["benchmark"]: "stable-diffusion-xl", w["scenario"]: "Offline"})
    book = done["book"]
    cells = [c.value for name in (S.TCO, S.FLEET) for row in book[name].iter_rows() for c in row]
    assert not [v for v in cells if isinstance(v, str) and "give units" in v]
    b200 = tco_row(book, 0)
    assert b200["candidate"] == "B200" and isinstance(b200["owned"], float)
    per_gpu = value(book, S.SIZING_TABLE.row(0)["per_gpu"])
    util = value(book, w["utilization"])
    units = "stable-diffusion-xl Offline"
    assert b200["owned_mtok"] == pytest.approx(fn("COSTPERMTOK", b200["owned"], per_gpu, util, units), rel=1e-12)
    fleet = S.FLEET_CANDIDATES
    heads = [value(book, Cell(S.FLEET, fleet.header_row, fleet.left + j)) for j in range(len(fleet.columns))]
    assert any(h.startswith("Samples/s in the cap") for h in heads) and not any("Tokens/s" in h for h in heads)
    tco = S.TCO_TABLE  # each column's heading above its first slot (the table prints in parts, one under another)
    tco_heads = [value(book, Cell(S.TCO, tco.column(c.key).first.row - 1, tco.col(c.key))) for c in tco.columns]
    assert any("token benchmarks only" in h for h in tco_heads if h)


def test_an_error_in_tcos_price_is_named_on_fleet_and_keeps_fleets_table(template: Path) -> None:
    """Issue 40 item 3: H200's quote typed as an error (=NA()) makes TCO's rented price for H200 an error; Fleet's
    candidate row says to fix TCO's price first (not the "rented" choice cell), and FLEET answers for the rest."""
    h200 = S.QUOTES_TABLE.row(4)
    assert S.SAMPLE_QUOTES[4][1] == "H200"
    done = calc_after(template, {h200["price"]: "=NA()"})
    book = done["book"]
    assert done["status"] == 1
    row = {k: value(book, c) for k, c in S.FLEET_CANDIDATES.row(4).items()}
    assert row["candidate"] == "H200"
    assert row["price"] == "#N/A fix TCO's rented $/GPU-hour of H200 first: it is an error there"
    assert tco_row(book, 4)["status"] == "#N/A fix the rented $/GPU-hour on Quotes or Sizing"
    assert value(book, S.FLEET_REASON["reason"]) == "the table below"
    families = {value(book, S.FLEET_TABLE.row(k)["c0"]) for k in range(S.FLEET_TABLE.slots)}
    assert {"B200", "B300", "GB300", "MI355X"} <= families and "H200" not in families
    cells = [c.value for r in book[S.FLEET].iter_rows() for c in r]
    assert not [v for v in cells if isinstance(v, str) and "B12" in v]


def test_freeze_counts_the_workbooks_own_error_texts(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 40 item 3: a reason the workbook writes itself (TCO's "#N/A type MI300X's capex ...", text, not an
    error value) makes ``benchsheet freeze`` exit 1 and list it, as ``template calc`` does; the sample, 0."""
    assert main(["freeze", str(template), str(tmp_path / "sample.xlsx")]) == 0
    capsys.readouterr()
    wb = openpyxl.load_workbook(template)
    cell = S.SIZING_TABLE.row(4)["candidate"]
    wb[cell.sheet][cell.a1] = "MI300X"
    wb.save(template)
    assert main(["freeze", str(template), str(tmp_path / "frozen.xlsx")]) == 1
    err = capsys.readouterr().err
    capex = S.TCO_TABLE.row(4)["capex_server"].a1
    assert "#N/A type MI300X's capex per server in the table above: it has none there" in err
    assert f"TCO!{capex}" in err
