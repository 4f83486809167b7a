"""The one place the CLI prints an error: ``error: <message>`` on stderr, red where it is a terminal."""

from __future__ import annotations


def print_error(message: str) -> None:
    from rich.console import Console
    from rich.text import Text

    line = Text.assemble(("error:", "bold red"), " ", message)  # a message is never read as markup
    Console(stderr=True, highlight=False, soft_wrap=True).print(line)
