"""The bundled snapshot: made from the official files by the project's importer.

``benchsheet build-snapshot --from ../shared/mlperf`` regenerates ``results.json`` and
``latency_bounds.json`` of this package (``src/benchsheet/data/``); a test checks that the
committed files equal a fresh import.
"""

from __future__ import annotations

import csv
import io
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from benchsheet.data.importers import Imported, import_file, sha256_hex
from benchsheet.data.names import benchmark_key, canonical_scenario
from benchsheet.data.table import Table, build_table
from benchsheet.errors import DataError

ROUND_FILES = ("v5.1/summary_results.json", "v6.0/summary_results.json", "v6.1/summary.json")
"""The official files of the known rounds, relative to a results folder."""

BOUNDS_FILE = "latency_bounds.csv"
BUNDLED_BOUNDS = Path(__file__).with_name("latency_bounds.json")


def import_folder(folder: Path, imported_at: str | None = None) -> list[Imported]:
    return [
        import_file((folder / rel).read_bytes(), rel, imported_at=imported_at, official_copy=True)
        for rel in ROUND_FILES
    ]


def table_from_folder(folder: Path, imported_at: str | None = None) -> Table:
    imported = import_folder(folder, imported_at)
    rows = [r for imp in imported for r in imp.rows]
    return build_table(rows, [imp.source for imp in imported])


def bounds_from_csv(data: bytes, name: str) -> dict[str, object]:
    """latency_bounds.csv -> {"sha256", "bounds": {benchmark: {scenario: [ttft, tpot]}}}."""
    bounds: dict[str, dict[str, list[float]]] = {}
    reader = csv.DictReader(io.StringIO(data.decode("utf-8")))
    for i, rec in enumerate(reader, start=2):
        scen = canonical_scenario(rec.get("scenario") or "")
        if not rec.get("benchmark") or scen is None:
            raise DataError(name, i, "scenario", "benchmark or scenario missing or unknown")
        try:
            ttft, tpot = float(rec["ttft_ms"]), float(rec["tpot_ms"])
        except (TypeError, ValueError, KeyError):
            raise DataError(name, i, "ttft_ms", "TTFT and TPOT must be numbers") from None
        bounds.setdefault(benchmark_key(rec["benchmark"]), {})[scen] = [ttft, tpot]
    return {"source": name, "sha256": sha256_hex(data), "bounds": bounds}


def write_snapshot(folder: Path, out_dir: Path, imported_at: str | None = None) -> Table:
    table = table_from_folder(folder, imported_at)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "results.json").write_text(table.to_json(), encoding="utf-8")
    bounds = bounds_from_csv((folder / BOUNDS_FILE).read_bytes(), BOUNDS_FILE)
    (out_dir / "latency_bounds.json").write_text(json.dumps(bounds, indent=1) + "\n", encoding="utf-8")
    return table


@lru_cache(maxsize=1)
def latency_bounds() -> dict[str, dict[str, list[float]]]:
    doc = json.loads((resources.files("benchsheet.data") / BUNDLED_BOUNDS.name).read_text(encoding="utf-8"))
    bounds: dict[str, dict[str, list[float]]] = doc["bounds"]
    return bounds
