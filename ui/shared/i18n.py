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

from ui.shared.english import agree
from ui.shared.units import UNIT_FIELDS, unit_words

LANGUAGES = {"zh": "繁體中文", "en": "English"}
DEFAULT_LANGUAGE = "zh"
# every ASCII mark Markdown, Streamlit's directives (:red[...]) or KaTeX ($) may read as syntax
MARKDOWN_MARKS = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")
# GFM turns text that looks like an address (http://…, www.…, a@b.c) into a link after escapes are
# read, so an invisible word joiner breaks each such pattern where it starts
LINK_STARTS = re.compile(r"(://|www|@)", re.IGNORECASE)
WORD_JOINER = "\u2060"
# Streamlit reads :material/lock: and :smile: in drawn text as icons after the Markdown escapes are
# undone, so a word joiner after a colon that starts a word keeps each one plain text
DIRECTIVE_STARTS = re.compile(r":(?=[\w+-])")
# bidi controls (embeddings, overrides, isolates and marks): one right-to-left override in a visitor's
# text would draw the rest of its line reversed, so visitor text never carries them
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# a blank for the unit the run writes in (ui/shared/units.py): filled in for every text that has one
UNIT_BLANK = re.compile(r"\{(?:%s)\}" % "|".join(UNIT_FIELDS))


def language() -> str:
    chosen = st.session_state.get("language", DEFAULT_LANGUAGE)
    return chosen if chosen in LANGUAGES else DEFAULT_LANGUAGE


def utc_time(iso: str) -> str:
    """An ISO 8601 UTC time as the pages print it before their "UTC": "2026-12-05 09:06", not "…09:06+00:00 UTC"."""
    return iso.replace("T", " ").removesuffix("Z").removesuffix("+00:00")


def without_bidi(text: object) -> str:
    """A visitor's text without the controls that reorder what follows it (wherever it is drawn)."""
    return BIDI_CONTROLS.sub("", str(text))


def markdown_literal(text: object) -> str:
    """Text drawn exactly as written inside Markdown: every mark escaped, no address made a link, no
    icon or emoji directive read, no bidi control, line breaks kept."""
    unlinked = LINK_STARTS.sub(lambda found: found[0][0] + WORD_JOINER + found[0][1:], without_bidi(text))
    plain = DIRECTIVE_STARTS.sub(":" + WORD_JOINER, unlinked)
    return MARKDOWN_MARKS.sub(r"\\\1", plain).replace("\n", "  \n")


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
        """For places that draw no Markdown (chart titles, legends, table headers). A blank for the run's unit
        ({units}…) is filled in with the chosen pair's word, as the language is the reader's."""
        text = self.table[entry][language()]
        values = {key: without_bidi(value) if isinstance(value, str) else value for key, value in values.items()}
        if language() == "en":
            text = agree(text, values)  # "1 rounds" reads "1 round"
        if UNIT_BLANK.search(text):
            values = unit_words(language()) | values
        return text.format(**values) if values else text


def _literal(value: object, in_code: bool) -> object:
    if isinstance(value, Number):
        return value
    return without_bidi(value).replace("`", "'") if in_code else markdown_literal(value)
