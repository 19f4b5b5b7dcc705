"""The race track: two runs written out against one clock, each character at the moment it was written."""
from __future__ import annotations

import html
import time

import streamlit as st

from specdec_core.decoding.timeline import written_by
from ui.race.runs import Lane
from ui.race.texts import TEXT
from ui.scriptorium.sheet import prose_piece
from ui.shared.theme import INK, LIGHT_INK, PAPER, VERMILION

TICK_S = 0.1
STARTED = "race_started"  # monotonic time the race was started, while it runs


def show_race(alone: Lane, together: Lane, slow: float, start: bool, verdict: str) -> None:
    """The replay of one run of each way; `verdict` is said once the replay is over (or before a start)."""
    if start:
        st.session_state[STARTED] = time.monotonic()
    running = st.session_state.get(STARTED) is not None
    st.fragment(run_every=TICK_S if running else None)(_track)(alone, together, slow, verdict)


def _track(alone: Lane, together: Lane, slow: float, verdict: str) -> None:
    end = max(alone.finish_s, together.finish_s)
    started = st.session_state.get(STARTED)
    now = end if started is None else (time.monotonic() - started) / slow
    st.caption(TEXT("clock", t=min(now, end)))
    for column, (who, lane) in zip(st.columns(2), (("alone", alone), ("together", together))):
        n = written_by(lane.times, now)
        column.markdown(f"**{TEXT(who)}**")
        column.html(lane_html(lane, n, speculative=who == "together"))
        column.caption(TEXT("count", n=n, total=len(lane.pieces), s=lane.times[n - 1] if n else 0.0))
    legend = TEXT("legend_tree" if together.tree else "legend")
    ended = next((lane for lane in (alone, together) if lane.ended_at is not None), None)
    if ended is not None:  # the pair's own end mark: ∎ for the poems, ⟩ for a chat turn
        legend += " " + TEXT("legend_past_end", end=prose_piece(ended.pieces[ended.ended_at - 1][0]))
    st.caption(legend)
    if started is not None and now >= end:
        st.session_state[STARTED] = None
        st.rerun()  # the whole page, so the fragment's timer stops
    if started is None:
        st.success(verdict)


def lane_html(lane: Lane, n: int, speculative: bool) -> str:
    """The first n written pieces as running text, line breaks kept: sealed in ink, corrections in red, and what
    follows the first end mark faint (written so that both ways do the same work, not part of the text)."""
    cells = "".join(
        f'<span style="color:{_colour(kind, lane.ended_at is not None and i >= lane.ended_at)}">'
        f'{html.escape(prose_piece(piece))}</span>'
        for i, (piece, kind) in enumerate(lane.pieces[:n])
    )
    border = VERMILION if speculative else INK
    return (f'<div style="font-family:\'Noto Serif CJK TC\',serif;font-size:1.8rem;line-height:1.5;min-height:6em;white-space:pre-wrap;'
            f'background:{PAPER};border:2px solid {border};border-radius:4px;padding:.4em">{cells or "&nbsp;"}</div>')


def _colour(kind: str, past_the_end: bool) -> str:
    return LIGHT_INK if past_the_end else VERMILION if kind == "corrected" else INK
