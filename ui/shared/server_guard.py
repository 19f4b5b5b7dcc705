"""What a visitor's browser may not ask of a class server: to empty the caches everyone shares.

Streamlit's client can send a `clear_cache` message, and Streamlit honours it whatever the toolbar
shows: it empties st.cache_resource and st.cache_data for every session, the loaded models and the
run slots included. One student sending it in a loop made a crowd's page loads fail (38 of 71) while
every session loaded the models again. The app hides the menu item that sends it (toolbarMode
"viewer"), so a refusal takes nothing from a lecturer; whoever runs the server empties the caches by
restarting it.
"""
from __future__ import annotations

from streamlit.logger import get_logger
from streamlit.runtime.app_session import AppSession

log = get_logger(__name__)


def refuse_clear_cache() -> None:
    """Make every session answer a client's clear_cache with one line in the log and nothing else."""
    AppSession._handle_clear_cache_request = _refuse


def _refuse(session: AppSession) -> None:
    log.warning("refused a browser's request to clear the shared caches (session %s)", session.id)
