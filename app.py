"""御筆樓 Scriptorium: the frame that routes the pages and holds the shared sidebar.

The pages live in views/, not pages/: Streamlit treats a pages/ folder as the old automatic
navigation and serves a deep link such as /proof from it before this frame has run.
"""
import streamlit as st

st.set_page_config(page_title="御筆樓 Scriptorium", page_icon="🖌️", layout="wide")
# A session's first run imports the app's modules, and seats the models if the server has not yet (serve.py
# loads the default pair as it starts): say so at once, not after a blank page.
OPENING = {
    "zh": "御筆樓開門中：墨卿與阿速還沒入座的話，要先請他們入座（載入模型），請稍候…",
    "en": "The scriptorium is opening: if the master and the scribe are not seated yet, they are being seated "
    "(the models load), a moment…",
}
opening = st.empty()
if "url_adopted" not in st.session_state:
    opening.info(OPENING["en" if st.query_params.get("language") == "en" else "zh"])

from ui.shared.pages import PAGE_TITLES, page_title  # noqa: E402  (after the word above: these load torch)
from ui.shared.run_slots import page_slot  # noqa: E402
from ui.shared.server_guard import install_server_guards  # noqa: E402
from ui.shared.sidebar import presenter_strip, shared_sidebar  # noqa: E402
from ui.shared.theme import apply_look  # noqa: E402

install_server_guards()  # before any page: what one visitor may not make the shared server do
with page_slot():
    shared_sidebar()
    opening.empty()
    presenter = st.session_state.get("presenter", False)
    apply_look(large=st.session_state.get("large", False), presenter=presenter)
    pages = [
        st.Page(f"views/{name}.py", title=page_title(name), url_path=name, default=(name == "parable"))
        for name in PAGE_TITLES
    ]
    page = st.navigation(pages, position="hidden" if presenter else "sidebar")
    if presenter:  # the sidebar's page list is folded away with it
        presenter_strip(pages)
    page.run()
