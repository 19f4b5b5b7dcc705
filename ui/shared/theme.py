"""Ink and vermilion on paper, readable on a classroom projector (the theme is in .streamlit/config.toml)."""
import streamlit as st

INK, VERMILION, PAPER, LIGHT_INK = "#1b1b1b", "#b22222", "#f6f0e1", "#9a9184"  # as in the theme

# Large type scales the root size, so every rem-sized margin grows with it: the main column's 5rem sides
# shrink to 2rem, or a row of five buttons has no room for its words. Prose grows a further quarter; a
# widget's own words do not (the rule for prose reaches every Markdown paragraph, metric values and button
# labels included, which made a counter's value no larger than its label and broke "上一/步").
_LARGE = """
<style>
html, body, [data-testid="stAppViewContainer"] { font-size: 22px; }
[data-testid="stMainBlockContainer"] { padding-left: 2rem; padding-right: 2rem; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li { font-size: 1.25rem; }
[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"] p { font-size: 0.9rem; }
[data-testid="stMetricValue"] { font-size: 2.6rem; }
[data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p { font-size: inherit; }
button [data-testid="stMarkdownContainer"] p { font-size: 0.9rem; word-break: keep-all; }
[data-testid="stButton"] button { padding-left: 0.4rem; padding-right: 0.4rem; }
button kbd { font-size: 0.55rem; margin-left: 0; }
[data-testid="stSidebarNavLink"] [data-testid="stMarkdownContainer"] { white-space: normal; overflow: visible; }
[data-testid="stSidebarNavLink"] [data-testid="stMarkdownContainer"] p { font-size: 1rem; word-break: keep-all; }
.js-plotly-plot .main-svg text { font-size: 18px !important; }
</style>
"""
# Presenter mode: the sidebar and the header fold away, a strip of page links takes the top line, and the
# scriptorium's story, sheet, buttons and counters fit a 1280 x 720 projector (tests/test_browser_presenter.py).
_PRESENTER = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"] { display: none; }
[data-testid="stMainBlockContainer"] { padding: 0.4rem 1.5rem 1rem; max-width: 100%; }
[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.6rem; }
[data-testid="stAlert"] [data-testid="stMarkdownContainer"] p { font-size: 1.1rem; }
[data-testid="stMetricValue"] { font-size: 2rem; }
button [data-testid="stMarkdownContainer"] p { font-size: 1rem; }
.st-key-presenter_strip { gap: 0.2rem 0.9rem; }
.st-key-presenter_strip [data-testid="stMarkdownContainer"] p { font-size: 0.75rem; white-space: nowrap; }
.st-key-presenter_strip a, .st-key-presenter_strip button { min-height: 0; padding-top: 0; padding-bottom: 0; }
.sheet { --sheet-size: 2.4rem; }
/* a long run's sheet (SmolLM2's words) would push the buttons and counters below 720 px: it scrolls in a window
   that opens at its newest line (column-reverse anchors the scroll at the bottom) */
.sheet-window { display: flex; flex-direction: column-reverse; max-height: 36vh; overflow-y: auto; }
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
