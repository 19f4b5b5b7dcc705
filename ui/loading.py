"""Cached model loading and runs, keyed by every setting (Streamlit's caching guidance)."""
from __future__ import annotations

import streamlit as st
import torch

from specdec_core.engine import DecodeSettings, speculative_generate
from specdec_core.pairs import available_pairs, load_pair
from ui.archive_store import keep_run


@st.cache_resource(show_spinner=False)
def cached_pair(name: str, device: str = "auto"):
    return load_pair(name, device)


@st.cache_data(show_spinner=False, max_entries=64)
def cached_run(pair_name: str, device: str, scribe: str, prompt: str, settings: DecodeSettings) -> str:
    """A run's trace as JSON (plain data, so Streamlit can cache it), also kept in the archive."""
    pair = cached_pair(pair_name, device)
    ids = pair.encode_prompt(prompt, settings.max_new_tokens)
    trace_json = speculative_generate(pair.writer(), pair.scribe(scribe), ids, settings).to_json()
    keep_run(trace_json)  # here, not in the pages: a cache hit is a run already archived
    return trace_json


def pair_names() -> list[str]:
    return available_pairs()


def device_names() -> list[str]:
    """"auto" picks CUDA when present; the others let a teacher compare."""
    return ["auto", "cpu"] + (["cuda"] if torch.cuda.is_available() else [])
