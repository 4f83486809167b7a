"""``benchsheet addin ...`` subcommands (filled in by the add-in work)."""

from __future__ import annotations

import argparse
from typing import Any


def add_commands(sub: Any) -> None:
    """Add this package's subcommands to the ``benchsheet`` parser."""
    del sub


__all__ = ["add_commands", "argparse"]
