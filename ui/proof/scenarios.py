"""The proof page's scenarios (specdec_core/decoding/proof_scenarios.py) on the sidebar: whether its run is one,
and the button's callback that opens one."""
from __future__ import annotations

import streamlit as st

from specdec_core.decoding.proof_scenarios import Scenario


def in_scenario(choice, scenario: Scenario, prompt: str) -> bool:
    """Whether the sidebar's run is the scenario's: its scribe, k and temperature on the prompt it was found on
    (the pair's first example), no shaky hand, no top-p."""
    settings = choice.settings
    return (choice.scribe, choice.prompt, settings.k, settings.sampling.temperature, settings.noise,
            settings.sampling.top_p) == (scenario.scribe, prompt, scenario.k, scenario.temperature, 0.0, 1.0)


def open_scenario(scenario: Scenario, prompt: str) -> None:
    """A button's callback: the sidebar takes the scenario's settings on the rerun that follows."""
    st.session_state.update(scribe=scenario.scribe, prompt=prompt, k=scenario.k, temperature=scenario.temperature,
                            noise=0.0, top_p=1.0)
