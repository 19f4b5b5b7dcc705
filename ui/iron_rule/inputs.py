"""The iron rule page's two ways to choose a position: an editable toy table, or a place in the sidebar's run."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from specdec_core.decoding.one_position import Position
from specdec_core.pairs.pair import PairError
from specdec_core.settings import SettingsError
from ui.iron_rule import runs
from ui.iron_rule.texts import TEXT
from ui.shared.errors import explain
from ui.shared.scribes import scribe_label
from ui.shared.texts import TEXT as COMMON


def toy_position() -> Position:
    """The table as the teacher edits it; a table that is not two distributions keeps the last good one."""
    st.caption(TEXT("toy_help", low=runs.MIN_TOKENS, high=runs.MAX_TOKENS))
    columns = {
        "token": st.column_config.TextColumn(TEXT("col_token")),
        "p": st.column_config.NumberColumn(TEXT("col_p")),
        "q": st.column_config.NumberColumn(TEXT("col_q")),
    }
    table = st.data_editor(runs.TOY, key="iron_toy", num_rows="dynamic", hide_index=True, column_config=columns)
    try:
        position = runs.toy_position(table)
    except runs.ToyTableError as error:
        values = error.values | ({"column": TEXT(f"col_{error.values['column']}")} if "column" in error.values else {})
        st.error(TEXT(error.key, **values) + " " + TEXT("toy_kept"))
        return runs.toy_position(pd.DataFrame(st.session_state.get("iron_toy_good", runs.TOY)))
    st.session_state["iron_toy_good"] = table.to_dict("list")  # what the page falls back on
    return position


def real_position(choice) -> Position:
    """A position of the sidebar's run, chosen with a slider; the page stops politely where there is none."""
    run = (choice.pair, choice.device, choice.scribe, choice.prompt, choice.settings)
    try:
        with st.spinner(COMMON("running")):
            _, tokens = runs.real_run_tokens(*run)
    except (PairError, SettingsError) as error:
        st.error(COMMON("cannot_run", error=explain(error)))
        st.stop()
    last = len(tokens) - 1
    if st.session_state.get("iron_position", 0) > last:  # a shorter run than the slider remembers
        st.session_state["iron_position"] = last
    at = st.slider(TEXT("position"), 0, last, key="iron_position") if last > 0 else 0
    position = runs.real_position(*run, at)
    st.write(TEXT("context", context=position.context, written=position.written))
    if position.draft_logits is None:
        st.warning(TEXT("no_proposal", scribe=scribe_label(choice.scribe)))
        st.stop()
    sampling = choice.settings.sampling
    st.caption(TEXT("real_caption", temperature=sampling.temperature, top_p=sampling.top_p,
                    noise=choice.settings.noise, vocab=position.vocab_size))
    return position
