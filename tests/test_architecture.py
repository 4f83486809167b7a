"""The house: two products, the engine below the domain, no circles, names that say one thing.

``excelcalc`` (the Excel engine) never imports ``benchsheet`` (the MLPerf add-in): benchsheet
registers its catalogue into the engine. Read from the source with ``ast``, imports inside
functions counted, so a deferred import cannot hide a circle.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests import ROOT

# where each package's modules come from (pyproject.toml's package-dir)
HOMES = {
    "excelcalc": ROOT / "src" / "excelcalc",
    "benchsheet": ROOT / "src" / "benchsheet",
    "benchsheet.udfs": ROOT / "udfs",
    "benchsheet.addin": ROOT / "addin",
    "benchsheet.templates": ROOT / "templates",
}
MAX_LINES = 800
PRIVATE_API = ("formulas", "schedula")  # packages whose internals the engine relies on


def modules() -> dict[str, Path]:
    """Every module of the product, by its dotted name."""
    found: dict[str, Path] = {}
    for package, folder in HOMES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [p for p in path.relative_to(folder).with_suffix("").parts if p != "__init__"]
            found[".".join([package, *parts])] = path
    return found


def _executed(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``tree`` outside ``if TYPE_CHECKING:`` blocks (read by type checkers only)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            yield from (n for child in node.orelse for n in [child, *_executed(child)])
            continue
        yield node
        yield from _executed(node)


def _imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The product modules ``name`` imports (anywhere in it), with the line."""
    is_package = path.name == "__init__.py"
    for node in _executed(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[: len(name.split(".")) - node.level + (1 if is_package else 0)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                yield (sub if sub in known else module), node.lineno


def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        deps = set()
        for target, _ in _imports(name, path, known):
            while target and target not in known:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            if target and target != name:
                deps.add(target)
        edges[name] = deps
    return edges


def test_the_engine_never_imports_the_mlperf_domain() -> None:
    known = modules()
    wrong = [
        f"{name}:{line} imports {target}"
        for name, path in known.items()
        if name.startswith("excelcalc")
        for target, line in _imports(name, path, known)
        if target == "benchsheet" or target.startswith("benchsheet.")
    ]
    assert wrong == []


def test_the_engine_runs_in_a_fresh_interpreter_without_benchsheet() -> None:
    engine = sorted(name for name in modules() if name.startswith("excelcalc"))
    code = (
        "import importlib, json, sys\n"
        f"for m in {engine!r}: importlib.import_module(m)\n"
        "from excelcalc.formula import evaluate\n"
        "print(json.dumps({'sum': evaluate('=SUM(1,2)'), "
        "'loaded': sorted(m for m in sys.modules if m.split('.')[0] == 'benchsheet')}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.splitlines()[-1])
    assert got == {"sum": 3, "loaded": []}


def test_no_import_circle_counting_imports_inside_functions() -> None:
    edges = graph()
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                circles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert circles == []


def test_no_class_name_is_defined_twice_in_product_code() -> None:
    where: dict[str, list[str]] = {}
    for name, path in modules().items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(name)
    assert {cls: homes for cls, homes in where.items() if len(homes) > 1} == {}


def test_no_module_is_longer_than_800_lines() -> None:
    long = {
        name: n
        for name, path in modules().items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_private_api_of_formulas_and_schedula_stays_in_the_backend() -> None:
    """Only ``excelcalc.backend`` (and the workbook reader it serves) import formulas or schedula."""
    known = modules()
    users = sorted(
        {
            name
            for name, path in known.items()
            for target, _ in _imports(name, path, known)
            if target.split(".")[0] in PRIVATE_API
        }
    )
    assert users == ["excelcalc.backend"]


# the checks of the house itself (the architecture, the docs, the benchmark): the only tests at the top
HOUSE_TESTS = {"test_architecture.py", "test_docs.py", "test_benchmark_smoke.py", "test_robustness_table.py"}


def test_tests_mirror_the_packages() -> None:
    """tests/excelcalc/workbook/ tests src/excelcalc/workbook/, tests/udfs/ tests udfs/, and so on: a
    reader finds a module's tests where the module is, and a test folder for a package that went is seen."""
    folders = {"excelcalc": HOMES["excelcalc"], "benchsheet": HOMES["benchsheet"]}
    folders |= {name.rsplit(".", 1)[1]: home for name, home in HOMES.items() if name.startswith("benchsheet.")}
    tests = ROOT / "tests"
    for path in sorted(tests.rglob("test_*.py")):
        parts = path.relative_to(tests).parts[:-1]
        if not parts:
            assert path.name in HOUSE_TESTS, f"{path.name}: move it beside the package it tests (tests/<package>/)"
            continue
        assert parts[0] in folders, f"{path}: tests/{parts[0]}/ mirrors no package"
        assert folders[parts[0]].joinpath(*parts[1:]).is_dir(), f"{path}: {'/'.join(parts)} is no package folder"
        assert all((tests.joinpath(*parts[:i]) / "__init__.py").exists() for i in range(1, len(parts) + 1)), path
