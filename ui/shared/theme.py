"""Ink and vermilion on paper, readable on a classroom projector (the theme is in .streamlit/config.toml)."""
import streamlit as st

INK, VERMILION, PAPER, LIGHT_INK = "#1b1b1b", "#b22222", "#f6f0e1", "#9a9184"  # as in the theme

_LARGE = """
<style>
html, body, [data-testid="stAppViewContainer"] { font-size: 22px; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li { font-size: 1.25rem; }
[data-testid="stMetricValue"] { font-size: 2.6rem; }
.js-plotly-plot .main-svg text { font-size: 18px !important; }
</style>
"""
# Presenter mode: the sidebar and the header fold away and the page starts at the top of the screen.
_PRESENTER = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"] { display: none; }
[data-testid="stMainBlockContainer"] { padding-top: 0.8rem; padding-bottom: 1rem; max-width: 100%; }
.sheet { --sheet-size: 2.4rem; }
</style>
"""


def apply_look(large: bool, presenter: bool = False) -> None:
    if large or presenter:
        st.html(_LARGE)
    if presenter:
        st.html(_PRESENTER)


# Every chart's camera button saves an SVG, which prints sharply on a handout at any size.
HANDOUT = {"toImageButtonOptions": {"format": "svg", "filename": "scriptorium-chart"}, "displaylogo": False}


def chart(where, figure, **kwargs) -> None:
    """Draw a figure in `where` (st, a column, a container) with the handout export."""
    where.plotly_chart(figure, config=HANDOUT, **kwargs)


def on_paper(figure):
    """A plotly figure in the house look: paper background, serif CJK type, legend on top."""
    figure.update_layout(paper_bgcolor="rgba(0,0,0,0)", plot_bgcolor=PAPER, margin=dict(l=10, r=10, t=30, b=10),
                         legend=dict(orientation="h", y=1.15), font=dict(family="Noto Serif CJK TC, serif", color=INK))
    return figure
