"""Tests of Excel's functions, one module per category as ``excelcalc.lib`` has them."""
