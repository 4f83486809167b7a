"""What the template tests share: the workbook as `template build` makes it from the bundled data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from benchsheet.data import store
from benchsheet.templates import builder as B


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The built workbook, one per test module, in a BENCHSHEET_HOME of its own (the bundled table)."""
    home = tmp_path_factory.mktemp("book-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BENCHSHEET_HOME", str(home))
        store.set_table(None)
        out = home / "book.xlsx"
        B.build(out)
        yield out
    store.set_table(None)
