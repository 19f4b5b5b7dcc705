"""The race's two runs of the sidebar's settings: the master alone and master with scribe, each timed alone.

Both write the full length (they do not stop at an end token), so the race is over the same number
of characters; at temperature 0 the two texts are the same, character for character.
"""
from __future__ import annotations

from dataclasses import replace

import streamlit as st

from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.settings import DecodeSettings
from ui.shared.models import cached_pair
from ui.shared.run_slots import run_slot


@st.cache_data(show_spinner=False, max_entries=16)
def cached_race(pair_name: str, device: str, scribe: str, prompt: str, settings: DecodeSettings,
                heat: int) -> tuple[str, str]:
    """(plain trace, speculative trace) as JSON; `heat` numbers the attempt, so "time it again" times afresh."""
    pair = cached_pair(pair_name, device)
    ids = pair.encode_prompt(prompt, settings.max_new_tokens)
    full_length = replace(settings, stop_at_eos=False)
    with run_slot():
        plain = plain_generate(pair.as_target(), ids, full_length)
        speculative = speculative_generate(pair.as_target(), pair.draft(scribe), ids, full_length)
    return plain.to_json(), speculative.to_json()
