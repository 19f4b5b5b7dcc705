"""A run of the sidebar's settings, computed once per server for everyone who asks (st.cache_data),
and handed to the pages as its trace's JSON. It is not archived here: every tick of a sidebar slider
makes a run, and only one a reader steps through in the scriptorium is filed (ui/scriptorium/stepper.py)."""
from __future__ import annotations

import streamlit as st

from specdec_core.decoding.generate import speculative_generate
from specdec_core.settings import DecodeSettings
from ui.shared.models import cached_pair
from ui.shared.fair_share import fair_run, run_seconds


@st.cache_data(show_spinner=False, max_entries=64)
def cached_run(pair_name: str, device: str, scribe: str, prompt: str, settings: DecodeSettings) -> str:
    """A run's trace as JSON (plain data, so Streamlit can cache it). Sessions asking for the same run at
    once wait for one computation; it runs on the asking visitor's share (SettingsError when refused)."""
    pair = cached_pair(pair_name, device)
    ids = pair.encode_prompt(prompt, settings.max_new_tokens)
    with fair_run(run_seconds(pair_name, device, scribe, settings, len(ids))):
        trace = speculative_generate(pair.as_target(), pair.draft(scribe), ids, settings)
    trace.extra["prompt_as_typed"] = prompt  # a chat pair's model reads it inside its template
    return trace.to_json()
