"""Streamlit-side helpers: words in two languages, cached loading, trace rendering."""
