"""The words for the unit a run writes in, one token of its pair: 字 / character for the char-level pairs,
詞元 / token for BPE pairs. The sidebar keeps the chosen pair's unit; every text that counts what a run
wrote names it with a blank ({unit}, {units}, {Unit}, {Units}), filled in by Texts like the language."""
from __future__ import annotations

import streamlit as st

from specdec_core.pairs.registry import writing_unit

UNIT_KEY = "writing_unit"  # session state: "character" or "token", set by the sidebar on every run
UNIT_WORDS = {
    "character": {"zh": ("字", "字"), "en": ("character", "characters")},
    "token": {"zh": ("詞元", "詞元"), "en": ("token", "tokens")},
}
UNIT_FIELDS = ("unit", "units", "Unit", "Units")


def keep_unit_of(pair_name: str) -> None:
    """The sidebar's note of the unit the chosen pair (a registered name or "TARGET,DRAFT") writes in."""
    st.session_state[UNIT_KEY] = writing_unit(pair_name)


def unit_words(language: str, unit: str | None = None) -> dict[str, str]:
    """The unit's blanks in one language, for `unit` or else the chosen pair's. Before any pair is chosen (code
    run outside a page) the unit is "token", which is true of every pair: a poetry character is one of its tokens."""
    unit = unit or st.session_state.get(UNIT_KEY, "token")
    one, many = UNIT_WORDS.get(unit, UNIT_WORDS["token"])[language]
    return {"unit": one, "units": many, "Unit": one[:1].upper() + one[1:], "Units": many[:1].upper() + many[1:]}
