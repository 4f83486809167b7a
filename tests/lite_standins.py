"""Stand-ins for xlwings Lite's decorators and call path, written from xlwings' source (0.37).

xlwings' real Lite code (``xlwings/pro/udfs_officejs.py``, ``xlwings/pro/_xlofficejs.py``)
is licence-checked outside the Lite add-in, so the tests cannot import it. These
functions do what that code does, step by step, and say where:

- ``func`` / ``arg`` record ``__xlfunc__`` as ``xlfunc`` / ``xlarg`` do (name, args with doc,
  options and the default of an optional argument, ret doc from the docstring);
- ``meta`` builds the Office.js metadata as ``custom_functions_meta`` does;
- ``invoke`` is ``custom_functions_call`` for a plain function: each argument as
  Office.js sends it (a matrix; an error cell is ``{"type": "Error", ...}``) goes
  through ``to_scalar``, the optional default, then ``conversion.read`` (Ensure2D,
  the officejs engine's ``clean_value_data``, the ``ndim`` adjustment); the answer
  goes through ``conversion.write`` (jagged check, Ensure2D, ``prepare_xl_data_element``
  with ``errorstr_to_errortype``); an exception becomes ``{"error": message}`` as
  the Lite runtime's wrapper returns it to the add-in, which shows #VALUE! with it.

This file is copied into Pyodide by the Pyodide test; it needs only the standard library.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

ERROR_TYPES = {  # _xlofficejs.errorstr_to_errortype
    "#DIV/0!": "Div0",
    "#N/A": "NotAvailable",
    "#NAME?": "Name",
    "#NULL!": "Null",
    "#NUM!": "Num",
    "#REF!": "Ref",
    "#VALUE!": "Value",
}
ERROR_STRINGS = {v: k for k, v in ERROR_TYPES.items()}


def error(code: str) -> dict[str, str]:
    """An Excel error cell as Office.js sends it to a custom function (allowErrorForDataTypeAny)."""
    return {"type": "Error", "basicType": "Error", "basicValue": code, "errorType": ERROR_TYPES.get(code, code)}


# ------------------------------------------------------------------ decorators


def _xlfunc_record(f: Callable[..., Any]) -> dict[str, Any]:
    """``xlfunc``'s first pass: the signature (``func_sig``) and type hints become ``__xlfunc__``."""
    existing: dict[str, Any] | None = getattr(f, "__xlfunc__", None)
    if existing is not None:
        return existing
    sig = inspect.signature(f)
    names, defaults = [], []
    for p in sig.parameters.values():
        if p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
            raise TypeError("xlwings does not support UDFs with keyword arguments")  # func_sig
        names.append(p.name)
        if p.default is not inspect.Parameter.empty:
            defaults.append(p.default)
    required = len(names) - len(defaults)
    args = []
    for pos, name in enumerate(names):
        info: dict[str, Any] = {
            "name": name,
            "pos": pos,
            "doc": f"Positional argument {pos + 1}",
            "vararg": False,
            "options": {},
        }
        if name in f.__annotations__:
            info["options"]["convert"] = f.__annotations__[name]
        if pos >= required:
            info["optional"] = defaults[pos - required]
        args.append(info)
    ret_doc = f.__doc__ if f.__doc__ is not None else f"Python function '{f.__name__}'"
    ret: dict[str, Any] = {"doc": ret_doc, "options": {}}
    if "return" in f.__annotations__:
        ret["options"]["convert"] = f.__annotations__["return"]
    record = {"name": f.__name__, "args": args, "argmap": {a["name"]: a for a in args}, "ret": ret}
    f.__xlfunc__ = record  # type: ignore[attr-defined]
    return record


def func(f: Callable[..., Any] | None = None, **kwargs: Any) -> Any:
    """``xlfunc``: ``@func`` or ``@func(...)``; sets the call options after the record."""

    def inner(f: Callable[..., Any]) -> Callable[..., Any]:
        xlf = _xlfunc_record(f)
        for key in ("volatile", "cache"):
            value = kwargs.get(key, False)
            if not isinstance(value, bool):
                raise TypeError(f'{key} only takes boolean values. ("{value}" provided).')
            xlf[key] = value
        xlf["excel_name"] = kwargs.get("name")
        xlf["namespace"] = kwargs.get("namespace")
        xlf["help_url"] = kwargs.get("help_url")
        xlf["required_roles"] = kwargs.get("required_roles")
        return f

    return inner if f is None else inner(f)


def arg(name: str, convert: Any = None, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``xlarg``: the argument must exist; ``doc`` is its description, the rest its converter options."""
    if convert is not None:
        kwargs["convert"] = convert

    def inner(f: Callable[..., Any]) -> Callable[..., Any]:
        xlf = _xlfunc_record(f)
        if name.lstrip("*") not in xlf["argmap"]:
            raise Exception(f"Invalid argument name '{name}'.")
        info = xlf["argmap"][name.lstrip("*")]
        if "doc" in kwargs:
            info["doc"] = kwargs.pop("doc")
        info["options"].update(kwargs)
        return f

    return inner


def ret(convert: Any = None, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``xlret``: options of the return converter."""
    if convert is not None:
        kwargs["convert"] = convert

    def inner(f: Callable[..., Any]) -> Callable[..., Any]:
        _xlfunc_record(f)["ret"]["options"].update(kwargs)
        return f

    return inner


def meta(functions: dict[str, Callable[..., Any]]) -> list[dict[str, Any]]:
    """``custom_functions_meta``: what Excel registers for each function."""
    out = []
    for name, f in sorted(functions.items()):
        xlf = f.__xlfunc__  # type: ignore[attr-defined]
        params = []
        for a in xlf["args"]:
            p = {"description": a["doc"], "name": a["name"], "dimensionality": "matrix", "type": "any"}
            if "optional" in a:
                p["optional"] = True
            params.append(p)
        out.append(
            {
                "key": name,
                "id": xlf["name"].upper(),
                "name": xlf.get("excel_name") or xlf["name"].upper(),
                "description": xlf["ret"]["doc"],
                "options": {"requiresAddress": True, "requiresParameterAddresses": True},
                "result": {"dimensionality": "matrix", "type": "any"},
                "parameters": params,
            }
        )
    return out


# ------------------------------------------------------------------ the call


def _to_scalar(value: Any) -> Any:  # udfs_officejs.to_scalar
    if isinstance(value, list | tuple) and len(value) == 1:
        value = value[0][0] if isinstance(value[0], list | tuple) and len(value[0]) == 1 else value[0]
    return value


def _ensure_2d(value: Any) -> list[Any]:  # conversion.standard.Ensure2DStage
    if isinstance(value, list | tuple):
        if value and not isinstance(value[0], list | tuple):
            return [value]
        return list(value)
    return [[value]]


def _clean(value: Any, err_to_str: bool) -> Any:  # _xlofficejs._clean_value_data_element (empty_as None)
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        if value["type"] == "Error":
            return value["basicValue"] if err_to_str else None
        return value["basicValue"]
    return value


def _adjust(value: list[Any], ndim: Any) -> Any:  # conversion.standard.AdjustDimensionsStage
    if ndim == 2:
        return value
    if ndim is None:
        if len(value) == 1:
            return value[0][0] if len(value[0]) == 1 else value[0]
        if len(value[0]) == 1:
            return [x[0] for x in value]
        return value
    raise ValueError(f"stand-in: ndim={ndim!r} is not used by benchsheet")


def read(value: Any, options: dict[str, Any]) -> Any:
    """``conversion.read(None, value, options, engine_name="officejs")`` with the default converter."""
    if options.get("convert") is not None:
        raise ValueError("stand-in: benchsheet uses no converters")
    cells = [[_clean(c, options.get("err_to_str", False)) for c in row] for row in _ensure_2d(value)]
    return _adjust(cells, options.get("ndim"))


def _prepare(x: Any) -> Any:  # _xlofficejs.Engine.prepare_xl_data_element, runtime >= 1.4
    if x is None:
        return ""
    if isinstance(x, float) and math.isnan(x):
        return {"type": "Error", "errorType": "Num"}
    if isinstance(x, str) and x.startswith("#") and x in ERROR_TYPES:
        return {"type": "Error", "errorType": ERROR_TYPES[x]}
    return x


def write(value: Any) -> list[list[Any]]:
    """``conversion.write(value, None, options, engine_name="officejs")``: always a matrix for Excel."""
    rows = value if isinstance(value, list | tuple) and value and isinstance(value[0], list | tuple) else [[]]
    if any(len(row) != len(rows[0]) for row in rows):  # conversion._check_not_jagged
        raise Exception("All elements of a 2d list or tuple must be of the same length")
    return [[_prepare(x) for x in row] for row in _ensure_2d(value)]


def invoke(f: Callable[..., Any], args: list[Any]) -> Any:
    """``custom_functions_call`` for one plain custom function, and the Lite wrapper around it.

    ``args`` are as Office.js sends them: one matrix (or scalar, or None for an
    empty argument) per parameter. Answers the matrix Excel gets, or
    ``{"error": message}`` for an exception (Excel shows #VALUE! with the message).
    """
    infos = f.__xlfunc__["args"]  # type: ignore[attr-defined]
    try:
        converted = []
        for i, raw in enumerate(args):
            info = infos[min(i, len(infos) - 1)]
            value = _to_scalar(raw)
            converted.append(info.get("optional") if value is None else read(value, info["options"]))
        return write(f(*converted))
    except Exception as exc:
        return {"error": str(exc)}
