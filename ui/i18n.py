"""Two languages, Traditional Chinese first: the chosen one lives in the sidebar's "language" widget."""
from __future__ import annotations

import streamlit as st

LANGUAGES = {"zh": "繁體中文", "en": "English"}


def language() -> str:
    return st.session_state.get("language", "zh")


class Texts:
    """A page's words in both languages; texts("key", n=3) gives them in the chosen one, filled in."""

    def __init__(self, table: dict[str, dict[str, str]]):
        self.table = table

    def __call__(self, entry: str, /, **values) -> str:
        text = self.table[entry][language()]
        return text.format(**values) if values else text
