"""What the CLI writes to the terminal: ``error: <message>`` on stderr (red where it is a terminal), and every
control character of any output escaped (``escaping``), so text from outside never acts on the terminal."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO


class Escaping(io.TextIOBase):
    """A text stream writing to ``inner`` with each control character (ESC, BEL, CR, U+202E...) escaped as
    ``\\x1b``; newlines and tabs as they are. What a command prints of a file, a name or a reason passes
    through it, whichever module prints it."""

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self.inner = inner

    def write(self, text: str) -> int:
        from benchsheet.data.values import escaped

        self.inner.write(escaped(text, keep="\n\t"))
        return len(text)

    def flush(self) -> None:
        self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> Any:  # type: ignore[override]  # the inner stream's, read-only as TextIOWrapper's is
        return getattr(self.inner, "encoding", "utf-8")


def raw(stream: TextIO) -> TextIO:
    """The stream under an ``Escaping`` one: for rich, which writes its own colours and cursor moves."""
    return stream.inner if isinstance(stream, Escaping) else stream


@contextmanager
def escaping() -> Iterator[None]:
    """While a command runs, stdout and stderr escape control characters; a stream that cannot show a
    character writes its escape (``\\xae`` where the terminal is ASCII) instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Escaping(sys.stdout), Escaping(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def print_error(message: str) -> None:
    from rich.console import Console
    from rich.text import Text

    from benchsheet.data.values import escaped

    # text from outside in a message (a name, a path) never reaches the terminal raw: ESC, BEL, U+202E and a
    # newline escaped, so the message is one line
    line = Text.assemble(("error:", "bold red"), " ", escaped(message))  # a message is never read as markup
    Console(file=raw(sys.stderr), highlight=False, soft_wrap=True).print(line)
