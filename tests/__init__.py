"""benchsheet's tests: tests/<package>/... mirrors src/excelcalc, src/benchsheet and the shells
(udfs/, addin/, templates/); the modules at this level are shared helpers and checks of the house."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the checkout: README.md, docs/, benchmarks/, ...
