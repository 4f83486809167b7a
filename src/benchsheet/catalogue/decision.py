"""The catalogue's functions for the buyer's decision (issue 33): owning against renting, the user's latency
target, an API's price, a power cap, a mix of workloads. ``functions.CATALOGUE`` holds them after its own.
"""

from __future__ import annotations

from benchsheet.analysis import fleet, slo, tco
from benchsheet.analysis.entries import DEFAULT_GPUS_PER_NODE
from benchsheet.catalogue.declare import (
    ASSUMED_TOKENS,
    AVAIL,
    BENCH,
    ENTRY,
    FAMILY,
    MAXG,
    NAMED_RATE,
    ROUND,
    SCEN,
    SOFT,
    UNITS,
    Arg,
    Function,
)

UTILIZATION = "Share of the owned GPU's hours spent serving, > 0 and <= 1"
MW = Arg("megawatts", "number", "The site's facility power in MW, >= 0")
KW = Arg("kw_per_gpu", "number", "Power per GPU in kW, > 0: your input or KWPERGPU(...) (measured)")
PUE = Arg("pue", "number", "Power usage effectiveness, facility / IT power, >= 1")
NODE = Arg(
    "gpus_per_node",
    "int",
    f"Accelerators per node, whole nodes only (default {DEFAULT_GPUS_PER_NODE})",
    DEFAULT_GPUS_PER_NODE,
)
TTFT = Arg("ttft_ms", "number", "Your p99 time to first token target in ms, > 0")
TPOT = Arg("tpot_ms", "number", "Your p99 time per output token target in ms (= 1000 / tokens/s per user), > 0")
API_OUT = Arg("api_price_per_mtok", "number", "The API's $ per million output tokens")
API_INPUT: tuple[Arg, ...] = (
    Arg("input_price_per_mtok", "number", "The API's $ per million input tokens (default 0: output price only)", 0.0),
    Arg(
        "input_tokens",
        "number",
        "The workload's mean input tokens per request (default: the benchmark's as MLCommons publishes it, "
        "MEANTOKENS; it publishes no mean input: give yours)",
        None,
    ),
    Arg(
        "output_tokens",
        "number",
        "The workload's mean output tokens per request (default: the benchmark's as MLCommons publishes it, "
        "MEANTOKENS)",
        None,
    ),
    Arg(
        "cached_input_price_per_mtok",
        "number",
        "The API's $ per million cached input tokens (default: the input price)",
        None,
    ),
    Arg("cached_share", "number", "Share of input tokens served from the API's cache, 0 to 1 (default 0)", 0.0),
    Arg("benchmark", "text", "The benchmark whose published mean lengths stand in for lengths left out", None),
)
MORE_COSTS: tuple[Arg, ...] = (
    Arg("support_share_per_year", "number", "Support/maintenance a year, a share of capex, e.g. 0.08 (default 0)", 0.0),
    Arg(
        "network_storage_share",
        "number",
        "Back-end network and storage, a share of capex bought with it (default 0)",
        0.0,
    ),
    Arg("tax_install_share", "number", "Sales tax and installation, a share of capex paid with it (default 0)", 0.0),
    Arg("staff_per_gpu_year", "number", "Staff (operations) in $ per GPU per year (default 0)", 0.0),
    Arg(
        "availability", "number", "Share of hours the GPU can serve (downtime left out), > 0 and <= 1 (default 1)", 1.0
    ),
)
OWN_ARGS: tuple[Arg, ...] = (
    Arg("capex_per_gpu", "number", "Purchase price per GPU in $ (a server's price / its GPUs), >= 0"),
    Arg("years", "number", "Depreciation period in years, > 0"),
    Arg(
        "cost_of_capital",
        "number",
        "Yearly cost of capital, a fraction from 0 to 1, e.g. 0.08 (default 0)",
        0.0,
    ),
    Arg("residual_value", "number", "Value per GPU in $ at the end of the period, <= capex (default 0)", 0.0),
    Arg("kw_per_gpu", "number", "Average power per GPU in kW, your input or KWPERGPU(...) (default 0)", 0.0),
    Arg("pue", "number", "Power usage effectiveness, facility / IT power, >= 1 (default 1)", 1.0),
    Arg("price_per_kwh", "number", "Electricity in $ per kWh (default 0)", 0.0),
    Arg("colo_per_kw_month", "number", "Colocation in $ per kW of IT power per month (default 0)", 0.0),
    Arg("software_per_gpu_year", "number", "Software licences in $ per GPU per year (default 0)", 0.0),
    *MORE_COSTS,
)
SLO_ARGS: tuple[Arg, ...] = (FAMILY, BENCH, TTFT, TPOT, AVAIL, MAXG, ROUND, SOFT)
SLO_NOTE = "among the scenarios whose latency bounds are at least as strict as your target (SLOSCENARIOS)"

FUNCTIONS: tuple[Function, ...] = (
    Function(
        "OWNEDGPUHOUR",
        OWN_ARGS,
        "$ per available GPU-hour of owning: (capex x (1 + network + tax shares) x CRF - residual x (CRF - r) + "
        "colocation x kW x 12 + software + support + staff + kW x PUE x $/kWh x 8,760) / (8,760 x availability); "
        "CRF = r(1+r)^n/((1+r)^n-1).",
        "=OWNEDGPUHOUR(30000,4,0.08,3000,1.2,1.3,0.1,150,4000)",
        tco.owned_gpu_hour,
        "number",
    ),
    Function(
        "RENTVSOWN",
        (
            Arg("owned_price_per_gpu_hour", "number", "Owned $ per GPU-hour, e.g. OWNEDGPUHOUR(...)"),
            Arg("utilization", "number", UTILIZATION),
        ),
        "The break-even rental $ per GPU-hour, renting only the hours served: owned / utilization. A rental below "
        "it costs less per token than owning at that utilization.",
        "=RENTVSOWN(OWNEDGPUHOUR(30000,4,0.08,3000,1.2,1.3,0.1,150,4000),0.6)",
        tco.rent_vs_own,
        "number",
    ),
    Function(
        "TCOCASHFLOW",
        (
            Arg("rented_price_per_gpu_hour", "number", "The rental $ per GPU-hour (reserved: every hour paid)"),
            *OWN_ARGS,
        ),
        "Owning against renting the same GPU-hours, year by year (capex and one-off shares in year 0, yearly costs, "
        "residual back at the end), the NPV of each at the cost of capital, and the cheaper. Spills.",
        "=TCOCASHFLOW(2,30000,4,0.08,3000,1.2,1.3,0.1,150,4000)",
        tco.cash_flows,
        "table",
    ),
    Function(
        "KWPERGPU",
        (ENTRY, BENCH, SCEN),
        "Measured system power / GPUs, in kW per GPU: only rows whose power MLPerf measured (PERWATT's rows) have "
        "one, cited with ENERGYCITE; a design or TDP figure is never used.",
        '=KWPERGPU("5.1-0061","llama2-70b-99","Offline")',
        tco.kw_per_gpu,
        "number",
    ),
    Function(
        "SLOSCENARIOS",
        (BENCH, TTFT, TPOT),
        "The scenarios whose official p99 TTFT and TPOT bounds (LATENCYBOUNDS) are at least as strict as your target, "
        "strictest first: their rows meet it. #N/A says what the nearest scenario allows. Spills.",
        '=SLOSCENARIOS("deepseek-r1",2000,20)',
        slo.slo_scenarios,
        "table",
    ),
    Function(
        "SLOBEST",
        SLO_ARGS,
        f"BEST {SLO_NOTE}: the highest of BEST in each.",
        '=SLOBEST("GB300","deepseek-r1",2000,20)',
        slo.slo_best,
        "number",
    ),
    Function(
        "SLOBESTENTRY",
        SLO_ARGS,
        f"The entry ID behind SLOBEST: BESTENTRY {SLO_NOTE}.",
        '=SLOBESTENTRY("GB300","deepseek-r1",2000,20)',
        slo.slo_best_entry,
        "text",
    ),
    Function(
        "SLOBESTSCENARIO",
        SLO_ARGS,
        f"The scenario of SLOBEST's row, {SLO_NOTE}.",
        '=SLOBESTSCENARIO("GB300","deepseek-r1",2000,20)',
        slo.slo_best_scenario,
        "text",
    ),
    Function(
        "MEANTOKENS",
        (
            BENCH,
            Arg("which", "text", '"output" (default) or "input": which mean length per request', "output"),
        ),
        "The mean output (or input) tokens per request of the benchmark's dataset, as MLCommons publishes it "
        "(MEANTOKENSSOURCE says where); #N/A where it publishes none: give your workload's.",
        '=MEANTOKENS("gpt-oss-120b")',
        tco.mean_tokens,
        "number",
    ),
    Function(
        "MEANTOKENSSOURCE",
        (BENCH,),
        "Where MLCommons publishes the benchmark's mean lengths (MEANTOKENS), what they are, and its own words.",
        '=MEANTOKENSSOURCE("llama2-70b-99")',
        tco.mean_tokens_source,
        "text",
    ),
    Function(
        "APICOSTPERMTOK",
        (API_OUT, *API_INPUT),
        "An API's $ per million output tokens with the input it charges: output price + input/output tokens x "
        "input price (cached input at its own). Lengths left out: the benchmark's means as MLCommons publishes "
        "them.",
        "=APICOSTPERMTOK(0.6,0.15,870,1000)",
        tco.api_cost_per_mtok,
        "number",
    ),
    Function(
        "APIUTILIZATION",
        (
            Arg("price_per_gpu_hour", "number", "$ per GPU-hour, rented or OWNEDGPUHOUR(...)"),
            NAMED_RATE.but(
                "Output tokens/s per GPU at the API's service level, e.g. SLOBEST(...); or an entry ID or a family "
                "(its best row) with its workload as units. A bare number is taken for tokens/s; one the table has "
                "in queries or samples is refused"
            ),
            API_OUT,
            *API_INPUT,
            UNITS.but(
                "The rate's unit or workload, e.g. \"gpt-oss-120b Server\" (tokens/s only; a workload's benchmark "
                "stands in for benchmark left out)"
            ),
        ),
        "The utilization at which the GPU costs the API's $/M output tokens, input included (APICOSTPERMTOK): "
        "COSTPERMTOK at 100% / that. Above it the GPU is cheaper. Give the rate at the API's service level "
        "(SLOBEST), in tokens/s.",
        '=APIUTILIZATION(2,SLOBEST("B200","gpt-oss-120b",2000,15),0.6,0.15,870,1000)',
        tco.api_utilization,
        "number",
    ),
    Function(
        "MWGPUS",
        (MW, KW, PUE, NODE),
        "GPUs that fit in a power cap: MW x 1,000 / (kW per GPU x PUE), rounded down to whole nodes.",
        "=MWGPUS(10,1.2,1.3,8)",
        fleet.mw_gpus,
        "number",
    ),
    Function(
        "MWTOKENS",
        (MW, KW, PUE, NAMED_RATE, NODE, UNITS),
        "Tokens/s of the GPUs that fit in a power cap: MWGPUS x tokens/s per GPU; queries/s (samples/s) where "
        f"the rate is in those. {ASSUMED_TOKENS}",
        '=MWTOKENS(10,1.2,1.3,BEST("B200","gpt-oss-120b","Server","available",8))',
        fleet.mw_tokens,
        "number",
    ),
    Function(
        "TOKENSPERMW",
        (NAMED_RATE, KW, PUE, UNITS),
        "Tokens/s (or the rate's unit) per MW of facility power: rate per GPU x 1,000 / "
        f"(kW per GPU x PUE); of a measured row PERWATT x 10^6 / PUE. {ASSUMED_TOKENS}",
        '=TOKENSPERMW(PERGPU("5.1-0061","llama2-70b-99","Offline"),KWPERGPU("5.1-0061","llama2-70b-99","Offline"),1.3)',
        fleet.tokens_per_mw,
        "number",
    ),
    Function(
        "FLEET",
        (
            Arg("benchmarks", "cells", "The workloads' benchmarks, one cell per workload (a blank cell is none)"),
            Arg("scenarios", "cells", "Their scenarios: one per benchmark, or one cell for all"),
            Arg("targets", "cells", "Their target throughputs (tokens/s for LLMs): one per benchmark, or one for all"),
            Arg("families", "cells", 'Candidate families, e.g. "B200", "GB300": one cell or a range'),
            Arg("prices", "cells", "$ per GPU-hour, rented or owned: one cell for all, or one per family"),
            Arg("utilization", "number", "Planned utilization, > 0 and <= 1 (default 1)", 1.0),
            Arg(
                "gpus_per_node",
                "cells",
                "Accelerators per node, whole nodes only: one for all, or one per family (default or blank: the "
                "node size of the MLPerf system each rate comes from)",
                None,
            ),
            Arg(
                "hours_per_month",
                "number",
                f"Hours billed per month (default {fleet.HOURS_PER_MONTH:g})",
                fleet.HOURS_PER_MONTH,
            ),
            AVAIL,
            MAXG,
            ROUND,
            SOFT,
            Arg(
                "shares",
                "cells",
                "Each workload's share of the traffic, one per benchmark, adding up to 100%: targets is then one "
                "cell, the total (default: none, a target per workload)",
                None,
            ),
            Arg(
                "ttft_ms",
                "cells",
                "Each workload's p99 TTFT target in ms (one per benchmark or one for all; blank: none): with "
                "tpot_ms it chooses the scenario (SLOBEST's choice); the scenario may be left blank",
                None,
            ),
            Arg("tpot_ms", "cells", "Each workload's p99 TPOT target in ms, beside ttft_ms", None),
            Arg("headroom", "number", "Extra capacity on top of each target, e.g. 0.2 for 20% (default 0)", 0.0),
            Arg(
                "pool_nodes",
                "bool",
                "TRUE: the workloads share nodes (whole GPUs each, whole nodes of their sum); default FALSE: "
                "whole nodes per workload",
                False,
            ),
        ),
        "Per candidate (family or entry ID) and workload: per-GPU rate and entry, GPUs for target + headroom in "
        "whole nodes, monthly $ and $/M as bought; then the total and blended $/M. A TTFT/TPOT target picks the "
        "scenario (SLOBEST). Spills.",
        '=FLEET("gpt-oss-120b","Server",1000000,"GB300",5,0.7)',
        fleet.fleet,
        "table",
    ),
)
