"""Plotly figures for the proof: histograms beside the exact p, and TV shrinking as samples grow."""
from __future__ import annotations

from typing import Callable

import numpy as np
import plotly.graph_objects as go

from specdec_core.decoding.proof import ExactDistribution
from ui.scriptorium.sheet import chart_piece
from ui.shared.theme import INK, LIGHT_INK, VERMILION, on_paper

TOP = 15


def top_cells(exact: ExactDistribution, samples_by_who: dict[str, np.ndarray], piece: Callable[[int], str], top: int = TOP) -> dict:
    """The `top` most likely cells: their labels, exact p, and each stream's observed frequency."""
    order = np.argsort(-exact.probs)[:top]
    labels = [_cell_label(exact, cell, piece) for cell in order]
    freqs = {}
    for who, samples in samples_by_who.items():
        counts = exact.counts(samples[:, : exact.positions]) if len(samples) else np.zeros_like(exact.probs)
        freqs[who] = (counts[order] / max(len(samples), 1)).tolist()
    return {"labels": labels, "exact": exact.probs[order].tolist(), "freqs": freqs}


def histogram_figure(cells: dict, names: dict[str, str], axis: str) -> go.Figure:
    """Grouped bars per cell: exact p (ink), speculative (vermilion), plain (light ink)."""
    figure = go.Figure()
    figure.add_bar(x=cells["labels"], y=cells["exact"], name=names["exact"], marker_color=INK)
    colours = {"speculative": VERMILION, "plain": LIGHT_INK}
    for who, freqs in cells["freqs"].items():
        figure.add_bar(x=cells["labels"], y=freqs, name=names[who], marker_color=colours[who])
    figure.update_layout(barmode="group", yaxis_title=axis)
    return on_paper(figure)


def tv_history_figure(history: list[dict], names: dict[str, str], axes: tuple[str, str]) -> go.Figure:
    n = [h["n"] for h in history]
    figure = go.Figure()
    figure.add_scatter(x=n, y=[h["null"] for h in history], name=names["null"], line=dict(color=INK, dash="dot"))
    figure.add_scatter(x=n, y=[h["speculative"] for h in history], name=names["speculative"], line=dict(color=VERMILION, width=3))
    figure.add_scatter(x=n, y=[h["plain"] for h in history], name=names["plain"], line=dict(color=LIGHT_INK, width=3))
    figure.update_layout(xaxis_title=axes[0], yaxis_title=axes[1], yaxis_rangemode="tozero", height=320)
    return on_paper(figure)


def _cell_label(exact: ExactDistribution, cell: int, piece: Callable[[int], str]) -> str:
    if exact.positions == 1:
        return chart_piece(piece(int(cell)))
    first, second = divmod(int(cell), exact.vocab_size)
    return chart_piece(piece(int(exact.first_tokens[first]))) + chart_piece(piece(second))

