"""Check by replay: run an archived trace's settings again and compare what it writes, token for token.

A trace is a record anyone can edit: a file whose seed was changed still reads as consistent, since
its rounds and tokens agree with each other. Running the same pair, draft, prompt tokens and
settings again writes the same tokens (every draw comes from the seeded generator), so a trace that
does not reproduce was not written by those settings.
"""
from __future__ import annotations

from dataclasses import dataclass

from specdec_core.algorithm.trace import Trace
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.pairs.pair import ModelPair
from specdec_core.settings import DecodeSettings


@dataclass(frozen=True)
class ReplayCheck:
    reproduces: bool
    first_difference: int | None  # index into the written tokens, None when they agree
    stored: int | None  # the stored token there (None past its end)
    replayed: int | None  # the replay's token there (None past its end)


def replay_check(pair: ModelPair, trace: Trace) -> ReplayCheck:
    """Write again with the trace's settings and compare; the pair must be the one the trace names.
    SettingsError, before any work, when the settings do not read back or the run does not fit the pair."""
    settings = DecodeSettings.from_dict(trace.settings)
    target = pair.as_target()
    if trace.mode == "plain":
        again = plain_generate(target, trace.prompt_tokens, settings)
    else:
        again = speculative_generate(target, pair.draft(trace.scribe), trace.prompt_tokens, settings)
    return compare(trace.tokens, again.tokens)


def compare(stored: list[int], replayed: list[int]) -> ReplayCheck:
    for i in range(max(len(stored), len(replayed))):
        a = stored[i] if i < len(stored) else None
        b = replayed[i] if i < len(replayed) else None
        if a != b:
            return ReplayCheck(False, i, a, b)
    return ReplayCheck(True, None, None, None)
