"""Excel shells of the benchsheet catalogue (xlwings)."""
