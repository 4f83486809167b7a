"""One formula, computed as Excel computes it: prepared, parsed once, run.

Built on the ``formulas`` package (behind ``backend``), which parses and computes Excel formulas
and has real Excel error values. An add-in's functions are registered in it under their names
(``register``); a failure is a ``ReasonedError``, a real Excel error value (``#N/A``,
``#VALUE!``) that also carries the reason.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from excelcalc import lib
from excelcalc.backend import (
    EMPTY,
    FunctionTable,
    Program,
    ProgramError,
    XlError,
    compile_program,
    get_functions,
    quiet_numpy,
)
from excelcalc.formula_text import (
    EXPONENT,
    FUTURE_FUNCTIONS,
    MAX_FORMULA,
    MAX_TEXT,
    errors_in,
    normalize_formula,
    shown,
    tokenizer,
    too_long,
    written_out,
)
from excelcalc.lib import CHECKED
from excelcalc.lib.lookup import WHOLE, intersected
from excelcalc.values import ReasonedError, is_error, plain

MISSING_FN = "EXCELCALC.MISSING"

_ADDIN: dict[str, Callable[..., Any]] = {}  # the add-in functions registered (``register``), by name


def register(addin: Mapping[str, Callable[..., Any]]) -> None:
    """Make add-in functions (an add-in's UDFs) callable from formulas, under their upper-case names.

    Each is called with the engine's values (``values.plain`` makes them plain Python) and answers a
    value, rows of values as an array, or an error value; an argument left out
    (``BEST("B200",x,y,,8)``) reaches it as a call of ``MISSING_FN`` (``EMPTY``), as Excel passes
    a UDF "missing", not as 0. The engine imports no add-in: the add-in registers itself."""
    _ADDIN.update({name.upper(): fn for name, fn in addin.items()})
    functions.cache_clear()
    program.cache_clear()
    global _OWN
    _OWN = frozenset({*_ADDIN, MISSING_FN, "ARRAY", "_XLFN.SINGLE"})


def registered() -> frozenset[str]:
    """The names of the add-in functions registered."""
    return frozenset(_ADDIN)


@cache
def functions() -> FunctionTable:
    """formulas' function table with Excel's functions as the engine computes them (``lib.register``)
    and the add-in functions registered (``register``). formulas' own functions are loaded as
    formulas first name them (``backend.FunctionTable``)."""
    table = get_functions()
    table.update(_ADDIN)
    table[MISSING_FN] = lambda: EMPTY
    lib.register(table)
    return table


def mark_missing(formula: str) -> str:
    """Make left-out arguments of the add-in's functions (``BEST("B200",x,y,,8)``) explicit.

    The engine reads a left-out argument as 0, Excel passes a UDF "missing";
    a call of ``EXCELCALC.MISSING()`` in its place keeps the difference.
    Excel's own functions keep their own rule (``SUM(1,,2)`` is 3), except OFFSET, whose empty
    height or width is the reference's own (``lib.lookup.offset``), and the least squares fits, whose
    const left empty is TRUE where a typed 0 is FALSE (``lib.statistical``), TAKE and DROP, whose
    rows left empty are all of them where a typed 0 is none (``lib.arrays``), TEXTBEFORE and
    TEXTAFTER, whose instance_num left empty is 1 where a typed 0 is #VALUE! (``lib.textparts``), and
    TEXTSPLIT, whose delimiter left empty splits nothing where a typed 0 splits at each "0".
    """
    newer = ("TAKE", "DROP", "TEXTBEFORE", "TEXTAFTER", "TEXTSPLIT")
    names = {*_ADDIN, "OFFSET", "LINEST", "LOGEST", "TREND", "GROWTH", *newer, *(f"_XLFN.{n}" for n in newer)}
    out: list[str] = []
    calls: list[bool] = []  # for each open parenthesis: is it a call of an add-in function?
    word: list[str] = []
    in_string = False
    prev = ""
    for ch in formula:
        if ch == '"':
            in_string = not in_string
        elif not in_string:
            if ch == "(":
                calls.append("".join(word).upper().rsplit("!", 1)[-1].removeprefix("_XLUDF.") in names)
            elif ch in ",)" and prev in ("(", ",") and (ch, prev) != (")", "(") and calls and calls[-1]:
                out.append(MISSING_FN + "()")
            if ch == ")" and calls:
                calls.pop()
        out.append(ch)
        if not in_string:
            word = [*word, ch] if (ch.isalnum() or ch in "._!") else []
            if not ch.isspace():
                prev = ch if ch in "(," else "x"
    return "".join(out)


MAX_NAME_DEPTH = 64  # defined names standing for names standing for names...
MAX_EXPANDED = 100_000  # characters a formula may grow to with its defined names written out
PLACEHOLDER = "_BSREF"  # a reference of a prepared formula: _BSREF0, _BSREF1...


@dataclass(frozen=True, slots=True)
class Prepared:
    """A formula ready for the engine: each reference replaced by a placeholder.

    ``text`` is the same for every cell of a filled-down column once its references are
    resolved relative to the cell, so it is parsed once (``program``)."""

    text: str  # "=PERGPU(_BSREF0,_BSREF1,_BSREF2)"
    refs: tuple[str, ...]  # the references as written, in placeholder order: ("A2", "'Bob''s'!$B$5")
    problem: ReasonedError | None = None  # why it cannot be computed at all


def prepare(
    formula: str,
    names: Callable[[str], str | None] | None = None,
    intersect: bool = False,
    typed: bool = False,
    as_typed: str | None = None,
) -> Prepared:
    """Replace each reference (``A2``, ``Sheet2!$B$5:C9``, a defined name) of ``formula`` by a
    placeholder. ``names`` gives the text a defined name stands for (None: not defined).
    ``intersect``: a cell's ordinary formula (no array formula), where Excel reads a range that
    stands for one value as the cell of its row or column (``lib.lookup.intersected``).
    ``typed``: the formula as a person types it (``eval``, the formula bar), where a newer
    function needs no ``_xlfn.``; as a file stores it (the default), one without is #NAME?.
    ``as_typed``: the formula as written where ``formula`` writes its 3-D or structured references
    out: Excel's limit of 8,192 characters is on that one (``SUM(S1:S2000!A1)`` is 16)."""
    tokens = tokenizer()
    Tokenizer, TokenizerError = tokens.Tokenizer, tokens.TokenizerError

    text = formula.strip()
    if not text.startswith("="):
        text = "=" + text
    length = len(text) if as_typed is None else len(as_typed.strip().removeprefix("=")) + 1
    if length > MAX_FORMULA:
        why = f"the formula has {length:,} characters; Excel allows {MAX_FORMULA:,}"
        return Prepared(text, (), ReasonedError("#VALUE!", why))
    text, wrong = written_out(normalize_formula(text))
    if wrong is not None:
        return Prepared(text, (), ReasonedError("#VALUE!", wrong))
    for _ in range(MAX_NAME_DEPTH + 1):  # defined names standing for other names, at most this deep
        try:
            items = Tokenizer(text).items
        except (TokenizerError, IndexError) as exc:
            return Prepared(text, (), ReasonedError("#VALUE!", f"cannot read the formula {text[:80]!r} ({exc})"))
        if any(t.type == "OPERAND" and t.subtype == "TEXT" and len(t.value) - 2 > MAX_TEXT for t in items):
            why = f"a text in the formula is longer than Excel's {MAX_TEXT:,} characters"
            return Prepared(text, (), ReasonedError("#VALUE!", why))
        bare = None if typed else _without_prefix(items)
        if bare is not None:
            return Prepared(text, (), bare)
        substituted = False
        out: list[str] = []
        raw: list[str] = []  # the same with the references as written: the next round reads them again
        refs: list[str] = []
        lead, trail, single = _rewrites(items, intersect)
        params = _lambda_parameters(items)
        if _lambda_called(items):
            why = "a LAMBDA called where it is written (LAMBDA(...)(...)) is not computed by benchsheet"
            return Prepared(text, (), ReasonedError("#NAME?", why + ": pass it to MAP, as MAP(A1:A3, LAMBDA(x, x+1))"))
        for i, tok in enumerate(items):
            value = lead.get(i, tok.value)
            out.append(trail.get(i - 1, ""))
            raw.append(out[-1])
            if tok.type == "OPERAND" and tok.subtype == "RANGE" and value.upper() not in params:
                meaning = names(value) if names is not None else None
                if meaning is not None:
                    out.append("(" + normalize_formula(meaning.removeprefix("=")) + ")")  # Sheet1!#REF! too
                    raw.append(out[-1])
                    substituted = True
                    continue
                placeholder = f"{PLACEHOLDER}{len(refs)}"
                out.append(f"_xlfn.SINGLE({placeholder})" if i in single else placeholder)
                raw.append(value)
                refs.append(value)
                continue
            if tok.type == "OPERAND" and tok.subtype == "NUMBER":
                value = EXPONENT.sub(r"\1E+\2", value)
            raw.append(value)
            out.append(_line_breaks(value) if tok.type == "OPERAND" and tok.subtype == "TEXT" else value)
        out.append(trail.get(len(items) - 1, ""))
        raw.append(out[-1])
        if not substituted:
            return Prepared(mark_missing(_whole("".join(out), single)), tuple(refs))
        text = "=" + "".join(raw)
        if len(text) > MAX_EXPANDED:  # names that each repeat the next: twice as long a level
            why = f"its defined names stand for a formula of more than {MAX_EXPANDED:,} characters"
            return Prepared(text[:MAX_FORMULA], (), ReasonedError("#VALUE!", why + " (names repeating names?)"))
    why = f"defined names refer to each other in a circle, or more than {MAX_NAME_DEPTH} levels deep"
    return Prepared(text[:MAX_FORMULA], (), ReasonedError("#NAME?", why))


_LAMBDA = ("LAMBDA(", "_XLFN.LAMBDA(")


def _lambda_parameters(items: Sequence[Any]) -> frozenset[str]:
    """The parameter names of the formula's LAMBDA calls (``x`` of ``LAMBDA(x, x*2)``, ``_xlpm.x`` as Excel
    writes it in a file), upper-cased: names, not references, so that the formula reaches the function
    check (LAMBDA is not computed: its reason says so, never "no cells to refer to")."""
    names = {t.value.upper() for t in items if t.type == "OPERAND" and t.value.upper().startswith("_XLPM.")}
    for i, tok in enumerate(items):
        if tok.type == "FUNC" and tok.subtype == "OPEN" and tok.value.upper() in _LAMBDA:
            depth, arg = 0, list[Any]()
            for t in items[i + 1 :]:
                if t.subtype == "OPEN" and t.type in ("FUNC", "PAREN", "ARRAY"):
                    depth += 1
                elif t.subtype == "CLOSE" and t.type in ("FUNC", "PAREN", "ARRAY"):
                    if depth == 0:
                        break  # the last argument is the calculation, not a parameter
                    depth -= 1
                elif depth == 0 and t.type == "SEP" and t.subtype == "ARG":
                    if len(arg) == 1 and arg[0].type == "OPERAND" and arg[0].subtype == "RANGE":
                        names.add(arg[0].value.upper())
                    arg = []
                    continue
                if t.type != "WHITE-SPACE":
                    arg.append(t)
    return frozenset(names)


def _lambda_called(items: Sequence[Any]) -> bool:
    """A LAMBDA call followed at once by its arguments in parentheses (``LAMBDA(x, x+1)(2)``)."""
    for i, tok in enumerate(items):
        if tok.type == "FUNC" and tok.subtype == "OPEN" and tok.value.upper() in _LAMBDA:
            end = _operand_end(items, i)
            after = items[end + 1] if end is not None and end + 1 < len(items) else None
            if after is not None and after.type == "PAREN" and after.subtype == "OPEN":
                return True
    return False


def _without_prefix(items: Sequence[Any]) -> ReasonedError | None:
    """#NAME? naming the first newer function stored without its ``_xlfn.`` prefix, as Excel reads a
    file (openpyxl stores ``=XLOOKUP(...)`` as typed; XlsxWriter and EPPlus document the prefix)."""
    for tok in items:
        if tok.type == "FUNC" and tok.subtype == "OPEN" and tok.value[:-1].upper() in FUTURE_FUNCTIONS:
            name = tok.value[:-1].upper()
            why = (
                f"{name} is stored without its _xlfn. prefix, which Excel reads as an unknown function; "
                f"a file holds it as _xlfn.{name}( (as Excel saves it)"
            )
            return ReasonedError("#NAME?", why)
    return None


def _line_breaks(literal: str) -> str:
    """A text literal holding line breaks, written with CHAR(10)/CHAR(13): formulas' parser drops a
    line break inside a literal (POI's dataValidationTableRange.xlsx: Excel keeps it)."""
    if "\n" not in literal and "\r" not in literal:
        return literal
    for ch, code in (("\r", 13), ("\n", 10)):
        literal = literal.replace(ch, f'"&CHAR({code})&"')
    return f"({literal})"


def _rewrites(items: Sequence[Any], intersect: bool) -> tuple[dict[int, str], dict[int, str], set[int]]:
    """What tokens become (``lead``), what follows a token (``trail``), and the tokens read by
    implicit intersection (``lib.lookup.intersected``, in a cell's ordinary formula only)."""
    lead, trail = _double_negations(items)
    single = intersected(items) if intersect else set()
    _intersect_calls(items, single, lead, trail)
    return lead, trail, single


def _whole(body: str, single: set[int]) -> str:
    """The prepared formula; intersected as a whole where its top level intersects ranges."""
    return f"=_xlfn.SINGLE({body})" if WHOLE in single else "=" + body


def _intersect_calls(items: Sequence[Any], single: set[int], lead: dict[int, str], trail: dict[int, str]) -> None:
    """A call answering a reference where one value is needed (``lib.lookup.intersected``) becomes
    ``_xlfn.SINGLE(INDEX(...))``: the text its opening token becomes, and the ``)`` after its end."""
    for i in single:
        if i >= 0 and items[i].type == "FUNC":
            end = _operand_end(items, i)
            if end is not None:
                lead[i] = "_xlfn.SINGLE(" + lead.get(i, items[i].value)
                trail[end] = trail.get(end, "") + ")"


def _double_negations(items: Sequence[Any]) -> tuple[dict[int, str], dict[int, str]]:
    """``--X`` written as ``-(-X)``: formulas' parser reads a run of signs as one sign, so ``--TRUE``
    stayed TRUE where Excel negates twice and answers 1 (``SUMPRODUCT(--(A2:A20=8))``). For each run
    of prefix signs that negates an even number of times: the text its first token becomes (the
    others become nothing), and the ``)`` to add after the token that ends its operand."""
    lead: dict[int, str] = {}
    trail: dict[int, str] = {}
    i, n = 0, len(items)
    while i < n:
        if items[i].type != "OPERATOR-PREFIX":
            i += 1
            continue
        j = i
        while j < n and (items[j].type == "OPERATOR-PREFIX" or items[j].type == "WHITE-SPACE"):
            j += 1
        minus = sum(1 for t in items[i:j] if t.type == "OPERATOR-PREFIX" and t.value == "-")
        end = _operand_end(items, j)
        if minus and minus % 2 == 0 and end is not None:
            lead[i] = "-(-"
            for k in range(i + 1, j):
                lead[k] = ""
            trail[end] = trail.get(end, "") + ")"
        i = j
    return lead, trail


def _operand_end(items: Sequence[Any], j: int) -> int | None:
    """The index of the last token of the operand starting at ``j`` (a value, a call, a
    parenthesis or an array constant)."""
    if j >= len(items):
        return None
    if items[j].type == "OPERAND":
        return j
    if items[j].subtype != "OPEN":
        return None
    depth = 0
    for k in range(j, len(items)):
        if items[k].subtype == "OPEN" and items[k].type in ("FUNC", "PAREN", "ARRAY"):
            depth += 1
        elif items[k].subtype == "CLOSE" and items[k].type in ("FUNC", "PAREN", "ARRAY"):
            depth -= 1
            if depth == 0:
                return k
    return None


_TEXT = "\x00formula\x00"  # stands for the formula as written in a reason from ``program``


def as_written(err: ReasonedError, formula: str) -> ReasonedError:
    """A reason from ``program`` naming the formula as the user wrote it."""
    if _TEXT not in err.reason:
        return err
    return ReasonedError(str(err), err.reason.replace(_TEXT, repr(formula.strip()[:80])))


@lru_cache(maxsize=4096)
def program(text: str) -> Program | ReasonedError:
    """The prepared formula ``text`` parsed once (shared by every cell of the same shape)."""
    known = functions()
    try:
        prog = compile_program(text, limited)
    except ProgramError as exc:
        why = (
            " (not a valid formula)"
            if exc.reason.lower().startswith("not a valid formula")
            else f" ({exc.reason[:160]})"
        )
        return ReasonedError(exc.code, "cannot read the formula " + _TEXT + why)
    # LAMBDA is a function's argument (MAP's): the function taking it decides, and says when it is not computed
    unknown = [name for name in prog.functions if name not in known and name.removeprefix("_XLFN.") != "LAMBDA"]
    if unknown and not prog.missing:
        return ReasonedError("#NAME?", f"unknown function {', '.join(unknown)}")
    # a function no table has answers #NAME? where it is reached (not in IF's other branch); one the
    # engine has but has not checked against Excel answers #NAME? naming it (never a number)
    unchecked = [n for n in prog.functions if n in known and not _is_checked(n)]
    if unchecked:
        shown = ", ".join(name.removeprefix("_XLFN.").removeprefix("_XLWS.") for name in unchecked)
        return ReasonedError("#NAME?", f"{shown} is not computed by benchsheet")
    return prog


# the add-in's functions, the engine's constructor of an array literal ({1,2}), and implicit intersection
_OWN = frozenset({MISSING_FN, "ARRAY", "_XLFN.SINGLE"})


def _is_checked(name: str) -> bool:
    """An add-in function, or an Excel function checked against Excel, however the file spells
    a newer one (``_xlfn.CONCAT`` as Excel writes it, ``CONCAT`` as other writers do)."""
    bare = name.removeprefix("_XLFN.").removeprefix("_XLWS.")
    return name in _OWN or name in CHECKED or bare in CHECKED or f"_XLFN.{bare}" in CHECKED


def run(prog: Program, refs: Sequence[Any], cell: Any = None) -> Any:
    """One value of ``prog``: an engine value (number, text, bool, error, array) or a ReasonedError."""
    try:
        value = prog.run(refs, cell)
    except ProgramError as exc:
        return ReasonedError(exc.code, exc.reason)
    except RecursionError:
        return ReasonedError("#VALUE!", "the formula is nested too deeply")
    except MemoryError:
        return ReasonedError("#VALUE!", "the formula needs more memory than there is")
    except Exception as exc:  # the engine's own failure on odd input: the cell says so, the rest computes
        return ReasonedError("#VALUE!", f"cannot compute this formula ({type(exc).__name__}: {str(exc)[:120]})")
    if prog.missing:
        shown = plain(value)
        if isinstance(shown, XlError) and not isinstance(shown, ReasonedError) and str(shown) == "#NAME?":
            return ReasonedError("#NAME?", f"unknown function {', '.join(prog.missing)}")
    return _checked(value)


def _checked(value: Any) -> Any:
    """Excel's limits on an answer: a text of at most 32,767 characters."""
    if isinstance(value, str) and not isinstance(value, XlError) and len(value) > MAX_TEXT:
        return _too_long(len(value))
    if isinstance(value, np.ndarray) and value.dtype == object:
        for v in value.flat:
            if isinstance(v, str) and not isinstance(v, XlError) and len(v) > MAX_TEXT:
                return _too_long(len(v))
    return value


@lru_cache(maxsize=1024)
def _too_long(n: int) -> ReasonedError:
    return ReasonedError(*too_long(n))  # one value for every cell of an array too long by as much


def limited(value: Any) -> Any:
    """One step's answer within Excel's limits (``Program.check``), so the next step sees what Excel
    would (IFERROR and ISERROR among them), in its cell of an array: a text of more than 32,767
    characters is #VALUE! (the functions that could build a far longer text refuse it before
    building it: ``lib.text``); a number beyond Excel's largest (about 1.8E+308, ``inf``) or no
    number at all (``nan``) is #NUM!: a non-finite number never leaves a function."""
    kind = type(value)
    if kind is str:
        return value if len(value) <= MAX_TEXT else _too_long(len(value))
    if kind is float or isinstance(value, np.floating):
        return value if math.isfinite(value) else _not_finite(value)
    if not isinstance(value, np.ndarray):
        return value
    if value.dtype.kind in "fc":
        return value if np.isfinite(value).all() else _limited_cells(value.astype(object).view(type(value)))
    if value.dtype != object:
        return value
    if value.size == 1:
        one = value.flat[0]
        if type(one) is str:
            if len(one) <= MAX_TEXT:
                return value
        elif not isinstance(one, float) or math.isfinite(one):
            return value
    return _limited_cells(value)


def _limited_cells(value: np.ndarray[Any, Any]) -> Any:
    """``limited`` of each cell of an object array (a copy where one is not within the limits)."""
    cells = value.ravel().tolist()
    bad = [
        i
        for i, v in enumerate(cells)
        if (type(v) is str and len(v) > MAX_TEXT) or (isinstance(v, float) and not math.isfinite(v))
    ]
    if not bad:
        return value
    out = value.copy()
    for i in bad:
        v = cells[i]
        out.flat[i] = _too_long(len(v)) if isinstance(v, str) else _not_finite(v)
    return out


_OVERFLOW = ReasonedError("#NUM!", "the answer is beyond Excel's largest number (about 1.8E+308)")
_NO_NUMBER = ReasonedError("#NUM!", "the answer is no number (an overflow on the way: beyond 1.8E+308?)")


def _not_finite(v: float) -> ReasonedError:
    return _NO_NUMBER if math.isnan(v) else _OVERFLOW


BARE_REASONS = {  # why Excel's own errors arise, for an answer with nothing more specific
    "#DIV/0!": "division by zero",
    "#NUM!": "a number out of range (too large, or no answer exists)",
    "#VALUE!": "an argument of the wrong type (text where a number is needed?)",
    "#NULL!": "the ranges do not intersect",
    "#REF!": "a reference to cells that do not exist (deleted in Excel: #REF! in the formula; or past a range's end)",
}


def evaluate(formula: str) -> Any:
    """Compute one formula; the answer is plain Python or a ReasonedError."""
    prepared = prepare(formula, typed=True)
    if prepared.problem is not None:
        return prepared.problem
    if prepared.refs:
        return ReasonedError("#REF!", f"eval has no cells to refer to ({', '.join(prepared.refs)})")
    prog = program(prepared.text)
    if isinstance(prog, ReasonedError):
        reason = prog.reason.replace("cannot read the formula " + _TEXT, "cannot evaluate " + _TEXT)
        return as_written(ReasonedError(str(prog), reason), formula)
    with quiet_numpy():  # an overflow is #NUM! in the answer, not a warning on the terminal
        value = plain(run(prog, ()))
    if isinstance(value, XlError) and not isinstance(value, ReasonedError) and str(value) in BARE_REASONS:
        return ReasonedError(str(value), BARE_REASONS[str(value)])
    return value


def format_value(value: Any) -> str:
    """How a command line prints a value: full precision, arrays as TSV rows."""
    return shown(value, is_error)


def error_cells(value: Any) -> int:
    """How many cells of an array answer are errors (0 for a single value)."""
    return errors_in(value, is_error)
