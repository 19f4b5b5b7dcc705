"""Page widgets whose choice survives a switch of language or of page, and may come from the link.

The choice lives under its own name in session state; the widget is keyed per language, because
its label and option names change with the language and Streamlit would otherwise keep showing
the old ones (or lose the selection). It is seeded from the choice each run and writes back on
change, as the shared sidebar does. With `url`, a link's value seeds the choice once, and the
choice is mirrored in the address bar.
"""
from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ui.shared.i18n import language
from ui.shared.sidebar import refused_link_note


def remembered(key: str, default, url: str | None = None, options: Sequence | None = None) -> dict:
    """Keyword arguments for a widget whose value is kept under `key` (pass no value= or index=)."""
    if key not in st.session_state:
        st.session_state[key] = _from_link(url, default, options)
    if url:
        st.query_params[url] = str(st.session_state[key])
    widget = f"w_{key}_{language()}"
    st.session_state[widget] = st.session_state[key]
    return {"key": widget, "on_change": _keep, "args": (widget, key, url)}


def _from_link(url: str | None, default, options: Sequence | None):
    """The link's value when it parses as the default's type and is one of the options; else the default,
    with a note in the sidebar like any other refused link value."""
    if not url or url not in st.query_params:
        return default
    value = _parsed(st.query_params[url], default)
    if value is not None and (options is None or value in options):
        return value
    allowed = ", ".join(str(option) for option in options) if options is not None else ""
    st.sidebar.warning(refused_link_note(url, allowed))  # the sidebar drew its notes before this page ran
    return default


def _parsed(text: str, default):
    """The link's text as the default's type, or None where it does not parse. A bool is "true" or "false" in
    any case, as the sidebar's flags read it (presenter=true), and as the address bar shows it ("True"); bool() of
    any text but "" would be True."""
    if isinstance(default, bool):
        return {"true": True, "false": False}.get(text.lower())
    try:
        return type(default)(text)
    except ValueError:
        return None


def _keep(widget: str, key: str, url: str | None) -> None:
    st.session_state[key] = st.session_state[widget]
    if url:
        st.query_params[url] = str(st.session_state[key])
