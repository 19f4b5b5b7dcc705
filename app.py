"""御筆樓 Scriptorium: the frame that routes pages and holds the shared sidebar."""
import streamlit as st

from ui.words import LANGUAGES

st.set_page_config(page_title="御筆樓 Scriptorium", page_icon="🖌️", layout="wide")
st.sidebar.radio("語言 Language", list(LANGUAGES), format_func=LANGUAGES.get, key="language", horizontal=True)
page = st.navigation([st.Page("pages/scriptorium.py", title="御筆樓 Scriptorium", default=True)])
page.run()
