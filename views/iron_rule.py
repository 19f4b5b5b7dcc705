"""鐵律 The iron rule: one position, p against q, one variant or two, the rule run many times until it reproduces p."""
import streamlit as st

from specdec_core.decoding.one_position import distributions
from ui.iron_rule import inputs, sections
from ui.iron_rule.texts import TEXT
from ui.shared.persist import remembered
from ui.shared.sidebar import current_choice
from ui.shared.texts import TEXT as COMMON

choice, pair = current_choice()
st.title(TEXT("title"))
st.write(TEXT("story"))
sections.rule_in_symbols()
# option names are looked up now, in this run's language (a format_func may be called after the run)
modes = {mode: TEXT(f"mode_{mode}") for mode in ("toy", "real")}
mode = st.radio(TEXT("mode"), list(modes), format_func=modes.get, horizontal=True, **remembered("iron_mode", "toy"))
counts = {1: TEXT("variants_one"), 2: TEXT("variants_two")}
variants = st.radio(TEXT("variants"), list(counts), format_func=counts.get, horizontal=True,
                    **remembered("iron_variants", 1))
if mode == "real" and choice.settings.tree:  # the run's text is the tree run's; the page's variants are its own
    st.caption(COMMON("tree_not_on_iron_rule", shape=choice.settings.tree))
position = inputs.toy_position() if mode == "toy" else inputs.real_position(choice)
dists = distributions(position)
shown = sections.Shown(position, dists)
sections.p_against_q(position, dists, shown)
if variants == 2:
    sections.two_variants(dists, shown)
poorest = next(iter(pair.drafts))  # the ladder runs poorest first
offer = poorest if mode == "real" and choice.scribe != poorest else None  # toy mode has no scribe to change
sections.rule_run_many_times(position, dists, shown, mode == "toy", choice.settings.seed, offer, variants)
