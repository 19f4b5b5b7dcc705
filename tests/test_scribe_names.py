"""Scribes' names (#36): a Chinese name in the Chinese UI for every scribe a shipped pair offers; links,
traces and the archive keep the internal id."""
import re

import pytest
from app_pages import open_page

from specdec_core.pairs.poetry import LADDER
from specdec_core.pairs.smollm2 import DISTILLED_RUNGS
from ui.shared.scribes import scribe_label

SMOLLM2 = ["prompt-lookup", "ngram", *DISTILLED_RUNGS]


@pytest.fixture
def in_chinese():
    import streamlit as st

    st.session_state["language"] = "zh"
    yield
    st.session_state.pop("language", None)


def test_every_shipped_scribe_has_a_chinese_name(tiny, in_chinese):
    for name in [*LADDER, *SMOLLM2, *tiny.drafts]:
        label = scribe_label(name)
        assert re.search(r"[\u4e00-\u9fff]", label) and not re.search(r"[A-Za-z]", label), (name, label)


def test_english_names_every_shipped_scribe_and_an_unknown_one_keeps_its_own_name(tiny, in_english):
    """#49 defect 12: English scribe labels were raw ids ("int8-master")."""
    for name in [*LADDER, *SMOLLM2, *tiny.drafts]:
        label = scribe_label(name)
        assert label != name and label[0].isupper() and " " in label, (name, label)
    assert scribe_label("int8-master") == "The master in 8 bits"
    assert scribe_label("my-draft") == "my-draft"


def test_the_sidebar_names_the_scribe_in_chinese_and_the_link_keeps_the_id():
    app = open_page("scriptorium", "zh")
    slider = app.sidebar.select_slider[0]
    assert "墨卿的八位元副本" in slider.options and "int8-master" not in slider.options
    assert app.query_params["scribe"] in (["int8-master"], "int8-master")
