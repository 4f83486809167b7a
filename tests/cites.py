"""A citation as one text, for tests that look for a phrase in it (CITE answers a column of lines)."""

from __future__ import annotations

from typing import Any

from benchsheet.udfs import functions as udf


def cite_text(*args: Any) -> str:
    """``CITE(*args)``'s lines joined by spaces; an error text as it is."""
    answer = udf.CITE(*args)
    return answer if isinstance(answer, str) else " ".join(str(line) for [line] in answer)
