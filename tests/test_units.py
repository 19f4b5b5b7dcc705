"""#36: the unit a run writes in follows its pair. The poetry and tiny pairs write one character per token;
SmolLM2 writes BPE tokens, and every label that counted "characters" (字) or "chars/s" (字／秒) was false for it."""
import re

import pytest
import streamlit as st
from app_pages import open_page

from specdec_core.pairs.registry import writing_unit
from ui.shared.units import UNIT_KEY
from ui.speed_lab.texts import TEXT as LAB

# The unit of the run, named the poetry pair's way: the labels, counters and sentences that count what a run wrote.
# 文字 (text), 數字 (number), 大字 (large type) and 朱字 (the red writing of the legend) are other words.
CHARACTER_UNIT = {"zh": re.compile(r"(?<![文數朱墨大])字(?!彙)"),
                  "en": re.compile(r"\bcharacters?\b|chars/s", re.IGNORECASE)}
# "control tokens" (the legend's marks for <s>, </s>…) are tokens in every pair
TOKEN_UNIT = {"zh": re.compile("詞元"), "en": re.compile(r"(?<!control )\btokens?\b", re.IGNORECASE)}


def test_each_pair_names_its_unit_in_one_place():
    assert [writing_unit(name) for name in ("poetry", "tiny", "smollm2")] == ["character", "character", "token"]
    assert writing_unit("smollm2-360m,smollm2-135m") == "token"  # two models of a teacher's own: BPE tokens


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_text_names_the_chosen_pairs_unit(language):
    st.session_state["language"] = language
    try:
        st.session_state[UNIT_KEY] = "token"
        token = LAB("m_tps_spec")
        st.session_state[UNIT_KEY] = "character"
        character = LAB("m_tps_spec")
    finally:
        st.session_state.pop(UNIT_KEY, None)
        st.session_state.pop("language", None)
    expected = {"zh": ("協寫：詞元／秒", "協寫：字／秒"), "en": ("With scribe: tokens/s", "With scribe: characters/s")}
    assert (token, character) == expected[language]
    assert LAB.plain("times", x=2.0) == "2.00×"  # a text without the unit is filled as before


def shown(app) -> list[str]:
    """The words a reader sees on the page and in the sidebar: labels, counters, captions, messages."""
    labelled = [*app.metric, *app.slider, *app.select_slider, *app.expander, *app.toggle, *app.button]
    texts = [e.label for e in labelled] + [m.value for m in app.metric]
    for kind in (app.markdown, app.caption, app.info, app.success, app.warning):
        texts += [e.value for e in kind]
    return [t for t in texts if isinstance(t, str)]


def measured(app):
    """The speed lab's counters: a recorded measurement where the pair has one, else measured now (short)."""
    if not app.metric:
        app.button(key="measure").click().run()
    assert not app.exception and app.metric, [e.value for e in app.error]
    return app


PAGES = {"scriptorium": lambda app: app, "race": lambda app: app, "speed_lab": measured}


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("page", PAGES)
def test_a_smollm2_run_is_counted_in_tokens(page, language):
    app = PAGES[page](open_page(page, language, pair="smollm2", max_new="8"))
    assert not app.exception, app.exception
    words = shown(app)
    wrong = [text for text in words if CHARACTER_UNIT[language].search(text)]
    assert not wrong, wrong
    assert any(TOKEN_UNIT[language].search(text) for text in app_labels(app)), app_labels(app)


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("page", PAGES)
def test_a_poetry_run_is_counted_in_characters(page, language):
    app = PAGES[page](open_page(page, language, pair="poetry", max_new="8"))
    assert not app.exception, app.exception
    assert any(CHARACTER_UNIT[language].search(text) for text in app_labels(app)), app_labels(app)
    if language == "en":  # 詞元 stays where a count holds for any pair (the KV cache's axis, an imported record)
        wrong = [text for text in shown(app) if TOKEN_UNIT[language].search(text)]
        assert not wrong, wrong


def app_labels(app) -> list[str]:
    """The sidebar's and the page's labels: the settings (k, new tokens) and the counters."""
    return [e.label for e in [*app.slider, *app.metric]]


def test_bounds_and_times_read_as_a_reader_writes_them():
    """Issue 49, defect 12: the seed range read "0–2.14748e+09" and timestamps "09:06+00:00 UTC"."""
    from ui.shared.i18n import utc_time
    from ui.shared.sidebar import KNOBS

    assert KNOBS["seed"].allowed() == "0–2147483647"
    assert utc_time("2026-12-05T09:06+00:00") == "2026-12-05 09:06"
    assert utc_time("2026-12-05T09:06:31+00:00") == "2026-12-05 09:06:31"
