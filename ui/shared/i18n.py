"""Two languages, Traditional Chinese first: the chosen one lives in the sidebar's "language" widget.

Most of the app's words are drawn as Markdown (captions, notes, buttons, metrics' labels). A value
filled into a text may come from a link, an imported trace or a model's vocabulary, so it is
escaped for Markdown by default: a value cannot add a link, an image, a style or a formula.
`Texts.plain` fills in values as they are, for places that draw no Markdown (chart labels).
"""
from __future__ import annotations

import re
from numbers import Number

import streamlit as st

LANGUAGES = {"zh": "繁體中文", "en": "English"}
DEFAULT_LANGUAGE = "zh"
# every ASCII mark Markdown, Streamlit's directives (:red[...]) or KaTeX ($) may read as syntax
MARKDOWN_MARKS = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")
# GFM turns text that looks like an address (http://…, www.…, a@b.c) into a link after escapes are
# read, so an invisible word joiner breaks each such pattern where it starts
LINK_STARTS = re.compile(r"(://|www|@)", re.IGNORECASE)
WORD_JOINER = "\u2060"


def language() -> str:
    chosen = st.session_state.get("language", DEFAULT_LANGUAGE)
    return chosen if chosen in LANGUAGES else DEFAULT_LANGUAGE


def markdown_literal(text: object) -> str:
    """Text drawn exactly as written inside Markdown: every mark escaped, no address made a link, line
    breaks kept."""
    unlinked = LINK_STARTS.sub(lambda found: found[0][0] + WORD_JOINER + found[0][1:], str(text))
    return MARKDOWN_MARKS.sub(r"\\\1", unlinked).replace("\n", "  \n")


class Texts:
    """A page's words in both languages; texts("key", n=3) gives them in the chosen one, filled in."""

    def __init__(self, table: dict[str, dict[str, str]]):
        self.table = table

    def __call__(self, entry: str, /, **values) -> str:
        """For Markdown: numbers keep their format specs, every other value is escaped (inside a
        `code span` nothing is Markdown, so there only a backtick, which would end it, is replaced)."""
        template = self.table[entry][language()]
        return self.plain(entry, **{key: _literal(value, f"`{{{key}}}`" in template) for key, value in values.items()})

    def plain(self, entry: str, /, **values) -> str:
        """For places that draw no Markdown (chart titles, legends, table headers)."""
        text = self.table[entry][language()]
        return text.format(**values) if values else text


def _literal(value: object, in_code: bool) -> object:
    if isinstance(value, Number):
        return value
    return str(value).replace("`", "'") if in_code else markdown_literal(value)
