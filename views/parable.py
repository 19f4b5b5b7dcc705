"""The parable (home): five short acts, an epilogue and a coda, each linked to the page that performs it on a real run."""
import streamlit as st

from ui.parable.quiz import CODA, answer_key, check_yourself
from ui.parable.scenarios import open_scenario, scenario_buttons
from ui.parable.texts import MAPPING, TEXT
from ui.shared.i18n import language
from ui.shared.models import cached_pair
from ui.shared.pages import page_title

ACTS = {  # act -> the pages that show it on real models; (page, scenario): opened on the moment the act teaches
    1: ["speed_lab"],
    2: ["scriptorium"],
    3: [("scriptorium", "correction")],  # the red brush: the first correction of a run that has one
    4: ["iron_rule", ("proof", "broken")],  # a broken rule with the scribe that catches it
    5: ["speed_lab"],
}


def page_links(pages: list, act: int | str = "", choice=None) -> None:
    """Links to the pages that show a part on real models, in a row that wraps: each label whole, never cut. A
    (page, scenario) opens its page through the scenario (ui/parable/scenarios.py), on the moment it teaches."""
    row = st.container(horizontal=True, wrap=True)
    for entry in pages:
        name, scenario = entry if isinstance(entry, tuple) else (entry, None)
        label = f"{TEXT('see')} {page_title(name)}"
        if scenario is None:
            row.page_link(f"views/{name}.py", label=label, icon="🖌️", width="content")
        elif row.button(label, icon="🖌️", key=f"act{act}_{scenario}", help=TEXT(f"scenario_{scenario}_help"),
                        disabled=choice is None):
            open_scenario(scenario, choice.pair, list(cached_pair(choice.pair, choice.device).drafts))


st.title(TEXT("title"))
st.write(TEXT("subtitle"))
if st.button(TEXT("start"), type="primary"):
    st.session_state["moment"] = 1  # the scriptorium opens on the first draft of its run
    st.switch_page("views/scriptorium.py")
choice = st.session_state.get("choice")
scenario_buttons(choice.pair if choice else "", list(cached_pair(choice.pair, choice.device).drafts) if choice else [])
for act, pages in ACTS.items():
    with st.container(border=True):
        st.subheader(TEXT(f"act{act}_title"))
        st.write(TEXT(f"act{act}"))
        st.caption(TEXT(f"act{act}_is"))
        page_links(pages, act, choice)
        check_yourself(act)
        answer_key(act)
with st.container(border=True):  # the scribe who reads the master's notes: the feature-level draft every serving engine uses
    st.subheader(TEXT("epilogue_title"))
    st.write(TEXT("epilogue"))
    st.caption(TEXT("epilogue_is"))
    page_links(["speed_lab", "scriptorium"])
with st.container(border=True):  # the coda: variants in the margin, a drafted tree verified in one glance
    st.subheader(TEXT("coda_title"))
    st.write(TEXT("coda"))
    st.caption(TEXT("coda_is"))
    page_links(["iron_rule", "proof", "speed_lab"])
    check_yourself(CODA)
    answer_key(CODA)
st.subheader(TEXT("mapping"))
lang = language()
st.table({TEXT("story"): [story[lang] for story, _ in MAPPING], TEXT("algorithm"): [algo[lang] for _, algo in MAPPING]})
st.caption(TEXT("cite"))
