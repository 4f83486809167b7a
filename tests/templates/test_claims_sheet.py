"""The Claims sheet checks a range claim and a count claim beside the "up to Nx" one (real data, real file)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from benchsheet import build


def test_range_and_count_claims_are_answered_on_the_claims_sheet(tmp_path: Path) -> None:
    out = tmp_path / "book.xlsx"
    build(out)
    ws = openpyxl.load_workbook(out, data_only=True)["Claims"]
    value = {str(r[0].value): r[1].value for r in ws.iter_rows(min_col=1, max_col=2) if r[0].value}
    assert value["Submitters, closed division"] == 30 and value["Submitters, all divisions"] == 33
    assert value["Entry IDs (systems), closed"] == 108 and value["Entry IDs (systems), all divisions"] == 120
    assert value["The claimed submitters are"] == "the closed division"
    assert value["The claimed systems are"] == "all divisions"
    assert str(value["Low end: verdict"]).startswith("holds")
    assert "Nebius 8x B200 deepseek-r1 Server +8.08% (same system)" in str(value["Low end: nearest pairs"])
    assert str(value["High end: verdict"]).startswith(("holds", "only weak", "not found"))
