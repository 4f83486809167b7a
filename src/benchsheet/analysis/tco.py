"""Owning against renting: the owned $/GPU-hour from every labelled cost line (OWNEDGPUHOUR), its yearly cash
flows against renting with their NPVs (TCOCASHFLOW), the rental price at which owning costs the same
(RENTVSOWN), power per GPU from a measured row (KWPERGPU), an API's price with the input it charges
(APICOSTPERMTOK) at the mean lengths MLCommons publishes where the user gives none (MEANTOKENS), and the
utilization at which a GPU costs what the API charges (APIUTILIZATION).

Every figure is the user's input; the data give only measured power (MLPerf Power rows), never a
design or TDP figure. The capital is annualised with the capital recovery factor
r(1+r)^n / ((1+r)^n - 1) (straight-line at r = 0), a residual value returned at the end of year n
with the sinking-fund factor r / ((1+r)^n - 1): the yearly payment Excel's PMT(r, n, -capex, residual)
gives. An owned GPU costs every hour of the year, served or not; utilization enters where tokens are
counted (COSTPERMTOK) and in the rent-versus-own break-even.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from benchsheet.analysis.costs import check_price, check_rate, check_utilization, checked_rate, per_million, workload_of
from benchsheet.analysis.energy import measured_watts
from benchsheet.data.lengths import published_lengths
from benchsheet.data.names import benchmark_key
from benchsheet.data.table import Table
from benchsheet.errors import BenchError, bad_value, money_text, not_available

HOURS_PER_YEAR = 365 * 24
"""Wall-clock hours in a year: a unit conversion, not a figure from the data."""
MONTHS_PER_YEAR = 12


def capital_recovery_factor(rate: float, years: float) -> float:
    """r(1+r)^n / ((1+r)^n - 1): the share of a capital repaid each year with interest; 1/n at r = 0."""
    if rate == 0:
        return 1 / years
    # r / (1 - (1+r)^-n), the same factor, with (1+r)^-n - 1 from its logarithm: exact for n so short
    # that (1+r)^n rounds to 1, and r to every digit where (1+r)^n would pass 1e308
    repaid = -math.expm1(-years * math.log1p(rate))
    if repaid == 0:
        raise BenchError("#NUM!", "years is too short to repay the capital in: check its units")
    return rate / repaid


def check_pue(pue: float) -> None:
    """Power usage effectiveness is facility power / IT power: at least 1."""
    if not (math.isfinite(pue) and pue >= 1):
        raise bad_value("pue must be a number >= 1 (facility power / IT power)")


def _check_rate_of_capital(rate: float) -> None:
    if not (math.isfinite(rate) and 0 <= rate <= 1):
        raise bad_value("cost_of_capital is a yearly rate as a fraction, >= 0 and <= 1: type 8% as 0.08")


@dataclass(frozen=True, slots=True)
class Owning:
    """Every cost line of owning one GPU, as the user gives them (OWNEDGPUHOUR's arguments, checked).

    Capital: ``capex_per_gpu`` plus the back-end network and storage share of the cluster and sales tax and
    installation, each a share of capex paid with it (year 0); the residual value (in $) comes back at the end.
    Yearly: colocation per kW of IT power, software, support/maintenance (a share of capex a year) and staff.
    Energy: kW x PUE x $/kWh for every hour. ``availability`` is the share of hours the GPU can serve: the
    cost of the year falls on those hours."""

    capex_per_gpu: float
    years: float
    cost_of_capital: float = 0.0
    residual_value: float = 0.0
    kw_per_gpu: float = 0.0
    pue: float = 1.0
    price_per_kwh: float = 0.0
    colo_per_kw_month: float = 0.0
    software_per_gpu_year: float = 0.0
    support_share_per_year: float = 0.0
    network_storage_share: float = 0.0
    tax_install_share: float = 0.0
    staff_per_gpu_year: float = 0.0
    availability: float = 1.0

    def __post_init__(self) -> None:
        check_price(self.capex_per_gpu, "capex_per_gpu")
        check_rate(self.years, "years")
        _check_rate_of_capital(self.cost_of_capital)
        if not (math.isfinite(self.residual_value) and 0 <= self.residual_value <= self.capex_per_gpu):
            raise bad_value("residual_value must be >= 0 and <= capex_per_gpu (in $ per GPU, not a share)")
        check_price(self.kw_per_gpu, "kw_per_gpu")
        check_pue(self.pue)
        for name in ("price_per_kwh", "colo_per_kw_month", "software_per_gpu_year", "staff_per_gpu_year"):
            check_price(getattr(self, name), name)
        for name in ("support_share_per_year", "network_storage_share", "tax_install_share"):
            share = getattr(self, name)
            if not (math.isfinite(share) and 0 <= share <= 10):
                raise bad_value(f"{name} is a share of capex, >= 0: type 8% as 0.08")
        if not (math.isfinite(self.availability) and 0 < self.availability <= 1):
            raise bad_value("availability is the share of hours the GPU can serve, > 0 and <= 1")

    @property
    def upfront(self) -> float:
        """Year 0: capex, its network and storage share, tax and installation."""
        return self.capex_per_gpu * (1 + self.network_storage_share + self.tax_install_share)

    @property
    def energy_per_year(self) -> float:
        return self.kw_per_gpu * self.pue * self.price_per_kwh * HOURS_PER_YEAR

    @property
    def running_per_year(self) -> float:
        """Each year's costs beside capital and energy: colocation, software, support and staff."""
        colo = self.colo_per_kw_month * self.kw_per_gpu * MONTHS_PER_YEAR
        support = self.support_share_per_year * self.capex_per_gpu
        return colo + self.software_per_gpu_year + support + self.staff_per_gpu_year

    def capital_per_year(self) -> float:
        """The up-front cost annualised (CRF), less the residual's sinking fund."""
        crf = capital_recovery_factor(self.cost_of_capital, self.years)
        sinking = crf - self.cost_of_capital  # r / ((1+r)^n - 1); 1/n at r = 0
        return self.upfront * crf - self.residual_value * sinking

    def per_hour(self) -> float:
        yearly = self.capital_per_year() + self.running_per_year + self.energy_per_year
        return yearly / (HOURS_PER_YEAR * self.availability)


def owning_of(arguments: dict[str, Any]) -> Owning:
    """The Owning of a function's arguments named as its fields (OWNEDGPUHOUR's and TCOCASHFLOW's)."""
    return Owning(**{f.name: arguments[f.name] for f in fields(Owning)})


def owned_gpu_hour(
    capex_per_gpu: float,
    years: float,
    cost_of_capital: float = 0.0,
    residual_value: float = 0.0,
    kw_per_gpu: float = 0.0,
    pue: float = 1.0,
    price_per_kwh: float = 0.0,
    colo_per_kw_month: float = 0.0,
    software_per_gpu_year: float = 0.0,
    support_share_per_year: float = 0.0,
    network_storage_share: float = 0.0,
    tax_install_share: float = 0.0,
    staff_per_gpu_year: float = 0.0,
    availability: float = 1.0,
) -> float:
    """$ per GPU-hour of owning: yearly capital (CRF of capex with its network/storage and tax/installation
    shares, less the residual's sinking fund), colocation per kW of IT power, software, support and staff, and
    energy (kW x PUE x $/kWh every hour), over the hours the GPU is available."""
    return owning_of(locals()).per_hour()


CASH_FLOW_HEADER = ["year", "owning $ per GPU", "renting $ per GPU"]


def cash_flows(
    rented_price_per_gpu_hour: float,
    capex_per_gpu: float,
    years: float,
    cost_of_capital: float = 0.0,
    residual_value: float = 0.0,
    kw_per_gpu: float = 0.0,
    pue: float = 1.0,
    price_per_kwh: float = 0.0,
    colo_per_kw_month: float = 0.0,
    software_per_gpu_year: float = 0.0,
    support_share_per_year: float = 0.0,
    network_storage_share: float = 0.0,
    tax_install_share: float = 0.0,
    staff_per_gpu_year: float = 0.0,
    availability: float = 1.0,
) -> list[list[object]]:
    """TCOCASHFLOW: owning against renting the same GPU-hours, year by year: owning pays capex and its one-off
    shares in year 0, then each year's running costs and energy, and gets the residual back at the end; renting
    pays the rented price for every hour the owned GPU would be available (a reserved rental). Then the NPV of
    each at the cost of capital, and the cheaper one. Owning's NPV x CRF over the year's available hours is
    OWNEDGPUHOUR: the verdict is the same as comparing the two $/GPU-hour."""
    check_price(rented_price_per_gpu_hour, "rented_price_per_gpu_hour")
    own = owning_of(locals())
    if years != int(years) or years > 100:
        raise bad_value("years must be a whole number of years, at most 100, for a yearly schedule")
    n = int(years)
    yearly_own = own.running_per_year + own.energy_per_year
    yearly_rent = rented_price_per_gpu_hour * HOURS_PER_YEAR * availability
    owning = [own.upfront] + [yearly_own - (own.residual_value if t == n else 0.0) for t in range(1, n + 1)]
    renting = [0.0] + [yearly_rent] * n
    discount = [(1 + cost_of_capital) ** -t for t in range(n + 1)]
    npv_own = math.fsum(cf * d for cf, d in zip(owning, discount, strict=True))
    npv_rent = math.fsum(cf * d for cf, d in zip(renting, discount, strict=True))
    rows: list[list[object]] = [list(CASH_FLOW_HEADER)]
    rows += [[t, o, r] for t, (o, r) in enumerate(zip(owning, renting, strict=True))]
    rows.append([f"NPV at {cost_of_capital:.1%}", npv_own, npv_rent])
    rows.append(["cheaper", "owning" if npv_own <= npv_rent else "renting", ""])
    return rows


def rent_vs_own(owned_price_per_gpu_hour: float, utilization: float) -> float:
    """The rental $/GPU-hour, paid only for the hours served, at which renting costs the same per token as
    owning every hour and serving a share ``utilization`` of them: owned / utilization."""
    check_price(owned_price_per_gpu_hour, "owned_price_per_gpu_hour")
    check_utilization(utilization)
    return owned_price_per_gpu_hour / utilization


def kw_per_gpu(table: Table, entry: str, benchmark: str, scenario: str) -> float:
    """Measured system power / the system's accelerators, in kW: only a row with MLPerf Power has one."""
    row, watts = measured_watts(table, entry, benchmark, scenario)
    if row.gpus < 1:
        raise bad_value(f"{row.entry} has no accelerator count: no power per GPU")
    return watts / row.gpus / 1000


def mean_tokens(benchmark: str, which: str = "output") -> float:
    """MEANTOKENS: the mean input or output tokens per request of the benchmark's dataset, as MLCommons
    publishes it (``benchsheet.data.lengths``); ``#N/A`` where it publishes none: the user gives their own."""
    kind = which.strip().lower()
    if kind not in ("input", "output"):
        raise bad_value(f'which must be "input" or "output", not {which.strip()[:40]!r}')
    published = published_lengths(benchmark)
    if published is None:
        value, note = None, ""
    else:
        value = published.mean_input_tokens if kind == "input" else published.mean_output_tokens
        both_missing = published.mean_input_tokens is None and published.mean_output_tokens is None
        note = f" ({published.what})" if both_missing else ""
    if value is None:
        raise not_available(
            f"MLCommons publishes no mean {kind} length for {benchmark.strip()}: give your workload's{note}"
        )
    return value


def mean_tokens_source(benchmark: str) -> str:
    """MEANTOKENSSOURCE: the benchmark's published mean lengths and where MLCommons publishes them, in its words."""
    published = published_lengths(benchmark)
    if published is None:
        raise not_available(f"MLCommons publishes no mean lengths for {benchmark.strip()}")
    pairs = (("output", published.mean_output_tokens), ("input", published.mean_input_tokens))
    figures = ", ".join(f"mean {w} {v:,.15g} tokens" if v else f"no mean {w} published" for w, v in pairs)
    if not any(v for _, v in pairs):
        figures = "no mean lengths in tokens published"
    return f"{published.benchmark}: {figures}: {published.cited}"


def _check_tokens(value: float, name: str) -> float:
    if not (math.isfinite(value) and value > 0):
        raise bad_value(f"{name} must be a number of tokens per request > 0")
    return value


def _lengths(input_tokens: float | None, output_tokens: float | None, benchmark: str | None) -> tuple[float, float]:
    """The workload's mean (input, output) tokens per request: the user's, else the benchmark's published ones
    (``benchsheet.data.lengths``: MLCommons' figures with their sources)."""
    if input_tokens is not None and output_tokens is not None:
        return _check_tokens(input_tokens, "input_tokens"), _check_tokens(output_tokens, "output_tokens")
    published = published_lengths(benchmark) if benchmark else None
    ins = input_tokens if input_tokens is not None else published.mean_input_tokens if published else None
    outs = output_tokens if output_tokens is not None else published.mean_output_tokens if published else None
    if ins is None or outs is None:
        ask = "give input_tokens and output_tokens (the workload's mean tokens per request): the API charges input"
        pairs = (("input", published.mean_input_tokens), ("output", published.mean_output_tokens)) if published else ()
        have = " and ".join(f"{w} ({v:,.15g} tokens)" for w, v in pairs if v)
        if have:
            lack = " or ".join(w for w, v in pairs if not v)
            ask = f"MLCommons publishes {benchmark}'s mean {have} but no mean {lack}: give {lack}_tokens"
        elif benchmark:
            ask += f"; MLCommons publishes no mean lengths for {benchmark.strip()}"
        raise not_available(ask)
    return _check_tokens(ins, "input_tokens"), _check_tokens(outs, "output_tokens")


def api_cost_per_mtok(
    api_price_per_mtok: float,
    input_price_per_mtok: float = 0.0,
    input_tokens: float | None = None,
    output_tokens: float | None = None,
    cached_input_price_per_mtok: float | None = None,
    cached_share: float = 0.0,
    benchmark: str | None = None,
) -> float:
    """What the API charges per million output tokens, the input it charges for included: output price + input
    tokens per output token x (uncached share x input price + cached share x cached-input price)."""
    check_price(api_price_per_mtok, "api_price_per_mtok")
    check_price(input_price_per_mtok, "input_price_per_mtok")
    if not (math.isfinite(cached_share) and 0 <= cached_share <= 1):
        raise bad_value("cached_share must be a share of the input tokens from 0 to 100%")
    cached = input_price_per_mtok if cached_input_price_per_mtok is None else cached_input_price_per_mtok
    check_price(cached, "cached_input_price_per_mtok")
    per_input = (1 - cached_share) * input_price_per_mtok + cached_share * cached
    if per_input == 0:
        return api_price_per_mtok
    ins, outs = _lengths(input_tokens, output_tokens, benchmark)
    return api_price_per_mtok + ins / outs * per_input


API_TOKENS_ONLY = "an API's price per million tokens compares only with a rate in tokens/s"


def api_utilization(
    table: Table,
    price_per_gpu_hour: float,
    tokens_per_sec_per_gpu: float | str,
    api_price_per_mtok: float,
    input_price_per_mtok: float = 0.0,
    input_tokens: float | None = None,
    output_tokens: float | None = None,
    cached_input_price_per_mtok: float | None = None,
    cached_share: float = 0.0,
    benchmark: str | None = None,
    units: str | None = None,
) -> float:
    """The utilization at which a GPU at this $/GPU-hour costs what the API charges per million output tokens
    (its input included, APICOSTPERMTOK): COSTPERMTOK at 100% / the API's cost; ``#N/A`` where that is above
    100%. MLPerf's LLM rates count output tokens; the GPU's price already bears the prefill of the inputs.
    The rate is read as COSTPERMTOK reads it (``checked_rate``), in tokens/s only; a workload given as
    ``units`` lends its benchmark's mean lengths where ``benchmark`` is left out."""
    rate, _ = checked_rate(table, tokens_per_sec_per_gpu, units, API_TOKENS_ONLY)
    workload = workload_of(table, units)
    if workload is not None and benchmark is None:
        benchmark = workload[0]
    elif workload is not None and benchmark is not None and benchmark_key(benchmark) != benchmark_key(workload[0]):
        raise bad_value(
            f"benchmark {benchmark.strip()[:60]!r} and units {units!r} name two workloads: leave benchmark out, or "
            "give the one the rate is from"
        )
    api = api_cost_per_mtok(
        api_price_per_mtok,
        input_price_per_mtok,
        input_tokens,
        output_tokens,
        cached_input_price_per_mtok,
        cached_share,
        benchmark,
    )
    at_full = per_million(price_per_gpu_hour, rate, 1.0)
    if at_full > api:
        raise not_available(
            f"The GPU costs {money_text(at_full)} per million tokens at 100% utilization, more than the API's "
            f"{money_text(api)}: no utilization <= 100% reaches it"
        )
    return at_full / api if api else 0.0
