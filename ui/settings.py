"""The shared sidebar: every setting that defines a run, bound to the URL so a link reopens it."""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from specdec_core.engine import DecodeSettings
from specdec_core.pairs import ModelPair, PairError
from specdec_core.sampling import SamplingConfig
from ui.i18n import LANGUAGES
from ui.loading import cached_pair, device_names, pair_names
from ui.texts.common import TEXT

URL = "query-params"  # Streamlit keeps a bound widget's value in the address bar


@dataclass(frozen=True)
class RunChoice:
    """What the sidebar chose: enough to reproduce a run exactly."""

    pair: str
    device: str
    scribe: str
    prompt: str
    settings: DecodeSettings


def shared_sidebar() -> RunChoice | None:
    """Render the sidebar; the choice (None when the pair cannot load) also goes to session state."""
    bar = st.sidebar
    bar.radio(TEXT("language"), list(LANGUAGES), format_func=LANGUAGES.get, key="language", horizontal=True, bind=URL)
    bar.toggle(TEXT("large_type"), key="large", bind=URL)
    bar.subheader(TEXT("settings"))
    pair_name = bar.selectbox(TEXT("pair"), pair_names(), key="pair", bind=URL)
    with bar.expander(TEXT("advanced")):
        device = st.selectbox(TEXT("device"), device_names(), key="device", bind=URL)
        max_new = st.slider(TEXT("max_new"), 8, 128, 48, key="max_new", bind=URL)
    pair = _load(pair_name, device)
    choice = _run_widgets(bar, pair, pair_name, device, max_new) if pair else None
    st.session_state["choice"] = choice
    bar.caption(TEXT("share"))
    return choice


def current_choice() -> tuple[RunChoice, ModelPair]:
    """For pages: the sidebar's choice and its loaded pair, or a polite stop when there is none."""
    choice = st.session_state.get("choice")
    if choice is None:
        st.info(TEXT("no_pair"))
        st.stop()
    return choice, cached_pair(choice.pair, choice.device)


def _load(pair_name: str, device: str) -> ModelPair | None:
    try:
        with st.spinner(TEXT("loading_pair")):
            return cached_pair(pair_name, device)
    except (PairError, OSError) as error:
        st.sidebar.error(TEXT("cannot_load", error=error))
        return None


def _run_widgets(bar, pair: ModelPair, pair_name: str, device: str, max_new: int) -> RunChoice:
    ladder = list(pair.scribes)
    if st.session_state.get("scribe") not in ladder:  # a new pair has its own ladder
        st.session_state["scribe"] = pair.default_scribe
    scribe = bar.select_slider(TEXT("scribe"), ladder, key="scribe", help=TEXT("scribe_help"), bind=URL)
    noise = bar.slider(TEXT("noise"), 0.0, 1.0, 0.0, 0.05, key="noise", help=TEXT("noise_help"), bind=URL)
    k = bar.slider(TEXT("k"), 1, 12, 4, key="k", bind=URL)
    temperature = bar.slider(TEXT("temperature"), 0.0, 2.0, 1.0, 0.05, key="temperature", bind=URL)
    top_p = bar.slider(TEXT("top_p"), 0.05, 1.0, 1.0, 0.05, key="top_p", bind=URL)
    seed = bar.number_input(TEXT("seed"), 0, 2**31 - 1, 0, key="seed", bind=URL)
    if not st.session_state.get("prompt"):
        st.session_state["prompt"] = pair.example_prompts[0] if pair.example_prompts else ""
    prompt = bar.text_input(TEXT("prompt"), key="prompt", bind=URL)
    bar.pills(TEXT("examples"), pair.example_prompts, key="example", on_change=_use_example)
    sampling = SamplingConfig(temperature=temperature, top_k=0, top_p=top_p)
    settings = DecodeSettings(k=k, sampling=sampling, seed=int(seed), max_new_tokens=max_new, noise=noise)
    return RunChoice(pair_name, device, scribe, prompt, settings)


def _use_example() -> None:
    if st.session_state.get("example"):
        st.session_state["prompt"] = st.session_state["example"]
        st.session_state["example"] = None
