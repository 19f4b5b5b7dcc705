"""When each token of a run was written, from the run's own timings: what a race between two runs replays.

A round writes its tokens when its verify pass ends (the accepted prefix and the correction or bonus
appear together), so every token of a round gets the round's end time; the clock starts before the
prompt is read. The master alone writes one token a round.
"""
from __future__ import annotations

from specdec_core.algorithm.trace import Trace


def token_times(trace: Trace) -> list[float]:
    """Seconds from the start of the run at which each written token appeared, one per token."""
    times, now = [], trace.prefill_s
    for r in trace.rounds:
        now += r.draft_s + r.target_s + r.other_s
        times += [now] * len(r.new_tokens)
    return times[: len(trace.tokens)]


def written_by(times: list[float], t: float) -> int:
    """How many tokens had appeared by time t."""
    return sum(1 for when in times if when <= t)
