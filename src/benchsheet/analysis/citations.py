"""Citations: the lines the MLPerf Results Messaging Guidelines ask for beside a figure (CITE, and
CURVECITE for a point of an MLPerf Endpoints curve), the notices, and the provenance of the loaded table
(DATAINFO).
"""

from __future__ import annotations

from benchsheet.analysis.curves import find_curve, per_gpu
from benchsheet.analysis.entries import find_row, row_notes
from benchsheet.analysis.pergpu import per_gpu_value
from benchsheet.data.names import gpus_per_card, unknown_name
from benchsheet.data.table import Curve, CurvePoint, IdSource, Row, Table
from benchsheet.errors import bad_value, not_available

TRADEMARK = (
    "MLPerf® and the MLPerf logo are registered and unregistered trademarks of MLCommons "
    "Association in the United States and other countries. All rights reserved. "
    "Unauthorized use strictly prohibited. See www.mlcommons.org for more information."
)
NOT_VERIFIED = "Result not verified by MLCommons Association."
CATEGORY_NAMES = {"available": "Available", "preview": "Preview", "rdi": "RDI"}

CITE_PARTS = ("entry", "result", "system", "notes", "source", "sha256", "derived", "trademark")
"""The parts of a citation, in the order of its lines; ``CITE``'s ``part`` names one."""
LINE_LIMIT = 255
"""The longest line a citation is made of: what classic Excel shows of a UDF's text (longer: #VALUE!)."""


def cite(table: Table, entry: str, benchmark: str, scenario: str, part: str | None = None) -> list[list[str]] | str:
    """A citation in the form the MLPerf Results Messaging Guidelines ask for: a column of lines
    (each a sentence of at most ``LINE_LIMIT`` characters for the real data), or one named part."""
    if table.curves and table.curve(entry) is not None:
        raise not_available(
            f"{entry.strip()} is an MLPerf Endpoints curve, not an Inference entry: "
            "CURVECITE(curve, concurrency) cites one of its points"
        )
    r = find_row(table, entry, benchmark, scenario)
    return _chosen(citation(table, r), part)


def _chosen(parts: list[tuple[str, str]], part: str | None) -> list[list[str]] | str:
    """Every line as a column, or the lines of one named part joined."""
    if part is None:
        return [[line] for _, line in parts]
    key = part.strip().lower()
    if key not in CITE_PARTS:
        raise bad_value(unknown_name("part", part, CITE_PARTS) + ", or leave it out for every line")
    return " ".join(line for name, line in parts if name == key)


CURVECITE_HELP = (
    "A citation of a point of an MLPerf Endpoints curve per the MLPerf Results Messaging Guidelines, a sentence "
    "a line: benchmark, version, division, category, concurrency; result; system; notes; source; "
    "SHA-256s; derived-metric note; trademark. Spills."
)


def curve_cite(table: Table, curve: str, concurrency: int, part: str | None = None) -> list[list[str]] | str:
    """CURVECITE: the citation of the point at ``concurrency`` of an Endpoints curve (CITE's parts)."""
    c = find_curve(table, curve)
    point = next((p for p in c.points if p.concurrency == concurrency), None)
    if point is None:
        have = ", ".join(str(p.concurrency) for p in c.points)
        raise not_available(f"{c.id} has no point at concurrency {concurrency}: its points are at {have}")
    return _chosen(curve_citation(c, point), part)


def curve_citation(c: Curve, p: CurvePoint) -> list[tuple[str, str]]:
    """The citation of one point of a curve as (part, line) pairs, in order."""
    submission = c.id.split("/", 1)[0]
    on = f"{c.gpus} x {c.accelerator}" if not c.heterogeneous else f"{c.gpus} accelerators ({c.accelerator})"
    ttft = "" if p.ttft_ms[1] is None else f", TTFT p90 {figure_text(p.ttft_ms[1])} ms"
    tpot = p.tpot_ms[1] or 0.0
    result = (
        f"Result: {figure_text(p.system_tps)} tokens/s at {figure_text(p.tps_per_user)} tokens/s per user "
        f"(TPOT p90 {figure_text(tpot)} ms{ttft}) on {on}."
    )
    summary = next(((f, h) for f, h in p.files if f.endswith("result_summary.json")), ("", ""))
    if c.own or c.test:
        what = (
            f"{c.test}; {c.model}, concurrency {p.concurrency}."
            if c.test
            else f"your own MLPerf Endpoints run, {c.model}, concurrency {p.concurrency}; not an MLPerf result."
        )
        parts = [
            ("entry", f"{c.id}: {what}"),
            ("result", result),
            ("system", f"System: {c.system}."),
        ]
    else:
        parts = [
            (
                "entry",
                f"MLPerf® Endpoints (v1.0 submission layout), {c.division.capitalize()} division, "
                f"{CATEGORY_NAMES.get(c.availability, c.availability.capitalize() or 'unstated')} category, "
                f"{c.model}, submission {submission}, system {c.system}, point r{p.concurrency} "
                f"(concurrency {p.concurrency}).",
            ),
            ("result", result),
            ("system", f"System: {c.system}, submitted by {c.submitter or 'an unnamed submitter'}."),
        ]
    if p.flag:
        parts.append(("notes", f"Note: Not a usable point ({p.flag}); CURVEAT and BREAKEVEN leave it out."))
    if p.caveat:
        parts.append(("notes", f"Note: Flagged: {p.caveat}."))
    if p.offline == "dedicated":
        parts.append(("notes", "Note: The dedicated Offline run: the curve's throughput ceiling, not a step of it."))
    if p.basis:
        parts.append(("notes", f"Note: Figures over the {p.basis}."))
    if c.heterogeneous:
        parts.append(("notes", "Note: The system mixes accelerators: it has no per-GPU value."))
    parts.append(("source", f"Source: {summary[0] or c.source}, imported {c.imported_at[:10] or 'unknown'}."))
    parts += [("sha256", f"SHA-256 of {f.rsplit('/', 1)[-1]}: {h}.") for f, h in p.files]
    parts.append(
        (
            "derived",
            "Tokens/s (output tokens / measured seconds) and tokens/s per user (1000 / TPOT p90 ms) are computed "
            "by benchsheet from result_summary.json as section 9.1 of the Endpoints rules defines them.",
        )
    )
    value = per_gpu(c, p)
    if value is not None:
        parts.append(
            (
                "derived",
                f"Per-GPU value {figure_text(value)} tokens/s per accelerator: derived by benchsheet "
                f"(tokens/s / {c.gpus}), not an official MLPerf result." + ("" if c.own else f" {NOT_VERIFIED}"),
            )
        )
    elif not c.own:
        parts.append(("derived", NOT_VERIFIED))
    if c.own and not c.test:
        parts.append(("derived", f"Internal measurement, unverified, not an MLPerf result. {NOT_VERIFIED}"))
    parts.append(("trademark", TRADEMARK))
    return parts


def citation(table: Table, r: Row) -> list[tuple[str, str]]:
    """The citation of one row as (part, line) pairs, in order; a part may have no line (notes)."""
    if r.id_source == IdSource.LOCAL:
        return _cite_run(table, r)
    src = next((s for s in table.sources if s.round == r.round and s.sha256 == r.sha256), None)
    if src is None:
        where = r.source
    elif src.url and src.url != src.file:
        where = f"{src.file}, a copy of {src.url}"  # the SHA-256 is the copy's
    else:
        where = src.file
    retrieved = src.imported_at[:10] if src else "unknown"
    derived_id = r.id_source == IdSource.DERIVED
    id_note = " (ID derived by benchsheet)" if derived_id else ""
    ids = "; the file carries no entry IDs: benchsheet derives them from MLCommons' numbering" if derived_id else ""
    filed = f"filed under {r.benchmark} {r.scenario}" if r.division == "open" else f"{r.benchmark} {r.scenario}"
    per_card = gpus_per_card(r.accelerator)
    on = (
        f"{r.gpus_in_file} x {r.accelerator} ({r.gpus} GPUs)"
        if per_card > 1 and r.gpus_in_file
        else f"{r.gpus} x {r.accelerator or 'CPU'}"
    )
    parts = [
        (
            "entry",
            f"MLPerf® Inference v{r.round}, {r.division.capitalize()} division, "
            f"{CATEGORY_NAMES.get(r.availability, r.availability)} category, {filed}, entry {r.entry}{id_note}.",
        ),
        ("result", f"Result: {figure_text(r.result)} {r.units} on {on}."),
        ("system", f"System: {r.system}, submitted by {r.submitter}."),
    ]
    parts += [("notes", f"Note: {n[:1].upper()}{n[1:]}.") for n in row_notes(table, r)]
    parts.append(("source", f"Source: {where}, retrieved {retrieved}{ids}."))
    parts.append(("sha256", f"SHA-256 of the source file: {r.sha256}."))
    pg = per_gpu_value(r)
    if pg is not None:  # the derived figure is not verified by MLCommons; the official result is
        unit = r.units.removesuffix("/s").lower()
        parts.append(
            (
                "derived",
                f"Per-GPU value {figure_text(pg)} {unit}/s per accelerator: derived by benchsheet (result / {r.gpus}), "
                f"not an official MLPerf result. {NOT_VERIFIED}",
            )
        )
    parts.append(("trademark", TRADEMARK))
    return parts


def _cite_run(table: Table, r: Row) -> list[tuple[str, str]]:
    run = table.run(r.entry)
    verdict = "" if run is None or run.valid else " The loadgen log says INVALID."
    when = run.imported_at[:10] if run else "unknown"
    return [
        ("entry", f"{r.entry}: your own run, {r.benchmark} {r.scenario}; not an MLPerf result.{verdict}"),
        ("result", f"Result: {figure_text(r.result)} {r.units} on {r.gpus} x {r.accelerator}."),
        ("system", f"System: {r.system}."),
        *(("notes", f"Note: {n[:1].upper()}{n[1:]}.") for n in row_notes(table, r)),
        ("source", f"Source: {r.source}, imported {when}."),
        ("sha256", f"SHA-256 of the source file: {r.sha256}."),
        ("derived", f"Internal measurement, unverified, not an MLPerf result. {NOT_VERIFIED}"),
        ("trademark", TRADEMARK),
    ]


def figure_text(x: float) -> str:
    """A figure as a citation writes it: 11,275.6 from 100 up, four significant digits below."""
    return f"{x:,.1f}" if abs(x) >= 100 else f"{x:,.4g}"


def datainfo(table: Table, field: str | None = None) -> list[list[str | int]] | str | int:
    """Provenance of the loaded table: a table, or one field of it."""
    info: dict[str, str | int] = {
        "rounds": ", ".join(table.rounds),
        "rows": len(table.rows),
        "origin": str(table.origin),
        "sources": "; ".join(s.url or s.file for s in table.sources),
        "sha256": "; ".join(s.sha256 for s in table.sources),
        "imported_at": "; ".join(s.imported_at for s in table.sources),
    }
    if field is None:
        out: list[list[str | int]] = [["round", "file", "rows", "sha256", "imported_at", "url"]]
        for s in table.sources:
            out.append([s.round, s.file, s.rows, s.sha256, s.imported_at, s.url])
        out.append(["origin", str(table.origin), len(table.rows), "", "", ""])
        return out
    key = field.strip().lower()
    if key not in info:
        raise bad_value(unknown_name("field", field, list(info)))
    return info[key]
