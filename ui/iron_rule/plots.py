"""Plotly figures for the iron rule: p against q, the residual, the paths to a token, the Monte Carlo.

Pure builders: numbers and the reader's words in, a figure out; nothing here calls st.*.
`names` holds the legend and axis words, keyed as each builder's docstring says.
"""
from __future__ import annotations

from typing import Sequence

import plotly.graph_objects as go

from ui.shared.theme import INK, LIGHT_INK, VERMILION, on_paper

OVERLAP = "rgba(178, 34, 34, 0.30)"  # min(p, q): where the scribe's hand and the master's agree
PALE_RED = "rgba(178, 34, 34, 0.45)"

Numbers = Sequence[float]


def overlap_figure(labels: Sequence[str], p: Numbers, q: Numbers, names: dict[str, str]) -> go.Figure:
    """Bars of p and q side by side; the part of each bar below min(p, q) is shaded, and sums to alpha.

    names: "p", "q", "overlap", "axis".
    """
    overlap = [min(a, b) for a, b in zip(p, q)]
    figure = go.Figure()
    for who, values, colour in (("p", p, INK), ("q", q, LIGHT_INK)):
        # one offsetgroup per model: the shaded overlap with the rest of the bar stacked on top of it
        figure.add_bar(x=labels, y=overlap, offsetgroup=who, marker_color=OVERLAP, name=names["overlap"],
                       marker_line=dict(color=colour, width=1.5), legendgroup="overlap", showlegend=who == "p",
                       hovertemplate="%{y:.3f}")
        figure.add_bar(x=labels, y=[v - o for v, o in zip(values, overlap)], base=overlap, offsetgroup=who,
                       marker_color=colour, name=names[who], customdata=list(values), hovertemplate="%{customdata:.3f}")
    figure.update_layout(barmode="group", yaxis_title=names["axis"], yaxis_rangemode="tozero")
    return on_paper(figure)


def residual_figure(labels: Sequence[str], excess: Numbers, r: Numbers, names: dict[str, str]) -> go.Figure:
    """max(0, p - q) before and after normalising: the distribution the red brush draws from.

    names: "excess", "r", "axis".
    """
    figure = bars(labels, [(excess, names["excess"], PALE_RED), (r, names["r"], VERMILION)], ".3f")
    figure.update_layout(barmode="group", yaxis_title=names["axis"], yaxis_rangemode="tozero")
    return on_paper(figure)


def paths_figure(labels: Sequence[str], sealed: Numbers, corrected: Numbers, p: Numbers,
                 names: dict[str, str]) -> go.Figure:
    """The two ways a token gets written, stacked: sealed min(p, q) plus corrected max(0, p - q), against p.

    names: "sealed", "corrected", "p", "axis".
    """
    paths = [(sealed, names["sealed"], OVERLAP), (corrected, names["corrected"], VERMILION)]
    return stacked_paths_figure(labels, paths, p, names)


def two_variant_paths_figure(labels: Sequence[str], first: Numbers, second: Numbers, brush: Numbers, p: Numbers,
                             names: dict[str, str]) -> go.Figure:
    """The three ways a token gets written from two variants, stacked against p: the first kept, the second kept,
    the master's brush after both are rejected.

    names: "first", "second", "brush", "p", "axis".
    """
    paths = [(first, names["first"], OVERLAP), (second, names["second"], PALE_RED), (brush, names["brush"], VERMILION)]
    return stacked_paths_figure(labels, paths, p, names)


def stacked_paths_figure(labels: Sequence[str], paths: list[tuple[Numbers, str, str]], p: Numbers,
                         names: dict[str, str]) -> go.Figure:
    """Each path's (values, legend name, colour) stacked as bars, with p marked above: the stack reaches it.

    names: "p", "axis".
    """
    figure = bars(labels, paths, ".3f")
    figure.add_scatter(x=labels, y=list(p), name=names["p"], mode="markers", hovertemplate="%{y:.3f}",
                       marker=dict(color=INK, size=16, symbol="line-ew", line=dict(width=4, color=INK)))
    figure.update_layout(barmode="stack", yaxis_title=names["axis"], yaxis_rangemode="tozero")
    return on_paper(figure)


def convergence_figure(ns: Sequence[int], tv_rule: Numbers, tv_alone: Numbers, names: dict[str, str]) -> go.Figure:
    """Total variation distance to p against the number of draws (log axes), the rule beside the master alone.

    names: "rule", "alone", "x", "y".
    """
    figure = go.Figure()
    figure.add_scatter(x=list(ns), y=list(tv_alone), name=names["alone"], mode="lines",
                       line=dict(color=LIGHT_INK, width=3, dash="dot"))
    figure.add_scatter(x=list(ns), y=list(tv_rule), name=names["rule"], mode="lines+markers",
                       line=dict(color=VERMILION, width=3), marker=dict(size=5))
    figure.update_layout(xaxis_type="log", yaxis_type="log", xaxis_title=names["x"], yaxis_title=names["y"])
    return on_paper(figure)


def histogram_figure(labels: Sequence[str], written: Numbers, p: Numbers, q: Numbers,
                     names: dict[str, str]) -> go.Figure:
    """The share of each token among the rule's outputs, beside p and q.

    names: "written", "p", "q", "axis".
    """
    series = [(written, names["written"], VERMILION), (p, names["p"], INK), (q, names["q"], LIGHT_INK)]
    figure = bars(labels, series, ".4f")
    figure.update_layout(barmode="group", yaxis_title=names["axis"], yaxis_rangemode="tozero")
    return on_paper(figure)


def bars(labels: Sequence[str], series: list[tuple[Numbers, str, str]], digits: str) -> go.Figure:
    """A figure with one bar trace per (values, legend name, colour), hovering the value to `digits`."""
    figure = go.Figure()
    for values, name, colour in series:
        figure.add_bar(x=labels, y=list(values), name=name, marker_color=colour, hovertemplate=f"%{{y:{digits}}}")
    return figure

