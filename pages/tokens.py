"""Being built."""
import streamlit as st

from pages.common import frame, page_title, tr

frame()
page_title("tokens")
st.info(tr("common.coming_soon"))
