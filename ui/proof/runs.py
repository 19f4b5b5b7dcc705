"""The proof page's computing: the exact distributions (cached), and a live run in the server's line
of proofs (the loop itself is decoding.proof_run)."""
from __future__ import annotations

import streamlit as st

from specdec_core.decoding.proof_run import Exact, ProofRun, SampleStream, exact_pair, streams
from specdec_core.decoding.proof_run import draw_batch as draw_unslotted
from ui.proof.line import Standing, my_turn, proof_line
from ui.proof.results import show_results
from ui.proof.texts import TEXT
from ui.shared.models import cached_pair
from ui.shared.fair_share import heavy_lane
from ui.shared.run_slots import every_core_when_idle, long_work, run_slot
from ui.shared.visitors import visitor


@st.cache_data(show_spinner=False, max_entries=16)
def cached_exact(pair_name: str, device: str, ids: tuple[int, ...], sampling, n_samples: int) -> Exact:
    pair = cached_pair(pair_name, device)
    with run_slot():  # a target forward over the whole vocabulary: a run like any other
        return exact_pair(pair.target, list(ids), sampling, n_samples)


def draw_batch(run: ProofRun, speculative: SampleStream, plain: SampleStream, exact: Exact) -> None:
    """One batch of each stream in the heavy lane (a class's ordinary runs keep a slot of their own), each draw
    on every core when the server is otherwise idle, else in one slot."""
    with heavy_lane():
        draw_unslotted(run, speculative, plain, exact, each_draw=every_core_when_idle)


def run_live(run: ProofRun, pair, scribe: str, ids: list[int], settings, exact: Exact, board,
             fallback_rate: float | None, branching: tuple[int, ...] = ()) -> None:
    """Draw the run's samples in the server's line of live proofs, redrawing the board after every batch.
    While waiting, the board says where the proof stands; the page's slot is lent to others meanwhile.
    branching: the scribe drafts that static tree each round (tree mode); empty, a chain."""
    with long_work(), my_turn(proof_line(), run.total, lambda standing: board.info(in_line(standing)), fallback_rate,
                              visitor()) as turn:
        speculative, plain = streams(pair, scribe, ids, settings, branching)
        board.progress(0.0, TEXT("progress", done=0, total=run.total, seconds=0))  # before the first batch lands
        while run.done < run.total:
            draw_batch(run, speculative, plain, exact)
            turn.done = run.done
            with board.container():
                show_results(run, exact, pair.as_target().piece, final=False)
    run.finished = True


def in_line(standing: Standing) -> str:
    if standing.seconds is None:
        return TEXT("in_line_unknown", ahead=standing.ahead)
    return TEXT("in_line", ahead=standing.ahead, seconds=standing.seconds)
