"""Shared fixtures: the tiny seed-built pair stands in for real models in engine tests."""
import os

import pytest

from specdec_core.pairs.registry import load_pair


@pytest.fixture(scope="session")
def tiny():
    return load_pair("tiny", device="cpu")


@pytest.fixture(scope="session")
def tiny_prompt(tiny):
    return tiny.encode_prompt("春山")


@pytest.fixture(autouse=True, scope="session")
def archive_in_a_temporary_folder(tmp_path_factory):
    """Runs the tests make are archived in a throwaway database, never the user's own."""
    os.environ["SCRIPTORIUM_ARCHIVE"] = str(tmp_path_factory.mktemp("archive") / "archive.sqlite")


@pytest.fixture
def in_english():
    """The UI's words in English for code run outside a page (Texts reads the session's language)."""
    import streamlit as st

    st.session_state["language"] = "en"
    yield
    st.session_state.pop("language", None)
