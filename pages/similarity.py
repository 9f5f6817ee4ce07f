"""Placeholder: the similarity page is being built (its own engineer replaces this file)."""
import streamlit as st

from pages.common import frame, page_title, tr

frame()
page_title("similarity")
st.info(tr("common.coming_soon"), icon=":material/construction:")
