"""The proof page's cached pieces: the exact distributions (the loop itself is decoding.proof_run)."""
from __future__ import annotations

import streamlit as st

from specdec_core.decoding.proof_run import Exact, ProofRun, SampleStream, exact_pair
from specdec_core.decoding.proof_run import draw_batch as draw_unslotted
from ui.shared.models import cached_pair
from ui.shared.run_slots import every_core_when_idle, run_slot


@st.cache_data(show_spinner=False, max_entries=16)
def cached_exact(pair_name: str, device: str, ids: tuple[int, ...], sampling, n_samples: int) -> Exact:
    pair = cached_pair(pair_name, device)
    with run_slot():  # a target forward over the whole vocabulary: a run like any other
        return exact_pair(pair.target, list(ids), sampling, n_samples)


def draw_batch(run: ProofRun, speculative: SampleStream, plain: SampleStream, exact: Exact) -> None:
    """One batch of each stream, each draw on every core when the server is otherwise idle, else in one slot."""
    draw_unslotted(run, speculative, plain, exact, each_draw=every_core_when_idle)
