"""Every code example of README.md and docs/ runs here and answers what its page says (issue 43 item 3).

What counts as an example, read from the pages themselves so that a new one is run without a change here:

- a formula: a line of a fenced block that starts with ``=`` (the README's tour), or an inline code span
  ``=NAME(...)``. It is computed with ``benchsheet.evaluate``, after importing what it names (the Endpoints
  fixtures for a curve ``sub_a/...``, a real loadgen run for ``local-0001``). Where the page says what it
  answers (`` `=F(...)` answers 774.18``, `` answers `#VALUE! ...` ``) that is checked; otherwise it must
  not answer an error unless its paragraph names that error. A formula of cells (``A2:A20``) needs a
  sheet: it is only read (no "cannot read the formula");
- a command: each line of a fenced block that runs ``benchsheet`` (``$ `` prompts too), run through
  ``benchsheet.cli.main`` in a folder of its own, the lines of a block in order (an import, then an eval of
  what it imported); where the page shows its output (the line after a ``$`` prompt) that is compared. Its
  placeholders (``path/to/sub_a``, ``IN.xlsx``, ``[--out ...]``) are given real files (``PLACEHOLDERS``);
  the few that cannot run here are in ``NOT_RUN`` with the test that runs them instead;
- a Python block: run as it is, with its free names (``out``, ``src``) given files.

A failure names the page and line, the example and what it answered. Other helpers change answers in parallel:
a page whose example drifts is fixed at the page, not here.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from benchsheet import evaluate
from benchsheet.cli import main
from excelcalc.formula_text import shown
from excelcalc.values import is_error
from tests import ROOT
from tests.conftest import SERVER_LOG

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ENDPOINTS = ROOT / "tests" / "benchsheet" / "data" / "endpoints"  # MLCommons' v1.0 fixtures, sub_a and sub_b
COMMAND = re.compile(r"(benchsheet|py -m|pip|scripts/|python3|\(cd)")  # how a command line of a page starts
FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.MULTILINE | re.DOTALL)

NOT_RUN = {  # command lines that cannot run here, and what runs them instead
    "python3 -m venv .venv": "the README's main job: scripts/check_release.py runs it from the wheel (CI)",
    "(cd tests/pyodide && npm ci": "the README's test command: .ci/run runs it (test_docs.test_ci_runs_...)",
    "benchsheet refresh #": "downloads from MLCommons: tests/benchsheet/data/test_refresh*.py, over local HTTP",
    "benchsheet refresh --round": "downloads from MLCommons: tests/benchsheet/data/test_refresh*.py",
    "py -m pip install": "Windows' launcher: tests/addin runs the add-in's commands through benchsheet.cli",
    "py -m benchsheet addin install": "Windows and Excel: tests/addin/test_addin.py runs install on real files",
    "scripts/render_workbook.sh": "LibreOffice: the slow render test (tests/templates/test_builder.py)",
    "pip wheel --no-deps -w dist .": "test_the_wheel_is_as_large_as_the_page_says builds it the same way, offline",
}
"""A command line starting with one of these (its comment's spaces aside) is not run here; each says what does."""

OUTPUTS = {  # a block of error texts a page shows as cells show them -> a formula that answers each
    "#N/A No entry '6.1-9999' in the loaded results": '=PERGPU("6.1-9999","gpt-oss-120b","Server")',
    "#VALUE! utilization must be a number, not 'abc'": '=COSTPERMTOK(5,1000,"abc")',
}


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    text: str
    context: str  # the paragraph (or block) around it: what the page says of it
    section: str = ""  # its section, from the heading above to the next one

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.text}"


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _paragraph(text: str, at: int) -> str:
    start = text.rfind("\n\n", 0, at) + 2
    end = text.find("\n\n", at)
    return text[start : end if end != -1 else len(text)]


def _section(text: str, at: int) -> str:
    heads = [m.start() for m in re.finditer(r"^#{1,6} ", text, flags=re.MULTILINE)]
    start = max((h for h in heads if h <= at), default=0)
    return text[start : min((h for h in heads if h > at), default=len(text))]


def _formulas() -> list[Example]:
    found: list[Example] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        name = str(page.relative_to(ROOT))
        for block in FENCE.finditer(text):
            for i, line in enumerate(block.group(3).splitlines()):
                m = re.match(r"\s*(=[A-Z]\S.*?)(?:\s{2,}|$)", line)
                if m and "..." not in m.group(1):  # what the page says of it: its line, the paragraph below
                    said = line + "\n" + _paragraph(text, block.end() + 2)
                    found.append(Example(name, _line(text, block.start(3)) + i, m.group(1), said))
        prose = FENCE.sub(lambda b: re.sub(r"[^\n]", " ", b.group(0)), text)  # the blocks blanked, in place
        for m in re.finditer(r"`(=[A-Z][A-Z0-9.]*\([^`]*)`", prose):
            if "..." not in m.group(1):
                said = _paragraph(prose, m.start())
                found.append(Example(name, _line(prose, m.start()), m.group(1), said, _section(text, m.start())))
    return found


def _blocks() -> list[Example]:
    """Every fenced block of the pages; its kind (``bash``, ``python``, ...) as its context."""
    found: list[Example] = []
    for page in PAGES:
        text, name = page.read_text(encoding="utf-8"), str(page.relative_to(ROOT))
        found += [Example(name, _line(text, b.start(3)), b.group(3), b.group(2)) for b in FENCE.finditer(text)]
    return found


def _runs_commands(block: Example) -> bool:
    lines = block.text.splitlines()
    return block.context in ("bash", "sh", "") and any(COMMAND.match(line.strip().removeprefix("$ ")) for line in lines)


FORMULAS = _formulas()
COMMANDS = [b for b in _blocks() if _runs_commands(b)]
PYTHON = [b for b in _blocks() if b.context == "python"]


def _import_what_it_names(text: str, shared: Path, tmp_path: Path) -> bool:
    """The curves and private entries an example names, imported as the pages say they come in; whether any."""
    if "sub_a/" in text or "sub_b/" in text:
        for sub in ("sub_a", "sub_b"):
            assert main(["import-run", str(ENDPOINTS / sub)]) == 0
    if "local-0001" in text:
        folder = tmp_path / "run" / "deepseek-r1" / "Server"
        folder.mkdir(parents=True)
        src = shared / "loadgen" / SERVER_LOG
        shutil.copy(src / "mlperf_log_summary.txt", folder)
        shutil.copy(src.parent.parent / "system.json", tmp_path / "run" / "system.json")
        assert main(["import-run", str(folder)]) == 0
    return "sub_a/" in text or "sub_b/" in text or "local-0001" in text


_CELLS = re.compile(r"""(?<![\w."])\$?[A-Z]{1,3}\$?\d+\b|\b(?:Price|Qty)\b""")  # A2, $A$2, B15; a sheet's names


def _needs_a_sheet(formula: str) -> bool:
    outside = re.sub(r'"[^"]*"', '""', formula)  # not inside its texts
    return bool(_CELLS.search(outside))


def _claim(example: Example) -> str | None:
    """What the page says the formula answers: `` `F` answers X`` (a number or a code span)."""
    at = example.context.find(example.text)
    if at < 0:
        return None
    m = re.match(r"`\s+answers\s+(`[^`]+`|-?[\d,]+(?:\.\d+)?)", example.context[at + len(example.text) :])
    return m.group(1).strip("`") if m else None


@pytest.mark.parametrize("example", FORMULAS, ids=str)
def test_every_formula_of_the_docs_answers_what_its_page_says(
    example: Example, shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if _import_what_it_names(example.text, shared, tmp_path):  # the page must say so (README's CURVEAT did not)
        said = example.context + example.section
        assert "import-run" in said, f"{example} needs `benchsheet import-run` first; its page does not say so there"
    capsys.readouterr()
    value = evaluate(example.text)
    answer = shown(value, is_error)
    if _needs_a_sheet(example.text):  # computed in a sheet; here it is only read
        assert "cannot read the formula" not in answer, f"{example} does not read: {answer}"
        return
    claim = _claim(example)
    if claim is not None and claim.startswith("#"):
        answer = " ".join(answer.split())  # a page wraps its lines
        pieces = [" ".join(p.split()) for p in claim.split("...") if p.strip()]
        assert is_error(value) and all(p in answer for p in pieces), f"{example} answers {answer!r}, not {claim!r}"
    elif claim is not None:
        decimals = len(claim.partition(".")[2])
        number = float(claim.replace(",", ""))
        assert isinstance(value, int | float) and not is_error(value), f"{example} answers {answer!r}, not {claim}"
        assert round(float(value), decimals) == number, f"{example} answers {answer!r}, not {claim}"
    elif is_error(value):
        code = answer.split()[0]
        assert code in example.context, f"{example} answers {answer!r}; its page does not say it fails"


def test_the_examples_are_found() -> None:
    """The reader above finds the examples the pages hold (a change of their form would hide them)."""
    pages = {e.page for e in FORMULAS}
    assert {"README.md", "docs/functions.md", "docs/excel.md", "docs/data.md"} <= pages
    assert any("CURVEAT(" in e.text for e in FORMULAS if e.page == "README.md")
    assert len(FORMULAS) >= 60 and len(COMMANDS) >= 8 and len(PYTHON) >= 2


def _placeholders(line: str, tmp: Path, shared: Path) -> str:
    """A command line of a page with its placeholders given real files (in ``tmp``, its working folder)."""
    run = tmp / "run" / "deepseek-r1" / "Server"
    if not run.exists():
        run.mkdir(parents=True)
        src = shared / "loadgen" / SERVER_LOG
        shutil.copy(src / "mlperf_log_summary.txt", run)
        shutil.copy(src.parent.parent / "system.json", tmp / "run" / "system.json")
        shutil.copy(shared / "v6.1" / "summary.json", tmp / "summary.json")
    swaps = {
        "path/to/deepseek-r1/Server": str(run),
        "LOG --system system.json": f"{run / 'mlperf_log_summary.txt'} --system {tmp / 'run' / 'system.json'}",
        "path/to/<submission>": str(ENDPOINTS),  # a folder holding several submissions
        "path/to/sub_a": str(ENDPOINTS / "sub_a"),
        "path/to/sub_b": str(ENDPOINTS / "sub_b"),
        "--from ../shared/mlperf": f"--from {shared} --out {tmp / 'snapshot'}",  # never over the package's own
        "[--out cluster-sizing.xlsx]": "--out cluster-sizing.xlsx",
        "IN.xlsx [--out OUT.xlsx]": "cluster-sizing.xlsx --out out.xlsx",
        "IN.xlsx OUT.xlsx": "cluster-sizing.xlsx frozen.xlsx",
    }
    for placeholder, real in swaps.items():
        line = line.replace(placeholder, real)
    assert not re.search(r"<\w+>|\[--|\bIN\.xlsx\b", line), f"a placeholder left in {line!r}: add it to the swaps"
    return line


@pytest.mark.parametrize("block", COMMANDS, ids=lambda b: f"{b.page}:{b.line}")
def test_every_command_of_the_docs_runs(
    block: Example, shared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    lines = block.text.splitlines()
    for i, raw in enumerate(lines):
        line = raw.strip()
        prompt = line.startswith("$ ")
        line = line.removeprefix("$ ")
        if not line or not COMMAND.match(line):
            continue  # an output line, shown after its command
        if any(" ".join(line.split()).startswith(skip) for skip in NOT_RUN):
            continue
        argv = shlex.split(_placeholders(line, tmp_path, shared), comments=True)
        assert argv[0] == "benchsheet", f"{block.page}:{block.line + i}: {line!r} is not a command this test runs"
        shown_output = lines[i + 1].strip() if prompt and i + 1 < len(lines) else ""
        expected_status = 1 if "(exit status 1)" in shown_output else 0
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv[1:])
        where = f"{block.page}:{block.line + i}: {line}"
        assert status == expected_status, f"{where} exited {status}: {err.getvalue()[-500:]}"
        if shown_output:  # the page shows what it prints
            printed = (out.getvalue() + err.getvalue()).strip()
            said = shown_output.removesuffix("(exit status 1)").strip()
            assert " ".join(printed.split()).removeprefix("error: ") == " ".join(said.split()), (
                f"{where} prints {printed!r}; the page shows {said!r}"
            )


@pytest.mark.parametrize("block", PYTHON, ids=lambda b: f"{b.page}:{b.line}")
def test_every_python_example_of_the_docs_runs(block: Example, tmp_path: Path) -> None:
    src = tmp_path / "in.xlsx"
    assert main(["template", "build", "--out", str(src)]) == 0
    names: dict[str, Any] = {"out": tmp_path / "new.xlsx", "src": src}
    try:
        exec(compile(block.text, f"{block.page}:{block.line}", "exec"), names)
    except Exception as exc:
        pytest.fail(f"{block.page}:{block.line}: the example raised {type(exc).__name__}: {exc}")


def test_the_error_texts_a_page_shows_are_answers() -> None:
    """docs/excel.md shows what a cell holds on a failure; each line is what a call answers."""
    page = (ROOT / "docs" / "excel.md").read_text(encoding="utf-8")
    block = next(b.group(3) for b in FENCE.finditer(page) if b.group(3).lstrip().startswith("#"))
    lines = [line.strip() for line in block.splitlines() if line.strip()]
    assert lines == list(OUTPUTS), "a new error text on docs/excel.md: add the formula that answers it"
    for text, formula in OUTPUTS.items():
        assert shown(evaluate(formula), is_error) == text, formula


def test_the_paired_line_data_md_shows_is_what_paired_answers(capsys: pytest.CaptureFixture[str]) -> None:
    page = (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
    block = next(b.group(3) for b in FENCE.finditer(page) if "MLPerf Endpoints at 100 tokens/s" in b.group(3))
    for sub in ("sub_a", "sub_b"):
        assert main(["import-run", str(ENDPOINTS / sub)]) == 0
    capsys.readouterr()
    formula = re.search(r"benchsheet eval '(=PAIRED\([^']+\))'", page)
    assert formula is not None
    assert " ".join(block.split()) in " ".join(shown(evaluate(formula.group(1)), is_error).split())


def test_the_workbook_page_names_only_sample_quotes_the_workbook_has() -> None:
    from benchsheet.templates.sheets.quotes import OWNED, SAMPLE_QUOTES

    page = (ROOT / "docs" / "workbook.md").read_text(encoding="utf-8")
    ordinals = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    for n, word in enumerate(ordinals, start=1):
        if re.search(rf"\b{word} quote\b", page):
            assert n <= len(SAMPLE_QUOTES), (
                f"docs/workbook.md names a {word} quote; the sample has {len(SAMPLE_QUOTES)}"
            )
    if re.search(r"`owned`[^|)]*sample", page):  # a sample quote said to be owned
        assert any(str(q[2]) == OWNED for q in SAMPLE_QUOTES)


@pytest.mark.slow
def test_the_wheel_is_as_large_as_the_page_says(tmp_path: Path) -> None:
    """docs/excel.md: `pip wheel --no-deps -w dist .` writes the wheel of "about N KB"."""
    from tests import pyodide_harness

    page = (ROOT / "docs" / "excel.md").read_text(encoding="utf-8")
    said = re.search(r"\(about (\d+) KB: the package and its\s+bundled snapshot\)", page)
    assert said is not None
    size = pyodide_harness.build_wheel(tmp_path).stat().st_size / 1000
    assert abs(size - int(said.group(1))) <= 0.1 * size, f"the wheel is {size:.0f} KB; docs/excel.md says {said[1]}"
