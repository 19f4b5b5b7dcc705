"""When a live measurement was made, in the reader's words: the server's clock and how long ago.

A measurement is shared by everyone on the server (ui/shared/measurements.py), so a visitor may find one made
before they arrived; every page that shows one says when, and that pressing its button measures again."""
from __future__ import annotations

import time

from ui.shared.texts import TEXT


def minutes_ago(measured_at: float, now: float | None = None) -> int:
    """Whole minutes since measured_at (epoch seconds): 0 for the first minute."""
    return max(int(((time.time() if now is None else now) - measured_at) // 60), 0)


def clock_time(measured_at: float) -> str:
    """The server's local clock time of measured_at, to the second."""
    return time.strftime("%H:%M:%S", time.localtime(measured_at))


def when_measured(measured_at: float, now: float | None = None) -> str:
    ago = minutes_ago(measured_at, now)
    return TEXT("measured_when", clock=clock_time(measured_at),
                ago=TEXT("ago_minutes", n=ago) if ago else TEXT("ago_now"))
