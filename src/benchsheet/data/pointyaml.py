"""``point.yaml`` of an MLPerf Endpoints point read as Python: the block YAML subset these files are written in
(mappings by indentation, lists of scalars, plain and quoted scalars). PyYAML is no dependency of benchsheet,
and anything outside that subset is an error naming the line."""

from __future__ import annotations

import json
import re
from typing import Any

from benchsheet.errors import DataError

_KEY = re.compile(r"([A-Za-z0-9_.-]+):(?: (.*))?")


def read_point_yaml(data: bytes, name: str) -> dict[str, Any]:
    """A ``point.yaml`` as Python: nested mappings by indentation, lists of scalars ("- x"), and scalars
    (integers, floats, true/false/null, plain or quoted text). Flow collections, anchors, tags and
    multi-line scalars are not in these files; meeting one is an error naming the line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DataError(name, None, None, "not UTF-8 text") from None
    lines = [
        (n, len(raw) - len(raw.lstrip(" ")), raw.strip())
        for n, raw in enumerate(text.splitlines(), 1)
        if raw.strip() and not raw.lstrip().startswith("#")
    ]
    stack = lines[::-1]  # the lines left, the next one last: each is taken once (pop), however long the file
    doc = _block(stack, 0, name, 0)
    if stack:
        raise DataError(name, None, None, "unexpected indentation", line=stack[-1][0])
    if not isinstance(doc, dict):
        raise DataError(name, None, None, "expected a mapping of fields")
    return doc


_MAX_DEPTH = 50  # point.yaml nests 3 deep


def _block(stack: list[tuple[int, int, str]], indent: int, name: str, depth: int) -> Any:
    """The mapping or list at ``indent`` that starts the lines left (``stack``, next line last), taken off it."""
    if depth > _MAX_DEPTH:
        raise DataError(name, None, None, f"nested more than {_MAX_DEPTH} deep", line=stack[-1][0])
    if stack and stack[-1][2].startswith("- "):
        items = []
        while stack and stack[-1][1] == indent and stack[-1][2].startswith("- "):
            number, _, text = stack.pop()
            items.append(_scalar(text[2:].strip(), name, number))
        return items
    mapping: dict[str, Any] = {}
    while stack and stack[-1][1] == indent:
        number, _, text = stack.pop()
        m = _KEY.fullmatch(text)
        if not m:
            raise DataError(name, None, None, f"not a 'key: value' line: {text[:40]!r}", line=number)
        if m.group(2) is None or m.group(2).strip() == "":
            inner = stack[-1][1] if stack else -1
            is_list = bool(stack) and stack[-1][2].startswith("- ") and inner >= indent
            mapping[m.group(1)] = (
                _block(stack, inner, name, depth + 1) if stack and (inner > indent or is_list) else None
            )
        else:
            mapping[m.group(1)] = _scalar(m.group(2).strip(), name, number)
    if stack and stack[-1][1] > indent:
        raise DataError(name, None, None, "unexpected indentation", line=stack[-1][0])
    return mapping


def _scalar(text: str, name: str, line: int) -> Any:
    if text[:1] in ('"', "'"):
        if len(text) < 2 or text[-1] != text[0]:
            raise DataError(name, None, None, "a quoted text that does not end on its line", line=line)
        body = text[1:-1]
        if text[0] == "'" or "\\" not in body:
            return body.replace("''", "'") if text[0] == "'" else body
        try:
            return json.loads(text)  # YAML's double-quoted escapes that JSON shares (\n, \", \u00e9...)
        except ValueError:
            raise DataError(
                name, None, None, f"an escape this reader does not take: {text[:40]!r}", line=line
            ) from None
    if text[:1] in ("[", "{", "&", "*", "!", "|", ">"):
        raise DataError(name, None, None, f"YAML this reader does not take: {text[:40]!r}", line=line)
    text = text.split(" #", 1)[0].strip()
    if text in ("null", "~", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE", "false", "False", "FALSE"):
        return text.lower() == "true"
    if re.fullmatch(r"[-+]?\d+", text, re.ASCII):
        return int(text)
    if re.fullmatch(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?", text, re.ASCII):
        return float(text)
    return text
