"""御筆樓 The scriptorium: one real run of speculative decoding, stepped through round by round."""
import streamlit as st

from specdec_core.algorithm.trace import Trace
from specdec_core.pairs.pair import PairError
from specdec_core.settings import SettingsError
from ui.archive.store import clear_replay, load_replay
from ui.scriptorium.accepted import show_accepted
from ui.scriptorium.stepper import show_run
from ui.scriptorium.texts import TEXT
from ui.shared.errors import explain
from ui.shared.runs import cached_run
from ui.shared.sidebar import adopt_run_settings, current_choice
from ui.shared.texts import TEXT as COMMON

choice, pair = current_choice()
presenter = st.session_state.get("presenter", False)
projected = presenter or st.session_state.get("large", False)  # large type is for a projector too
if not presenter:
    st.title(TEXT("title"))
if not projected:  # a projected class sees the story, the sheet and the buttons, not the page's preface
    st.write(TEXT("intro"))
trace = load_replay()  # a run from the archive, when the URL names one
if trace is not None and adopt_run_settings(trace, st.query_params.get("run", "")):
    st.rerun()  # the sidebar shows the replayed run's settings
if trace is not None:
    left, right = st.columns([3, 1])
    left.info(TEXT("replaying", id=st.query_params.get("run")))
    if right.button(TEXT("leave_replay")):
        clear_replay()
        st.rerun()
else:
    try:
        with st.spinner(COMMON("running")):
            trace_json = cached_run(choice.pair, choice.device, choice.scribe, choice.prompt, choice.settings)
        trace = Trace.from_json(trace_json)
    except (PairError, SettingsError) as error:
        st.error(COMMON("cannot_run", error=explain(error)))
        st.stop()
show_run(trace, projected, file_run=st.query_params.get("run") is None)  # a replay is in the archive already
show_accepted(trace)
