"""The race's runs of the sidebar's settings: the master alone and master with scribe, each timed alone,
several times, each run stopping at the end token as a poem does.

At temperature 0 the two texts are the same, character for character; above it the two draw
differently, so their poems may differ in length, and the race compares characters per second.
"""
from __future__ import annotations

import time
from dataclasses import replace

import streamlit as st

from specdec_core.algorithm.trace import Trace
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.drafts.base import Draft
from specdec_core.settings import DecodeSettings, Target
from ui.shared.models import cached_pair
from ui.shared.fair_share import fair_run, run_seconds

# Three of each way give a median that one slow run (a first call's allocation, a neighbour's job) cannot
# move, and cost little: on two cores one race of the poetry pair's defaults at its full 48 characters took
# 0.6 s, while three to the end mark (床前明月光， ends after 19) took 0.7 s; at worst, with no end mark
# within the limit, three full races take under two seconds.
RACE_RUNS = 3


@st.cache_data(show_spinner=False, max_entries=16)
def cached_race(pair_name: str, device: str, scribe: str, prompt: str, settings: DecodeSettings,
                heat: int) -> dict:
    """{"plain": [trace JSON per run], "speculative": [...], "measured_at": epoch seconds}.

    Cached for the whole server, so a later visitor may see an earlier measurement: measured_at lets
    the page say when it was made. `heat` numbers the attempt, so "time it again" times afresh.
    """
    pair = cached_pair(pair_name, device)
    ids = pair.encode_prompt(prompt, settings.max_new_tokens)
    one_each = (run_seconds(pair_name, device, scribe, settings, len(ids))
                + run_seconds(pair_name, device, scribe, settings, len(ids), speculative=False))
    with fair_run(RACE_RUNS * one_each):
        plain, speculative = race_runs(pair.as_target(), pair.draft(scribe), ids, settings)
    return {"plain": [t.to_json() for t in plain], "speculative": [t.to_json() for t in speculative],
            "measured_at": time.time()}


def race_runs(target: Target, draft: Draft, prompt: list[int], settings: DecodeSettings,
              runs: int = RACE_RUNS) -> tuple[list[Trace], list[Trace]]:
    """(plain traces, speculative traces), `runs` of each, stopping at the end token. The two ways take
    turns to go first, so a machine growing busier during the race slows both alike."""
    to_the_end = replace(settings, stop_at_eos=True)
    plain, speculative = [], []
    for run in range(runs):
        plain_first = run % 2 == 0
        if plain_first:
            plain.append(plain_generate(target, prompt, to_the_end))
        speculative.append(speculative_generate(target, draft, prompt, to_the_end))
        if not plain_first:
            plain.append(plain_generate(target, prompt, to_the_end))
    return plain, speculative
