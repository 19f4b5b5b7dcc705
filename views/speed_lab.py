"""Page 5, the speed lab: measured alpha, c and verify cost, the speedup beside the theory's curve, alpha by drafted position, a k x temperature sweep, the glance timed, chain against tree."""
import streamlit as st

from ui.shared.sidebar import current_choice
from ui.speed_lab.glance import show_glance
from ui.speed_lab.runs import MEASURE_PROMPTS, SWEEP_PROMPTS
from ui.speed_lab.sections import show_measurement, show_sweep
from ui.speed_lab.texts import TEXT
from ui.speed_lab.trees import show_trees
from ui.speed_lab.trees_texts import TEXT as TREE_TEXT

choice, pair = current_choice()
st.title(TEXT("title"))
st.markdown(TEXT("intro"))
st.caption(TEXT("formula"))
if choice.settings.tree:
    st.info(TEXT("tree_chosen", shape=choice.settings.tree, section=TREE_TEXT("tv_header")))
if not pair.example_prompts:
    st.warning(TEXT("no_examples"))
    st.stop()
pressed = st.button(TEXT("measure"), key="measure", type="primary", help=TEXT("measure_help"))
show_measurement(choice, tuple(pair.example_prompts[:MEASURE_PROMPTS]), pressed)
show_sweep(choice, tuple(pair.example_prompts[:SWEEP_PROMPTS]))
show_glance(choice, pair.example_prompts[0])
show_trees(choice, tuple(pair.example_prompts[:MEASURE_PROMPTS]))
