"""How a catalogue function declares itself: ``Arg`` (name, kind, help, default), ``Function`` (name,
arguments, help, example, the analysis function that answers it) and the arguments many share.

The catalogue itself is ``benchsheet.catalogue.functions.CATALOGUE``; its entries are declared there
and, by topic, in ``catalogue.decision``.
"""

from __future__ import annotations

import datetime as dt
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Literal

from benchsheet import analysis as A
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
    scalar_with: str = ""  # a table function that answers one value once this argument is given (CITE's part)
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
        """A scalar function: ranges in its arguments answer a block (``calls.lifted``)."""
        return self.returns != "table"

    @property
    def liftable(self) -> bool:
        """Ranges in its arguments may answer a block: a scalar function, or one once ``scalar_with`` is given."""
        return self.vectorized or bool(self.scalar_with)

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
UNITS = Arg(
    "units",
    "text",
    'The rate\'s unit (BEST passes none on): "Tokens/s" (default; a per-GPU value the table has in other units '
    'is refused), "Queries/s", "Samples/s", or the workload ("whisper Offline"); a latency or another workload '
    "than the rate's is refused",
    None,
)
NAMED_RATE = Arg(
    "tokens_per_sec_per_gpu",
    "spec",
    'An entry ID or a family (its best row) with its workload as units, e.g. "B200" and "stable-diffusion-xl '
    "Server\": the unit is the row's. Or a number, e.g. BEST(...); ROUND(BEST(...)) or BEST(...)*0.5 of a "
    "queries/s row looks like tokens/s",
)
ASSUMED_TOKENS = "A bare number is assumed to be tokens/s unless units or the table says queries/samples: name the row."
"""What COSTPERMTOK, GPUSNEEDED, MWTOKENS and TOKENSPERMW take a bare number for (``analysis.costs.checked_rate``)."""


def _spec(name: str, what: str) -> Arg:
    return Arg(name, "spec", f"{what}: an entry ID, a family (its best row) or a per-GPU number")


PAIR_ROUND = ROUND.but(
    'Round, e.g. "6.1", or "same": the latest round both sides have (RATIOS\' default); default: each side\'s latest'
)
PAIR_ARGS = (_spec("baseline", "Baseline"), _spec("candidate", "Candidate"), BENCH, SCEN, AVAIL, MAXG, PAIR_ROUND)
