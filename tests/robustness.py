"""Counts of what the robustness tests tried and what held, for the README's table.

Tests call ``tried(kind, n)`` and ``held(kind, n)``; at the end of the run
conftest prints the table and writes it to build/robustness.md.
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


def write(root: Path) -> Path | None:
    if not TRIED:
        return None
    out = root / "build" / "robustness.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(table() + "\n", encoding="utf-8")
    return out
