"""The command line described as data: each command once, with its options, its help and what runs it.

``Command`` trees become argparse parsers through ``add``; the ``benchsheet`` command
(``cli.py``), ``benchsheet addin`` (addin/cli.py) and ``benchsheet template``/``freeze``
(templates/cli.py) each declare theirs. The command reference in docs/functions.md is generated from the parser.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Run = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Option:
    """One argument: its flags (or name) and ``add_argument``'s settings."""

    flags: tuple[str, ...]
    settings: Mapping[str, Any] = field(default_factory=dict)


def opt(*flags: str, **settings: Any) -> Option:
    return Option(flags, settings)


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    run: Run | None = None  # a command with sub-commands runs one of them
    description: str | None = None  # default: the help
    options: tuple[Option, ...] = ()
    commands: tuple[Command, ...] = ()
    metavar: str = "COMMAND"  # how its sub-commands are called in its usage line
    aliases: tuple[str, ...] = ()  # other names that run it (argparse shows them beside its name)


def add(sub: Any, command: Command) -> argparse.ArgumentParser:
    """Add ``command`` (and its sub-commands) to an argparse sub-parsers object."""
    parser: argparse.ArgumentParser = sub.add_parser(
        command.name, help=command.help, description=command.description or command.help, aliases=command.aliases
    )
    for option in command.options:
        parser.add_argument(*option.flags, **option.settings)
    if command.commands:
        inner = parser.add_subparsers(
            dest=f"{command.name}_{command.metavar.lower()}", metavar=command.metavar, required=True
        )
        for child in command.commands:
            add(inner, child)
    else:
        parser.set_defaults(func=command.run)
    return parser
