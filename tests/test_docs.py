"""The docs are made from the code, and CI runs what the README says.

README.md is short (the two commands, one screenshot, a tour and links); the rest lives in docs/,
whose generated blocks are checked here (functions, commands, layout) and beside the code that
writes them (tests/excelcalc/workbook/test_corpus.py, tests/test_robustness_table.py, tests/test_benchmark_smoke.py).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from scripts import layout

from benchsheet.catalogue.docs import BEGIN, CLI_BEGIN, CLI_END, END, PAGE, cli_reference, function_reference
from benchsheet.cli import build_parser, main
from tests import ROOT

DOCS = ROOT / "docs"
README_MAX_LINES = 300
SCREENSHOT_MAX_BYTES = 250_000


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def _page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def test_readme_function_reference_is_generated() -> None:
    assert function_reference() in (ROOT / PAGE).read_text(encoding="utf-8"), (
        f"run `benchsheet functions --update {PAGE}`"
    )


def test_readme_command_reference_is_generated() -> None:
    assert cli_reference(build_parser()) in (ROOT / PAGE).read_text(encoding="utf-8"), (
        f"run `benchsheet functions --update {PAGE}`"
    )


def test_functions_update_rewrites_the_page_to_the_generated_texts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`benchsheet functions --update PAGE` puts both references back where a stale page has others."""
    stale = tmp_path / "functions.md"
    text = (ROOT / PAGE).read_text(encoding="utf-8")
    stale.write_text(text.replace("| `PERGPU(", "| `PERGPU_OLD(", 1).replace("- `benchsheet info`", "- old", 1))
    assert main(["functions", "--update", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == text
    assert str(stale) in capsys.readouterr().out


@pytest.mark.parametrize(
    ("page", "missing"),
    [
        ("# My notes\n", "<!-- functions:begin"),
        (f"{BEGIN}\nold\n{END}\n", "<!-- commands:begin"),  # the function markers only
        (f"{END}\n{BEGIN}\n{CLI_BEGIN}\n{CLI_END}\n", "<!-- functions:end -->"),  # the end before the begin
        (f"{BEGIN}\n{END}\n{CLI_BEGIN}\n{CLI_END}\n{BEGIN}\n", "once"),  # two places to write
    ],
)
def test_functions_update_on_a_page_without_its_markers_says_which_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], page: str, missing: str
) -> None:
    """Issue 42, item 7: a page without the markers is the user's mistake, not a defect to report."""
    mine = tmp_path / "notes.md"
    mine.write_text(page, encoding="utf-8")
    assert main(["functions", "--update", str(mine)]) == 2
    err = capsys.readouterr().err
    assert str(mine) in err and missing in err and "please report" not in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert mine.read_text(encoding="utf-8") == page


def test_functions_update_on_a_page_not_in_utf8_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "latin1.md"
    mine.write_bytes("caf\xe9\n".encode("latin-1"))
    assert main(["functions", "--update", str(mine)]) == 2
    err = capsys.readouterr().err
    assert str(mine) in err and "UTF-8" in err and "please report" not in err, err
    assert mine.read_bytes() == "caf\xe9\n".encode("latin-1")


def test_the_readme_is_at_most_300_lines() -> None:
    """The README is the front door: what benchsheet is, the two commands, a screenshot, a tour, links."""
    lines = _readme().count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move sections into docs/ (docs/README.md)"


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)  # no code lines
    return {_slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.MULTILINE)}


def _broken_links(path: Path) -> list[str]:
    """The relative links (and images) of a Markdown file whose file, or heading, does not exist."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        where = (path.parent / file).resolve() if file else path
        if not where.is_file() or (anchor and where.suffix == ".md" and anchor not in _anchors(where)):
            broken.append(target)
    return broken


def test_every_docs_link_of_the_readme_resolves() -> None:
    text = _readme()
    links = re.findall(r"\]\((docs/[^)\s]+)\)", text)
    assert {"docs/img/workbook.png", "docs/README.md", "docs/layout.md", "docs/functions.md"} <= set(links)
    assert _broken_links(ROOT / "README.md") == []


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_every_relative_link_of_a_docs_page_resolves(page: str) -> None:
    assert _broken_links(DOCS / page) == []


def test_the_docs_index_lists_every_page() -> None:
    index = _page("README.md")
    pages = {p.name for p in DOCS.glob("*.md")} - {"README.md"}
    assert pages == set(re.findall(r"\]\(([\w-]+\.md)\)", index)) - {"README.md"}
    readme = _readme()
    assert all(f"(docs/{name})" in readme for name in pages), "the README links every page of docs/"


def test_the_readme_shows_one_screenshot_of_the_workbook() -> None:
    images = re.findall(r"!\[([^\]]+)\]\(([^)]+)\)", _readme())
    assert [src for _, src in images] == ["docs/img/workbook.png"]
    png = (ROOT / "docs" / "img" / "workbook.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) <= SCREENSHOT_MAX_BYTES
    assert "Sizing" in images[0][0]  # the alt text says what it shows where the picture cannot load (PyPI)


def test_the_readme_keeps_the_trademark_notice() -> None:
    head = " ".join(_readme().split("\n## ")[0].split())
    assert "MLPerf® and the MLPerf logo are trademarks of MLCommons Association." in head
    assert "are derived from MLPerf results and are not official MLPerf results" in head
    assert "results are not verified by MLCommons Association" in head


def test_the_layout_table_is_generated_from_the_code() -> None:
    text = _page("layout.md")
    assert text.count(layout.BEGIN) == 1 and text.count(layout.END) == 1
    block = text[text.index(layout.BEGIN) : text.index(layout.END) + len(layout.END)]
    assert block == layout.block(), "the module table of docs/layout.md is stale: run `python scripts/layout.py`"


def test_the_layout_table_names_every_module_of_both_products() -> None:
    block = layout.block()
    for name in (
        "excelcalc.backend",
        "excelcalc.workbook",
        "benchsheet.catalogue.engine",
        "benchsheet.data.store",
        "benchsheet.udfs.functions",
        "benchsheet.addin",
        "benchsheet.templates.builder",
    ):
        assert f"| `{name}` |" in block, name
    for folder in ("src/excelcalc", "src/benchsheet", "udfs", "addin", "templates"):
        count = sum(1 for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)
        assert block.count(f"| `{folder}/") == count, folder


def test_the_page_markers_name_the_command_that_writes_them() -> None:
    """Every generated block says how to regenerate it, and names its page rather than the README."""
    assert f"--update {PAGE}" in BEGIN
    for page in DOCS.glob("*.md"):
        for marker in re.findall(r"<!-- [\w-]+:begin \((.+?)\) -->", page.read_text(encoding="utf-8")):
            assert "README" not in marker, (page.name, marker)


def test_the_command_reference_names_every_command_and_option() -> None:
    text = cli_reference(build_parser())
    for command in ("info", "eval", "refresh", "template build", "template calc", "freeze", "addin install"):
        assert f"- `benchsheet {command}" in text
    for option in ("--allow-host HOST", "--timeout TIMEOUT", "--force", "--config-only", "--wheel-url URL"):
        assert f"  - `{option}`: " in text


def _first_commands() -> list[str]:
    return re.findall(r"```bash\n(.+?)\n```", _readme(), flags=re.DOTALL)[:2]


def test_readme_opens_with_two_commands() -> None:
    head = _readme().split("\n## ")[0]
    assert len(re.findall(r"```bash\n", head)) == 2
    main_job, tests = _first_commands()
    assert "\n" not in main_job and "\n" not in tests
    assert "pip install ." in main_job and "benchsheet" in main_job
    assert "pytest" in tests


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _first_commands()[1] in ci.splitlines()


def test_ci_checks_the_release_packaging() -> None:
    """CI builds the wheel and sdist, checks them, and runs the main job from the wheel alone."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    tests = ci.index(_first_commands()[1])
    assert "python scripts/check_release.py" in ci[tests + 1 :]  # after the tests, in their environment
    from scripts.check_release import main_job

    assert main_job() == _first_commands()[0].partition("pip install . && ")[2]
    extra = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"build>=' in extra and '"twine>=' in extra  # the test extra installs what the check runs


def test_the_test_command_says_what_it_skipped_and_needs() -> None:
    """Issue 43 item 2: what each part of the test command needs, and how the slow set runs. pyproject's
    addopts deselect the slow tests (-m 'not slow'), so the README's `pytest -rs` never runs them: the text
    says so, names the command that does (and .ci/run runs it), and what those tests need."""
    head = _readme().split("\n## ")[0]
    tests = _first_commands()[1]
    assert re.search(r"\bpytest -rs\b", tests) and tests.startswith("(cd tests/pyodide && npm ci")
    prerequisites = " ".join(head[: head.index(tests)].rsplit("```", 2)[-2].split())  # the text above it
    for needed in ("Node.js", "npm", "Python >= 3.11", "LibreOffice", "poppler", "-m 'not slow'", ".ci/run"):
        assert needed in prerequisites, needed
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "-m 'not slow'" in addopts["addopts"]  # what the text says pytest leaves out
    slow = re.search(r"`(pytest -rs -m slow)`", prerequisites)
    assert slow is not None
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert slow.group(1) in ci  # CI runs the slow set as the README says


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_the_main_job_leaves_the_checkout_clean() -> None:
    """The workbook the main job writes is the user's output, not a file git should offer to add."""
    out = re.search(r"--out (\S+)", _first_commands()[0])
    assert out is not None
    done = subprocess.run(["git", "check-ignore", "-q", "--no-index", out.group(1)], cwd=ROOT)
    assert done.returncode == 0, f"{out.group(1)} is not in .gitignore"


def test_the_lite_steps_name_every_function_that_spills() -> None:
    from benchsheet.catalogue.functions import CATALOGUE

    excel = _page("excel.md")
    line = next(p for p in excel.split("\n\n") if "A range in the first argument answers one" in p)
    named = set(re.findall(r"`([A-Z]+)`", line.split("same shape;")[1]))
    assert named == {fn.name for fn in CATALOGUE if fn.returns == "table"}


def _input_blocks(ws: Any) -> set[str]:
    """The input blocks of a built sheet, as its section titles name them ("Workload", "The mix"): the section
    title (bold, underlined, column A) above each unlocked cell, up to its first ":", " (", "," or " at "."""
    sections = {
        c.row: str(c.value)
        for (c,) in ws.iter_rows(max_col=1)
        if c.value and c.font.bold and c.border.bottom.style and c.fill.fill_type is None
    }
    blocks = set()
    for row in ws.iter_rows():
        for cell in row:
            above = [r for r in sections if r < cell.row]
            if cell.protection.locked is False and above:
                blocks.add(re.split(r":| \(|,| at ", sections[max(above)])[0])
    return blocks


def test_the_workbook_page_says_what_each_sheet_expects_a_user_to_edit(tmp_path: Path) -> None:
    """issue 40: docs/workbook.md says, for every sheet of the built workbook, what you edit there (naming each
    block of yellow, unlocked cells as the sheet titles it) and what follows from it; a sheet without an
    input cell says "nothing"."""
    import openpyxl

    from benchsheet.templates.builder import build

    path = tmp_path / "cluster-sizing.xlsx"
    build(path)
    page = _page("workbook.md")
    section = page[page.index("## What you edit here, sheet by sheet") :].split("\n## ")[0]
    paragraphs = {
        m.group(1): " ".join(m.group(2).split())
        for m in re.finditer(r"^\*\*(.+?)\.\*\* (What you edit here:.*?)(?=\n\n|\Z)", section, re.DOTALL | re.M)
    }
    wb = openpyxl.load_workbook(path, data_only=True)
    sheets = [ws for ws in wb.worksheets if ws.sheet_state == "visible"]
    assert list(paragraphs) == [ws.title for ws in sheets]  # every sheet, in the workbook's order
    for ws in sheets:
        said, blocks = paragraphs[ws.title], _input_blocks(ws)
        assert "What follows:" in said, ws.title
        for block in blocks:
            assert f"*{block.lower()}" in said.lower(), (ws.title, block)  # named as the sheet titles it
        if not any(c.protection.locked is False for row in ws.iter_rows() for c in row):
            assert said.startswith("What you edit here: nothing"), ws.title
