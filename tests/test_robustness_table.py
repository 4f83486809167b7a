"""The robustness table of docs/calculator.md is the one a test run writes, in its format, with every kind it tries."""

from __future__ import annotations

import re

from tests import ROOT, robustness

PAGE = ROOT / robustness.PAGE


def test_the_docs_table_is_written_by_the_test_run() -> None:
    text = PAGE.read_text(encoding="utf-8")
    block = text[text.index(robustness.BEGIN) + len(robustness.BEGIN) : text.index(robustness.END)]
    lines = block.strip().splitlines()
    assert lines[:2] == ["| what was tried | tried | held |", "|---|---:|---:|"]
    rows = [re.fullmatch(r"\| (.+) \| ([\d,]+) \| ([\d,]+) \|", line) for line in lines[2:]]
    assert rows and all(rows), f"regenerate it: {robustness.ENV}=1 pytest"
    kinds = {m.group(1) for m in rows if m}
    sources = "".join(p.read_text(encoding="utf-8") for p in ROOT.joinpath("tests").rglob("test_*.py"))
    for kind in kinds:
        assert kind in sources, f"{kind!r} is no longer tried by any test"
