"""The one place the CLI prints an error: ``error: <message>`` on stderr, red where it is a terminal."""

from __future__ import annotations


def print_error(message: str) -> None:
    from rich.console import Console
    from rich.text import Text

    from benchsheet.data.values import escaped

    # text from outside in a message (a name, a path) never reaches the terminal raw: ESC, BEL, U+202E escaped
    line = Text.assemble(("error:", "bold red"), " ", escaped(message, keep="\n"))  # a message is never read as markup
    Console(stderr=True, highlight=False, soft_wrap=True).print(line)
