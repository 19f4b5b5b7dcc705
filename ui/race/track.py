"""The race track: two runs written out against one clock, each character at the moment it was written."""
from __future__ import annotations

import html
import time

import streamlit as st

from specdec_core.algorithm.trace import Trace, segments
from specdec_core.decoding.timeline import token_times, written_by
from ui.race.texts import TEXT
from ui.scriptorium.sheet import prose_piece
from ui.shared.theme import INK, PAPER, VERMILION

TICK_S = 0.1
STARTED = "race_started"  # monotonic time the race was started, while it runs


def show_race(plain: Trace, speculative: Trace, slow: float, start: bool, verdict: str) -> None:
    """The replay of one run of each way; `verdict` is said once the replay is over (or before a start)."""
    if start:
        st.session_state[STARTED] = time.monotonic()
    running = st.session_state.get(STARTED) is not None
    st.fragment(run_every=TICK_S if running else None)(_track)(plain, speculative, slow, verdict)


def _track(plain: Trace, speculative: Trace, slow: float, verdict: str) -> None:
    times = {"alone": token_times(plain), "together": token_times(speculative)}
    end = max(max(t, default=0.0) for t in times.values())
    started = st.session_state.get(STARTED)
    now = end if started is None else (time.monotonic() - started) / slow
    st.caption(TEXT("clock", t=min(now, end)))
    for column, (who, trace) in zip(st.columns(2), (("alone", plain), ("together", speculative))):
        n = written_by(times[who], now)
        column.markdown(f"**{TEXT(who)}**")
        column.html(_lane(trace, n, speculative=who == "together"))
        column.caption(TEXT("count", n=n, total=len(trace.tokens), s=times[who][n - 1] if n else 0.0))
    st.caption(TEXT("legend_tree" if any(r.tree for r in speculative.rounds) else "legend"))
    if started is not None and now >= end:
        st.session_state[STARTED] = None
        st.rerun()  # the whole page, so the fragment's timer stops
    if started is None:
        st.success(verdict)


def _lane(trace: Trace, n: int, speculative: bool) -> str:
    """The first n written tokens as running text, line breaks kept: sealed in ink, corrections in red."""
    pieces = [(piece, kind) for piece, kind in segments(trace) if kind != "rejected"][:n]
    cells = "".join(
        f'<span style="color:{VERMILION if kind == "corrected" else INK}">{html.escape(prose_piece(piece))}</span>'
        for piece, kind in pieces
    )
    border = VERMILION if speculative else INK
    return (f'<div style="font-family:\'Noto Serif CJK TC\',serif;font-size:1.8rem;line-height:1.5;min-height:6em;white-space:pre-wrap;'
            f'background:{PAPER};border:2px solid {border};border-radius:4px;padding:.4em">{cells or "&nbsp;"}</div>')
