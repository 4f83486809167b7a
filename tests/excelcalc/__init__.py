"""Tests of the Excel engine, ``excelcalc``, laid out as its modules are."""
