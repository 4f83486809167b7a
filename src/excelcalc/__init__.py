"""excelcalc: Excel's formulas computed as Excel computes them, without Excel.

``formula`` computes one formula (prepared, parsed once, run); ``lib`` holds Excel's functions, one
module per category as Excel groups them, and the one registry that installs them; ``args`` is how
Excel reads the arguments of its functions of many values; ``backend`` is the only module that
touches the private API of ``formulas`` and ``schedula``; ``workbook`` reads, computes and writes a
whole .xlsx file. An add-in gives the engine its own functions (``formula.register``); the engine
imports no add-in. This package module imports nothing, so ``excelcalc.textnum`` loads alone.
"""
