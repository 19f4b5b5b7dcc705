"""One-click scenarios for a class: each sets the sidebar and opens the page that shows it.

A scenario is one line of data: the page, the rung of the ladder (a name in RUNGS), the step to open on, and the
settings it changes; the temperature goes back to the pair's own unless the scenario names one (after
"greedy"), and everything else stays as the sidebar has it.
"""
from __future__ import annotations

import streamlit as st

from specdec_core.decoding.proof_scenarios import scenario_for
from specdec_core.pairs.registry import run_defaults
from ui.parable.texts import TEXT

RUNGS = {"poorest": 0, "next-best": -2, "best": -1}  # places on the ladder, which runs poorest first
SCENARIOS = {
    "good": dict(page="scriptorium", rung="best", noise=0.0),
    # the best scribe seals whole lines; the one below it seals a few, then the red brush falls
    "correction": dict(page="scriptorium", rung="next-best", noise=0.0, land_on="correction"),
    "poor": dict(page="scriptorium", rung="poorest", noise=0.0),
    "shaky": dict(page="scriptorium", rung="best", noise=0.6),
    "greedy": dict(page="scriptorium", rung="best", noise=0.0, temperature=0.0),
    # a broken rule in the scenario that catches it (decoding/proof_scenarios.py); the poorest scribe where the
    # pair has none
    "broken": dict(page="proof", rung="poorest", noise=0.0, proof_rule="resample-p"),
}


def scenario_buttons(pair: str, ladder: list[str]) -> None:
    """A row of buttons, one a scenario; a click sets the sidebar and opens the page."""
    st.subheader(TEXT("scenarios"))
    chosen = None
    for column, name in zip(st.columns(len(SCENARIOS)), SCENARIOS):
        if column.button(TEXT(f"scenario_{name}"), help=TEXT(f"scenario_{name}_help"), key=f"scenario_{name}",
                         width="stretch", disabled=not ladder):
            chosen = name
    if chosen:
        open_scenario(chosen, pair, ladder)


def open_scenario(name: str, pair: str, ladder: list[str]) -> None:
    settings = {"temperature": run_defaults(pair).temperature} | SCENARIOS[name]
    page, rung = settings.pop("page"), settings.pop("rung")
    place = RUNGS[rung]
    st.session_state["scribe"] = ladder[max(place, -len(ladder))]  # a short ladder: its poorest
    st.session_state.update(settings, moment=1)  # land_on: the stepper opens on the first correction
    caught = scenario_for(pair, settings.get("proof_rule", ""))
    if caught is not None and caught.scribe in ladder:  # the proof page's own scenario for its rule
        st.session_state.update(scribe=caught.scribe, k=caught.k, temperature=caught.temperature, top_p=1.0)
    st.switch_page(f"views/{page}.py")
