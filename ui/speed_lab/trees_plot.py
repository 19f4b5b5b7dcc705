"""The chain-against-tree chart: a glance's cost by the positions it checks, with the two runs' rounds on it.

A pure builder (never calling st.*); labels arrive as arguments.
"""
from __future__ import annotations

import plotly.graph_objects as go

from specdec_core.services.glance import GlanceTimes
from ui.shared.theme import INK, LIGHT_INK, VERMILION
from ui.speed_lab.plots import _paper_look, top_with_headroom


def glance_points(glance: GlanceTimes, most: int) -> tuple[list[int], list[float]]:
    """Sizes 1, 2, 4, … up to the first at or past `most`, and `most` itself, each with its cost in one-position
    glances (fastest over fastest); sizes the measurement lacks are left out."""
    doubling, size = [], 1
    while size < most:
        doubling.append(size)
        size *= 2
    wanted = sorted(set(doubling) | {size, most})
    sizes = [n for n in wanted if n in glance.sizes]
    return sizes, [glance.ratio(n) for n in sizes]


def verify_cost_figure(points: tuple[list[int], list[float]], rounds: dict[str, tuple[float, float]],
                       labels: dict[str, str]) -> go.Figure:
    """The measured glance cost against positions as a line; each run's (mean positions a round, verify cost) as a
    marker: the chain's in ink, the tree's in vermilion. The y axis starts at zero, so a flat line looks flat."""
    fig = go.Figure()
    sizes, costs = points
    fig.add_scatter(x=sizes, y=costs, mode="lines+markers", name=labels["glance"], line=dict(color=LIGHT_INK, width=3))
    for name, colour, symbol in (("chain", INK, "circle"), ("tree", VERMILION, "diamond")):
        positions, cost = rounds[name]
        fig.add_scatter(x=[positions], y=[cost], mode="markers", name=labels[name],
                        marker=dict(color=colour, size=14, symbol=symbol))
    fig.update_xaxes(title=labels["positions"], type="log", tickvals=sizes)
    fig.update_yaxes(title=labels["cost"], range=[0, top_with_headroom(costs + [cost for _, cost in rounds.values()])])
    return _paper_look(fig, labels["title"])
