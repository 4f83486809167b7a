"""Writing Python values as Excel formula literals, for tests that build formulas."""

from __future__ import annotations

import math
from typing import Any


def literal(v: Any) -> str:
    """``None`` -> a left-out argument, text quoted, booleans as TRUE/FALSE, infinity as 1/0."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, str):
        return '"' + v.replace('"', '""') + '"'
    if isinstance(v, float) and not math.isfinite(v):
        return "1/0"
    return repr(v)
