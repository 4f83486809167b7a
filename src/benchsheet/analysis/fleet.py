"""A site's power cap: the GPUs and tokens/s that fit in its megawatts at a PUE (MWGPUS, MWTOKENS), and
tokens/s per provisioned megawatt (TOKENSPERMW).

Power per GPU is the user's input, or measured system power / GPUs where MLPerf measured it (KWPERGPU);
a design or TDP figure never comes from the data. IT power = facility power / PUE.
"""

from __future__ import annotations

import math

from benchsheet.analysis.costs import DEFAULT_GPUS_PER_NODE, _check_rate, check_price
from benchsheet.analysis.tco import check_pue
from benchsheet.errors import BenchError, bad_value

KW_PER_MW = 1000


def _gpus_per_kw(kw_per_gpu: float, pue: float) -> float:
    """GPUs per kW of facility power: 1 / (kW per GPU x PUE)."""
    _check_rate(kw_per_gpu, "kw_per_gpu")
    check_pue(pue)
    return 1 / (kw_per_gpu * pue)


def mw_gpus(megawatts: float, kw_per_gpu: float, pue: float, gpus_per_node: int = DEFAULT_GPUS_PER_NODE) -> int:
    """Whole nodes' GPUs that fit in ``megawatts`` of facility power: MW x 1000 / (kW per GPU x PUE), rounded
    down to whole nodes."""
    check_price(megawatts, "megawatts")
    per_kw = _gpus_per_kw(kw_per_gpu, pue)
    if gpus_per_node < 1:
        raise bad_value("gpus_per_node must be a whole number >= 1")
    raw = megawatts * KW_PER_MW * per_kw
    if not math.isfinite(raw) or raw > 1e15:
        raise BenchError("#NUM!", "the answer is too large to be a number of GPUs; check the inputs' units")
    # a hair of tolerance so that 799.9999999999999 GPUs is 800, as in GPUSNEEDED
    return math.floor((raw + 1e-9) / gpus_per_node) * gpus_per_node


def mw_tokens(
    megawatts: float,
    kw_per_gpu: float,
    pue: float,
    tokens_per_sec_per_gpu: float,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
) -> float:
    """Tokens/s of the GPUs that fit in the power cap (MWGPUS x tokens/s per GPU)."""
    _check_rate(tokens_per_sec_per_gpu, "tokens_per_sec_per_gpu")
    return mw_gpus(megawatts, kw_per_gpu, pue, gpus_per_node) * tokens_per_sec_per_gpu


def tokens_per_mw(tokens_per_sec_per_gpu: float, kw_per_gpu: float, pue: float) -> float:
    """Tokens/s per megawatt of facility power: tokens/s per GPU x 1000 / (kW per GPU x PUE)."""
    _check_rate(tokens_per_sec_per_gpu, "tokens_per_sec_per_gpu")
    return tokens_per_sec_per_gpu * KW_PER_MW * _gpus_per_kw(kw_per_gpu, pue)
