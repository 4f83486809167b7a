"""The one catalogue of benchsheet's Excel functions: ``CATALOGUE``, and ``BY_NAME``.

Each ``Function`` (``catalogue.declare``) declares itself once, here or in a topic's module
(``catalogue.decision``): its name, its arguments (kind, help text, and the value a
left-out one takes), its category and an example, and the analysis function that answers it. The
arguments are bound to that function by name (a ``table`` parameter gets the loaded table, a
``filters`` parameter the ``Filters`` made of availability, max_gpus, round and software), and a
test checks at import that the names agree. The xlwings UDF module, the xlwings Lite module, the
formula engine behind ``benchsheet eval`` and the function reference (docs/functions.md) are all made from
this list. ``catalogue.calls.call`` is the single way in (the conversion of cell values to the argument kinds
lives there).
"""

from __future__ import annotations

from benchsheet import analysis as A
from benchsheet.analysis import claims as C
from benchsheet.analysis import curves as CV
from benchsheet.analysis.breakeven import ratios as ratios_at
from benchsheet.analysis.citations import CURVECITE_HELP, curve_cite
from benchsheet.catalogue import decision as D
from benchsheet.catalogue.declare import (
    ANY_FAMILY,
    ASSUMED_TOKENS,
    AVAIL,
    AVAIL_ANY,
    BENCH,
    ENTRY,
    FAMILY,
    FILTERS,
    MAXG,
    NAMED_RATE,
    PAIR_ARGS,
    ROUND,
    SCEN,
    SOFT,
    UNITS,
    Arg,
    Function,
)


def _latency_bounds(bounds: dict[str, dict[str, list[float]]], benchmark: str, scenario: str) -> list[list[float]]:
    return A.latency_bounds(bounds, benchmark, scenario)


# MLPerf Endpoints (issue 31): the optional last argument of BREAKEVEN, PAIRED, BREAKEVENPRICE and RATIOS
_INTERACTIVITY = Arg(
    "interactivity",
    "number",
    "MLPerf Endpoints: a target tokens/s per user; each side is then read off its Endpoints curve there "
    "(a family: its best curve of the model), the scenario is not used; default: Inference rows",
    None,
)


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
        "ROWSBEHIND",
        (FAMILY, BENCH, SCEN, *FILTERS),
        "How many rows BEST picks a family's value from (its rows under the filters, in the latest round with rows): "
        "1 says the value rests on one system alone.",
        '=ROWSBEHIND("H200","gpt-oss-120b","Server")',
        A.rows_behind,
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
        (*PAIR_ARGS, _INTERACTIVITY),
        "Candidate per-GPU / baseline per-GPU: the highest price ratio worth paying for the candidate. Each "
        'family side is of its own latest round unless round is given or "same"; PAIRED names the rows and rounds.',
        '=BREAKEVEN("B200","B300","gpt-oss-120b","Server","available",8)',
        A.breakeven,
    ),
    Function(
        "PAIRED",
        (*PAIR_ARGS, _INTERACTIVITY),
        "The rows and rounds BREAKEVEN with the same arguments divides: same round or across rounds, each entry.",
        '=PAIRED("H200","B300","gpt-oss-120b","Server","available")',
        A.paired,
        returns="text",
    ),
    Function(
        "BREAKEVENPRICE",
        (Arg("baseline_price", "number", "Baseline $ per GPU-hour"), *PAIR_ARGS, _INTERACTIVITY),
        "baseline_price x BREAKEVEN: the contract ceiling per GPU-hour for the candidate.",
        '=BREAKEVENPRICE(5,"B200","B300","gpt-oss-120b","Server","available",8)',
        A.breakeven_price,
    ),
    Function(
        "COSTPERMTOK",
        (
            Arg("price_per_gpu_hour", "number", "$ per GPU-hour"),
            NAMED_RATE,
            Arg("utilization", "number", "Share of the hour spent serving, > 0 and <= 1 (default 1)", 1.0),
            UNITS,
        ),
        "Dollars per million tokens: price x 1,000,000 / (tokens/s x 3,600 x utilization); per million queries "
        f"(samples) where the rate is in those. {ASSUMED_TOKENS}",
        '=COSTPERMTOK(5,BEST("B200","gpt-oss-120b","Server","available",8),0.5)',
        A.cost_per_mtok,
    ),
    Function(
        "GPUSNEEDED",
        (
            Arg("target_tokens_per_sec", "number", "Throughput to serve, tokens/s"),
            NAMED_RATE,
            Arg("utilization", "number", "Planned utilization, > 0 and <= 1 (default 1)", 1.0),
            Arg(
                "gpus_per_node",
                "int",
                f"Accelerators per node (default {A.DEFAULT_GPUS_PER_NODE})",
                A.DEFAULT_GPUS_PER_NODE,
            ),
            UNITS,
        ),
        "GPUs to buy for a target throughput, rounded up to whole nodes; the target is in the rate's unit "
        f"(queries/s, samples/s where the rate is in those). {ASSUMED_TOKENS}",
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
        scalar_with="part",
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
            _INTERACTIVITY.but(
                "MLPerf Endpoints: a target tokens/s per user; each side's best curve of every model is then read "
                "there, the last column naming the points; default: Inference rows"
            ),
        ),
        "Candidate per-GPU / baseline per-GPU on every workload where both have one, highest first: ratio, "
        "both entries, per-GPU values, GPUs, availability and rounds (one round unless across_rounds). "
        'The first row is where an "up to Nx" comes from. Spills.',
        '=RATIOS("Vera Rubin","GB300")',
        ratios_at,
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

CATALOGUE += D.FUNCTIONS  # the buyer's decision (issue 33)

# MLPerf Endpoints curves (issue 31): one block, so that other additions merge beside it.
_CURVE = Arg("curve", "text", 'An Endpoints curve, "<submission>/<system>/<model>" (CURVES lists them)')
_AT = Arg(
    "tokens_per_sec_per_user",
    "number",
    "Target interactivity, tokens/s per user (1000 / TPOT p90 ms); an agentic benchmark's curve: e2e_avg_interactivity",
)
_ID, _MODEL = '"sub_a/system_a/gpt-oss-120b"', BENCH.but("Model; default: all", None)
_INTERPOLATED = Arg(
    "interpolated",
    "bool",
    'TRUE: linear between the two measured points around the target, "interpolated (not official)"; '
    "default: the official step, the best measured point that meets the target (Endpoints rules 5.2)",
    False,
)
CATALOGUE += (
    Function("CURVES", (_MODEL,), CV.CURVES_HELP, '=CURVES("gpt-oss-120b")', CV.curves, "table"),
    Function("CURVEPOINTS", (_CURVE,), CV.CURVE_HELP, f"=CURVEPOINTS({_ID})", CV.curve_points, "table"),
    Function("CURVEAT", (_CURVE, _AT, _INTERPOLATED), CV.AT_HELP, f"=CURVEAT({_ID},130)", CV.per_gpu_at),
    Function(
        "CURVEATPOINTS",
        (_CURVE, _AT, _INTERPOLATED),
        CV.POINTS_HELP,
        f"=CURVEATPOINTS({_ID},130)",
        CV.per_gpu_at_points,
        "text",
    ),
    Function("CURVEOFFLINE", (_CURVE,), CV.OFFLINE_HELP, f"=CURVEOFFLINE({_ID})", CV.offline_ceiling),
    Function(
        "CURVESTEPS",
        (_CURVE, Arg("label", "text", "The series' name in a chart's legend; default: the curve", "")),
        CV.STEPS_HELP,
        f'=CURVESTEPS({_ID},"baseline")',
        CV.step_chart,
        "table",
    ),
    Function("BESTCURVE", (FAMILY, BENCH), CV.BEST_HELP, '=BESTCURVE("MI355X","gpt-oss-120b")', CV.best_curve, "table"),
    Function(
        "CURVECITE",
        (
            _CURVE,
            Arg("concurrency", "int", "The point's concurrency (its r<N> folder), e.g. 64"),
            Arg("part", "text", "One line: " + ", ".join(A.CITE_PARTS) + "; default: every line, a column", None),
        ),
        CURVECITE_HELP,
        f"=CURVECITE({_ID},64)",
        curve_cite,
        "table",
    ),
)

BY_NAME = {f.name: f for f in CATALOGUE}
