"""The workbook calculator: computes any .xlsx/.xlsm file's formulas without Excel.

``xlsxfile`` reads and rewrites the package (cells, shared strings, charts) in
place; ``compute`` orders the formula cells and runs them with the engine behind
``benchsheet eval``; ``calc`` puts the two together (``template calc`` and
``freeze``). ``cells`` holds the types they share. The template itself lives in
``benchsheet.templates``.
"""
