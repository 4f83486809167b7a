"""Which package owns what: the module table of docs/layout.md, made from the code so that it cannot drift.

    python scripts/layout.py            # rewrite the table between its markers in docs/layout.md
    python scripts/layout.py --print    # print it instead

Each package and module of the two products (excelcalc in src/excelcalc; benchsheet in src/benchsheet and
the top-level folders installed as benchsheet.udfs, .addin and .templates) is listed with the first sentence
of its docstring, read with ``ast`` (nothing is imported). tests/test_docs.py fails when the table in
docs/layout.md is not this one.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "layout.md"
BEGIN = "<!-- layout:begin (generated from the code by `python scripts/layout.py`; do not edit) -->"
END = "<!-- layout:end -->"

# (product, [(folder, the package it is installed as), ...])
PRODUCTS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("excelcalc", (("src/excelcalc", "excelcalc"),)),
    (
        "benchsheet",
        (
            ("src/benchsheet", "benchsheet"),
            ("udfs", "benchsheet.udfs"),
            ("addin", "benchsheet.addin"),
            ("templates", "benchsheet.templates"),
        ),
    ),
)


def summary(path: Path) -> str:
    """The first sentence of the module's docstring, on one line, as Markdown ('' where it has none)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    paragraph = " ".join((doc or "").strip().split("\n\n")[0].split())
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", paragraph, maxsplit=1)[0]
    return first.replace("``", "`").replace("|", "\\|")


def modules(folder: Path, package: str) -> list[tuple[str, Path]]:
    """(dotted name, file) of every package and module under ``folder``, in name order; a package is its
    ``__init__.py``; a folder without one (data, tests' fixtures) is not a package and is left out."""
    found: list[tuple[str, Path]] = []
    for path in folder.rglob("*.py"):
        parts = path.relative_to(folder).with_suffix("").parts
        if "__pycache__" in parts or not all(
            (folder.joinpath(*parts[:i]) / "__init__.py").is_file() for i in range(len(parts))
        ):
            continue
        name = ".".join((package, *parts[:-1]) if parts[-1] == "__init__" else (package, *parts))
        found.append((name, path))
    return sorted(found, key=lambda item: item[0].split("."))


def block(root: Path = ROOT) -> str:
    """The generated part of docs/layout.md, markers included."""
    lines = [BEGIN]
    for product, folders in PRODUCTS:
        lines += [
            "",
            f"**{product}**",
            "",
            "| module | file | what it is (its docstring's first sentence) |",
            "|---|---|---|",
        ]
        for folder, package in folders:
            for name, path in modules(root / folder, package):
                lines.append(
                    f"| `{name}` | `{path.relative_to(root).as_posix()}` | {summary(path) or '(no docstring)'} |"
                )
    lines += ["", END]
    return "\n".join(lines)


def update(page: Path = PAGE, root: Path = ROOT) -> bool:
    """Write ``block`` between the markers of ``page``; whether the file changed."""
    text = page.read_text(encoding="utf-8")
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    new = text[:start] + block(root) + text[stop:]
    if new != text:
        page.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--print", action="store_true", help="print the table instead of writing it")
    args = parser.parse_args(argv)
    if args.print:
        print(block())
    else:
        print(f"{PAGE.relative_to(ROOT)} {'updated' if update() else 'already current'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
