"""賽跑 The race: the master alone and master with scribe write the same prompt against one clock."""
import time

import streamlit as st

from specdec_core.algorithm.trace import Trace
from specdec_core.pairs.pair import PairError
from specdec_core.settings import SettingsError
from ui.race.runs import cached_race
from ui.race.summary import clock_time, finish_s, minutes_ago, summarize_race
from ui.race.texts import TEXT
from ui.race.track import show_race
from ui.shared.errors import explain
from ui.shared.persist import remembered
from ui.shared.sidebar import current_choice
from ui.shared.texts import TEXT as COMMON

choice, pair = current_choice()
st.title(TEXT("title"))
st.write(TEXT("intro_tree" if choice.settings.tree else "intro"))  # a tree run drafts a tree, not a line
heat = st.session_state.setdefault("race_heat", 0)
left, middle, right = st.columns([1, 1, 2])
start = left.button(TEXT("start"), type="primary", key="race_start")
if middle.button(TEXT("again"), key="race_again"):
    # a number no session has used: the cache is the server's, and another session's "again" must not answer this one
    st.session_state["race_heat"] = heat = time.time_ns()
slow = right.select_slider(TEXT("slow"), [1, 2, 5, 10, 20], help=TEXT("slow_help"), **remembered("race_slow", 10))
try:
    with st.spinner(COMMON("running")):
        race = cached_race(choice.pair, choice.device, choice.scribe, choice.prompt, choice.settings, heat)
except (PairError, SettingsError) as error:
    st.error(COMMON("cannot_run", error=explain(error)))
    st.stop()
plains, speculatives = [[Trace.from_json(t) for t in race[way]] for way in ("plain", "speculative")]
summary = summarize_race(plains, speculatives)
plain, speculative = plains[summary.shown], speculatives[summary.shown]
verdict = TEXT("verdict", x=summary.median, runs=len(summary.ratios), low=summary.low, high=summary.high,
               n_fast=len(speculative.tokens), fast=finish_s(speculative), n_slow=len(plain.tokens), slow=finish_s(plain))
show_race(plain, speculative, slow, start, verdict)
ago = minutes_ago(race["measured_at"])
st.caption(TEXT("note", clock=clock_time(race["measured_at"]), ago=TEXT("ago_minutes", n=ago) if ago else TEXT("ago_now"),
                device=plain.settings.get("device", "?"), runs=len(summary.ratios), tokens=choice.settings.max_new_tokens))
