"""The one catalogue of benchsheet's Excel functions.

Each ``Function`` declares itself once: its name, its arguments (kind, help text, and the value a
left-out one takes), its category and an example, and the analysis function that answers it. The
arguments are bound to that function by name (a ``table`` parameter gets the loaded table, a
``filters`` parameter the ``Filters`` made of availability, max_gpus, round and software), and a
test checks at import that the names agree. The xlwings UDF module, the xlwings Lite module, the
formula engine behind ``benchsheet eval`` and the function reference (docs/functions.md) are all made from
this list. ``call`` is the single way in: the shell passes the loaded table and raw cell values;
``call`` converts them to the argument kinds, maps a range in the first argument cell by cell, and
turns every failure into an error value made by the shell's ``on_error``.
"""

from __future__ import annotations

import datetime as dt
import inspect
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Literal

from benchsheet import analysis as A
from benchsheet.analysis import claims as C
from benchsheet.data.table import Table
from benchsheet.errors import BenchError, bad_value
from excelcalc.textnum import text_number

CATEGORY = "benchsheet"

Value = str | float | int | bool | Decimal | dt.date | dt.time | None
"""A cell value as a shell hands it over (Excel's currency cells are Decimal, date cells datetime)."""
Kind = Literal["text", "number", "int", "round", "spec", "bool", "cells"]
"""text; a number; a whole number; a round ("6.1", or typed as a number); an entry, family or number;
TRUE/FALSE; a range (or one cell) as rows of its values, errors and blanks left for the function to judge."""
Returns = Literal["number", "text", "table"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""An argument's default when it has none: it must be given."""
FILTER_ARGS = ("availability", "max_gpus", "round", "software")
"""Arguments that together make the ``filters`` of a family look-up."""


@dataclass(frozen=True, slots=True)
class Arg:
    name: str
    kind: Kind
    help: str
    default: Any = REQUIRED  # the value a left-out argument takes

    @property
    def optional(self) -> bool:
        return self.default is not REQUIRED

    def but(self, help: str | None = None, default: Any = REQUIRED) -> Arg:
        """The same argument with other help text and/or default (REQUIRED keeps the default)."""
        return replace(
            self, help=self.help if help is None else help, default=self.default if default is REQUIRED else default
        )


@dataclass(frozen=True, slots=True)
class Function:
    name: str
    args: tuple[Arg, ...]
    help: str
    example: str
    impl: Callable[..., Any]
    returns: Returns = "number"
    category: str = CATEGORY
    flags_invalid: bool = True  # an answer from an INVALID private run says so
    params: frozenset[str] = field(init=False, default=frozenset(), repr=False)
    _names: tuple[str, ...] = field(init=False, default=(), repr=False)
    _filters: tuple[str, ...] = field(init=False, default=(), repr=False)
    _in_order: bool = field(init=False, default=False, repr=False)  # impl(table, *arguments) binds them all
    _bare_order: bool = field(init=False, default=False, repr=False)  # impl(*arguments) binds them all
    _defaults: tuple[Any, ...] = field(init=False, default=(), repr=False)

    def __post_init__(self) -> None:
        """The impl's parameters are the arguments' names (filters and context bound by name)."""
        order = list(inspect.signature(self.impl).parameters)
        params = frozenset(order)
        names = {a.name for a in self.args}
        expected = (names - set(FILTER_ARGS) | {"filters"}) if "filters" in params else names
        if params - {"table", "bounds"} != expected:
            raise TypeError(
                f"{self.name}: {self.impl.__name__} takes {sorted(params)}, the arguments are {sorted(names)}"
            )
        set_ = object.__setattr__  # a frozen dataclass: what binding needs, worked out once
        set_(self, "params", params)
        set_(self, "_names", tuple(a.name for a in self.args))
        set_(self, "_filters", tuple(k for k in FILTER_ARGS if k in names) if "filters" in params else ())
        set_(self, "_in_order", order == ["table", *self._names])
        set_(self, "_bare_order", order == list(self._names))
        set_(self, "_defaults", tuple(a.default for a in self.args))

    @property
    def vectorized(self) -> bool:
        """A range in the first argument answers cell by cell."""
        return self.returns != "table"

    @property
    def signature(self) -> str:
        parts = [f"[{a.name}]" if a.optional else a.name for a in self.args]
        return f"{self.name}({', '.join(parts)})"

    def answer(self, table: Table, values: list[Any]) -> Any:
        """``impl`` applied to converted values (None where left out)."""
        if self._in_order or self._bare_order:  # the same binding as bind(), without building a dict
            given = [d if v is None else v for v, d in zip(values, self._defaults)]  # noqa: B905
            return self.impl(table, *given) if self._in_order else self.impl(*given)
        return self.impl(**self.bind(table, values))

    def bind(self, table: Table, values: Sequence[Any]) -> dict[str, Any]:
        """Keyword arguments for ``impl``: converted values by name, left-out ones as their defaults."""
        kwargs = {n: d if v is None else v for n, v, d in zip(self._names, values, self._defaults)}  # noqa: B905
        if self._filters:
            kwargs["filters"] = A.Filters(**{k: kwargs.pop(k) for k in self._filters})
        if "table" in self.params:
            kwargs["table"] = table
        if "bounds" in self.params:
            # here, not at the top: snapshot imports the importers (hashlib, csv...), which a process
            # that computes formulas (calc, eval) needs for nothing else
            from benchsheet.data.snapshot import latency_bounds

            kwargs["bounds"] = latency_bounds()
        return kwargs


# ------------------------------------------------------------ argument help

ENTRY = Arg("entry", "text", 'Entry ID, e.g. "6.1-0052", or your own run, e.g. "local-0001"')
BENCH = Arg("benchmark", "text", 'Benchmark, e.g. "gpt-oss-120b", "deepseek-r1", "llama2-70b-99.9"')
SCEN = Arg("scenario", "text", '"Server", "Offline", "Interactive", ...')
FAMILY = Arg("family", "text", 'Accelerator family, e.g. "B200", "MI355X", "GB300", or a group, e.g. "Blackwell"')
ANY_FAMILY = FAMILY.but(FAMILY.help + "; default: all", None)
AVAIL = Arg("availability", "text", '"available" (default), "preview", "rdi" or "any"', "available")
AVAIL_ANY = AVAIL.but('"any" (default) or "available", "preview", "rdi": applies to both', "any")
MAXG = Arg("max_gpus", "int", "Only systems with at most this many accelerators", None)
ROUND = Arg("round", "round", 'Round, e.g. "6.1"; default: the latest round with rows', None)
SOFT = Arg("software", "text", 'Only rows whose software contains this text, e.g. "vLLM"', None)
FILTERS = (AVAIL, MAXG, ROUND, SOFT)
PER_GPU = Arg("tokens_per_sec_per_gpu", "number", "Tokens/s per GPU, e.g. BEST(...)")
_UNITS = 'Excel passes no unit on from BEST: "Tokens/s" (default), "Queries/s", "Samples/s", or the workload'
UNITS = Arg(
    "units", "text", f'The rate\'s unit. {_UNITS}, e.g. "stable-diffusion-xl Server"; a latency is refused', None
)


def _spec(name: str, what: str) -> Arg:
    return Arg(name, "spec", f"{what}: an entry ID, a family (its best row) or a per-GPU number")


PAIR_ROUND = ROUND.but(
    'Round, e.g. "6.1", or "same": the latest round both sides have (RATIOS\' default); default: each side\'s latest'
)
PAIR_ARGS = (_spec("baseline", "Baseline"), _spec("candidate", "Candidate"), BENCH, SCEN, AVAIL, MAXG, PAIR_ROUND)


def _latency_bounds(bounds: dict[str, dict[str, list[float]]], benchmark: str, scenario: str) -> list[list[float]]:
    return A.latency_bounds(bounds, benchmark, scenario)


CATALOGUE: tuple[Function, ...] = (
    Function(
        "PERGPU",
        (
            ENTRY,
            BENCH.but(BENCH.help + "; may be left out when the entry has one", None),
            SCEN.but('Default "Server" where the entry has it', None),
        ),
        "The system's result divided by its total accelerators (a derived metric, not an official MLPerf result).",
        '=PERGPU("5.1-0072","deepseek-r1","Server")',
        A.pergpu,
    ),
    Function(
        "RESULT",
        (ENTRY, BENCH, SCEN),
        "The official system result, in the row's units.",
        '=RESULT("6.1-0052","gpt-oss-120b","Server")',
        A.result,
    ),
    Function(
        "GPUS",
        (ENTRY,),
        "Total accelerators of the entry's system (per node x nodes).",
        '=GPUS("5.1-0072")',
        A.gpus,
    ),
    Function(
        "ENTRY",
        # VBA refuses a parameter named like its function, so ENTRY's first one is entry_id
        (
            Arg("entry_id", "text", ENTRY.help),
            Arg("field", "text", "One of: " + ", ".join(A.ENTRY_FIELDS + A.RUN_FIELDS)),
        ),
        "One field of an entry: submitter, system, accelerator, family, gpus, ...; inferred: the results the "
        'official file marks inferred ("none"), flags: every official flag as the file writes it.',
        '=ENTRY("6.1-0052","system")',
        A.entry_field,
        returns="text",
        flags_invalid=False,  # ENTRY(e, "valid") is how a sheet tests for the flag
    ),
    Function(
        "BEST",
        (FAMILY, BENCH, SCEN, *FILTERS),
        "The best per-GPU value of a family (closed division) under the filters, from the latest round "
        "with rows (round chooses another).",
        '=BEST("B200","gpt-oss-120b","Server","available",8)',
        A.best,
    ),
    Function(
        "BESTENTRY",
        (FAMILY, BENCH, SCEN, *FILTERS),
        "The entry ID behind BEST (the latest round with rows, unless round is given).",
        '=BESTENTRY("B300","gpt-oss-120b","Server","available",8)',
        A.best_entry,
        returns="text",
    ),
    Function(
        "MEDIANPERGPU",
        (FAMILY, BENCH, SCEN, *FILTERS),
        "The median per-GPU value of a family's rows under the filters, in the latest round with rows.",
        '=MEDIANPERGPU("B200","gpt-oss-120b","Server")',
        A.median_per_gpu,
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
        A.spread,
    ),
    Function(
        "BREAKEVEN",
        PAIR_ARGS,
        "Candidate per-GPU / baseline per-GPU: the highest price ratio worth paying for the candidate. Each "
        'family side is of its own latest round unless round is given or "same"; PAIRED names the rows and rounds.',
        '=BREAKEVEN("B200","B300","gpt-oss-120b","Server","available",8)',
        A.breakeven,
    ),
    Function(
        "PAIRED",
        PAIR_ARGS,
        "The rows and rounds BREAKEVEN with the same arguments divides: same round or across rounds, each entry.",
        '=PAIRED("H200","B300","gpt-oss-120b","Server","available")',
        A.paired,
        returns="text",
    ),
    Function(
        "BREAKEVENPRICE",
        (Arg("baseline_price", "number", "Baseline $ per GPU-hour"), *PAIR_ARGS),
        "baseline_price x BREAKEVEN: the contract ceiling per GPU-hour for the candidate.",
        '=BREAKEVENPRICE(5,"B200","B300","gpt-oss-120b","Server","available",8)',
        A.breakeven_price,
    ),
    Function(
        "COSTPERMTOK",
        (
            Arg("price_per_gpu_hour", "number", "$ per GPU-hour"),
            PER_GPU,
            Arg("utilization", "number", "Share of the hour spent serving, > 0 and <= 1 (default 1)", 1.0),
            UNITS,
        ),
        "Dollars per million tokens: price x 1,000,000 / (tokens/s x 3,600 x utilization); per million queries "
        '(samples) where units is "Queries/s" ("Samples/s") or a workload in them. A bare number is tokens/s.',
        '=COSTPERMTOK(5,BEST("B200","gpt-oss-120b","Server","available",8),0.5)',
        A.cost_per_mtok,
    ),
    Function(
        "GPUSNEEDED",
        (
            Arg("target_tokens_per_sec", "number", "Throughput to serve, tokens/s"),
            PER_GPU,
            Arg("utilization", "number", "Planned utilization, > 0 and <= 1 (default 1)", 1.0),
            Arg(
                "gpus_per_node",
                "int",
                f"Accelerators per node (default {A.DEFAULT_GPUS_PER_NODE})",
                A.DEFAULT_GPUS_PER_NODE,
            ),
            UNITS,
        ),
        "GPUs to buy for a target throughput, rounded up to whole nodes; the target is in the rate's units "
        "(tokens/s for a bare number; queries/s, samples/s where units says so).",
        '=GPUSNEEDED(1000000,BEST("B200","gpt-oss-120b","Server"),0.7,8)',
        A.gpus_needed,
    ),
    Function(
        "GAIN",
        (Arg("old_entry", "text", "Earlier entry ID"), Arg("new_entry", "text", "Later entry ID"), BENCH, SCEN),
        "new per-GPU / old per-GPU - 1, e.g. a software update between rounds.",
        '=GAIN("6.0-0073","6.1-0071","gpt-oss-120b","Server")',
        A.gain,
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
        A.scaling,
    ),
    Function(
        "HEADLINE",
        (
            BENCH,
            SCEN,
            Arg("old_round", "round", 'Earlier round, e.g. "5.1"'),
            Arg("new_round", "round", 'Later round, e.g. "6.1"'),
            AVAIL_ANY.but('"any" (default) or "available", "preview", "rdi": applies to both rounds'),
        ),
        "Best per-GPU of new_round / best per-GPU of old_round, closed division.",
        '=HEADLINE("deepseek-r1","Server","5.1","6.1")',
        A.headline,
    ),
    Function(
        "RESULTS",
        (BENCH, SCEN, ANY_FAMILY, *FILTERS),
        "A table with a header, best per-GPU first: entry, submitter, system, accelerator, "
        "GPUs, result, per-GPU, availability, software, note (inferred, own run, model run, GPUs per card, units), "
        "round "
        "(the latest round with rows, unless round is given). Spills.",
        '=RESULTS("gpt-oss-120b","Server","B300")',
        A.results,
        returns="table",
    ),
    Function(
        "FAMILIES",
        (BENCH, SCEN, *FILTERS),
        "The accelerator families with a per-GPU value under the filters, best first: a column that spills.",
        '=INDEX(FAMILIES("gpt-oss-120b","Server","available",8),1)',
        A.families,
        returns="table",
    ),
    Function(
        "CITE",
        (
            ENTRY,
            BENCH,
            SCEN,
            Arg(
                "part",
                "text",
                "One line: " + ", ".join(A.CITE_PARTS) + "; default: every line, a column",
                None,
            ),
        ),
        "A citation per the MLPerf Results Messaging Guidelines, one sentence a line: round, division, category, "
        "benchmark, scenario, entry; result; system; notes; source file and retrieval date; SHA-256; derived-metric "
        "note; trademark legend. Spills.",
        '=CITE("6.1-0052","gpt-oss-120b","Server")',
        A.cite,
        returns="table",
    ),
    Function(
        "LATENCYBOUNDS",
        (BENCH, SCEN),
        "A 1x2 array: the p99 TTFT and TPOT limits in ms that Server/Interactive rows met.",
        '=LATENCYBOUNDS("deepseek-r1","Interactive")',
        _latency_bounds,
        returns="table",
    ),
    Function(
        "DATAINFO",
        (
            Arg(
                "field",
                "text",
                '"rounds", "rows", "origin", "sources", "sha256" or "imported_at"; default: a table',
                None,
            ),
        ),
        "Provenance of the loaded results: rounds, rows, sources, SHA-256, imported at.",
        '=DATAINFO("rounds")',
        A.datainfo,
        returns="table",
    ),
    Function(
        "RATIOS",
        (
            Arg("candidate", "text", 'Candidate: a family, e.g. "Vera Rubin" (its best row), or an entry ID'),
            Arg("baseline", "text", 'Baseline: a family, e.g. "GB300" (its best row), or an entry ID'),
            AVAIL_ANY,
            ROUND,
            MAXG,
            Arg("same_gpus", "bool", "TRUE: pair only rows with the same accelerator count (default FALSE)", False),
            Arg(
                "across_rounds",
                "bool",
                "TRUE: each side its own latest round, so rows of two rounds may pair (default FALSE: one round)",
                False,
            ),
        ),
        "Candidate per-GPU / baseline per-GPU on every workload where both have one, highest first: ratio, "
        "both entries, per-GPU values, GPUs, availability and rounds (one round unless across_rounds). "
        'The first row is where an "up to Nx" comes from. Spills.',
        '=RATIOS("Vera Rubin","GB300")',
        C.ratios,
        returns="table",
    ),
    Function(
        "GAINS",
        (
            BENCH,
            SCEN,
            Arg("old_round", "round", 'Earlier round, e.g. "6.0"; default: the second latest with rows', None),
            Arg("new_round", "round", 'Later round, e.g. "6.1"; default: the latest with rows', None),
            ANY_FAMILY,
            AVAIL,
            Arg(
                "include_resized",
                "bool",
                "TRUE: also pair systems of different size, marked as not a software gain (default FALSE)",
                False,
            ),
        ),
        "Like-for-like systems across two rounds (same submitter, family and GPU count), biggest per-GPU gain "
        "first: family, submitter, GPUs, old and new entry, per-GPU and software, gain, match, rounds, "
        f"workload, flag (outlier: a gain above {C.OUTLIER_GAIN:+.0%}). Spills.",
        '=GAINS("gpt-oss-120b","Server","6.0","6.1")',
        C.gains,
        returns="table",
    ),
    Function(
        "HISTORY",
        (FAMILY, BENCH, SCEN, AVAIL, MAXG),
        "One row per round with the family's closed rows, oldest first: round, best per-GPU, its entry and "
        "GPUs, median per-GPU, number of rows, units. Spills.",
        '=HISTORY("GB300","deepseek-r1","Server")',
        C.history,
        returns="table",
    ),
)

# The claim checkers (issue 20): one block, so that other additions merge beside it.
A_ROUND = Arg("round", "round", 'Round, e.g. "6.1"')
ANY_AVAIL = AVAIL_ANY.but('"any" (default) or "available", "preview", "rdi"')
SUITE = Arg("suite", "text", '"datacenter" or "edge"; default: both', None)
CATALOGUE += (
    Function(
        "COUNTS",
        (A_ROUND, ANY_AVAIL, SUITE),
        "What a round holds, per division and in all: submitters, entry IDs (what MLCommons counts as systems), "
        'distinct system names and results. A claim of "N submitters" or "N systems" is checked here. Spills.',
        '=COUNTS("6.1")',
        C.counts,
        returns="table",
    ),
    Function(
        "ROUNDCOUNT",
        (
            A_ROUND,
            Arg("what", "text", '"submitters", "entry IDs", "system names" or "results"; "systems": both, #VALUE!'),
            Arg("division", "text", '"closed", "open" or "all" (default)', "all"),
            ANY_AVAIL,
            SUITE,
        ),
        "One number of COUNTS: submitters, entry IDs (what MLCommons counts as systems), distinct system names "
        'or results of a round\'s division; "systems" answers #VALUE! with both counts.',
        '=ROUNDCOUNT("6.1","submitters","closed")',
        C.count,
    ),
    Function(
        "HEADLINES",
        (
            Arg("old_round", "round", 'Earlier round, e.g. "5.1"; default: the one giving the highest ratio', None),
            Arg("new_round", "round", 'Later round, e.g. "6.1"; default: the latest', None),
        ),
        "HEADLINE for every benchmark and scenario, highest first: the new round's best per-GPU over the old "
        "round's, with both entries and rounds, and the same with Available rows only. Spills.",
        "=HEADLINES()",
        C.headlines,
        returns="table",
    ),
    Function(
        "PERWATT",
        (ENTRY, BENCH, SCEN),
        "The result per watt of measured system power: tokens (or samples) per joule. Only rows whose power "
        "was measured (MLPerf Power) have one; a design figure is never used.",
        '=PERWATT("5.1-0061","llama2-70b-99","Offline")',
        A.per_watt,
    ),
    Function(
        "ENERGYCITE",
        (ENTRY, BENCH, SCEN),
        "A short citation of PERWATT: the result, the measured power and who measured it, the source file.",
        '=ENERGYCITE("5.1-0061","llama2-70b-99","Offline")',
        A.energy_cite,
        returns="text",
    ),
    Function(
        "GAINRANGE",
        (
            Arg("low", "number", "The claim's low end as a fraction, e.g. 0.08 (8%)"),
            Arg("high", "number", "The claim's high end as a fraction, e.g. 0.36 (36%)"),
            FAMILY.but('Family or group, e.g. "Blackwell", "Hopper", "CDNA 3", "B200"'),
            Arg("old_round", "round", "Earlier round; default: the one before new_round", None),
            Arg("new_round", "round", "Later round; default: the latest", None),
            AVAIL,
            Arg("include_outliers", "bool", "TRUE: count the gains GAINS flags as outliers (default FALSE)", False),
        ),
        "A range claim over GAINS of every workload: per end, the pairs reaching it by match strength; pairs "
        "below, inside and above it; the observed range, quartiles and verdict (rows below the ends). Spills.",
        '=GAINRANGE(0.08,0.36,"Blackwell","6.0","6.1")',
        C.gain_range,
        returns="table",
    ),
)

# What a workbook cites (issue 21): one block, so that other additions merge beside it.
CATALOGUE += (
    Function(
        "ENTRIESUSED",
        (
            Arg(
                "entries", "cells", "Cells holding entry IDs, e.g. a table's Entry column (blanks and errors name none)"
            ),
            Arg("places", "cells", 'Where each of those cells is, e.g. "Sizing row 18": one per cell, or one for all'),
            Arg("benchmark", "cells", "The benchmark each is cited for: one per cell, or one for all"),
            Arg("scenario", "cells", "The scenario each is cited for: one per cell, or one for all"),
        ),
        "Each entry the cells hold, once per benchmark and scenario, with every place that uses it, in the "
        "order of first use: entry, used on, benchmark, scenario (what a sheet of sources cites). Spills.",
        '=ENTRIESUSED("6.1-0052","Sizing row 18","gpt-oss-120b","Server")',
        A.entries_used,
        returns="table",
    ),
)

BY_NAME = {f.name: f for f in CATALOGUE}


def named_like(fn: Function, body: Callable[..., Any], module: str) -> Callable[..., Any]:
    """``body`` dressed as ``fn`` for a shell's decorators (xlwings, xlwings Lite): its name, help, module
    and a signature with the catalogue's arguments, optional ones defaulting to None ("left out"). No
    annotations: ``call`` converts the raw cell values itself."""
    body.__name__ = body.__qualname__ = fn.name
    body.__doc__ = fn.help
    body.__module__ = module
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter(a.name, kind, default=None if a.optional else inspect.Parameter.empty) for a in fn.args]
    body.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    body.__annotations__ = {}
    return body


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


_THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d*)?", re.ASCII)


def _number(arg: Arg, value: Any) -> float:
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        if value.startswith("INVALID run "):  # an answer from a run whose loadgen log says INVALID
            raise bad_value(
                f"{arg.name} comes from an INVALID run ({value.split(':')[0].removeprefix('INVALID run ')})"
            )
        number = text_number(value)  # as Excel (en-US) reads text: "$5", "50%", "1,000,000"
        if number is None and "," in value and not _THOUSANDS.search(value):  # "2,50" is not 250
            raise bad_value(
                f"{arg.name} is the text {value[:40]!r}: type it as a number (a comma only groups thousands)"
            )
        if number is None:
            raise bad_value(f"{arg.name} must be a number, not {value[:40]!r}")
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


_RANGES = (list, tuple)
_NUMBERS = frozenset({int, float})  # exactly these: TRUE is an int too, and not a number here


def _convert_all(specs: Sequence[Arg], values: Sequence[Any], is_error: Callable[[Any], bool] | None) -> list[Any]:
    """Each value as its argument's kind; arguments left out at the end are None (their default)."""
    out: list[Any] = []
    for spec, value in zip(specs, values):  # noqa: B905 (fewer values than arguments: the rest are left out)
        if spec.kind == "cells":
            out.append(_cells(spec, value))
            continue
        if is_error is not None and is_error(value):
            raise _Passed(value)
        if type(value) is str and spec.kind == "text" and 0 < len(value) <= 200 and not value[0].isspace():
            out.append(value.rstrip())  # the common case, first: the text a cell holds
            continue
        if type(value) in _NUMBERS and spec.kind == "number" and math.isfinite(value):
            out.append(float(value))  # and a number where one is wanted (what convert() answers)
            continue
        if isinstance(value, _RANGES):
            raise bad_value(f"{spec.name} must be one cell, not a range")
        out.append(convert(spec, value))
    if len(values) < len(specs):
        for spec in specs[len(values) :]:
            if not spec.optional:
                raise bad_value(f"{spec.name} is required")
            out.append(None)
    return out


def _cells(spec: Arg, value: Any) -> list[list[Any]] | None:
    """A range as rows of cells (one cell: one row of one); a left-out optional one None."""
    if isinstance(value, _RANGES):
        return [list(row) if isinstance(row, _RANGES) else [row] for row in value]
    if (value is None or value == "") and spec.optional:
        return None
    return [[value]]


def call(
    fn: Function,
    table: Table,
    args: Sequence[Any],
    on_error: Callable[[BenchError], Any],
    is_error: Callable[[Any], bool] | None = None,
) -> Any:
    """Answer one call of ``fn`` on ``table``; a 2-D list in the first argument maps cell by cell.

    ``is_error`` recognises the runtime's own error values among the inputs;
    they are passed on unchanged, as Excel does. Every failure, even a defect,
    answers with ``on_error(...)``: nothing escapes into the cell.
    """
    if len(args) > len(fn.args):
        return on_error(bad_value(f"{fn.name} takes at most {len(fn.args)} arguments"))
    if not (fn.vectorized and args and isinstance(args[0], _RANGES)):
        return _answer(fn, table, args, None, on_error, is_error)
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
            value = memo[key] = _answer(fn, table, (cell,), rest, on_error, is_error)
            return value
        except TypeError:  # an unhashable cell
            return _answer(fn, table, (cell,), rest, on_error, is_error)

    return [[one(cell) for cell in _row(line)] for line in args[0]]


def _row(line: Any) -> Sequence[Any]:
    return line if isinstance(line, _RANGES) else (line,)


def invalid_runs_named(fn: Function, table: Table, values: Sequence[Any]) -> list[str]:
    """The INVALID private runs among the arguments: the only way such a run enters an answer (a family
    look-up selects closed-division rows, never your own runs)."""
    if not table.invalid_runs or not fn.flags_invalid or fn.returns == "table":
        return []
    named = {
        v.strip().lower()
        for a, v in zip(fn.args, values, strict=False)
        if a.kind in ("text", "spec") and isinstance(v, str)
    }
    return sorted(named & table.invalid_runs)


def _answer(
    fn: Function,
    table: Table,
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
        value = fn.answer(table, converted)
        if type(value) is float and not math.isfinite(value):
            raise BenchError("#NUM!", "the answer is too large to be a number; check the inputs' units")
        invalid = invalid_runs_named(fn, table, converted) if table.invalid_runs else ()
        return f"INVALID run {', '.join(invalid)}: {value}" if invalid else value
    except _Passed as passed:
        return passed.value
    except BenchError as err:
        return on_error(err)
    except Exception as exc:  # a defect must still answer in the cell, never crash it
        return on_error(bad_value(f"benchsheet could not answer ({type(exc).__name__}: {exc})"))
