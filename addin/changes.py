"""What ``benchsheet addin install`` changes in the xlwings configuration: shown, backed up, recorded, undone.

Every change is a list of ``Edit`` (set one key, or take out every line of one key) applied to
the file's text line by line: a set replaces the value of the key's first line in place (the add-in
reads the first), or adds a line at the end; every other line, blank lines and line endings
included, stays as it was (xlwings' own ``update_user_config`` would drop blank lines and move the
key to the end). Before it writes, the change is shown as the lines it takes out and adds; the file
as it was is copied beside it (``xlwings.conf.benchsheet-backup``, then ``-2``, ``-3``, ...: an
earlier backup is never overwritten); what install changed is recorded beside it too
(``xlwings.conf.benchsheet.json``), so that ``uninstall`` puts back exactly that: the whole file
where nobody changed it since, else each key install changed and nobody changed since.
"""

from __future__ import annotations

import json
import locale
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsheet.addin.config import QUOTED, ConfigError

Say = Callable[[str], None]


@dataclass(frozen=True)
class Edit:
    """Set ``key`` to ``value``, or (``value`` None) take out every line keyed ``key`` in any case."""

    key: str
    value: str | None
    why: str  # one line for the user: what this does and why


def _encoding() -> str:
    return locale.getpreferredencoding(False)  # as xlwings reads and writes the file (open() without encoding)


def read(path: Path) -> str | None:
    """The file's text with its own line endings; None if there is no file."""
    if not path.is_file():
        return None
    try:
        with path.open(encoding=_encoding(), newline="") as f:
            return f.read()
    except (OSError, UnicodeError) as exc:
        raise ConfigError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None


def _write(path: Path, data: str | bytes, *, replace: bool = True) -> None:
    """Write ``path`` whole or not at all (a temporary file renamed over it): a kill leaves the old file."""
    from excelcalc.files import WriteRefused, write_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data.encode(_encoding()) if isinstance(data, str) else data, replace=replace)
    except WriteRefused as exc:
        raise ConfigError(str(exc)) from None
    except (OSError, UnicodeError) as exc:
        raise ConfigError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None


def _key(line: str) -> str | None:
    fields = QUOTED.findall(line)
    return fields[0].strip('"').lower() if len(fields) >= 2 else None


def _ending(lines: Sequence[str]) -> str:
    return next((line[len(line.rstrip("\r\n")) :] for line in lines if line.endswith("\n")), "\n")


def key_lines(text: str, key: str) -> list[str]:
    """The lines keyed ``key`` (any case), without their line endings."""
    return [line.rstrip("\r\n") for line in text.splitlines(keepends=True) if _key(line) == key.lower()]


def apply(text: str, edits: Sequence[Edit]) -> str:
    """``text`` with ``edits`` made, every other line as it was."""
    lines = text.splitlines(keepends=True)
    for edit in edits:
        at = [i for i, line in enumerate(lines) if _key(line) == edit.key.lower()]
        if edit.value is None:
            lines = [line for i, line in enumerate(lines) if i not in at]
        elif at:
            line = lines[at[0]]
            written = QUOTED.findall(line)[0]  # the key as the user spelt it
            lines[at[0]] = f'{written},"{edit.value}"{line[len(line.rstrip(chr(13) + chr(10))) :]}'
        else:
            ending = _ending(lines)
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += ending
            lines.append(f'"{edit.key}","{edit.value}"{ending}')
    return "".join(lines)


def diff(before: str, after: str) -> list[str]:
    """The lines taken out (``  - ``) and added (``  + ``), key by key."""
    shown: list[str] = []
    keys = dict.fromkeys(k for k in map(_key, (before + "\n" + after).splitlines()) if k is not None)
    for key in keys:
        old, new = key_lines(before, key), key_lines(after, key)
        if old != new:
            shown += [f"  - {line}" for line in old if line not in new]
            shown += [f"  + {line}" for line in new if line not in old]
    return shown


# ------------------------------------------------------------ backup and record


def state_file(config: Path) -> Path:
    return config.with_name(config.name + ".benchsheet.json")


def _backup(config: Path) -> Path:
    """A copy of ``config`` beside it, under a name no earlier backup has."""
    base = config.with_name(config.name + ".benchsheet-backup")
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    try:
        data = config.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{config}: cannot keep a backup ({exc.strerror or exc}); nothing was changed") from None
    try:
        _write(path, data, replace=False)
    except ConfigError as exc:
        raise ConfigError(f"{exc}; cannot keep a backup, so nothing was changed") from None
    return path


def _record(config: Path) -> dict[str, Any] | None:
    """What install recorded, as install writes it; a file of any other shape is a ``ConfigError``."""
    path = state_file(config)
    if not path.is_file():
        return None
    damaged = (
        f"{path}: benchsheet's record of its changes is damaged (%s), so uninstall cannot tell what install "
        "changed; move it aside, and put back by hand what you want from the backups beside it "
        f"({config.name}.benchsheet-backup, -2, ...)"
    )
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: benchsheet's record of its changes cannot be read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(damaged % f"not JSON at line {exc.lineno}") from None
    except ValueError:
        raise ConfigError(damaged % "not UTF-8 text") from None
    if not _is_record(found):
        raise ConfigError(damaged % "not what install writes")
    return dict(found)


def _is_record(found: Any) -> bool:
    """``{"before": text or null, "after": text, "keys": {key: {"before": [lines], "after": [lines]}}}``."""

    def lines(value: Any) -> bool:
        return isinstance(value, list) and all(isinstance(line, str) for line in value)

    return (
        isinstance(found, dict)
        and isinstance(found.get("before"), str | None)
        and "before" in found
        and isinstance(found.get("after"), str)
        and isinstance(found.get("keys"), dict)
        and all(
            isinstance(change, dict) and lines(change.get("before")) and lines(change.get("after"))
            for change in found["keys"].values()
        )
    )


def recorded(config: Path) -> list[str]:
    """The settings install changed and uninstall would put back, as the file spells their keys."""
    record = _record(config)
    return [key.upper() for key in record["keys"]] if record else []


def write(config: Path, before: str | None, after: str, say: Say, *, dry_run: bool = False, record: Any = None) -> None:
    """Show the change, then (unless ``dry_run``) keep a backup of the file, write ``record`` (if any) and
    then ``after``: killed between the two, uninstall finds the file as the record's "before" and leaves it."""
    say(f"{config}: benchsheet will write{' (a new file)' if before is None else ''}:")
    for line in diff(before or "", after):
        say(line)
    if dry_run:
        say(f"{config}: nothing written (--dry-run)")
        return
    if before is not None:
        say(f"{config}: backup of the file as it was: {_backup(config)}")
    if record is not None:
        _write(state_file(config), json.dumps(record, indent=1))
    _write(config, after)


def install_changes(config: Path, edits: Sequence[Edit], say: Say, *, dry_run: bool = False) -> bool:
    """Make ``edits`` (shown first, with a backup) and record them for ``uninstall``; False if nothing changes."""
    before = read(config)
    after = apply(before or "", edits)
    if after == (before or "") and not (before is None and after):
        return False
    for edit in edits:
        say(f"{config}: {edit.why}")
    if dry_run:
        write(config, before, after, say, dry_run=True)
        return True
    record = _record(config) or {"before": before, "keys": {}}
    keys: dict[str, Any] = record["keys"]
    for key in dict.fromkeys(edit.key.lower() for edit in edits):
        old, new = key_lines(before or "", key), key_lines(after, key)
        if old != new:
            keys.setdefault(key, {"before": old})["after"] = new
    record["after"] = after
    write(config, before, after, say, record=record)
    return True


def put_back(config: Path, say: Say) -> None:
    """Undo what install recorded: the whole file where it is as install left it, else key by key."""
    record = _record(config)
    if record is None:
        say(f"{config}: nothing of benchsheet's to put back (install changed nothing here)")
        return
    now = read(config)
    if now is None:
        say(f"{config}: not there any more, so nothing to put back")
        state_file(config).unlink()
        return
    if now == record["after"]:
        wanted = record["before"]
    elif now == record["before"]:  # put back already (an uninstall stopped before it removed the record)
        wanted = now
    else:
        wanted = now or ""
        for key, change in record["keys"].items():
            if key_lines(wanted, key) == change["after"]:
                wanted = _replace_key(wanted, key, change["before"])
            else:
                say(f"{config}: {key.upper()} changed since install; left as it is")
    if wanted is None:
        say(f"{config}: install created it; removed")
        config.unlink()  # one step: the file is there or gone
    elif wanted != now:
        say(f"{config}: put back what `benchsheet addin install` changed:")
        for line in diff(now or "", wanted):
            say(line)
        if now is not None:
            say(f"{config}: backup of the file as it was: {_backup(config)}")
        _write(config, wanted)
    else:
        say(f"{config}: already as it was before install")
    state_file(config).unlink()


def _replace_key(text: str, key: str, lines: Sequence[str]) -> str:
    """``text`` with the lines keyed ``key`` replaced by ``lines`` (where the first was, else at the end)."""
    old = text.splitlines(keepends=True)
    ending = _ending(old)
    at = [i for i, line in enumerate(old) if _key(line) == key]
    kept = [line for i, line in enumerate(old) if i not in at]
    where = at[0] if at else len(kept)
    if where == len(kept) and kept and not kept[-1].endswith("\n"):
        kept[-1] += ending
    return "".join([*kept[:where], *(line + ending for line in lines), *kept[where:]])
