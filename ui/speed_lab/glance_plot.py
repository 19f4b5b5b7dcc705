"""The glance chart: the master's forward time against the positions it checks, beside the weights' read time.

A pure builder of a measurement (specdec_core.services.glance), never calling st.*; labels arrive as arguments.
"""
from __future__ import annotations

import plotly.graph_objects as go

from specdec_core.services.glance import GlanceTimes
from ui.shared.theme import INK, LIGHT_INK, VERMILION
from ui.speed_lab.plots import _paper_look, top_with_headroom

FLAT = 1.5  # a 32-position forward within 1.5 times a 1-position one reads as "about the same"


def glance_figure(times: GlanceTimes, checked: int | None, labels: dict[str, str]) -> go.Figure:
    """The fastest forward time per size (its floor) with a bar up to the slowest; the weights' read time as a dashed
    line; the sidebar's round (k + 1 positions) as a dotted mark when it is among the sizes' range. The y axis
    starts at zero, so a flat line looks flat and not magnified."""
    fig = go.Figure()
    sizes, fastest = list(times.sizes), list(times.low_ms)
    spread = dict(type="data", symmetric=False, array=[h - f for h, f in zip(times.high_ms, fastest)],
                  arrayminus=[0.0] * len(sizes), color=LIGHT_INK)
    fig.add_scatter(x=sizes, y=fastest, error_y=spread, mode="lines+markers", name=labels["forward"], line=dict(color=INK, width=3))
    ends = [0.5, sizes[-1] + 0.5]
    fig.add_scatter(x=ends, y=[times.read_weights_ms] * 2, mode="lines", name=labels["weights"], line=dict(color=LIGHT_INK, dash="dash"))
    if checked is not None and sizes[0] <= checked <= sizes[-1]:
        fig.add_vline(x=checked, line=dict(color=VERMILION, dash="dot"), annotation_text=labels["round"], annotation_position="top")
    fig.update_xaxes(title=labels["positions"], range=ends, tickvals=sizes)
    fig.update_yaxes(title=labels["ms"], range=[0, top_with_headroom(list(times.high_ms) + [times.read_weights_ms])])
    return _paper_look(fig, labels["title"])


def glance_verdict(times: GlanceTimes) -> str:
    """Which sentence the measurement supports: 'flat', 'rising' (still cheaper than separate forwards) or 'costly'."""
    last = times.sizes[-1]
    ratio = times.ratio(last)
    if ratio <= FLAT:
        return "flat"
    return "rising" if ratio < last else "costly"
