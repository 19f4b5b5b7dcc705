"""卷宗 The archive: every run the app made, to filter, open, replay, export, delete, and files to import."""
import streamlit as st

from specdec_core.services.archive import (
    MAX_IMPORTED_BYTES,
    MAX_IMPORTED_RUNS,
    MAX_OWNER_IMPORTED_BYTES,
    MAX_OWNER_IMPORTED_RUNS,
    MAX_RUNS,
    MAX_STORED_BYTES,
    ArchiveError,
)
from ui.archive.sections import import_section, operator_section, runs_count, runs_section
from ui.archive.store import archive
from ui.archive.texts import TEXT
from ui.shared.pages import page_title

st.title(page_title("archive"))
st.write(TEXT("intro"))
store = archive()
try:
    total, choices = store.count(), store.choices()
except ArchiveError as problem:
    st.error(TEXT("archive_broken", error=problem))
    st.stop()
st.caption(TEXT("where", runs=runs_count(total)))  # the server's own path is no visitor's business
st.caption(TEXT("cap", runs=MAX_RUNS, mb=MAX_STORED_BYTES // 1_000_000, imported=MAX_IMPORTED_RUNS,
                imported_mb=MAX_IMPORTED_BYTES // 1_000_000, own=MAX_OWNER_IMPORTED_RUNS,
                own_mb=MAX_OWNER_IMPORTED_BYTES // 1_000_000))
runs_section(store, choices, total)
import_section()
operator_section()
