"""One real run of speculative decoding, coloured by the master's verdicts."""
import streamlit as st

from specdec_core.engine import DecodeSettings
from specdec_core.pairs import PairError
from specdec_core.sampling import SamplingConfig, SettingsError
from specdec_core.trace import Trace, summarize
from ui.loading import cached_pair, cached_run, device_names, pair_names
from ui.render import trace_html
from ui.words import word

lang = st.session_state.get("language", "zh")
st.title(word("title", lang))
st.write(word("intro", lang))
st.caption(word("placeholder", lang))

pair_name = st.sidebar.selectbox(word("pair", lang), pair_names())
device = st.sidebar.selectbox(word("device", lang), device_names())
with st.spinner("…"):
    pair = cached_pair(pair_name, device)
scribe = st.sidebar.selectbox(word("scribe", lang), list(pair.scribes), index=list(pair.scribes).index(pair.default_scribe))
k = st.sidebar.slider(word("k", lang), 1, 12, 4)
temperature = st.sidebar.slider(word("temperature", lang), 0.0, 2.0, 1.0, 0.05)
top_p = st.sidebar.slider(word("top_p", lang), 0.05, 1.0, 1.0, 0.05)
seed = st.sidebar.number_input(word("seed", lang), 0, 2**31 - 1, 0)
max_new = st.sidebar.slider(word("max_new", lang), 8, 128, 48)
prompt = st.text_input(word("prompt", lang), pair.example_prompts[0])

try:
    settings = DecodeSettings(k=k, seed=int(seed), max_new_tokens=max_new, sampling=SamplingConfig(temperature, 0, top_p))
    trace = Trace.from_json(cached_run(pair_name, device, scribe, prompt, settings))
except (PairError, SettingsError) as error:
    st.error(word("error", lang) + str(error))
    st.stop()

st.markdown(trace_html(trace), unsafe_allow_html=True)
st.caption(word("legend", lang))
summary = summarize(trace)
columns = st.columns(4)
columns[0].metric(word("tokens", lang), summary["tokens"])
columns[1].metric(word("forwards", lang), summary["target_forwards"])
columns[2].metric(word("per_forward", lang), f"{summary['tokens_per_target_forward']:.2f}")
columns[3].metric(word("alpha", lang), "—" if summary["alpha"] is None else f"{summary['alpha']:.2f}")
