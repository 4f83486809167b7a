"""What calc does to a chart beyond its caches: the rows it plots and a title saved as fixed text."""

from __future__ import annotations

from excelcalc.workbook.charts import fit_rows, fit_value_axis, relink_title, title_sources

SERIES = (
    "<c:chart><c:plotArea><c:barChart><c:ser>"
    "<c:cat><c:strRef><c:f>Data!$A$2:$A$9</c:f></c:strRef></c:cat>"
    "<c:val><c:numRef><c:f>Data!$B$2:$B$9</c:f></c:numRef></c:val>"
    "</c:ser></c:barChart></c:plotArea></c:chart>"
)


def test_only_unused_formula_slots_are_left_out() -> None:
    filled = {f"{c}{r}" for c in "AB" for r in range(2, 5)}

    def formulas(sheet: str, ref: str) -> tuple[str | None, bool]:  # A2:B12 filled down, rows 2-4 used
        row = int(ref[1:])
        return (f'=IF(X{row}=0,"",X{row})' if row <= 12 else None), ref in filled

    assert "Data!$A$2:$A$4" in fit_rows(SERIES, formulas) and "Data!$B$2:$B$4" in fit_rows(SERIES, formulas)

    def plain(sheet: str, ref: str) -> tuple[str | None, bool]:  # typed values: the user may add more
        return None, ref in filled

    assert fit_rows(SERIES, plain) == SERIES

    def totals(sheet: str, ref: str) -> tuple[str | None, bool]:  # a different formula below is no slot
        row = int(ref[1:])
        return (f"=X{row}" if row <= 9 else "=SUM(B2:B9)"), row <= 9

    assert fit_rows(SERIES, totals) == SERIES


def test_a_fixed_title_is_linked_only_to_the_one_cell_that_made_it() -> None:
    chart = (
        '<c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:pPr><a:defRPr b="1"/></a:pPr>'
        "<a:r><a:t>Best per-GPU: gpt-oss-120b Server</a:t></a:r></a:p></c:rich></c:tx></c:title>"
        "<c:plotArea/></c:chart>"
    )
    made = ("Data", "A1", '="Best per-GPU: "&B1&" "&B2')
    linked = relink_title(chart, title_sources([made, ("Data", "C1", "=B1&B2")]), {"Data"})
    assert "<c:strRef><c:f>Data!$A$1</c:f></c:strRef>" in linked and '<a:defRPr b="1"/>' in linked
    assert "<a:t>" not in linked
    twice = title_sources([made, ("Other", "A1", made[2])])
    assert relink_title(chart, twice, set()) == chart  # two cells could have made it: left as it is
    assert relink_title(chart, title_sources([("Data", "A1", '="Per-GPU: "&B1')]), {"Data"}) == chart


def bars(*values: float, scaling: str = '<c:orientation val="minMax"/>') -> str:
    points = "".join(f'<c:pt idx="{i}"><c:v>{v!r}</c:v></c:pt>' for i, v in enumerate(values))
    return (
        "<c:plotArea><c:barChart><c:ser><c:val><c:numRef><c:f>Data!$B$2:$B$9</c:f><c:numCache>"
        f"{points}</c:numCache></c:numRef></c:val></c:ser></c:barChart>"
        '<c:catAx><c:scaling><c:orientation val="maxMin"/></c:scaling></c:catAx>'
        f"<c:valAx><c:scaling>{scaling}</c:scaling></c:valAx></c:plotArea>"
    )


def test_bars_start_at_zero_unless_one_is_negative() -> None:
    fixed = fit_value_axis(bars(0.44, 0.0))
    assert '<c:valAx><c:scaling><c:orientation val="minMax"/><c:min val="0"/></c:scaling>' in fixed
    assert fit_value_axis(fixed) == fixed  # once
    assert "<c:min" not in fit_value_axis(bars(0.44, -0.0002, scaling='<c:orientation val="minMax"/><c:min val="0"/>'))
    mine = bars(0.44, 0.3, scaling='<c:orientation val="minMax"/><c:max val="1"/><c:min val="0.2"/>')
    assert fit_value_axis(mine) == mine  # a minimum the user chose
    assert fit_value_axis(bars()) == bars()  # nothing plotted: left to the program
    line = bars(1.0).replace("barChart", "lineChart")
    assert fit_value_axis(line) == line


def test_a_combined_chart_keeps_its_axes() -> None:
    """A user's bar and line chart on two value axes: which axis the bars use is the file's to say,
    so neither axis is touched (a line of 100-110 on an axis forced to 0 would be flattened)."""
    combo = bars(0.44, 0.3).replace(
        "</c:barChart>",
        "</c:barChart><c:lineChart><c:ser><c:val><c:numRef><c:f>Data!$C$2:$C$9</c:f></c:numRef></c:val>"
        "</c:ser></c:lineChart>",
    )
    combo = combo.replace(
        "</c:plotArea>", '<c:valAx><c:scaling><c:orientation val="minMax"/></c:scaling></c:valAx></c:plotArea>'
    )
    assert fit_value_axis(combo) == combo
