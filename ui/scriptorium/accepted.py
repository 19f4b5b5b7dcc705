"""Accepted drafts per round in one run, beside the geometric law with the run's alpha: pure functions and the
chart's builder (no st.*), and the section that shows them."""
from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from specdec_core.algorithm.theory import accepted_length_law
from specdec_core.algorithm.trace import Round, Trace, mean_acceptance, written_by_round
from ui.scriptorium.accepted_texts import TEXT
from ui.shared.theme import INK, LIGHT_INK, chart, on_paper


def judged_rounds(trace: Trace) -> tuple[list[Round], int, int]:
    """The rounds the law describes; how many had no draft (the last token of a run); how many the text left
    inside their line, at an accepted end token (the rest of their verdict is never written)."""
    cut = {r.index for r, written in zip(trace.rounds, written_by_round(trace)) if written < len(r.new_tokens)}
    drafted = [r for r in trace.rounds if r.drafted]
    return [r for r in drafted if r.index not in cut], len(trace.rounds) - len(drafted), len(cut)


def observed_and_expected(rounds: list[Round], alpha: float) -> tuple[list[int], list[float]]:
    """Rounds that accepted i drafts, i = 0..the most drafted, and the rounds the law expects: each round adds
    its own law, cut off at its own number of drafts (a round near the length limit drafts fewer)."""
    most = max(len(r.drafted) for r in rounds)
    observed, expected = [0] * (most + 1), [0.0] * (most + 1)
    for r in rounds:
        observed[r.n_accepted] += 1
        for i, chance in enumerate(accepted_length_law(alpha, len(r.drafted))):
            expected[i] += chance
    return observed, expected


def accepted_figure(observed: list[int], expected: list[float], labels: dict[str, str]) -> go.Figure:
    sizes = list(range(len(observed)))
    fig = go.Figure()
    fig.add_bar(x=sizes, y=observed, name=labels["observed"], marker_color=LIGHT_INK)
    fig.add_scatter(x=sizes, y=expected, name=labels["law"], mode="lines+markers", line=dict(color=INK, width=2))
    fig.update_xaxes(title=labels["accepted"], tickvals=sizes)
    fig.update_yaxes(title=labels["rounds"], rangemode="tozero")
    return on_paper(fig).update_layout(height=320)


def show_accepted(trace: Trace) -> None:
    """An expander under the stepper: the whole run's rounds at once."""
    rounds, undrafted, ended = judged_rounds(trace)
    alpha = mean_acceptance([trace])
    with st.expander(TEXT("a_title")):
        if not rounds or alpha is None:
            st.caption(TEXT("a_none"))
            return
        observed, expected = observed_and_expected(rounds, alpha)
        labels = {key: TEXT.plain("a_" + key) for key in ("observed", "accepted", "rounds")} | {"law": TEXT.plain("a_law", alpha=alpha)}
        chart(st, accepted_figure(observed, expected, labels), key="accepted_chart")
        st.caption(TEXT("a_caption", n=len(rounds), alpha=alpha))
        if undrafted or ended:
            st.caption(TEXT("a_left_out", undrafted=undrafted, ended=ended))
