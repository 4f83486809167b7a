"""The docs are made from the code, and CI runs what the README says."""

from __future__ import annotations

import re
from pathlib import Path

from benchsheet.cli import build_parser
from benchsheet.docs import cli_reference, function_reference

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
