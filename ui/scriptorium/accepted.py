"""Accepted drafts per round in one run, beside the geometric law with the run's alpha: pure functions and the
chart's builder (no st.*), and the section that shows them.

A tree run is shown as what its rounds wrote (the depths passed, and the master's own token after them) against
its trees' depth, with no law: the geometric law is a chain's, one chance alpha a draft, while a tree's depth is
passed by any of its variants, tried one after another. Its depths are counted instead: how often each was
passed, and how often its first variant alone was sealed, which is a chain's count."""
from __future__ import annotations

from dataclasses import replace

import plotly.graph_objects as go
import streamlit as st

from specdec_core.algorithm.acceptance import position_counts, verdict_counts
from specdec_core.algorithm.theory import accepted_length_law
from specdec_core.algorithm.trace import (Round, Trace, drafted_and_accepted, judged_verdicts, mean_acceptance,
                                          written_by_round)
from specdec_core.algorithm.tree_walk import counts_first_variants
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


def written_per_round(rounds: list[Round]) -> list[int]:
    """Tree rounds that wrote 1, 2, … tokens, up to the deepest tree's depth + 1: the variants sealed down the
    tree, one a depth (Round.n_accepted), and the master's own token after them."""
    written = [0] * (max(r.k for r in rounds) + 1)
    for r in rounds:
        written[r.n_accepted] += 1
    return written


def depth_counts(trace: Trace, rounds: list[Round]) -> list[dict[str, int]]:
    """At each depth some round reached: the rounds that reached it, those that passed it (with any variant),
    and those whose first variant there was sealed (what a chain's token would have been judged on)."""
    picked = replace(trace, rounds=rounds)
    passed = position_counts(drafted_and_accepted([picked]))
    first = verdict_counts(judged_verdicts([picked]))
    return [{"depth": d, "reached": n, "passed": sealed, "first": first.get(d, (0, 0))[1]}
            for d, (n, sealed) in passed.items()]


def accepted_figure(observed: list[int], expected: list[float] | None, labels: dict[str, str],
                    first: int = 0) -> go.Figure:
    """Bars of rounds by count from `first` on; the law's line beside them where there is one (a chain's)."""
    sizes = list(range(first, first + len(observed)))
    fig = go.Figure()
    fig.add_bar(x=sizes, y=observed, name=labels["observed"], marker_color=LIGHT_INK)
    if expected is not None:
        fig.add_scatter(x=sizes, y=expected, name=labels["law"], mode="lines+markers", line=dict(color=INK, width=2))
    fig.update_xaxes(title=labels["accepted"], tickvals=sizes)
    fig.update_yaxes(title=labels["rounds"], rangemode="tozero")
    return on_paper(fig).update_layout(height=320)


def show_accepted(trace: Trace) -> None:
    """An expander under the stepper: the whole run's rounds at once."""
    rounds, undrafted, ended = judged_rounds(trace)
    alpha = mean_acceptance([trace])
    tree = counts_first_variants(trace)
    with st.expander(TEXT("a_title_tree" if tree else "a_title")):
        if not rounds or alpha is None:
            st.caption(TEXT("a_none"))
            return
        if tree:
            show_tree_rounds(trace, rounds)
            if undrafted or ended:
                st.caption(TEXT("a_left_out", undrafted=undrafted, ended=ended))
            return
        observed, expected = observed_and_expected(rounds, alpha)
        labels = {key: TEXT.plain("a_" + key) for key in ("observed", "accepted", "rounds")} | {"law": TEXT.plain("a_law", alpha=alpha)}
        chart(st, accepted_figure(observed, expected, labels), key="accepted_chart")
        st.caption(TEXT("a_caption", n=len(rounds), alpha=alpha))
        if undrafted or ended:
            st.caption(TEXT("a_left_out", undrafted=undrafted, ended=ended))


def show_tree_rounds(trace: Trace, rounds: list[Round]) -> None:
    """A tree run's rounds by tokens written, its trees' depth, and each depth's passes beside its first variants'."""
    written = written_per_round(rounds)
    labels = {key: TEXT.plain("a_" + key) for key in ("observed", "rounds")} | {"accepted": TEXT.plain("a_written")}
    chart(st, accepted_figure(written, None, labels, first=1), key="accepted_chart")
    st.caption(TEXT("a_caption_tree", n=len(rounds), depth=len(written) - 1, most=len(written)))
    depths = TEXT.plain("a_depth_sep").join(TEXT.plain("a_depth", **counts) for counts in depth_counts(trace, rounds))
    st.caption(TEXT("a_depths", depths=depths))
