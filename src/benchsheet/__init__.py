"""benchsheet: MLPerf Inference results as spreadsheet functions.

MLPerf is a trademark of MLCommons Association. Per-accelerator values and the
ratios and costs computed from them are derived metrics, not MLPerf results.
"""

__version__ = "0.1.0"
