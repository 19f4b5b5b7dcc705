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
