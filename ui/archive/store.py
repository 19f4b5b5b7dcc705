"""The app's one archive (path from SCRIPTORIUM_ARCHIVE, see specdec_core.services.archive), and replay handoff.

A replay travels in the URL as ``?run=<id>``, so a link to a replayed run can be shared; the archive
page also leaves the id in ``st.session_state["replay_run"]`` for the moment of the switch.
"""
from __future__ import annotations

import logging
from typing import NamedTuple

import streamlit as st

from specdec_core.algorithm.trace import MAX_TRACE_BYTES, Trace, TraceError
from specdec_core.services.archive import Archive, ArchiveError, ArchiveFull, MissingRun, RunRow, default_location
from ui.archive.texts import TEXT
from ui.shared.errors import explain
from ui.shared.run_slots import long_work
from ui.shared.visitors import is_operator, visitor

REPLAY_PARAM = "run"
REPLAY_KEY = "replay_run"
MAX_ID = 2**63 - 1  # the largest key either backend holds (64-bit integers)
MAX_ID_DIGITS = len(str(MAX_ID))
REFUSED_IN_OWN_WORDS = ("not_json", "prompt_chars", "text_chars")  # a trace's refusals this page words itself
log = logging.getLogger(__name__)


def archive() -> Archive:
    """The archive at the configured location (a file or a database), read again on each call so a changed variable takes effect."""
    return _open(default_location())


@st.cache_resource(show_spinner=False)
def _open(path: str) -> Archive:
    return Archive(path)


def keep_run(trace_json: str) -> str | None:
    """Save a run the app made: None when saved, else why not (for the page to say). A full disk or a
    locked file is logged and reported, never allowed to break the run."""
    try:
        archive().save(trace_json, source="app", owner=visitor())
    except Exception as error:  # noqa: BLE001 - whatever goes wrong in the archive, the class still sees its run
        log.warning("the run was not archived", exc_info=True)
        return str(error).splitlines()[0] if str(error) else type(error).__name__
    return None


class Outcome(NamedTuple):
    ok: bool
    key: str  # of the message in ui/texts/archive.py, said in whichever language is chosen when shown
    values: dict  # an error among them is explained when shown, in the language of that moment
    run_id: int | None = None

    @property
    def message(self) -> str:
        return TEXT(self.key, **{key: explain(v) if isinstance(v, Exception) else v for key, v in self.values.items()})


def import_file(data: bytes) -> Outcome:
    """Check a file in full, then add it; a refused file leaves the archive exactly as it was. Reading and
    checking the largest file takes about a second of this thread: other pages are drawn meanwhile (long_work)."""
    if len(data) > MAX_TRACE_BYTES:
        return Outcome(False, "too_big", {"size": len(data), "limit": MAX_TRACE_BYTES})
    try:
        with long_work():
            saved = archive().import_json(data, owner=visitor())
    except TraceError as error:
        if error.reason in REFUSED_IN_OWN_WORDS:
            return Outcome(False, error.reason, error.values)
        return Outcome(False, "not_trace", {"error": error})
    except ArchiveFull as error:  # the archive's share of imports, or this visitor's
        return Outcome(False, error.reason, error.values)
    except ArchiveError as error:
        return Outcome(False, "archive_broken", {"error": str(error)})
    return Outcome(True, "imported" if saved.new else "already_there", {"id": saved.id}, saved.id)


def may_delete(row: RunRow) -> bool:
    """A visitor deletes the runs they made or imported; the operator any (ui/shared/visitors.py)."""
    return is_operator() or (bool(row.owner) and row.owner == visitor())


def delete_run(row: RunRow) -> bool:
    """Delete the run if this tab may; whether it was deleted (the archive checks the owner again)."""
    return archive().delete(row.id, owner=None if is_operator() else visitor())


def replay_in_scriptorium(run_id: int) -> None:
    st.session_state[REPLAY_KEY] = int(run_id)
    st.switch_page("views/scriptorium.py", query_params={REPLAY_PARAM: str(int(run_id))})


def load_replay() -> Trace | None:
    """The stored run named by ?run= (or handed over in session state), or None to make a fresh run.

    An id that is not in the archive gets a warning on the page and None, so the page runs normally.
    """
    handed = st.session_state.pop(REPLAY_KEY, None)
    if handed is not None:  # the URL becomes the one place that says "replay", so a link reproduces it
        st.query_params[REPLAY_PARAM] = str(handed)
    wanted = st.query_params.get(REPLAY_PARAM)
    if not wanted:
        return None
    try:
        return Trace.from_json(archive().get(run_id(wanted)))
    except (ValueError, MissingRun):  # a non-number id, no such run, or a stored trace that no longer reads
        st.warning(TEXT("replay_missing", run=wanted))
    except ArchiveError as error:
        st.warning(TEXT("archive_broken", error=error))
    return None


def run_id(text: str) -> int:
    """An archive id from a link: a whole number the archive can hold, else ValueError."""
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= MAX_ID_DIGITS else 0
    if not 1 <= number <= MAX_ID:
        raise ValueError(f"no run {text!r}")
    return number


def clear_replay() -> None:
    """Back to fresh runs from the sidebar's settings."""
    st.session_state.pop(REPLAY_KEY, None)
    if REPLAY_PARAM in st.query_params:
        del st.query_params[REPLAY_PARAM]
