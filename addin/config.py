"""The xlwings user configuration: the settings the add-in reads for every workbook.

The xlwings add-in reads ``~/.xlwings/xlwings.conf`` (``%USERPROFILE%`` on
Windows): one ``"KEY","value"`` line per setting. Its VBA (``Config.bas``,
``GetConfigFromFile``) compares keys case-insensitively and takes the first line
that matches; xlwings' Python reader (``xlwings.utils.read_user_config``) takes
the last. The ribbon writes the UDF modules under the key ``UDF MODULES`` (with a
space), as a ``;``-separated list; a ``UDF_MODULES`` line is never read.

Writing is ``benchsheet.addin.changes``: one line edited in place, every other
line as it was, shown first, backed up and recorded so that uninstall undoes it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from benchsheet.data.userfiles import too_large
from benchsheet.errors import SetupError

UDF_MODULE = "benchsheet.udfs.functions"
UDF_KEY = "UDF MODULES"
MISSPELT_KEY = "udf_modules"
MAX_CONFIG_BYTES = 1024 * 1024
"""The most bytes read of an xlwings configuration: a real one is a few lines."""
QUOTED = re.compile(r'"[^"]*"')  # xlwings.utils.read_user_config's pattern for one field


class ConfigError(SetupError):
    """The configuration file cannot be read or rewritten; the message says which and why."""


def xlwings_module() -> Any:
    """``import xlwings``, which reads the whole user configuration (its licence check) as UTF-8 text and
    fails on anything else: so its size is checked first (a 1.5 GB one took 12 s and 1.6 GB to fail)."""
    if "xlwings" not in sys.modules:
        _check_size(_xlwings_config_path())
    try:
        import xlwings
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{_xlwings_config_path()}: not UTF-8 text (byte {exc.start}), so xlwings cannot start; "
            "save it as UTF-8 or move it aside"
        ) from None
    return xlwings


def _xlwings_config_path() -> Path:
    """Where xlwings looks for the user configuration (xlwings/__init__.py, USER_CONFIG_FILE)."""
    if sys.platform.startswith("darwin"):
        return Path.home() / "Library" / "Containers" / "com.microsoft.Excel" / "Data" / "xlwings.conf"
    return Path.home() / ".xlwings" / "xlwings.conf"


def _check_size(path: Path) -> None:
    """A configuration of more than ``MAX_CONFIG_BYTES`` is refused by its size, before a byte is read."""
    try:
        size = path.stat().st_size
    except OSError:
        return  # none there (or not to be looked at): the reader says why, if it is read at all
    if size > MAX_CONFIG_BYTES:  # a real one is under 1 KB
        raise ConfigError(f"{path}: {too_large(size, MAX_CONFIG_BYTES, 'xlwings configuration')}")


def default_config_file() -> Path:
    """The file the xlwings add-in reads on this computer."""
    return Path(xlwings_module().USER_CONFIG_FILE)


def config_lines(path: Path) -> list[tuple[str, str]]:
    """The (key, value) of each ``"KEY","value"`` line, in file order (nothing if there is no file)."""
    if not path.is_file():
        return []
    _check_size(path)
    try:
        text = path.read_text()  # the locale's encoding, as xlwings reads and writes it
    except (OSError, UnicodeError) as exc:
        raise ConfigError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    found = []
    for line in text.splitlines():
        fields = [f.strip('"') for f in QUOTED.findall(line)]
        if len(fields) >= 2:
            found.append((fields[0], fields[1]))
    return found


def addin_settings(path: Path) -> dict[str, str]:
    """Every setting as the add-in's ``GetConfigFromFile`` reads it: keys in lower case, the first line wins."""
    settings: dict[str, str] = {}
    for key, value in config_lines(path):
        settings.setdefault(key.lower(), value)
    return settings


def udf_lines(path: Path) -> list[tuple[str, str]]:
    """The (key, value) of each line keyed ``UDF MODULES`` in any case, in file order."""
    return [(key, value) for key, value in config_lines(path) if key.lower() == UDF_KEY.lower()]


def split_modules(value: str) -> list[str]:
    """``"a; b;;a"`` as ``["a", "b"]``: trimmed, without blanks or repeats."""
    modules: list[str] = []
    for part in value.split(";"):
        name = part.strip()
        if name and name not in modules:
            modules.append(name)
    return modules


def udf_modules(path: Path) -> list[str]:
    """The modules the add-in will import: those of the first ``UDF MODULES`` line."""
    lines = udf_lines(path)
    return split_modules(lines[0][1]) if lines else []
