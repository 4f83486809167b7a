"""Counts of what the robustness tests tried and what held, for the table of docs/calculator.md.

Tests call ``tried(kind, n)`` and ``held(kind, n)``; at the end of the run
conftest prints the table and writes it to build/robustness.md (and, with
``BENCHSHEET_UPDATE_DOCS=1``, into ``PAGE``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TRIED: Counter[str] = Counter()
HELD: Counter[str] = Counter()


def tried(kind: str, n: int = 1) -> None:
    TRIED[kind] += n


def held(kind: str, n: int = 1) -> None:
    HELD[kind] += n


def table() -> str:
    lines = ["| what was tried | tried | held |", "|---|---:|---:|"]
    for kind in sorted(TRIED):
        lines.append(f"| {kind} | {TRIED[kind]:,} | {HELD[kind]:,} |")
    return "\n".join(lines)


PAGE = "docs/calculator.md"  # the page that holds the table, from the checkout's root
ENV = "BENCHSHEET_UPDATE_DOCS"  # set: a test run writes the table into PAGE
BEGIN = f"<!-- robustness:begin (written by a test run: {ENV}=1 pytest) -->"
END = "<!-- robustness:end -->"


def write(root: Path, page: bool = False) -> Path | None:
    """Write the table to build/robustness.md; with ``page``, also between the markers of ``PAGE``.

    ``tried`` is counted before a case is checked and ``held`` after it passed, so a case that does
    not hold shows as tried and not held.
    """
    if not TRIED:
        return None
    out = root / "build" / "robustness.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(table() + "\n", encoding="utf-8")
    if page:
        path = root / PAGE
        text = path.read_text(encoding="utf-8")
        start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
        path.write_text(text[:start] + "\n\n" + table() + "\n\n" + text[end:], encoding="utf-8")
    return out
