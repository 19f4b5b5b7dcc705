"""御筆樓 Scriptorium: the frame that routes the pages and holds the shared sidebar.

The pages live in views/, not pages/: Streamlit treats a pages/ folder as the old automatic
navigation and serves a deep link such as /proof from it before this frame has run.
"""
import streamlit as st

from ui.shared.pages import PAGE_TITLES, page_title
from ui.shared.run_slots import page_slot
from ui.shared.sidebar import leave_presenter_button, shared_sidebar
from ui.shared.theme import apply_look

st.set_page_config(page_title="御筆樓 Scriptorium", page_icon="🖌️", layout="wide")
with page_slot():
    shared_sidebar()
    presenter = st.session_state.get("presenter", False)
    apply_look(large=st.session_state.get("large", False), presenter=presenter)
    if presenter:
        leave_presenter_button()
    pages = [
        st.Page(f"views/{name}.py", title=page_title(name), url_path=name, default=(name == "parable"))
        for name in PAGE_TITLES
    ]
    st.navigation(pages).run()
