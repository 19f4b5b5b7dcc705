"""Page speed_lab (being built)."""
import streamlit as st

from ui.settings import current_choice

choice, pair = current_choice()
st.title("speed_lab")
