"""The one catalogue of benchsheet's Excel functions.

Each ``Function`` names itself, its arguments (with help text and whether they
are optional), its category and an example, and points at the analysis code
that answers it. The xlwings UDF module, the formula engine behind
``benchsheet eval`` and the README's function reference are all made from
this list. ``call`` is the single way in: it converts raw cell values to the
argument kinds, maps a range in the first argument cell by cell, and turns
every failure into an error value made by the shell's ``on_error``.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from . import analysis as A
from . import claims as C
from .errors import BenchError, bad_value
from .snapshot import latency_bounds
from .store import get_table
from .table import Table

CATEGORY = "benchsheet"

Value = str | float | int | bool | Decimal | dt.date | dt.time | None
"""A cell value as a shell hands it over (Excel's currency cells are Decimal, date cells datetime)."""
ArgKind = str  # "text", "number", "int", "round", "spec", "bool"


@dataclass(frozen=True, slots=True)
class Arg:
    name: str
    kind: ArgKind
    help: str
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Function:
    name: str
    args: tuple[Arg, ...]
    help: str
    example: str
    impl: Callable[..., Any]
    returns: str = "number"  # "number", "text" or "table"
    category: str = CATEGORY
    flags_invalid: bool = True  # an answer from an INVALID private run says so

    @property
    def vectorized(self) -> bool:
        """A range in the first argument answers cell by cell."""
        return self.returns != "table"

    @property
    def signature(self) -> str:
        parts = [f"[{a.name}]" if a.optional else a.name for a in self.args]
        return f"{self.name}({', '.join(parts)})"


# ------------------------------------------------------------ argument help

ENTRY = Arg("entry", "text", 'Entry ID, e.g. "6.1-0052", or your own run, e.g. "local-0001"')
BENCH = Arg("benchmark", "text", 'Benchmark, e.g. "gpt-oss-120b", "deepseek-r1", "llama2-70b-99.9"')
SCEN = Arg("scenario", "text", '"Server", "Offline", "Interactive", ...')
FAMILY = Arg("family", "text", 'Accelerator family, e.g. "B200", "MI355X", "GB300"')
AVAIL = Arg("availability", "text", '"available" (default), "preview", "rdi" or "any"', True)
MAXG = Arg("max_gpus", "int", "Only systems with at most this many accelerators", True)
ROUND = Arg("round", "round", 'Round, e.g. "6.1"; default: the latest round with rows', True)
SOFT = Arg("software", "text", 'Only rows whose software contains this text, e.g. "vLLM"', True)


def _spec(name: str, what: str) -> Arg:
    return Arg(name, "spec", f"{what}: an entry ID, a family (its best row) or a per-GPU number")


def _filters(
    availability: str | None = None,
    max_gpus: int | None = None,
    round: str | None = None,
    software: str | None = None,
) -> A.Filters:
    return A.Filters(availability or "available", max_gpus, round, software)


def _t() -> Table:
    return get_table()


def _gains(
    benchmark: str,
    scenario: str,
    old_round: str | None = None,
    new_round: str | None = None,
    family: str | None = None,
    availability: str | None = None,
    include_resized: bool | None = None,
) -> list[list[str | float | int]]:
    return C.gains(
        _t(), benchmark, scenario, old_round, new_round, family, availability or "available", bool(include_resized)
    )


CATALOGUE: tuple[Function, ...] = (
    Function(
        "PERGPU",
        (
            ENTRY,
            Arg("benchmark", "text", BENCH.help + "; may be left out when the entry has one", True),
            Arg("scenario", "text", 'Default "Server" where the entry has it', True),
        ),
        "The system's result divided by its total accelerators (a derived metric, not an official MLPerf result).",
        '=PERGPU("5.1-0072","deepseek-r1","Server")',
        lambda entry, benchmark=None, scenario=None: A.pergpu(_t(), entry, benchmark, scenario),
    ),
    Function(
        "RESULT",
        (ENTRY, BENCH, SCEN),
        "The official system result, in the row's units.",
        '=RESULT("6.1-0052","gpt-oss-120b","Server")',
        lambda entry, benchmark, scenario: A.result(_t(), entry, benchmark, scenario),
    ),
    Function(
        "GPUS",
        (ENTRY,),
        "Total accelerators of the entry's system (per node x nodes).",
        '=GPUS("5.1-0072")',
        lambda entry: A.gpus(_t(), entry),
    ),
    Function(
        "ENTRY",
        # VBA refuses a parameter named like its function, so ENTRY's first one is entry_id
        (
            Arg("entry_id", "text", ENTRY.help),
            Arg("field", "text", "One of: " + ", ".join(A.ENTRY_FIELDS + A.RUN_FIELDS)),
        ),
        "One field of an entry: submitter, system, accelerator, family, gpus, ...",
        '=ENTRY("6.1-0052","system")',
        lambda entry_id, field: A.entry_field(_t(), entry_id, field),
        returns="text",
        flags_invalid=False,  # ENTRY(e, "valid") is how a sheet tests for the flag
    ),
    Function(
        "BEST",
        (FAMILY, BENCH, SCEN, AVAIL, MAXG, ROUND, SOFT),
        "The best per-GPU value of a family (closed division) under the filters.",
        '=BEST("B200","gpt-oss-120b","Server","available",8)',
        lambda family, benchmark, scenario, availability=None, max_gpus=None, round=None, software=None: A.best(
            _t(), family, benchmark, scenario, _filters(availability, max_gpus, round, software)
        ),
    ),
    Function(
        "BESTENTRY",
        (FAMILY, BENCH, SCEN, AVAIL, MAXG, ROUND, SOFT),
        "The entry ID behind BEST.",
        '=BESTENTRY("B300","gpt-oss-120b","Server","available",8)',
        lambda family, benchmark, scenario, availability=None, max_gpus=None, round=None, software=None: A.best_entry(
            _t(), family, benchmark, scenario, _filters(availability, max_gpus, round, software)
        ),
        returns="text",
    ),
    Function(
        "MEDIANPERGPU",
        (FAMILY, BENCH, SCEN, AVAIL, MAXG, ROUND, SOFT),
        "The median per-GPU value of a family's rows under the filters.",
        '=MEDIANPERGPU("B200","gpt-oss-120b","Server")',
        lambda family, benchmark, scenario, availability=None, max_gpus=None, round=None, software=None: (
            A.median_per_gpu(_t(), family, benchmark, scenario, _filters(availability, max_gpus, round, software))
        ),
    ),
    Function(
        "SPREAD",
        (
            FAMILY,
            BENCH,
            SCEN,
            Arg("gpus", "int", "Only systems with exactly this many accelerators"),
            AVAIL,
            ROUND,
            SOFT,
        ),
        "(max - min) / min of per-GPU values among systems of one size: how much the integrator matters.",
        '=SPREAD("B200","gpt-oss-120b","Server",8)',
        lambda family, benchmark, scenario, gpus, availability=None, round=None, software=None: A.spread(
            _t(),
            family,
            benchmark,
            scenario,
            gpus,
            _filters(availability, None, round, software),
        ),
    ),
    Function(
        "BREAKEVEN",
        (
            _spec("baseline", "Baseline"),
            _spec("candidate", "Candidate"),
            BENCH,
            SCEN,
            AVAIL,
            MAXG,
            ROUND,
        ),
        "Candidate per-GPU / baseline per-GPU: the highest price ratio worth paying for the candidate.",
        '=BREAKEVEN("B200","B300","gpt-oss-120b","Server","available",8)',
        lambda baseline, candidate, benchmark, scenario, availability=None, max_gpus=None, round=None: A.breakeven(
            _t(),
            baseline,
            candidate,
            benchmark,
            scenario,
            _filters(availability, max_gpus, round),
        ),
    ),
    Function(
        "BREAKEVENPRICE",
        (
            Arg("baseline_price", "number", "Baseline $ per GPU-hour"),
            _spec("baseline", "Baseline"),
            _spec("candidate", "Candidate"),
            BENCH,
            SCEN,
            AVAIL,
            MAXG,
            ROUND,
        ),
        "baseline_price x BREAKEVEN: the contract ceiling per GPU-hour for the candidate.",
        '=BREAKEVENPRICE(5,"B200","B300","gpt-oss-120b","Server","available",8)',
        lambda baseline_price, baseline, candidate, benchmark, scenario, availability=None, max_gpus=None, round=None: (
            A.breakeven_price(
                _t(),
                baseline_price,
                baseline,
                candidate,
                benchmark,
                scenario,
                _filters(availability, max_gpus, round),
            )
        ),
    ),
    Function(
        "COSTPERMTOK",
        (
            Arg("price_per_gpu_hour", "number", "$ per GPU-hour"),
            Arg("tokens_per_sec_per_gpu", "number", "Tokens/s per GPU, e.g. BEST(...)"),
            Arg(
                "utilization",
                "number",
                "Share of the hour spent serving, > 0 and <= 1 (default 1)",
                True,
            ),
        ),
        "Dollars per million tokens: price x 1,000,000 / (tokens/s x 3,600 x utilization).",
        '=COSTPERMTOK(5,BEST("B200","gpt-oss-120b","Server","available",8),0.5)',
        lambda price_per_gpu_hour, tokens_per_sec_per_gpu, utilization=None: A.cost_per_mtok(
            price_per_gpu_hour, tokens_per_sec_per_gpu, 1.0 if utilization is None else utilization
        ),
    ),
    Function(
        "GPUSNEEDED",
        (
            Arg("target_tokens_per_sec", "number", "Throughput to serve, tokens/s"),
            Arg("tokens_per_sec_per_gpu", "number", "Tokens/s per GPU, e.g. BEST(...)"),
            Arg("utilization", "number", "Planned utilization, > 0 and <= 1 (default 1)", True),
            Arg("gpus_per_node", "int", "Accelerators per node (default 8)", True),
        ),
        "GPUs to buy for a target throughput, rounded up to whole nodes.",
        '=GPUSNEEDED(1000000,BEST("B200","gpt-oss-120b","Server"),0.7,8)',
        lambda target_tokens_per_sec, tokens_per_sec_per_gpu, utilization=None, gpus_per_node=None: A.gpus_needed(
            target_tokens_per_sec,
            tokens_per_sec_per_gpu,
            1.0 if utilization is None else utilization,
            8 if gpus_per_node is None else gpus_per_node,
        ),
    ),
    Function(
        "GAIN",
        (
            Arg("old_entry", "text", "Earlier entry ID"),
            Arg("new_entry", "text", "Later entry ID"),
            BENCH,
            SCEN,
        ),
        "new per-GPU / old per-GPU - 1, e.g. a software update between rounds.",
        '=GAIN("6.0-0073","6.1-0071","gpt-oss-120b","Server")',
        lambda old_entry, new_entry, benchmark, scenario: A.gain(_t(), old_entry, new_entry, benchmark, scenario),
    ),
    Function(
        "SCALING",
        (
            Arg("small_entry", "text", "Entry ID of the smaller system"),
            Arg("large_entry", "text", "Entry ID of the larger system"),
            BENCH,
            SCEN,
        ),
        "large per-GPU / small per-GPU: how well a larger system keeps per-GPU throughput.",
        '=SCALING("6.1-0075","6.1-0074","deepseek-r1","Server")',
        lambda small_entry, large_entry, benchmark, scenario: A.scaling(
            _t(), small_entry, large_entry, benchmark, scenario
        ),
    ),
    Function(
        "HEADLINE",
        (
            BENCH,
            SCEN,
            Arg("old_round", "round", 'Earlier round, e.g. "5.1"'),
            Arg("new_round", "round", 'Later round, e.g. "6.1"'),
            Arg(
                "availability",
                "text",
                '"any" (default) or "available", "preview", "rdi": applies to both rounds',
                True,
            ),
        ),
        "Best per-GPU of new_round / best per-GPU of old_round, closed division.",
        '=HEADLINE("deepseek-r1","Server","5.1","6.1")',
        lambda benchmark, scenario, old_round, new_round, availability=None: A.headline(
            _t(), benchmark, scenario, old_round, new_round, availability or "any"
        ),
    ),
    Function(
        "RESULTS",
        (
            BENCH,
            SCEN,
            Arg("family", "text", FAMILY.help + "; default: all", True),
            AVAIL,
            MAXG,
            ROUND,
            SOFT,
        ),
        "A table with a header, best per-GPU first: entry, submitter, system, accelerator, "
        "GPUs, result, per-GPU, availability, software, note (model run, GPUs per card, units label). Spills.",
        '=RESULTS("gpt-oss-120b","Server","B300")',
        lambda benchmark, scenario, family=None, availability=None, max_gpus=None, round=None, software=None: A.results(
            _t(), benchmark, scenario, family, _filters(availability, max_gpus, round, software)
        ),
        returns="table",
    ),
    Function(
        "FAMILIES",
        (BENCH, SCEN, AVAIL, MAXG, ROUND, SOFT),
        "The accelerator families with a per-GPU value under the filters, best first: a column that spills.",
        '=INDEX(FAMILIES("gpt-oss-120b","Server","available",8),1)',
        lambda benchmark, scenario, availability=None, max_gpus=None, round=None, software=None: [
            [f] for f in A.ranked_families(_t(), benchmark, scenario, _filters(availability, max_gpus, round, software))
        ],
        returns="table",
    ),
    Function(
        "CITE",
        (ENTRY, BENCH, SCEN),
        "A citation per the MLPerf Results Messaging Guidelines: round, division, category, "
        "entry, source file and SHA-256, derived-metric note, trademark notice.",
        '=CITE("6.1-0052","gpt-oss-120b","Server")',
        lambda entry, benchmark, scenario: A.cite(_t(), entry, benchmark, scenario),
        returns="text",
    ),
    Function(
        "LATENCYBOUNDS",
        (BENCH, SCEN),
        "A 1x2 array: the p99 TTFT and TPOT limits in ms that Server/Interactive rows met.",
        '=LATENCYBOUNDS("deepseek-r1","Interactive")',
        lambda benchmark, scenario: A.latency_bounds(latency_bounds(), benchmark, scenario),
        returns="table",
    ),
    Function(
        "DATAINFO",
        (
            Arg(
                "field",
                "text",
                '"rounds", "rows", "origin", "sources", "sha256" or "imported_at"; default: a table',
                True,
            ),
        ),
        "Provenance of the loaded results: rounds, rows, sources, SHA-256, imported at.",
        '=DATAINFO("rounds")',
        lambda field=None: A.datainfo(_t(), field),
        returns="table",
    ),
    Function(
        "RATIOS",
        (
            Arg("candidate", "text", 'Candidate: a family, e.g. "Vera Rubin" (its best row), or an entry ID'),
            Arg("baseline", "text", 'Baseline: a family, e.g. "GB300" (its best row), or an entry ID'),
            Arg("availability", "text", '"any" (default) or "available", "preview", "rdi": applies to both', True),
            ROUND,
            MAXG,
            Arg("same_gpus", "bool", "TRUE: pair only rows with the same accelerator count (default FALSE)", True),
        ),
        "Candidate per-GPU / baseline per-GPU on every benchmark and scenario where both have one, highest "
        "first: benchmark, scenario, ratio, both entries, per-GPU values, GPUs and availability. The first row is "
        'where an "up to Nx" comes from. Spills.',
        '=RATIOS("Vera Rubin","GB300")',
        lambda candidate, baseline, availability=None, round=None, max_gpus=None, same_gpus=None: C.ratios(
            _t(), candidate, baseline, _filters(availability or "any", max_gpus, round), bool(same_gpus)
        ),
        returns="table",
    ),
    Function(
        "GAINS",
        (
            BENCH,
            SCEN,
            Arg("old_round", "round", 'Earlier round, e.g. "6.0"; default: the second latest with rows', True),
            Arg("new_round", "round", 'Later round, e.g. "6.1"; default: the latest with rows', True),
            Arg("family", "text", FAMILY.help + "; default: all", True),
            AVAIL,
            Arg(
                "include_resized",
                "bool",
                "TRUE: also pair systems of different size, marked as not a software gain (default FALSE)",
                True,
            ),
        ),
        "Like-for-like systems across two rounds (same submitter, family and GPU count), biggest per-GPU gain "
        "first: family, submitter, GPUs, old and new entry, per-GPU and software, gain, and how strong the "
        "match is. Spills.",
        '=GAINS("gpt-oss-120b","Server","6.0","6.1")',
        _gains,
        returns="table",
    ),
    Function(
        "HISTORY",
        (FAMILY, BENCH, SCEN, AVAIL, MAXG),
        "One row per round with the family's closed rows, oldest first: round, best per-GPU, its entry and "
        "GPUs, median per-GPU, number of rows, units. Spills.",
        '=HISTORY("GB300","deepseek-r1","Server")',
        lambda family, benchmark, scenario, availability=None, max_gpus=None: C.history(
            _t(), family, benchmark, scenario, _filters(availability, max_gpus)
        ),
        returns="table",
    ),
)

BY_NAME = {f.name: f for f in CATALOGUE}


# --------------------------------------------------------------- conversion


def convert(arg: Arg, value: Value) -> Any:
    """A raw cell value as the argument's kind, or a #VALUE! error saying why.

    Values arrive as Excel hands them over (tests/excel.py has the model): a number is a float, a
    currency cell a ``Decimal``, a date or time cell a ``datetime``, an empty cell None.
    """
    if type(value) is str and arg.kind == "text":  # the common case, first
        value = value.strip()
        if value and len(value) <= 200:
            return value
    if isinstance(value, str):
        value = value.strip()
        if value == "":
            value = None
    if value is None:
        if arg.optional:
            return None
        raise bad_value(f"{arg.name} is required")
    if arg.kind == "bool":
        return _flag(arg, value)
    if isinstance(value, bool):
        raise bad_value(f"{arg.name} must not be TRUE/FALSE")
    if isinstance(value, dt.date | dt.time):
        raise bad_value(_date_reason(arg, value))
    if isinstance(value, Decimal):  # a currency or accounting cell
        value = float(value)
    if isinstance(value, int | float) and not math.isfinite(value):
        raise bad_value(f"{arg.name} must be a finite number")
    kind = arg.kind
    if kind == "text":
        if not isinstance(value, str):
            raise bad_value(f"{arg.name} must be text, not the number {value:g}")
        if len(value) > 200:
            raise bad_value(f"{arg.name} is too long ({len(value)} characters)")
        return value
    if kind == "round":
        return round_text(value) if isinstance(value, int | float) else value
    if kind == "spec":
        return float(value) if isinstance(value, int | float) else value
    number = _number(arg, value)
    if kind == "int":
        if number != int(number):
            raise bad_value(f"{arg.name} must be a whole number, not {number:g}")
        return int(number)
    return number


def round_text(number: float) -> str:
    """A round typed as a number: 6 -> "6.0", 5.1 -> "5.1"; binary noise (6.1000000001) is dropped."""
    text = f"{number:.4f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def _date_reason(arg: Arg, value: dt.date | dt.time) -> str:
    shown = value.strftime("%H:%M" if isinstance(value, dt.time) else "%Y-%m-%d")
    if arg.kind == "round":
        return f'{arg.name} is a date ({shown}); type the round as text, e.g. "6.1"'
    if arg.kind in ("text", "spec"):
        return f"{arg.name} is a date ({shown}); type it as text"
    return f"{arg.name} is a date ({shown}), not a number; format the cell as a number"


def _number(arg: Arg, value: Any) -> float:
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        if value.startswith("INVALID run "):  # an answer from a run whose loadgen log says INVALID
            raise bad_value(
                f"{arg.name} comes from an INVALID run ({value.split(':')[0].removeprefix('INVALID run ')})"
            )
        try:
            number = float(value.replace(",", ""))
        except ValueError:
            raise bad_value(f"{arg.name} must be a number, not {value[:40]!r}") from None
        if math.isfinite(number):
            return number
    raise bad_value(f"{arg.name} must be a number")


def _flag(arg: Arg, value: Any) -> bool:
    """TRUE/FALSE, 1/0 or the text "TRUE"/"FALSE", as Excel reads a logical argument."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float | Decimal) and value in (0, 1):  # 1/0, also from a currency cell
        return bool(value)
    if isinstance(value, str) and value.upper() in ("TRUE", "FALSE"):
        return value.upper() == "TRUE"
    raise bad_value(f"{arg.name} must be TRUE or FALSE")


class _Passed(Exception):
    """An error value among the inputs, passed on unchanged as Excel does."""

    def __init__(self, value: Any) -> None:
        self.value = value


def _convert_all(specs: Sequence[Arg], values: Sequence[Any], is_error: Callable[[Any], bool] | None) -> list[Any]:
    out = []
    for spec, value in zip(specs, values, strict=False):
        if is_error is not None and is_error(value):
            raise _Passed(value)
        if isinstance(value, list | tuple):
            raise bad_value(f"{spec.name} must be one cell, not a range")
        out.append(convert(spec, value))
    for spec in specs[len(values) :]:
        if not spec.optional:
            raise bad_value(f"{spec.name} is required")
    return out


def call(
    fn: Function,
    args: Sequence[Any],
    on_error: Callable[[BenchError], Any],
    is_error: Callable[[Any], bool] | None = None,
) -> Any:
    """Answer one call of ``fn``; a 2-D list in the first argument maps cell by cell.

    ``is_error`` recognises the runtime's own error values among the inputs;
    they are passed on unchanged, as Excel does. Every failure, even a defect,
    answers with ``on_error(...)``: nothing escapes into the cell.
    """
    if len(args) > len(fn.args):
        return on_error(bad_value(f"{fn.name} takes at most {len(fn.args)} arguments"))
    if not (fn.vectorized and args and isinstance(args[0], list | tuple)):
        return _answer(fn, args, None, on_error, is_error)
    try:  # the other arguments are the same for every cell: convert them once
        rest: list[Any] | Any = _convert_all(fn.args[1:], args[1:], is_error)
    except BenchError as err:
        rest = _Passed(on_error(err))
    except _Passed as passed:
        rest = passed
    memo: dict[tuple[type, Any], Any] = {}  # a column repeats its IDs: answer each once

    def one(cell: Any) -> Any:
        try:
            key = (type(cell), cell)  # 1, 1.0 and TRUE are equal in Python but not as arguments
            return memo[key]
        except KeyError:
            value = memo[key] = _answer(fn, (cell,), rest, on_error, is_error)
            return value
        except TypeError:  # an unhashable cell
            return _answer(fn, (cell,), rest, on_error, is_error)

    return [[one(cell) for cell in _row(line)] for line in args[0]]


def _row(line: Any) -> Sequence[Any]:
    return line if isinstance(line, list | tuple) else (line,)


def _answer(
    fn: Function,
    args: Sequence[Any],
    rest: list[Any] | _Passed | None,
    on_error: Callable[[BenchError], Any],
    is_error: Callable[[Any], bool] | None,
) -> Any:
    """One answer; ``rest`` holds the already converted arguments after the first."""
    try:
        if rest is None:
            converted = _convert_all(fn.args, args, is_error)
        elif isinstance(rest, _Passed):  # the cell's own argument is judged first, as in a one-cell call
            _convert_all(fn.args[:1], args, is_error)
            return rest.value
        else:  # one cell of a range in the first argument
            converted = [*_convert_all(fn.args[:1], args, is_error), *rest]
        if not _t().has_invalid_runs:
            value = fn.impl(*converted)
        else:
            with A.track_invalid() as invalid:
                value = fn.impl(*converted)
            if invalid and fn.flags_invalid and fn.returns != "table":
                return f"INVALID run {', '.join(sorted(invalid))}: {value}"
        if type(value) is float and not math.isfinite(value):
            raise BenchError("#NUM!", "the answer is too large to be a number; check the inputs' units")
        return value
    except _Passed as passed:
        return passed.value
    except BenchError as err:
        return on_error(err)
    except Exception as exc:  # a defect must still answer in the cell, never crash it
        return on_error(bad_value(f"benchsheet could not answer ({type(exc).__name__}: {exc})"))
