"""Plotly figures for the scriptorium: one position's p and q, and the KV caches around a rollback."""
from __future__ import annotations

import plotly.graph_objects as go

from specdec_core.algorithm.trace import Candidate, Round
from ui.scriptorium.sheet import chart_piece
from ui.shared.theme import INK, LIGHT_INK, VERMILION, on_paper

OVERLAP = "rgba(178, 34, 34, 0.18)"  # min(p, q): the mass where the scribe and the master agree


def candidate_figure(candidates: list[Candidate], chosen: int, labels: dict[str, str], residual: bool,
                     faced: list[tuple[int, float]] | None = None) -> go.Figure:
    """Bars of p and q over the top candidates, min(p, q) shaded; the residual when it was drawn from.

    labels: names for "p", "q", "min", "r" in the reader's language (and "faced" where `faced` is given).
    faced: in a tree, (token, r(x)) of each variant tried at this depth: the residual each one was tested against.
    """
    x = [f"{chart_piece(c.piece)}{' ◀' if c.token == chosen else ''}" for c in candidates]
    figure = go.Figure()
    figure.add_bar(x=x, y=[min(c.p, c.q) for c in candidates], name=labels["min"], marker_color=OVERLAP, width=0.9)
    figure.add_bar(x=x, y=[c.p for c in candidates], name=labels["p"], marker_color=INK, width=0.3, offset=-0.3)
    figure.add_bar(x=x, y=[c.q for c in candidates], name=labels["q"], marker_color=LIGHT_INK, width=0.3, offset=0.0)
    if residual:
        figure.add_scatter(x=x, y=[c.r for c in candidates], name=labels["r"], mode="markers",
                           marker=dict(color=VERMILION, size=14, symbol="diamond"))
    if faced:
        at = {c.token: label for c, label in zip(candidates, x)}
        shown = [(at[token], value) for token, value in faced if token in at]
        figure.add_scatter(x=[label for label, _ in shown], y=[value for _, value in shown], name=labels["faced"],
                           mode="markers", marker=dict(color=VERMILION, size=12, symbol="x"))
    figure.update_layout(barmode="overlay", yaxis_title=labels["axis"], yaxis_rangemode="tozero")
    return on_paper(figure)


def cache_figure(r: Round, labels: dict[str, str], scribe_cache: bool = True) -> go.Figure:
    """Cached tokens of master and scribe before the glance, after it, and after the rollback; the master's
    alone when the scribe keeps no cache (its rows would be empty bars that look like a fault)."""
    rows, kept, dropped = [], [], []
    caches = [(labels["master"], r.target_cache)] + ([(labels["scribe"], r.draft_cache)] if scribe_cache else [])
    for who, cache in caches:
        before, after, rolled = cache
        for stage, length in ((labels["before"], before), (labels["after"], after)):
            rows.append(f"{who} · {stage}")
            kept.append(min(length, rolled) if stage == labels["after"] else length)
            dropped.append(max(length - rolled, 0) if stage == labels["after"] else 0)
        rows.append(f"{who} · {labels['rolled']}")
        kept.append(rolled)
        dropped.append(0)
    figure = go.Figure()
    figure.add_bar(y=rows, x=kept, orientation="h", name=labels["kept"], marker_color=INK, text=kept)
    figure.add_bar(y=rows, x=dropped, orientation="h", name=labels["dropped"], marker_color=VERMILION,
                   marker_pattern_shape="/", text=[d or "" for d in dropped])
    figure.update_layout(barmode="stack", xaxis_title=labels["axis"], yaxis_autorange="reversed", height=300)
    return on_paper(figure)

