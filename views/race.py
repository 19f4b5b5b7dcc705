"""賽跑 The race: the master alone and master with scribe write the same prompts against one clock."""
import streamlit as st

from specdec_core.pairs.pair import PairError
from specdec_core.settings import SettingsError
from ui.race.runs import lanes, race_run
from ui.race.texts import TEXT
from ui.race.track import show_race
from ui.shared.errors import explain
from ui.shared.i18n import utc_time
from ui.shared.measurements import latest, measured, recording_of
from ui.shared.persist import remembered
from ui.shared.sidebar import current_choice
from ui.shared.texts import TEXT as COMMON
from ui.shared.when import when_measured

choice, pair = current_choice()
st.title(TEXT("title"))
run = race_run(choice, pair.example_prompts)
st.write(TEXT("intro_tree" if choice.settings.tree else "intro", n_prompts=len(run.prompts)))  # a tree drafts a tree
left, middle, right = st.columns([1, 1, 2])
start = left.button(TEXT("start"), type="primary", key="race_start")
again = middle.button(TEXT("again"), key="race_again", help=TEXT("again_help"))
slow = right.select_slider(TEXT("slow"), [1, 2, 5, 10, 20], help=TEXT("slow_help"), **remembered("race_slow", 10))
# the server's latest measurement of these settings, else the shipped recording of them, else one made now
recording = None if again or latest(run) else recording_of(run)
try:
    if recording is not None and "replay" in recording.result:
        result = recording.result
    else:
        recording = None
        with st.spinner(COMMON("running")):
            result = measured(run, again=again)
except (PairError, SettingsError, ValueError) as error:
    st.error(COMMON("cannot_run", error=explain(error)))
    st.stop()
alone, together = lanes(result["replay"])
interval = result["speedup_interval_vs_fastest_plain"]
verdict = TEXT("verdict", x=result["speedup_vs_fastest_plain"], low=interval[0], high=interval[1], n=len(run.prompts),
               tokens=run.settings.max_new_tokens, prompt=result["replay"]["prompt"], fast=together.finish_s,
               slow=alone.finish_s)
show_race(alone, together, slow, start, verdict)
if recording is not None:
    st.info(COMMON("recorded", when=utc_time(recording.recorded_at), machine=recording.machine, command=recording.command))
else:
    st.caption(when_measured(result["measured_at"]))
st.caption(TEXT("note", device=result["device"], n=len(run.prompts), tokens=run.settings.max_new_tokens))
