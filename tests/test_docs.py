"""The docs are made from the code, and CI runs what the README says."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from benchsheet.catalogue.docs import cli_reference, function_reference
from benchsheet.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_function_reference_is_generated() -> None:
    assert function_reference() in _readme(), "run `benchsheet functions` and paste it into README.md"


def test_readme_command_reference_is_generated() -> None:
    assert cli_reference(build_parser()) in _readme(), "run `benchsheet functions --update README.md`"


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
    """A new user without LibreOffice or poppler sees why the render tests were skipped."""
    head = _readme().split("\n## ")[0]
    tests = _first_commands()[1]
    assert re.search(r"\bpytest -rs\b", tests)
    prerequisites = head[: head.index(tests)].rsplit("```", 2)[-2]  # the text just above the command
    assert "LibreOffice" in prerequisites and "poppler" in prerequisites


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_the_main_job_leaves_the_checkout_clean() -> None:
    """The workbook the main job writes is the user's output, not a file git should offer to add."""
    out = re.search(r"--out (\S+)", _first_commands()[0])
    assert out is not None
    done = subprocess.run(["git", "check-ignore", "-q", "--no-index", out.group(1)], cwd=ROOT)
    assert done.returncode == 0, f"{out.group(1)} is not in .gitignore"


def test_the_lite_steps_name_every_function_that_spills() -> None:
    from benchsheet.catalogue.functions import CATALOGUE

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    line = next(p for p in readme.split("\n\n") if "A range in the first argument answers one" in p)
    named = set(re.findall(r"`([A-Z]+)`", line.split("same shape;")[1]))
    assert named == {fn.name for fn in CATALOGUE if fn.returns == "table"}
