"""Workbooks Microsoft Excel saved, and the values Excel cached in them: the corpus's judge.

``excel_values`` reads every formula cell's cached value straight from the package XML (so a
number is never turned into a date, as openpyxl's ``data_only`` does); ``judge`` compares one
computed value with Excel's: numbers to 1e-9 relative, text, booleans and error codes exactly.
Cells whose value depends on a volatile function (NOW, TODAY, RAND...) are not judged: Excel's
cached value is of another moment. The corpus test and ``benchmarks/run.py`` share this module.
"""

from __future__ import annotations

import json
import math
import posixpath
import re
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from openpyxl.formula.translate import Translator

CORPUS = Path(__file__).parent / "corpus"
FILES = CORPUS / "files"
KNOWN = CORPUS / "known_differences.toml"
SOURCES = CORPUS / "SOURCES.toml"
VOLATILE = re.compile(r"(?<![\w.])(?:_xlfn\.)?(NOW|TODAY|RAND|RANDBETWEEN|RANDARRAY)\s*\(", re.IGNORECASE)
ERROR_CODES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!", "#CALC!")
_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_CELL = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)$")
_REF = re.compile(r"(?:('(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?")


@dataclass(frozen=True, slots=True)
class Error:
    """An error value as a comparable thing: ``Error("#N/A")``."""

    code: str

    def __str__(self) -> str:
        return self.code


Value = float | str | bool | Error


@dataclass(frozen=True, slots=True)
class ExcelCell:
    sheet: str
    ref: str
    formula: str
    value: Value


def corpus_files() -> list[Path]:
    return sorted(p for p in FILES.rglob("*") if p.suffix.lower() in (".xlsx", ".xlsm"))


def _part(z: zipfile.ZipFile, name: str) -> ET.Element | None:
    try:
        return ET.fromstring(z.read(name))
    except KeyError:
        return None


def _sheet_parts(z: zipfile.ZipFile) -> Iterator[tuple[str, str]]:
    wb = _part(z, "xl/workbook.xml")
    rels = _part(z, "xl/_rels/workbook.xml.rels")
    if wb is None or rels is None:
        return
    targets = {r.get("Id"): r.get("Target", "") for r in rels}
    for sheet in wb.iter(_NS + "sheet"):
        target = targets.get(sheet.get(_REL), "")
        path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
        yield sheet.get("name", ""), path


def _strings(z: zipfile.ZipFile) -> list[str]:
    sst = _part(z, "xl/sharedStrings.xml")
    if sst is None:
        return []
    return ["".join(t.text or "" for t in si.iter(_NS + "t") if not _in_phonetic(si, t)) for si in sst.iter(_NS + "si")]


def _in_phonetic(si: ET.Element, t: ET.Element) -> bool:
    return any(t in list(rph.iter()) for rph in si.iter(_NS + "rPh"))


def _cached(c: ET.Element, strings: list[str]) -> Value | None:
    kind = c.get("t", "n")
    v = c.find(_NS + "v")
    if kind == "inlineStr":
        return "".join(t.text or "" for t in c.iter(_NS + "t"))
    if v is None:
        return "" if kind == "str" else None
    text = v.text or ""
    if kind == "s":
        return strings[int(text)]
    if kind == "str":
        return text
    if kind == "b":
        return text.strip() in ("1", "true")
    if kind == "e":
        return Error(text.strip())
    return float(text)


def excel_values(path: Path) -> list[ExcelCell]:
    """Every formula cell of the workbook with the value Excel cached for it (cells with none skipped)."""
    out: list[ExcelCell] = []
    with zipfile.ZipFile(path) as z:
        strings = _strings(z)
        for name, part in _sheet_parts(z):
            root = _part(z, part)
            if root is None:
                continue
            shared: dict[str, tuple[str, str]] = {}  # si -> (anchor, formula)
            for c in root.iter(_NS + "c"):
                f = c.find(_NS + "f")
                if f is None:
                    continue
                ref = c.get("r", "")
                text = f.text or ""
                if f.get("t") == "shared":
                    si = f.get("si", "")
                    if text:
                        shared[si] = (ref, text)
                    elif si in shared:
                        text = Translator("=" + shared[si][1], shared[si][0]).translate_formula(ref)[1:]
                value = _cached(c, strings)
                if value is not None:
                    out.append(ExcelCell(name, ref, text, value))
    return out


def _rowcol(ref: str) -> tuple[int, int]:
    m = _CELL.match(ref)
    if m is None:
        return 0, 0
    return int(m.group(2)), _col(m.group(1))


def _col(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def defined_names(path: Path) -> dict[str, str]:
    """The workbook's defined names (upper case) and what each stands for (``Sheet1!$A$2``)."""
    with zipfile.ZipFile(path) as z:
        wb = _part(z, "xl/workbook.xml")
    if wb is None:
        return {}
    return {(d.get("name") or "").upper(): d.text or "" for d in wb.iter(_NS + "definedName")}


_NAME_WORD = re.compile(r"(?<![\w.!$'])[A-Za-z_\\][\w.]*(?![\w(!])")


def volatile_cells(cells: list[ExcelCell], names: dict[str, str] | None = None) -> set[tuple[str, str]]:
    """Cells that read a volatile function, directly or through the cells they reference, also
    through a defined name (a rough reading of the references: a shared formula's children count
    as their anchor's area)."""
    names = names or {}

    def written_out(formula: str) -> str:
        return _NAME_WORD.sub(lambda m: names.get(m.group(0).upper(), m.group(0)), formula) if names else formula

    marked = {(c.sheet, c.ref) for c in cells if VOLATILE.search(written_out(c.formula))}
    if not marked:
        return marked
    reads: dict[tuple[str, str], list[tuple[str, int, int, int, int]]] = {}
    for c in cells:
        areas = []
        for m in _REF.finditer(written_out(c.formula).replace("$", "")):
            sheet = (m.group(1) or c.sheet).strip("'").replace("''", "'")
            r1, c1 = int(m.group(3)), _col(m.group(2))
            r2, c2 = (int(m.group(5)), _col(m.group(4))) if m.group(4) else (r1, c1)
            areas.append((sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)))
        reads[(c.sheet, c.ref)] = areas
    changed = True
    while changed:
        changed = False
        spots = [(s, *_rowcol(r)) for s, r in marked]
        for key, areas in reads.items():
            if key in marked:
                continue
            if any(s == a[0] and a[1] <= r <= a[3] and a[2] <= col <= a[4] for a in areas for s, r, col in spots):
                marked.add(key)
                changed = True
    return marked


def normal(value: Any) -> Value:
    """A computed value in the judge's terms (an array in one cell shows its first value)."""
    if isinstance(value, list):
        value = value[0][0] if value and value[0] else None
        if isinstance(value, list):
            value = value[0] if value else None
    if value is None:
        return ""
    if isinstance(value, bool):
        return value
    if isinstance(value, Error):
        return value
    text = str(value)
    if type(value).__name__ in ("XlError", "ReasonedError", "ErrorCode") or (
        isinstance(value, str) and text.split(" ", 1)[0] in ERROR_CODES and type(value) is not str
    ):
        return Error(text.split(" ", 1)[0])
    if isinstance(value, int | float):
        return float(value)
    return text


def same(excel: Value, ours: Value) -> bool:
    if isinstance(excel, bool) or isinstance(ours, bool):
        return type(excel) is type(ours) and excel == ours
    if isinstance(excel, float) and isinstance(ours, float):
        if math.isnan(ours) or math.isinf(ours):
            return False
        return math.isclose(excel, ours, rel_tol=1e-9, abs_tol=0.0)
    return type(excel) is type(ours) and excel == ours


def shown(value: Value) -> str:
    """A value as the known-differences file writes it: numbers in full, text quoted, errors bare."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Error):
        return value.code
    return repr(value)


@dataclass(frozen=True, slots=True)
class Difference:
    file: str  # relative to tests/corpus/files
    cell: str  # "Sheet1!B5"
    formula: str
    excel: str
    ours: str


@dataclass
class Judged:
    file: str
    cells: int = 0  # formula cells judged
    equal: int = 0
    volatile: int = 0  # formula cells not judged (volatile)
    differences: list[Difference] | None = None
    failure: str = ""  # the file could not be computed at all


def judge(path: Path, computed: dict[tuple[str, str], Any] | None, failure: str = "") -> Judged:
    """Compare ``computed`` ((sheet name, "B5") -> value) with Excel's cached values of ``path``."""
    # the path under its corpus's files/ folder: two sources' circular.xlsx are two files
    name = next((path.relative_to(p).as_posix() for p in path.parents if p.name == "files"), path.name)
    cells = excel_values(path)
    skip = volatile_cells(cells, defined_names(path))
    result = Judged(name, differences=[], failure=failure)
    assert result.differences is not None
    for c in cells:
        if (c.sheet, c.ref) in skip:
            result.volatile += 1
            continue
        result.cells += 1
        if computed is None:
            continue
        ours = normal(computed.get((c.sheet, c.ref)))
        if same(c.value, ours):
            result.equal += 1
        else:
            result.differences.append(Difference(name, f"{c.sheet}!{c.ref}", c.formula, shown(c.value), shown(ours)))
    return result


def written_values(path: Path) -> dict[tuple[str, str], Value]:
    """The values calc cached in the file it wrote; an error written as its text with a reason
    (``#N/A Unknown entry ...``) counts as that error."""
    out: dict[tuple[str, str], Value] = {}
    for c in excel_values(path):
        value = c.value
        if isinstance(value, str) and value.split(" ", 1)[0] in ERROR_CODES:
            value = Error(value.split(" ", 1)[0])
        out[(c.sheet, c.ref)] = value
    return out


def excel_computed(path: Path) -> bool:
    """Saved by Microsoft Excel, which computed it: docProps/app.xml names Excel, workbook.xml has
    a calcPr calcId, and Excel's calculation chain is there."""
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        app = z.read("docProps/app.xml") if "docProps/app.xml" in names else b""
        workbook = z.read("xl/workbook.xml") if "xl/workbook.xml" in names else b""
    return (
        b"<Application>Microsoft Excel" in app
        and re.search(rb"<calcPr[^>]*calcId=", workbook) is not None
        and "xl/calcChain.xml" in names
    )


def refused_files() -> dict[str, str]:
    """Files of the known-differences file that calc refuses as a whole: file -> why."""
    data = tomllib.loads(KNOWN.read_text(encoding="utf-8"))
    return {d["file"]: d["why"] for d in data.get("refused", [])}


def known_differences() -> dict[tuple[str, str], dict[str, str]]:
    """The known-differences file: (file, cell) -> its entry (excel, ours, reason)."""
    data = tomllib.loads(KNOWN.read_text(encoding="utf-8"))
    return {(d["file"], d["cell"]): d for d in data.get("difference", [])}


def run_calc(path: Path, out: Path) -> Judged:
    """``calc`` the workbook to ``out`` and judge the values it wrote."""
    from excelcalc.workbook.calc import calc

    try:
        calc(path, out)
    except Exception as exc:  # judged: every file must be computed
        return judge(path, None, f"{type(exc).__name__}: {exc}")
    return judge(path, written_values(out))


def _toml(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def write_known(judged: list[Judged], reason: Any) -> None:
    """Write the known-differences file from a run: each difference with the reason it had, or
    ``reason(difference)`` for a new one. (``python -m tests.excel_corpus`` runs it.)"""
    old = known_differences() if KNOWN.exists() else {}
    lines = [
        "# Every formula cell of tests/corpus/files whose value calc computes differently from Excel's cached one.",
        "# tests/excelcalc/workbook/test_corpus.py fails on a difference not listed here and on a listed one",
        "# that no longer differs.",
        "# Regenerate with `python -m tests.excel_corpus` (keeps each reason; a new one gets the rule's reason).",
        "",
    ]
    for j in judged:
        if j.failure:
            why = j.failure.replace(str(FILES) + "/", "")[:300]
            lines += ["[[refused]]", f"file = {_toml(j.file)}", f"why = {_toml(why)}", ""]
            continue
        for d in j.differences or ():
            why = old.get((d.file, d.cell), {}).get("reason") or reason(d)
            lines += [
                "[[difference]]",
                f"file = {_toml(d.file)}",
                f"cell = {_toml(d.cell)}",
                f"formula = {_toml(d.formula)}",
                f"excel = {_toml(d.excel)}",
                f"ours = {_toml(d.ours)}",
                f"reason = {_toml(why)}",
                "",
            ]
    KNOWN.write_text("\n".join(lines), encoding="utf-8")


_FUNCTION = re.compile(r"(?<![\w.])((?:_xlfn\.|_xlws\.)?[A-Za-z][A-Za-z0-9.]*)\s*\(")


def function_names(formula: str) -> set[str]:
    """The functions a formula calls, upper case as the engine names them (text literals skipped)."""
    return {m.upper() for m in _FUNCTION.findall("".join(formula.split('"')[::2]))}


def functions_matching(judged: list[Judged]) -> set[str]:
    """Functions of the formula cells whose value equals Excel's, across the corpus."""
    used: set[str] = set()
    for j in judged:
        if j.failure:
            continue
        differing = {d.cell for d in j.differences or ()}
        cells = excel_values(FILES / j.file)
        skip = volatile_cells(cells, defined_names(FILES / j.file))
        for c in cells:
            if f"{c.sheet}!{c.ref}" not in differing and (c.sheet, c.ref) not in skip:
                used |= function_names(c.formula)
    return used


def main(argv: list[str] | None = None) -> None:
    """Rewrite the known-differences file from a fresh run of calc over the corpus; a difference
    it did not list before gets an empty reason, which tests/excelcalc/workbook/test_corpus.py refuses until one is
    written (why Excel's value and calc's differ). ``--update-docs``: write the block of
    docs/calculator.md from that file instead (no calc run)."""
    import sys
    import tempfile

    if "--update-docs" in (sys.argv[1:] if argv is None else argv):
        print(f"{PAGE} {'updated' if update_page() else 'already current'}")
        return

    with tempfile.TemporaryDirectory() as tmp:
        judged = [run_calc(p, Path(tmp) / f"{i}{p.suffix}") for i, p in enumerate(corpus_files())]
    write_known(judged, lambda d: "")
    cells, equal = sum(j.cells for j in judged), sum(j.equal for j in judged)
    print(f"{equal:,} of {cells:,} judged cells equal Excel's ({equal / cells:.2%}); {KNOWN} written")


PAGE = CORPUS.parents[1] / "docs" / "calculator.md"
PAGE_BEGIN = (
    "<!-- calc-excel:begin (generated from CHECKED and tests/corpus by "
    "`python -m tests.excel_corpus --update-docs`; do not edit) -->"
)
PAGE_END = "<!-- calc-excel:end -->"
_FUNCTION_WORD = re.compile(r"(?<![\w./])(?:_xlfn\.)?[A-Z][A-Z0-9]*(?:\.[A-Z0-9]+)*(?![\w./])")


def reason_kind(entry: dict[str, str]) -> tuple[str, str]:
    """A known difference's reason with the function it is about as ``F`` (the same reason for
    several functions is one kind), and that function ('' if it names none): the first function
    of the cell's formula the reason names."""
    called = {n.removeprefix("_XLFN.") for n in function_names(entry["formula"])}
    reason = " ".join(entry["reason"].split())
    for m in _FUNCTION_WORD.finditer(reason):
        name = m.group(0).removeprefix("_xlfn.")
        if name in called:
            return reason[: m.start()] + "F" + reason[m.end() :], name
    return reason, ""


def judged_cells() -> dict[str, int]:
    """The formula cells the corpus test judges, per file (volatile ones left out), read from the
    files alone."""
    out: dict[str, int] = {}
    for path in corpus_files():
        cells = excel_values(path)
        out[path.relative_to(FILES).as_posix()] = len(cells) - len(volatile_cells(cells, defined_names(path)))
    return out


def _kinds(known: dict[tuple[str, str], dict[str, str]]) -> list[tuple[int, str, list[str]]]:
    """(cells, reason kind, the functions F stands for), most cells first."""
    kinds: dict[str, tuple[int, set[str]]] = {}
    for entry in known.values():
        kind, name = reason_kind(entry)
        n, names = kinds.get(kind, (0, set()))
        kinds[kind] = (n + 1, names | ({name} if name else set()))
    return sorted(((n, k, sorted(names)) for k, (n, names) in kinds.items()), key=lambda x: (-x[0], x[1]))


def page_block() -> str:
    """docs/calculator.md's account of what calc computes as Excel does and what not, from the code's
    list of checked functions (named by the file that holds it) and the corpus's known differences
    (so it cannot drift)."""
    import excelcalc.lib as checked

    CHECKED = checked.CHECKED
    where = "src/excelcalc/lib/__init__.py"  # the checkout's file, wherever it is installed

    names = sorted({n.removeprefix("_XLFN.") for n in CHECKED})
    known, refused, judged = known_differences(), refused_files(), judged_cells()
    cells = sum(judged.values())
    equal = cells - len(known) - sum(judged[f] for f in refused)
    wrong = sum(1 for d in known.values() if not d["ours"].startswith("#"))
    lines = [
        PAGE_BEGIN,
        "",
        f"calc computes {len(names)} of Excel's functions as Excel does (`CHECKED` in "
        f"`{where}`: each exercised by a workbook Excel saved, with Excel's own "
        "answers, or checked by a test against Microsoft's function reference): "
        + ", ".join(f"`{n}`" for n in names)
        + ". Any other Excel function answers `#NAME? F is not computed by benchsheet`, never an unchecked "
        "number; benchsheet's own functions compute as the add-in does.",
        "",
        f"On the corpus, {len(judged)} workbooks Excel saved (`tests/corpus`), {equal:,} of the {cells:,} "
        f"judged formula cells ({equal / cells:.2%}) equal the value Excel cached; "
        + (f"{len(refused)} workbooks are refused as a whole" if refused else "no workbook is refused as a whole")
        + f". The {len(known):,} others, each listed with its reason in "
        f"`tests/corpus/known_differences.toml`, by reason ({wrong} of them show a value other than "
        "Excel's rather than an error; the rest answer an error naming what is not computed):",
        "",
        "| cells | why calc's value differs from Excel's | F is |",
        "|---:|---|---|",
    ]
    for n, kind, functions in _kinds(known):
        lines.append(f"| {n} | {kind.replace('|', '&#124;')} | {', '.join(functions)} |")
    return "\n".join([*lines, "", PAGE_END])


def update_page(path: Path = PAGE) -> bool:
    """Write ``page_block`` between its markers; whether the file changed."""
    text = path.read_text(encoding="utf-8")
    start, end = text.index(PAGE_BEGIN), text.index(PAGE_END) + len(PAGE_END)
    new = text[:start] + page_block() + text[end:]
    path.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":
    main()
