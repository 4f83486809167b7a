"""Every use of the private API of ``formulas`` and ``schedula``, in one place: no other module of
the engine imports either (tests/test_architecture.py).

The engine computes Excel's own functions with ``formulas`` (parser, operators and function
table), but runs a parsed formula itself: ``formulas`` compiles each formula into a ``schedula``
dispatcher, and calling that costs about 0.8 ms, a hundred times the work. Here a formula is
parsed once into a ``Program`` (its steps in order) and run as often as needed, for every cell
that shares its shape.

What it relies on is not their documented API; ``pyproject.toml`` pins the range tested, and the
contract tests (tests/excelcalc/test_backend.py; the function table also in
tests/benchsheet/test_eval_cold.py) fail by name when an upgrade moves one, not in a user's workbook:

* the parser: ``formulas.Parser().ast(text)`` -> (tokens, builder); the tokens' class names
  (``Function``, ``OperatorToken``) and ``name``; ``builder.finish()``, ``builder.get_node_id``,
  ``builder.dsp`` (``default_values`` with ``value``, ``data_nodes``, ``function_nodes`` with
  ``function``, ``inputs``, ``outputs``, ``index``); ``formulas.errors.FormulaError`` (its args: a
  template and the formula); schedula's ``START`` (the input of a call with no arguments) and
  ``Token``; schedula's logger, silenced (errors are values here);
* the values: ``formulas.cell.CELL`` and ``formulas.functions.COMPILING`` (inputs of the functions
  that read the formula's cell or compile differently: a table entry ``{"function", "extra_inputs"}``,
  as INDEX and ``_XLFN.SINGLE`` have), schedula's ``EMPTY`` and ``NONE``,
  ``formulas.functions.Array`` and ``replace_empty``, ``formulas.tokens.operand.Error.errors`` and
  ``XlError``, ``formulas.ranges.Ranges`` (``ranges``, ``values``, ``value`` and the cached
  ``_value``, set directly) and ``_reshape_array_as_excel``;
* the function table: ``formulas.functions.get_functions`` (reassigned: the lazy ``FunctionTable``
  replaces it, and formulas' parser looks functions up there), ``SUBMODULES`` (each module's
  ``FUNCTIONS``, and its source read for the names it defines), ``FUNCTIONS``, ``not_implemented``;
* ``formulas.functions.wrap_ufunc`` (reassigned before formulas' function modules are imported:
  ``wrap_ufunc`` below, with a shortcut for single values; its keyword defaults ``input_parser``,
  ``check_error``, ``args_parser``, ``check_nan``, and ``convert_noshp``, ``convert_nan``,
  ``formulas.errors.FoundError``), checked against formulas' own wrap_ufunc cell by cell;
* ``formulas.functions.operators.OPERATORS`` (computed by other functions: ``replace_operators``);
* ``formulas.functions.__xfilter``, the criteria of SUMIF, COUNTIF, AVERAGEIF, MAXIFS... and their
  ...S forms, and ``formulas.functions._xfilter``, which gives their accumulators the cells matched
  (both reassigned, and looked up by formulas at each call: ``replace_criteria``);
* ``formulas.functions.date._text2datetime`` (``text_date``);
* ``formulas.excel.xlreader.load_workbook`` and ``read_string_table`` (the workbook reader).

Checked through the function tests, not by name: ``OPERATORS``, ``_text2datetime``,
``read_string_table``.
"""

from __future__ import annotations

import contextlib
import contextvars
import decimal
import functools
import importlib
import importlib.util
import inspect
import logging
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import schedula as sh
from formulas import Parser
from formulas import functions as _functions
from formulas.cell import CELL
from formulas.errors import FormulaError, FoundError
from formulas.functions import COMPILING, Array, replace_empty
from formulas.ranges import Ranges, _reshape_array_as_excel
from formulas.tokens.operand import Error, XlError

__all__ = [
    "COMPILING",
    "EMPTY",
    "NONE",
    "PLAIN_TYPES",
    "Array",
    "FormulaError",
    "FunctionTable",
    "KnownRange",
    "Program",
    "ProgramError",
    "Ranges",
    "XlError",
    "as_grid",
    "cellwise",
    "compile_program",
    "elementwise",
    "error",
    "get_functions",
    "load_workbook",
    "make_range",
    "operator",
    "parse_message",
    "quiet_numpy",
    "range_parts",
    "read_string_table",
    "replace_criteria",
    "replace_empty",
    "replace_operators",
    "reshape_as_excel",
    "single_values",
    "text_date",
    "wrap_ufunc",
]

EMPTY: Any = sh.EMPTY  # an empty cell, as formulas' functions expect it
NONE: Any = sh.NONE  # what a function that reads the formula's cell answers while formulas compiles


class FunctionTable(dict[str, Any]):
    """formulas' function table, each of its modules imported when a formula first names one of
    its functions (``formulas.functions.get_functions`` imports all eleven, scipy.stats among them:
    seconds before the first answer). A later module wins a name, as in ``get_functions``; a name
    set here (the engine's own functions, an add-in's) wins over every module."""

    def __init__(self) -> None:
        super().__init__()
        self._modules: tuple[str, ...] = tuple(_functions.SUBMODULES)
        self._excel: dict[str, tuple[int, Any]] = {}  # name -> (rank, formulas' own function)
        self._own: set[str] = set()
        self._loaded: set[int] = set()
        self._index, self._dynamic = _function_index(self._modules)
        # formulas' ARRAY, ARRAYROW win, as there; an array constant's cells made plain values first
        self._merge(len(self._modules), {**_functions.FUNCTIONS, "ARRAY": _array_constant, "ARRAYROW": _array_constant})

    def _merge(self, rank: int, table: dict[str, Any]) -> None:
        for name, fn in table.items():
            if self._excel.get(name, (-1, None))[0] < rank:
                self._excel[name] = (rank, fn)
                if name not in self._own:
                    dict.__setitem__(self, name, fn)

    def _import(self, modules: Sequence[int]) -> None:
        for i in modules:
            if i not in self._loaded:
                self._loaded.add(i)
                self._merge(i, importlib.import_module(self._modules[i], _functions.__name__).FUNCTIONS)

    def _load(self, name: str) -> bool:
        """Import the modules that may define ``name``; whether it is a function now."""
        self._import(self._index.get(name, self._dynamic))
        return dict.__contains__(self, name)

    def load_all(self) -> FunctionTable:
        self._import(range(len(self._modules)))
        return self

    def excel(self, name: str) -> Any:
        """formulas' own implementation of ``name`` (not the engine's replacement of it)."""
        self._load(name)
        return self._excel.get(name, (-1, _functions.not_implemented))[1]

    def __setitem__(self, name: str, fn: Any) -> None:
        self._own.add(name)
        dict.__setitem__(self, name, fn)

    def __missing__(self, name: str) -> Any:
        return dict.__getitem__(self, name) if self._load(name) else _functions.not_implemented

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or (isinstance(name, str) and self._load(name))


def _array_constant(*items: Any) -> Any:
    """A row of an array constant (``{1,-2}``), or its rows: formulas reads ``-2`` as 2 negated, a
    0-d array, and its ARRAY kept that array as a cell, which SUM, MIN... passed over (``SUM({1,-2})``
    was 1). ECMA-376 Part 1, 18.17.2: a number of an array constant may carry a prefix operator."""
    cells = [i.item() if isinstance(i, np.ndarray) and i.ndim == 0 else i for i in items]
    return np.asarray(cells, object).view(Array)


_QUOTED = re.compile(r"""['"]([A-Z_][A-Z0-9_.]*)['"]""")
_NOT_QUOTED = re.compile(r"""FUNCTIONS\s*\[\s*[^'"\s\]][^\]]*\]\s*=(?!=)|FUNCTIONS\s*\.\s*update\b|\{\s*\*\*""")


def _function_index(modules: Sequence[str]) -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]]:
    """From the modules' source, without importing them: which modules name each function in
    quotes, and which register functions under names built at run time (``FUNCTIONS[k] = ...``:
    those may hold any name, so they are imported for every one)."""
    index: dict[str, set[int]] = {}
    dynamic: list[int] = []
    for i, module in enumerate(modules):
        spec = importlib.util.find_spec(module, _functions.__name__)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            dynamic.append(i)  # no source to read: imported for any name
            continue
        with open(spec.origin, encoding="utf-8") as fh:
            source = fh.read()
        for name in _QUOTED.findall(source):
            index.setdefault(name, set()).add(i)
        if _NOT_QUOTED.search(source):
            dynamic.append(i)
    return {k: tuple(sorted({*v, *dynamic})) for k, v in index.items()}, tuple(dynamic)


_TABLE: list[FunctionTable] = []


def get_functions() -> FunctionTable:
    """The process's one function table, lazy; formulas' parser looks each function it reads up
    in it too (``formulas.functions.get_functions`` is replaced by this)."""
    if not _TABLE:
        logging.getLogger("schedula").setLevel(logging.CRITICAL)  # errors are values here
        _TABLE.append(FunctionTable())
        _functions.get_functions = get_functions
    return _TABLE[0]


def text_date(text: str) -> tuple[int, ...] | None:
    """The (year, month, day, hour, minute, second) formulas' date reader finds in a text, or None."""
    from formulas.functions.date import _text2datetime

    try:
        found: tuple[int, ...] = _text2datetime(text)
    except Exception:  # its parser's complaints about a text that is no date
        return None
    return found


def error(code: str) -> XlError:
    """formulas' own error value for ``#N/A``, ``#VALUE!``..."""
    return Error.errors[code]


def parse_message(exc: BaseException) -> str:
    """formulas' parse errors carry ``(template, formula)``: the message as text."""
    args: tuple[Any, ...] = exc.args
    if isinstance(exc, FormulaError) and len(args) >= 2 and isinstance(args[0], str):
        try:
            return (args[0] % args[1:]).replace("\n", " ").strip()
        except TypeError:
            pass
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


_WRAP_UFUNC = _functions.wrap_ufunc
_UFUNC_DEFAULTS = {
    k: p.default for k, p in inspect.signature(_WRAP_UFUNC).parameters.items() if p.default is not p.empty
}


def wrap_ufunc(func: Callable[..., Any], **options: Any) -> Callable[..., Any]:
    """formulas' ``wrap_ufunc`` (a function of single values made one over arrays, cell by cell
    through ``np.vectorize``) with a shortcut for what most cells pass: single values and 1x1
    ranges. ``np.vectorize`` costs ~70 us a call, nine tenths of ``IF(ISNUMBER(D2),...)``; the
    shortcut runs formulas' own steps on the one value (``safe_eval``: errors first, the
    function, NaN as #NUM!) and answers the array ``np.vectorize`` would (0-d, or 1x1 where an
    argument is 1x1). Anything else (an array, a function with options of its own, an exception
    other than safe_eval's) goes the whole way, so the answers are formulas' own."""
    whole: Callable[..., Any] = _WRAP_UFUNC(func, **options)
    if set(options) - {"input_parser", "check_error", "args_parser", "check_nan"}:
        return whole  # excluded arguments, other return functions, ranges: formulas' own path only
    o = {**_UFUNC_DEFAULTS, **options}
    parse_input, check_error, parse_args = o["input_parser"], o["check_error"], o["args_parser"]
    check_nan = o["check_nan"]

    def safe_eval(values: list[Any]) -> Any:
        r = check_error(*values) or _functions.convert_noshp(func(*parse_input(*values)))
        return _functions.convert_nan(r) if check_nan and not isinstance(r, XlError | str) else r

    def one(*args: Any) -> Any:
        try:
            single = single_values(args)
            if single is None or len(args) >= 32:
                return whole(*args)
            values, grid = list(parse_args(*single[0])), single[1]
            if _QUIET.get():  # numpy's warnings are off for the whole run (quiet_numpy)
                r = safe_eval(values)
            else:
                with np.errstate(divide="ignore", invalid="ignore"):
                    r = safe_eval(values)
        except FoundError as exc:
            r = exc.err
        except (ValueError, TypeError):
            r = Error.errors["#VALUE!"]
        except Exception:  # formulas' wrappers answer these (a range error, a bypass): their way
            return whole(*args)
        if isinstance(r, list | tuple | np.ndarray):
            return whole(*args)
        out = np.empty((1, 1) if grid else (), dtype=object)
        out[(0, 0) if grid else ()] = r
        return out.view(Array)

    return functools.update_wrapper(one, func)


_QUIET: contextvars.ContextVar[bool] = contextvars.ContextVar("excelcalc_quiet_numpy", default=False)


@contextlib.contextmanager
def quiet_numpy() -> Iterator[None]:
    """numpy's divide and invalid warnings off for a run of many formulas, as formulas' wrap_ufunc
    turns them off around each call (``np.errstate`` costs ~3 us a call, a tenth of an ``IF``);
    its overflow warnings too (an overflow is #NUM! in the answer: ``formula.limited``).
    Under another errstate set inside, a warning raised as an error goes formulas' own way."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        token = _QUIET.set(True)
        try:
            yield
        finally:
            _QUIET.reset(token)


def single_values(args: Sequence[Any]) -> tuple[list[Any], bool] | None:
    """The one value of each argument (a single value, a 0-d or 1x1 array, a 1x1 range), and
    whether one is 1x1 (the answer is then 1x1, as np.vectorize makes it); None when an argument
    holds more."""
    values, grid = [], False
    for a in args:
        a = a.value if isinstance(a, Ranges) else a
        if isinstance(a, np.ndarray):
            if a.shape not in ((), (1, 1)):
                return None
            grid = grid or a.ndim == 2
            a = a.flat[0]
        values.append(a)
    return values, grid


_functions.wrap_ufunc = wrap_ufunc  # formulas' function modules, imported later (FunctionTable), wrap theirs with it


def elementwise(func: Callable[..., Any], number: Callable[[Any], Any]) -> Callable[..., Any]:
    """``func`` over single values as formulas runs its own numeric functions: cell by cell over
    arrays and ranges, an error among the arguments answered as is, an empty cell as 0; each
    argument goes through ``number`` first (which raises ValueError for #VALUE!)."""
    wrapped = wrap_ufunc(func, input_parser=lambda *a: map(number, a))

    def run(*args: Any) -> Any:
        with np.errstate(over="ignore"):  # an overflow is #NUM! (formulas' check), not a warning
            return wrapped(*args)

    return run


class ProgramError(Exception):
    """A formula the engine cannot run; ``code`` is the Excel error to show."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class Step:
    function: Callable[..., Any]
    inputs: tuple[Any, ...]
    output: Any


@dataclass(frozen=True)
class Program:
    """A parsed formula: constants, the reference names it reads, and its steps in order."""

    constants: dict[Any, Any]
    references: tuple[str, ...]  # names of the reference inputs, upper case ("_BSREF0")
    steps: tuple[Step, ...]
    output: Any
    functions: tuple[str, ...]  # names of the functions it calls, upper case
    pure: bool  # its answer depends on its inputs only (not on the cell computing it, the time or chance)
    uses_cell: bool  # it reads the cell computing it (ROW(), COLUMN(), implicit intersection)
    missing: tuple[str, ...] = ()  # functions it names that no table has: #NAME? where they are reached
    # each step's answer passes through it (Excel's limits: ``formula.limited``), so the next step,
    # IFERROR or ISERROR among them, sees an answer Excel could hold or Excel's error
    check: Callable[[Any], Any] | None = field(default=None, repr=False, compare=False)
    # answers of steps over constants alone (``-1``), computed once: each run is given its own copy
    folded: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    start: dict[Any, Any] = field(init=False, repr=False, compare=False)  # constants, not compiling
    reference_only: bool = field(init=False, repr=False, compare=False)  # a reference alone: =B2, =Price

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", {**self.constants, COMPILING: False})
        object.__setattr__(self, "reference_only", not self.steps and self.references == (self.output,))

    def run(self, refs: Sequence[Any], cell: Any) -> Any:
        """The formula's value; ``refs`` in the order of ``references``, ``cell`` the Ranges of the
        cell computing it (ROW(), COLUMN(), implicit intersection)."""
        if len(refs) != len(self.references):
            raise ValueError(f"{len(refs)} references given, the formula reads {len(self.references)}")
        env = self.start.copy()
        for name, value in self.folded.items():
            env[name] = value.copy() if isinstance(value, np.ndarray) else value
        env[CELL] = cell
        env.update(zip(self.references, refs))  # noqa: B905 (checked above)
        check = self.check
        for step in self.steps:
            try:
                value = step.function(*[env[i] for i in step.inputs])
            except NotImplementedError:
                raise ProgramError("#NAME?", "a function the formula engine does not implement") from None
            env[step.output] = value if check is None else check(value)
        value = env[self.output]
        if type(value) in PLAIN_TYPES:  # most answers: a number or a text
            return value
        if isinstance(value, Ranges):
            value = value.value
        if isinstance(value, list | tuple):  # MODE.MULT answers a list: Excel's answer is a column
            value = np.asarray(value, dtype=object)
            value = (value.reshape(-1, 1) if value.ndim == 1 else value).view(Array)
        if isinstance(value, np.ndarray) and value.size == 1:
            return 0 if value.flat[0] is EMPTY else value  # an empty cell read by a formula is 0
        return replace_empty(value)


PLAIN_TYPES = frozenset({float, int, bool, str})  # exactly these: formulas' EMPTY and errors are str subclasses


def compile_program(text: str, check: Callable[[Any], Any] | None = None) -> Program:
    """Parse ``text`` (``=...``) once; ``check`` is applied to the answer of each step
    (``Program.check``). Raises ``ProgramError`` with a reason."""
    too_large = _number_past_excel(text)
    if too_large:
        raise ProgramError("#NUM!", too_large)
    try:
        tokens, builder = Parser().ast(text)
        builder.finish()
        output = builder.get_node_id(builder[-1])
    except FormulaError as exc:
        raise ProgramError("#VALUE!", parse_message(exc)) from None
    except Exception as exc:  # the parser's other complaints (parentheses, ranges)
        raise ProgramError("#VALUE!", parse_message(exc) or "not a valid formula") from None
    dsp = builder.dsp
    constants = {k: _as_double(v["value"]) for k, v in dsp.default_values.items()}
    nodes = dsp.function_nodes
    produced = {o for n in nodes.values() for o in n.get("outputs", ())}
    references = tuple(
        sorted(
            k
            for k in dsp.data_nodes
            if isinstance(k, str) and not isinstance(k, sh.Token) and k not in constants and k not in produced
        )
    )
    ready = set(constants) | set(references) | {CELL, COMPILING, sh.START}
    pending = dict(nodes)
    steps: list[Step] = []
    folded: dict[Any, Any] = {}
    missing: list[str] = []
    while pending:
        done = [fid for fid, n in pending.items() if all(i in ready for i in n.get("inputs") or ())]
        if not done:
            raise ProgramError("#VALUE!", "the formula engine could not order this formula")
        for fid in sorted(done, key=lambda f: pending[f].get("index", (0,))):
            n = pending.pop(fid)
            outputs: Sequence[Any] = n.get("outputs") or ()
            if len(outputs) != 1:
                raise ProgramError("#VALUE!", "the formula engine could not order this formula")
            inputs = tuple(i for i in n.get("inputs") or () if i is not sh.START)  # START: a call with no arguments
            function = n["function"]
            if _fold(function, inputs, constants, folded, outputs[0], check):
                ready.add(outputs[0])
                continue
            if function is _functions.not_implemented:  # unknown (a VBA function): #NAME? only where it is used
                missing.append(str(fid).upper())
                function = _no_such_function
            steps.append(Step(_arithmetic(function), inputs, outputs[0]))
            ready.add(outputs[0])
    if output not in ready:
        raise ProgramError("#VALUE!", "not a valid formula")
    names = tuple(sorted({t.name.upper() for t in tokens if type(t).__name__ == "Function"}))
    uses_cell = any(CELL in step.inputs for step in steps)
    # a range between two references reads the cells between them, not only its inputs (the corners)
    spans = any(type(t).__name__ == "OperatorToken" and getattr(t, "name", "") == ":" for t in tokens)
    pure = not (set(names) & IMPURE) and not spans
    missed = tuple(sorted(set(missing)))
    return Program(constants, references, tuple(steps), output, names, pure, uses_cell, missed, check, folded)


def _fold(
    function: Callable[..., Any],
    inputs: tuple[Any, ...],
    constants: dict[Any, Any],
    folded: dict[Any, Any],
    output: Any,
    check: Callable[[Any], Any] | None,
) -> bool:
    """A sign before a number written in the formula (``-1``: formulas' unary minus of the constant 1)
    computed once, into ``folded``, rather than at every run of the formula (XLOOKUP's match_mode
    ``-1``: a sixth of the look-up's time); whether it was. Its answer depends on the number alone."""
    from formulas.functions.operators import OPERATORS

    if function is not OPERATORS["U-"] and function is not OPERATORS["U+"]:
        return False
    if len(inputs) != 1 or inputs[0] not in constants or type(constants[inputs[0]]) not in (int, float):
        return False
    try:
        value = _REPLACED.get(id(function), function)(constants[inputs[0]])
        folded[output] = value if check is None else check(value)
    except Exception:  # computed at each run instead, as before
        return False
    return True


_LITERAL = re.compile(r'"(?:[^"]|"")*"|\'(?:[^\']|\'\')*\'|(?<![\w.$!\]])(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?')
LARGEST = "1.79769313486232E+308"  # Microsoft's "Excel specifications and limits": the largest number a formula holds


def _number_past_excel(text: str) -> str:
    """Why a number written in ``text`` (outside its texts and quoted sheet names) is past Excel's
    largest, or "": formulas' parser made ``1E309`` inf and a 5,001-digit integer Python's own
    ValueError ("Exceeds the limit (4300 digits)")."""
    for m in _LITERAL.finditer(text):
        written = m.group(0)
        if written[0] in "\"'" or not math.isinf(float(written)):
            continue
        shown = written if len(written) <= 12 else written[:8] + "..." + written[-3:]
        digits = decimal.Decimal(written).adjusted() + 1
        return f"the number {shown} in the formula has {digits:,} digits: past Excel's largest, {LARGEST}"
    return ""


def _as_double(value: Any) -> Any:
    """A number the parser read as a Python integer of more digits than a double keeps, as the
    double Excel holds (a 300-digit integer squared is #NUM! as in Excel, not 601 exact digits)."""
    if type(value) is int and not -(2**53) <= value <= 2**53:
        return float(value)
    return value


def _no_such_function(*_args: Any) -> Any:
    """A function no table has: Excel's #NAME?, as a value (IF's branch not taken never shows it)."""
    return Error.errors["#NAME?"]


# functions whose answer depends on more than their arguments' values
IMPURE = frozenset(
    {
        "ROW",
        "COLUMN",
        "ROWS",
        "COLUMNS",
        "OFFSET",
        "SUBTOTAL",
        "AGGREGATE",
        "_XLFN.AGGREGATE",
        "INDIRECT",
        "CELL",
        "SINGLE",
        "_XLFN.SINGLE",
        "RAND",
        "RANDBETWEEN",
        "NOW",
        "TODAY",
        "ISREF",
        "ADDRESS",
        "AREAS",
        "FORMULATEXT",
        "_XLFN.FORMULATEXT",
        "INFO",
        "ISFORMULA",
        "_XLFN.ISFORMULA",
        "SHEET",
        "SHEETS",
        "_XLFN.SHEET",
        "_XLFN.SHEETS",
        "INDEX",
        "RANDARRAY",
        "_XLFN.RANDARRAY",
    }
)


def _number(x: Any) -> float | None:
    """A finite number (int or float, not bool) held by a value, a 1x1 array or a 1x1 Ranges."""
    if isinstance(x, Ranges):
        x = x._value if x._value is not sh.NONE else None
    if isinstance(x, np.ndarray):
        if x.size != 1:
            return None
        x = x.flat[0]
    if type(x) is float or type(x) is int:
        return float(x)
    return None


_REPLACED: dict[int, Callable[..., Any]] = {}  # id of one of formulas' operators -> the engine's own


def operator(name: str) -> Callable[..., Any]:
    """formulas' own operator ``name`` (``"="``, ``"<"``...)."""
    from formulas.functions.operators import OPERATORS

    found: Callable[..., Any] = OPERATORS[name]
    return found


def replace_operators(replacements: dict[str, Callable[..., Any]]) -> None:
    """Compute formulas' operators (``"+"``, ``"^"``, ``"U-"``...) with these functions instead
    (in every formula compiled from now on)."""
    from formulas.functions.operators import OPERATORS

    for name, function in replacements.items():
        _REPLACED[id(OPERATORS[name])] = function


def replace_criteria(
    matches: Callable[[np.ndarray[Any, Any], Any], np.ndarray[Any, Any]],
    summed: Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]],
) -> None:
    """Match the criteria of formulas' conditional functions (SUMIF, COUNTIFS, AVERAGEIF, MAXIFS...)
    with ``matches(values, condition)``: the cells of a test range a condition matches, as booleans;
    and give their accumulators (the sum, average, maximum) the cells ``summed(values)`` keeps.
    formulas looks its ``__xfilter`` and ``_xfilter`` up at each call. A test range's blank cells come
    to ``matches`` as ``""`` (formulas' ``replace_empty``), as the text "" a formula answers does."""
    own = _ORIGINAL_XFILTER.setdefault("own", _functions._xfilter)

    def accumulated(accumulator: Any, operating_range: Any, *rest: Any) -> Any:
        return own(accumulator, summed(np.asarray(operating_range, dtype=object)), *rest)

    setattr(_functions, "__xfilter", lambda test_range, condition: matches(test_range["raw"], condition))
    _functions._xfilter = accumulated


_ORIGINAL_XFILTER: dict[str, Any] = {}


def _arithmetic(function: Callable[..., Any]) -> Callable[..., Any]:
    """formulas' +, -, * and / with a fast path for two plain finite numbers (what a chain of
    ``=A1+1`` cells is); anything else (text, TRUE, an empty cell, an error, an array, a division
    by zero, an overflow) goes to formulas as before. The answer has formulas' form: a 0-d Array."""
    from formulas.functions.operators import OPERATORS

    ops: dict[int, Callable[[float, float], float]] = {
        id(OPERATORS["+"]): lambda a, b: a + b,
        id(OPERATORS["-"]): lambda a, b: a - b,
        id(OPERATORS["*"]): lambda a, b: a * b,
        id(OPERATORS["/"]): lambda a, b: a / b,
    }
    op = ops.get(id(function))
    function = _REPLACED.get(id(function), function)
    if op is None:
        return function

    def fast(*args: Any) -> Any:
        if len(args) == 2:
            a, b = _number(args[0]), _number(args[1])
            if a is not None and b is not None and (b != 0 or op is not ops[id(OPERATORS["/"])]):
                value = op(a, b)
                if math.isfinite(value):
                    return np.asarray(value, dtype=object).view(Array)
        return function(*args)

    return fast


def range_parts(sheet_id: str, r1: int, c1: int, r2: int, c2: int) -> dict[str, Any]:
    """formulas' description of a range (``S1!A2:B3``), as its ``Ranges`` keep it (a copy: a
    workbook asks for the same cells again and again, each answer is its own)."""
    return dict(_range_parts(sheet_id, r1, c1, r2, c2))


@functools.lru_cache(maxsize=65536)
def _range_parts(sheet_id: str, r1: int, c1: int, r2: int, c2: int) -> dict[str, Any]:
    l1, l2 = column_letters(c1), column_letters(c2)
    ref = f"{l1}{r1}" if (r1, c1) == (r2, c2) else f"{l1}{r1}:{l2}{r2}"
    return {
        "sheet_id": sheet_id,
        "r1": str(r1),
        "r2": str(r2),
        "c1": l1,
        "c2": l2,
        "n1": c1,
        "n2": c2,
        "ref": ref,
        "name": f"{sheet_id}!{ref}" if sheet_id else ref,
    }


@functools.lru_cache(maxsize=16384)
def column_letters(n: int) -> str:
    """A column's letters (1 -> "A", 28 -> "AB"), as openpyxl's ``get_column_letter`` spells them
    (importing openpyxl for it costs a fifth of a second: all of openpyxl comes with it)."""
    if not 1 <= n <= 18278:
        raise ValueError(f"Invalid column index {n}")
    letters = ""
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def as_grid(v: Any) -> np.ndarray[Any, Any]:
    """An argument's values as a 2-D object array (a range's cells, an array, or one value as 1x1)."""
    if isinstance(v, Ranges):
        v = v.value
    out = np.asarray(v, dtype=object)
    return out.reshape(1, 1) if out.ndim == 0 else (out if out.ndim == 2 else out.reshape(1, -1))


def cellwise(f: Callable[[Any], Any], grid: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``f`` of each cell of ``grid``: an object Array of its shape (what ``np.vectorize(f,
    otypes=[object])`` answers, without its ~20 us a call: most ranges a formula passes are one cell)."""
    out = np.empty(grid.shape, dtype=object)
    for i, v in enumerate(grid.flat):
        out.flat[i] = f(v)
    return out.view(Array)


def make_range(parts: dict[str, Any], value: np.ndarray[Any, Any], known: Any = None) -> Any:
    """A formulas Ranges holding ``value`` (a 2-D object array of the range's shape); ``known``, what
    the engine already knows of its cells (``args.Running``), kept on it as ``known``."""
    rng = Ranges((parts,), {parts["name"]: (parts, value)}) if known is None else KnownRange(parts, value, known)
    rng._value = value
    return rng


class KnownRange(Ranges):  # type: ignore[misc]
    """A Ranges whose cells the engine has read before (``make_range``): ``known`` says what of them."""

    __slots__ = ("known",)

    def __init__(self, parts: dict[str, Any], value: np.ndarray[Any, Any], known: Any) -> None:
        super().__init__((parts,), {parts["name"]: (parts, value)})
        self.known = known


def read_string_table(xml: bytes) -> list[str]:
    """The shared strings of a workbook, decoded as formulas' reader decodes them (``_x000D_``)."""
    import io

    from formulas.excel.xlreader import read_string_table as read

    strings: list[str] = read(False, io.BytesIO(xml))
    return strings


def load_workbook(path: str) -> Any:
    """openpyxl's workbook with formulas kept and dates as serial numbers (as formulas reads them)."""
    from formulas.excel.xlreader import load_workbook as load

    return load(path, data_only=False)


def reshape_as_excel(value: Any, shape: tuple[int, int]) -> np.ndarray[Any, Any]:
    """An array formula's answer laid over its range as Excel does (a single value fills it,
    a row or column repeats, cells beyond the answer are #N/A, a range smaller than the answer
    shows its top-left part: formulas answered #VALUE! in every cell)."""
    if isinstance(value, Ranges):
        value = value.value
    if not isinstance(value, np.ndarray):
        out = np.empty(shape, dtype=object)
        out[:, :] = value
        return out
    if value.ndim != 2:
        value = value.reshape(1, -1)
    value = value[: shape[0], : shape[1]]  # a range smaller than the answer shows its top-left part, as in Excel
    result: np.ndarray[Any, Any] = _reshape_array_as_excel(np.asarray(value, dtype=object), shape)
    return result
