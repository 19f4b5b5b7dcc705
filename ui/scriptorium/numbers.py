"""How the scriptorium writes a probability or a ratio: readable however small."""
from __future__ import annotations

import math


def probability_text(value: float) -> str:
    """Three decimals, or two significant digits where three decimals would read 0.000 for a rare token."""
    return f"{value:.3f}" if value == 0 or value >= 0.0005 else f"{value:.1e}"


def ratio_text(value: float) -> str:
    """Two decimals, or two significant digits below 0.1, so a small p/q reads as the worked table's 0.0012, not 0.00."""
    if value == 0 or value >= 0.1:
        return f"{value:.2f}"
    if value < 1e-4:
        return f"{value:.1e}"
    return f"{value:.{1 - math.floor(math.log10(value))}f}"


def table_number(value: float) -> str:
    """A worked table's probability: four decimals, or two significant digits where four would read 0.0000,
    so a rare token's q 0.00002 is not shown as 0 beside a min(1, p/q) of 0.2771."""
    return f"{value:.4f}" if value == 0 or value >= 0.00005 else f"{value:.1e}"
