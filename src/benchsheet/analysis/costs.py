"""Money and sizing from a per-GPU rate: cost per million tokens and GPUs to buy.

Plain arithmetic, no table: each input is checked (a price >= 0, a rate > 0, a utilization in
(0, 1]) and an answer too large to be a number is ``#NUM!`` with its reason.
"""

from __future__ import annotations

import math

from benchsheet.errors import BenchError, bad_value


def check_price(price: float, name: str) -> None:
    """A price (or a target) is a number >= 0; the error names the argument."""
    if not math.isfinite(price) or price < 0:
        raise bad_value(f"{name} must be a number >= 0")


def _check_rate(rate: float, name: str) -> None:
    if not math.isfinite(rate) or rate <= 0:
        raise bad_value(f"{name} must be a number > 0")


def _check_utilization(u: float) -> None:
    if not (math.isfinite(u) and 0 < u <= 1):
        raise bad_value("utilization must be > 0 and <= 1")


def cost_per_mtok(price_per_gpu_hour: float, tokens_per_sec_per_gpu: float, utilization: float = 1.0) -> float:
    """Dollars per million tokens: price x 1e6 / (tokens/s x 3600 x utilization)."""
    check_price(price_per_gpu_hour, "price_per_gpu_hour")
    _check_rate(tokens_per_sec_per_gpu, "tokens_per_sec_per_gpu")
    _check_utilization(utilization)
    served = _served(tokens_per_sec_per_gpu * 3600 * utilization)
    return price_per_gpu_hour * 1e6 / served


def _served(rate: float) -> float:
    """A rate to divide by: two tiny positive inputs multiply to 0.0 in floating point (1e-22 x 1e-308)."""
    if rate <= 0:
        raise BenchError("#NUM!", "the answer is too large to be a number; check the inputs' units")
    return rate


DEFAULT_GPUS_PER_NODE = 8
"""Accelerators per node where a sheet leaves it out: the usual 8-GPU server."""


def gpus_needed(
    target_tokens_per_sec: float,
    tokens_per_sec_per_gpu: float,
    utilization: float = 1.0,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
) -> int:
    """GPUs to buy for a target rate, rounded up to whole nodes."""
    check_price(target_tokens_per_sec, "target_tokens_per_sec")
    _check_rate(tokens_per_sec_per_gpu, "tokens_per_sec_per_gpu")
    _check_utilization(utilization)
    if gpus_per_node < 1:
        raise bad_value("gpus_per_node must be a whole number >= 1")
    raw = target_tokens_per_sec / _served(tokens_per_sec_per_gpu * utilization)
    if not math.isfinite(raw) or raw > 1e15:
        raise BenchError("#NUM!", "the answer is too large to be a number of GPUs; check the inputs' units")
    # a hair of tolerance so that 16.000000000000004 GPUs is 16, not 17; a positive target needs one GPU
    gpus_exact = max(math.ceil(raw - 1e-9), 1 if target_tokens_per_sec > 0 else 0)
    return math.ceil(gpus_exact / gpus_per_node) * gpus_per_node
