"""賽跑 The race: the master alone and master with scribe write the same prompt against one clock."""
import streamlit as st

from specdec_core.algorithm.trace import Trace
from specdec_core.pairs.pair import PairError
from specdec_core.settings import SettingsError
from ui.race.runs import cached_race
from ui.race.texts import TEXT
from ui.race.track import show_race
from ui.shared.errors import explain
from ui.shared.persist import remembered
from ui.shared.sidebar import current_choice
from ui.shared.texts import TEXT as COMMON

choice, pair = current_choice()
st.title(TEXT("title"))
st.write(TEXT("intro"))
heat = st.session_state.setdefault("race_heat", 0)
left, middle, right = st.columns([1, 1, 2])
start = left.button(TEXT("start"), type="primary", key="race_start")
if middle.button(TEXT("again"), key="race_again"):
    st.session_state["race_heat"] = heat = heat + 1
slow = right.select_slider(TEXT("slow"), [1, 2, 5, 10, 20], help=TEXT("slow_help"), **remembered("race_slow", 10))
try:
    with st.spinner(COMMON("running")):
        plain_json, speculative_json = cached_race(choice.pair, choice.device, choice.scribe, choice.prompt,
                                                   choice.settings, heat)
except (PairError, SettingsError) as error:
    st.error(COMMON("cannot_run", error=explain(error)))
    st.stop()
plain, speculative = Trace.from_json(plain_json), Trace.from_json(speculative_json)
show_race(plain, speculative, slow, start)
st.caption(TEXT("note", device=plain.settings.get("device", "?"), tokens=choice.settings.max_new_tokens))
