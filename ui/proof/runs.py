"""The proof page's cached pieces: the exact distributions (the loop itself is decoding.proof_run)."""
from __future__ import annotations

import streamlit as st

from specdec_core.decoding.proof_run import Exact, ProofRun, SampleStream, exact_pair
from specdec_core.decoding.proof_run import draw_batch as draw_unslotted
from ui.shared.models import cached_pair
from ui.shared.run_slots import every_core_when_idle


@st.cache_data(show_spinner=False, max_entries=16)
def cached_exact(pair_name: str, device: str, ids: tuple[int, ...], sampling, n_samples: int) -> Exact:
    return exact_pair(cached_pair(pair_name, device).target, list(ids), sampling, n_samples)


def draw_batch(run: ProofRun, speculative: SampleStream, plain: SampleStream, exact: Exact) -> None:
    """One batch of each stream, on every core when the server is otherwise idle, else in one slot."""
    with every_core_when_idle():
        draw_unslotted(run, speculative, plain, exact)
