"""The one catalogue of benchsheet's Excel functions.

Each ``Function`` declares itself once: its name, its arguments (kind, help text, and the value a
left-out one takes), its category and an example, and the analysis function that answers it. The
arguments are bound to that function by name (a ``table`` parameter gets the loaded table, a
``filters`` parameter the ``Filters`` made of availability, max_gpus, round and software), and a
test checks at import that the names agree. The xlwings UDF module, the xlwings Lite module, the
formula engine behind ``benchsheet eval`` and the function reference (docs/functions.md) are all made from
this list. ``catalogue.calls.call`` is the single way in (the conversion of cell values to the argument kinds
lives there).
"""

from __future__ import annotations

import datetime as dt
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Literal

from benchsheet import analysis as A
from benchsheet.analysis import claims as C
from benchsheet.analysis import curves as CV
from benchsheet.catalogue import decision as D
from benchsheet.data.table import Table

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


def _spec(name: str, what: str) -> Arg:
    return Arg(name, "spec", f"{what}: an entry ID, a family (its best row) or a per-GPU number")


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
        "One field of an entry: submitter, system, accelerator, family, gpus, ...",
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
        (_spec("baseline", "Baseline"), _spec("candidate", "Candidate"), BENCH, SCEN, AVAIL, MAXG, ROUND),
        "Candidate per-GPU / baseline per-GPU: the highest price ratio worth paying for the candidate.",
        '=BREAKEVEN("B200","B300","gpt-oss-120b","Server","available",8)',
        A.breakeven,
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
        A.breakeven_price,
    ),
    Function(
        "COSTPERMTOK",
        (
            Arg("price_per_gpu_hour", "number", "$ per GPU-hour"),
            PER_GPU,
            Arg("utilization", "number", "Share of the hour spent serving, > 0 and <= 1 (default 1)", 1.0),
        ),
        "Dollars per million tokens: price x 1,000,000 / (tokens/s x 3,600 x utilization).",
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
        ),
        "GPUs to buy for a target throughput, rounded up to whole nodes.",
        '=GPUSNEEDED(1000000,BEST("B200","gpt-oss-120b","Server"),0.7,8)',
        A.gpus_needed,
    ),
    Function(
        "GAIN",
        (Arg("old_entry", "text", "Earlier entry ID"), Arg("new_entry", "text", "Later entry ID"), BENCH, SCEN),
        "new per-GPU / old per-GPU - 1, e.g. a software update between rounds. A benchmark and scenario that "
        "one entry lacks answers #N/A listing those both entries have.",
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
        "GPUs, result, per-GPU, availability, software, note (model run, GPUs per card, units label), round "
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
        "first: family, submitter, GPUs, old and new entry, per-GPU and software, gain, how strong the "
        "match is, and both rounds. Spills.",
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
        "What a round holds, per division and in all: submitters, entry IDs, system names and results. "
        'A claim of "N submitters" or "N systems" is checked here. Spills.',
        '=COUNTS("6.1")',
        C.counts,
        returns="table",
    ),
    Function(
        "ROUNDCOUNT",
        (
            A_ROUND,
            Arg("what", "text", '"submitters", "entry IDs", "systems" or "results"'),
            Arg("division", "text", '"closed", "open" or "all" (default)', "all"),
            ANY_AVAIL,
            SUITE,
        ),
        "One number of COUNTS: submitters, entry IDs, systems or results of a round's division.",
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
        ),
        "A range claim checked at both ends over GAINS of every benchmark and scenario: per end, the verdict, "
        "how many pairs reach it at each match strength, and the nearest pairs above it. Spills.",
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

# The buyer's decision (issue 33): declared as data in catalogue/decision.py, this module being at its size limit.
_SHARED = {a.name: a for a in (ENTRY, BENCH, SCEN, FAMILY, *FILTERS, PER_GPU)}
CATALOGUE += tuple(
    Function(name, tuple(_SHARED[a] if isinstance(a, str) else Arg(*a) for a in args), text, example, impl, returns)
    for name, args, text, example, impl, returns in D.DECISION
)

# MLPerf Endpoints curves (issue 31): one block, so that other additions merge beside it.
_CURVE = Arg("curve", "text", 'An Endpoints curve, "<submission>/<system>/<model>" (CURVES lists them)')
_AT = Arg("tokens_per_sec_per_user", "number", "Target interactivity, tokens/s per user (1000 / TPOT p90 ms)")
_ID, _MODEL = '"sub_a/system_a/gpt-oss-120b"', BENCH.but("Model; default: all", None)
CATALOGUE += (
    Function("CURVES", (_MODEL,), CV.CURVES_HELP, '=CURVES("gpt-oss-120b")', CV.curves, "table"),
    Function("CURVEPOINTS", (_CURVE,), CV.CURVE_HELP, f"=CURVEPOINTS({_ID})", CV.curve_points, "table"),
    Function("CURVEAT", (_CURVE, _AT), CV.AT_HELP, f"=CURVEAT({_ID},130)", CV.per_gpu_at),
    Function(
        "CURVEATPOINTS", (_CURVE, _AT), CV.POINTS_HELP, f"=CURVEATPOINTS({_ID},130)", CV.per_gpu_at_points, "text"
    ),
    Function("BESTCURVE", (FAMILY, BENCH), CV.BEST_HELP, '=BESTCURVE("MI355X","gpt-oss-120b")', CV.best_curve, "table"),
)

BY_NAME = {f.name: f for f in CATALOGUE}
