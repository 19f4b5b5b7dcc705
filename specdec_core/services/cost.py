"""What a run costs before it starts: the most forwards its settings allow, at the pair's measured pace.

A round writes at least one token, so a run of N new tokens takes at most N rounds, whatever the
scribe's luck; each round's forwards follow from k or the tree's shape. The bound is what a careless
or curious visitor can make the server do (noise 1, temperature 2: nearly every draft rejected), so
a server refuses a run by it before any work starts (ui/shared/fair_share.py), and never needs to
guess how lucky a run will be.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

import torch

from specdec_core.drafts.base import Draft
from specdec_core.runtimes.graph_llama import torch_beside_graph
from specdec_core.runtimes.lean_llama import cached_lm_for
from specdec_core.settings import MAX_K, DecodeSettings, SettingsError, Target, tree_nodes

PACE_CONTEXT = 32  # cached positions before a timed forward: a short prompt's
# Positions of the master's timed forwards. The cost is not linear in them: on some CPUs a matrix product
# of 11 rows took longer than one of 16 (MKL's paths), so the dearest position of several sizes is charged.
TIMED_WIDTHS = (4, 11, 16)
PACE_REPEATS = 3  # the fastest of these is kept: a neighbour's job only ever slows a forward down


@dataclass(frozen=True)
class Work:
    """Forwards and the positions they read: the master's prompt (scored for its last row only), the master's
    checked positions (each scored: a round asks p at every drafted position), and the scribe's."""

    target_forwards: int = 0
    prompt_positions: int = 0
    checked_positions: int = 0
    draft_positions: int = 0

    def __add__(self, other: Work) -> Work:
        return Work(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple())))

    def __mul__(self, times: int) -> Work:
        return Work(*(a * times for a in self.as_tuple()))

    def as_tuple(self) -> tuple[int, ...]:
        return self.target_forwards, self.prompt_positions, self.checked_positions, self.draft_positions


@dataclass(frozen=True)
class Pace:
    """Seconds on this machine: a master forward's fixed cost, its cost per prompt position and per checked
    position, and a scribe's cost per position (charged per position: no discount for a wide forward)."""

    target_forward_s: float
    prompt_position_s: float
    checked_position_s: float
    draft_position_s: float

    def seconds(self, work: Work) -> float:
        return (work.target_forwards * self.target_forward_s + work.prompt_positions * self.prompt_position_s
                + work.checked_positions * self.checked_position_s + work.draft_positions * self.draft_position_s)


def most_work(settings: DecodeSettings, prompt_tokens: int, speculative: bool = True) -> Work:
    """The most a run of these settings computes: its prefill, then one round per new token."""
    prefill = Work(1, prompt_tokens, 0, prompt_tokens if speculative else 0)
    each_round = round_work(settings) if speculative else Work(1, 0, 1, 0)
    return prefill + each_round * settings.max_new_tokens


def round_work(settings: DecodeSettings) -> Work:
    """One round's forwards: the scribe drafts k tokens (or a tree's nodes) and the master checks them and
    the round's first position in one forward."""
    if settings.tree:
        shape = settings.shape
        nodes = shape.budget if shape.width else tree_nodes(shape.branching)
        return Work(1, 0, nodes + 1, nodes + 1)
    k = MAX_K if settings.adaptive_k else settings.k  # the schedule may grow k up to MAX_K
    return Work(1, 0, k + 1, k + 1)


def check_cost(seconds: float, limit_s: float) -> None:
    """A SettingsError (reason run_too_costly) when a run would take longer than `limit_s` at most."""
    if seconds > limit_s:
        raise SettingsError(f"this run may take up to {seconds:.0f} s of computing; this server allows {limit_s:.0f} s "
                            "a run: ask for fewer new tokens, a smaller k or tree, or a better scribe",
                            "run_too_costly", seconds=round(seconds), limit=round(limit_s))


def master_pace(target: Target) -> Pace:
    """Time the master at one position and at a few widths, prompt-like and checked; no scribe yet."""
    context = _context(target)
    lm = cached_lm_for(target.model)
    widest = max(TIMED_WIDTHS)
    with torch.inference_mode(), torch_beside_graph(lm):
        one = _fastest(lambda: _forward_after(lm, context, 1, 1))
        prompt = (_fastest(lambda: _forward_after(lm, context, widest, 1)) - one) / (widest - 1)
        checked = max((_fastest(lambda: _forward_after(lm, context, n, n)) - one) / (n - 1) for n in TIMED_WIDTHS)
    return Pace(target_forward_s=one, prompt_position_s=max(prompt, 0.0), checked_position_s=max(checked, 0.0),
                draft_position_s=0.0)


def with_scribe(pace: Pace, target: Target, draft: Draft) -> Pace:
    """The master's pace with this scribe's, timed at one position after a short context."""
    context, lm = _context(target), cached_lm_for(target.model)
    with torch.inference_mode(), torch_beside_graph(lm):
        return replace(pace, draft_position_s=_fastest(lambda: _draft_after(draft, lm, context)))


def _context(target: Target) -> list[int]:
    return [token % target.vocab_size for token in range(1, PACE_CONTEXT + max(TIMED_WIDTHS) + 1)]


def _forward_after(lm, context: list[int], positions: int, rows: int) -> float:
    lm.start()
    lm.logits(context[:PACE_CONTEXT])
    started = time.perf_counter()
    lm.logits(context[: PACE_CONTEXT + positions], n_last=rows)
    return time.perf_counter() - started


def _draft_after(draft: Draft, lm, context: list[int]) -> float:
    """The scribe's next token after the context, the master having read it (a feature scribe drafts from
    the master's states)."""
    lm.start()
    draft.start()
    if hasattr(draft, "reads_master"):
        draft.reads_master(lm)
    lm.logits(context[: PACE_CONTEXT + 1])
    draft.prefill(context[:PACE_CONTEXT])
    started = time.perf_counter()
    draft.next_logits(context[: PACE_CONTEXT + 1])
    return time.perf_counter() - started


def _fastest(timed) -> float:
    """The fastest of PACE_REPEATS timings (each call times its own last forward, after its set-up)."""
    return min(timed() for _ in range(PACE_REPEATS))
