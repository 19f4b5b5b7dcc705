"""The race's numbers from its runs: each run's speed ratio, their median and spread, and how long ago
they were measured. Pure functions of the traces, so the verdict is tested without a page."""
from __future__ import annotations

import time
from dataclasses import dataclass

from specdec_core.algorithm.trace import Trace
from specdec_core.decoding.timeline import token_times


@dataclass(frozen=True)
class RaceSummary:
    ratios: list[float]  # each run's speculative characters per second over the master alone's
    shown: int  # the run whose ratio is the median: the one the track replays

    @property
    def median(self) -> float:
        return self.ratios[self.shown]

    @property
    def low(self) -> float:
        return min(self.ratios)

    @property
    def high(self) -> float:
        return max(self.ratios)


def finish_s(trace: Trace) -> float:
    """When the run's last token appeared, seconds from its start: where its lane stops."""
    return max(token_times(trace), default=0.0)


def speed_ratio(plain: Trace, speculative: Trace) -> float:
    """Tokens per second with the scribe over tokens per second alone. Above temperature 0 the two
    runs may end their poems at different lengths, so the finishing times alone would not compare."""
    def rate(trace: Trace) -> float:
        return len(trace.tokens) / max(finish_s(trace), 1e-9)
    return rate(speculative) / rate(plain)


def summarize_race(plains: list[Trace], speculatives: list[Trace]) -> RaceSummary:
    """The runs paired in the order they were made; `shown` is the median run (the lower middle of an
    even count), so the replay and the verdict's median are one and the same run."""
    ratios = [speed_ratio(p, s) for p, s in zip(plains, speculatives)]
    order = sorted(range(len(ratios)), key=ratios.__getitem__)
    return RaceSummary(ratios, order[(len(order) - 1) // 2])


def minutes_ago(measured_at: float, now: float | None = None) -> int:
    """Whole minutes since measured_at (epoch seconds): 0 for the first minute."""
    return max(int(((time.time() if now is None else now) - measured_at) // 60), 0)


def clock_time(measured_at: float) -> str:
    """The server's local clock time of measured_at, to the second."""
    return time.strftime("%H:%M:%S", time.localtime(measured_at))
