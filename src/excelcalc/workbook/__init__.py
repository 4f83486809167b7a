"""The workbook calculator: computes any .xlsx/.xlsm file's formulas without Excel.

``calc`` is the entry for a file: it computes a workbook and writes the answers back as the
values cached next to the formulas (``calc``), or a values-only copy (``freeze``). Below it:

* ``compute``: every formula of a workbook computed (``compute``, ``Computed``, ``ComputeError``),
  in steps: ``reading`` (the package's sheets to cells) into ``book`` (the cells kept),
  ``references`` (A1 text and defined names), ``tables`` (structured and 3-D references as A1),
  ``shapes`` (each formula prepared once per shape), ``graph`` (the order formulas run in),
  ``runner`` (running them within the deadline), ``dynamic`` (references made at run time),
  ``explain`` (reasons for plain errors);
* ``xlsxfile``: the package read safely and rewritten in place (cached values, charts'
  caches, ``charts``; row heights, ``rows``);
* ``sheetxml``: the one scanner of a sheet's cells, for reading them and for writing their values;
* ``cells``: the types they share.

Excel's functions come from ``excelcalc.formula``; an add-in registers its own there.
"""
