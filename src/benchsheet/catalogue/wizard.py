"""One function's help for the terminal (``benchsheet functions NAME``), as Excel's function wizard shows it.

Made from the catalogue and the loaded results, so that it cannot drift: the signature, what the
function answers, each argument with its help, whether it may be left out, what it takes and (for
benchmarks, scenarios, families and rounds) the values the loaded results hold; the example with
the answer it gives; and the errors it answers, each computed by calling the function with one
argument of the example made wrong. An unknown name answers the close ones (difflib).
"""

from __future__ import annotations

import difflib
import textwrap
from collections.abc import Iterator, Sequence
from typing import Any

from benchsheet.analysis import choices
from benchsheet.catalogue.calls import call
from benchsheet.catalogue.declare import Arg, Function
from benchsheet.catalogue.functions import BY_NAME, CATALOGUE
from benchsheet.catalogue.literal import Failed, answer, literal_call
from benchsheet.data.store import get_table
from benchsheet.data.table import Table
from benchsheet.errors import BenchError, BenchsheetError

WIDTH = 100
TAKES = {
    "text": "text",
    "number": "a number",
    "int": "a whole number",
    "round": 'a round, as text ("6.1") or a number',
    "spec": "an entry ID or a family (text), or a per-GPU number",
    "bool": "TRUE or FALSE",
    "cells": "a range, or one cell",
}
WRONG: dict[str, tuple[Any, ...]] = {  # values of each kind that the example's argument is replaced by
    "text": ("XYZ",),
    "spec": ("XYZ",),
    "round": ("9.9",),
    "number": ("abc", -1.0),
    "int": (2.5, 0),
    "bool": ("maybe",),
    "cells": (),
}
ANSWERS = {"number": "a number", "text": "a text", "table": "a table (rows of cells) that spills"}
LONGEST = 600  # characters of a reason shown; the rest as "…"


class UnknownFunction(BenchsheetError):
    """A name that is not in the catalogue; the message names the close ones."""


def find(name: str) -> Function:
    """The function called ``name`` (any case, with or without "=" and "()")."""
    key = name.strip().lstrip("=").removesuffix("()").rstrip("(").strip().upper()
    fn = BY_NAME.get(key)
    if fn is not None:
        return fn
    close = difflib.get_close_matches(key, BY_NAME, n=3, cutoff=0.6)
    if close:
        raise UnknownFunction(f"no function {name.strip()}; did you mean {', '.join(close)}?")
    raise UnknownFunction(f"no function {name.strip()}; the functions are: {', '.join(f.name for f in CATALOGUE)}")


def function_list() -> str:
    """Every function, one line each (its name and what it answers, shortened to the terminal's width), and
    how to see one function's help: ``benchsheet functions`` without a name."""
    width = max(len(fn.name) for fn in CATALOGUE)
    lines = [f"benchsheet's {len(CATALOGUE)} worksheet functions:", ""]
    for fn in CATALOGUE:
        line = f"  {fn.name:<{width}}  {' '.join(fn.help.split())}"
        lines.append(line if len(line) <= WIDTH else line[: WIDTH - 1].rsplit(" ", 1)[0] + " …")
    lines += ["", "One function's help (its arguments, an example, its errors): benchsheet functions NAME"]
    return "\n".join(lines)


def function_help(name: str) -> str:
    fn = find(name)
    table = get_table()
    lines = [fn.signature, f"  category {fn.category}; answers {ANSWERS[fn.returns]}", ""]
    lines += textwrap.wrap(fn.help, WIDTH)
    lines += ["", "Arguments:"]
    for arg in fn.args:
        lines += _argument(arg, table)
    example = example_args(fn)
    lines += ["", "Example:", f"  {fn.example}"]
    if example is not None:
        lines += _indented(f"{fn.name}(...) answers {_shown(_answer(fn, table, example))}", "    ")
    lines += ["", "Errors (an Excel error code and its reason; on Windows the text of the cell):"]
    lines += _indented(f"an argument left out: {_shown(_answer(fn, table, []))}", "  ")
    for arg, value, got in _errors(fn, table, example or []):
        lines += _indented(f"{arg.name} {_value(value)}: {_shown(got)}", "  ")
    lines += _indented("an error in an argument (#N/A, #DIV/0!, ...): the same error, passed on", "  ")
    return "\n".join(lines)


def _argument(arg: Arg, table: Table) -> list[str]:
    given = "required" if not arg.optional else _default(arg.default)
    out = [f"  {arg.name}  ({given})", *_indented(arg.help, "      ")]
    allowed = _allowed(arg, table)
    out += _indented(f"takes {TAKES[arg.kind]}" + (f"; in the loaded results: {allowed}" if allowed else ""), "      ")
    return out


def _default(value: Any) -> str:
    if value is None:
        return "optional"
    if isinstance(value, bool):
        return f"optional; default {'TRUE' if value else 'FALSE'}"
    shown = f'"{value}"' if isinstance(value, str) else value
    return f"optional; default {shown}"


def _allowed(arg: Arg, table: Table) -> str:
    """The values the loaded results hold for an argument that names a benchmark, scenario, family or round."""
    name = arg.name
    if name == "benchmark":
        return ", ".join(choices.benchmarks(table))
    if name == "scenario":
        return ", ".join(choices.scenarios(table))
    if name in ("family", "baseline", "candidate"):
        return "families " + ", ".join(sorted(table.families.values(), key=str.lower))
    if arg.kind == "round":
        return ", ".join(table.rounds)
    return ""


def _indented(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ") or [indent]


def example_args(fn: Function) -> list[Any] | None:
    """The arguments of ``fn``'s call in its example; a nested call of literal arguments is answered first."""
    text = fn.example
    at = text.upper().find(fn.name + "(")
    if at < 0:
        return None
    parts = _split(text[at + len(fn.name) :])
    if parts is None:
        return None
    args = []
    for part in parts:
        inner = literal_call("=" + part)  # a call of one of benchsheet's functions
        found = literal_call(f"={fn.name}({part})")  # a literal: the one argument of such a call
        if inner is not None:
            args.append(answer(*inner))
        elif found is not None and len(found[1]) == 1:
            args.append(found[1][0])
        else:
            return None
    return args


def _split(text: str) -> list[str] | None:
    """``(a,"b,c",F(d,e))...`` as ``['a', '"b,c"', 'F(d,e)']``: the top-level arguments of the leading call."""
    if not text.startswith("("):
        return None
    depth, quoted, start, parts = 0, False, 1, []
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                parts.append(text[start:i].strip())
                return [p for p in parts if p] if parts != [""] else []
        elif ch == "," and depth == 1:
            parts.append(text[start:i].strip())
            start = i + 1
    return None


def _answer(fn: Function, table: Table, args: Sequence[Any]) -> Any:
    out = call(fn, table, list(args), _failure)
    return out[0][0] if isinstance(out, list) and len(out) == 1 and len(out[0]) == 1 else out


def _failure(err: BenchError) -> Failed:
    return Failed(err.code, err.reason)


def _errors(fn: Function, table: Table, example: Sequence[Any]) -> Iterator[tuple[Arg, Any, Failed]]:
    """Each argument of the example made wrong in turn, where that answers an error (each reason once)."""
    seen: set[str] = set()
    for i, arg in enumerate(fn.args[: len(example)]):
        for value in WRONG[arg.kind]:
            got = _answer(fn, table, [*example[:i], value, *example[i + 1 :]])
            if isinstance(got, Failed) and got.text not in seen:
                seen.add(got.text)
                yield arg, value, got


def _value(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else f"{value:g}"


def _shown(value: Any) -> str:
    if isinstance(value, Failed):
        text = value.text
    elif isinstance(value, list):
        rows = len(value)
        cols = max((len(r) for r in value), default=0)
        first = " | ".join(str(c) for c in value[0]) if value else ""
        text = f"{rows} row{'s' if rows != 1 else ''} x {cols} column{'s' if cols != 1 else ''}, the first: {first}"
    else:
        text = repr(value)
    return text if len(text) <= LONGEST else text[: LONGEST - 1] + "…"
