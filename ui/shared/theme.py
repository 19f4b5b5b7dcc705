"""Ink and vermilion on paper, readable on a classroom projector (the theme is in .streamlit/config.toml)."""
import streamlit as st

INK, VERMILION, PAPER, LIGHT_INK = "#1b1b1b", "#b22222", "#f6f0e1", "#9a9184"  # as in the theme

_LARGE = """
<style>
html, body, [data-testid="stAppViewContainer"] { font-size: 22px; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li { font-size: 1.25rem; }
[data-testid="stMetricValue"] { font-size: 2.6rem; }
</style>
"""


def apply_look(large: bool) -> None:
    if large:
        st.html(_LARGE)


def on_paper(figure):
    """A plotly figure in the house look: paper background, serif CJK type, legend on top."""
    figure.update_layout(paper_bgcolor="rgba(0,0,0,0)", plot_bgcolor=PAPER, margin=dict(l=10, r=10, t=30, b=10),
                         legend=dict(orientation="h", y=1.15), font=dict(family="Noto Serif CJK TC, serif", color=INK))
    return figure
