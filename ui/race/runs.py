"""The race's measurement and its two lanes.

The race is the speed lab's measurement of the sidebar's settings (a tree kept), read from the server's board
(ui/shared/measurements.py): the master alone at his fastest and master with scribe, interleaved over the pair's
example prompts, each writing exactly the same number of tokens. Its lanes replay the prompt whose own speedup
is the median of them. So the race and the speed lab give one figure for one setting, and whichever page
measures again replaces it for both.
"""
from __future__ import annotations

from dataclasses import dataclass

from specdec_core.algorithm.trace import Trace, segments
from specdec_core.decoding.timeline import token_times
from specdec_core.services.recorded import LAB_PROMPTS, lab_settings
from ui.shared.measurements import Run


@dataclass(frozen=True)
class Lane:
    pieces: list[tuple[str, str]]  # (piece, kind) in writing order: "sealed", "corrected", "bonus" or "plain"
    times: list[float]  # seconds from the run's start at which each piece appeared
    ended_at: int | None  # how many pieces up to and including the first end token; None if none was written
    tree: bool = False  # the scribe drafted trees

    @property
    def finish_s(self) -> float:
        return max(self.times, default=0.0)


def race_run(choice, example_prompts: list[str]) -> Run:
    """The speed lab's measurement of the sidebar's settings: its prompts, length and repeats; a tree kept."""
    prompts = tuple(example_prompts[:LAB_PROMPTS]) or (choice.prompt,)  # a pair without examples races the sidebar's
    return Run(choice.pair, choice.device, choice.scribe, lab_settings(choice.settings), prompts)


def lanes(replay: dict) -> tuple[Lane, Lane]:
    """(the master alone, master with scribe) from a measurement's replay (services.bench.replay)."""
    eos = replay["eos"]
    trace = Trace.from_json(replay["speculative"])
    together = Lane([(piece, kind) for piece, kind in segments(trace) if kind != "rejected"], token_times(trace),
                    _ended_at(trace.tokens, eos), tree=any(r.tree for r in trace.rounds))
    alone = Lane([(piece, "plain") for piece in replay["plain_pieces"]], list(replay["plain_times"]),
                 _ended_at(replay["plain_tokens"], eos))
    return alone, together


def _ended_at(tokens: list[int], eos: int | None) -> int | None:
    return tokens.index(eos) + 1 if eos is not None and eos in tokens else None
