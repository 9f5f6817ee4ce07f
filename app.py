"""Attention Lab: `streamlit run app.py`.

The entry script runs on every page view: it draws the shared sidebar (language, sentence, direction,
translation), mirrors them in the URL, then runs the chosen page. The page list lives in pages/parts/frame.py.
Imported instead of run (by `streamlit run`, which looks for an ASGI app here), it gives the server the app to
serve: this script's pages, each HTML page told where the server is (pages/parts/serving.py).
"""

import streamlit as st


def main() -> None:
    # A shipped icon: a Material icon name would make the browser fetch it from Google's font server.
    # A link in presentation mode (?present=true) opens with the sidebar folded: the page gets the projector's
    # width.
    st.set_page_config(
        page_title="Attention Lab",
        page_icon=str(ICON),
        layout="wide",
        initial_sidebar_state="collapsed" if st.query_params.get("present") in ("true", "1") else "auto",
    )
    # A class opening one link at once is served in arrival order, a core at a time (pages/parts/gate.py).
    with RUNS.entered():
        init_state()
        # Home, the default page, is served at /; the hidden page at /home sends a link there on to /
        # (frame.home_alias).
        pages = [
            st.Page(
                p.file, title=tr(f"{p.section}.title"), icon=p.icon, url_path=p.url_path if i else "", default=i == 0
            )
            for i, p in enumerate(PAGES)
        ]
        navigation = st.navigation([*pages, home_alias(pages[0])])
        if navigation.url_path == PAGES[0].url_path:
            navigation.run()  # st.switch_page to Home: stops this run
        try:
            page_default_sentence(navigation.url_path)  # Beam search's own default sentence, before the sidebar
            sidebar()
        except CheckpointError as err:
            show_checkpoint_error(err)
            st.stop()
        st.session_state[FRAME_MARK] = True  # see pages.parts.frame.frame()
        # A page's first run after another page's: shared settings carry over then (pages.parts.widgets.shared).
        st.session_state[PAGE_SWITCHED] = st.session_state.get("_page") != navigation.url_path
        st.session_state["_page"] = navigation.url_path
        navigation.run()


if __name__ == "__main__":  # a page view. Imported only here: the server's import of this file (below) must
    # not build the app's caches before Streamlit's runtime exists.
    from pages.parts.frame import FRAME_MARK, ICON, PAGE_SWITCHED, PAGES, home_alias
    from pages.parts.gate import RUNS
    from pages.parts.sidebar import show_checkpoint_error, sidebar
    from pages.parts.state import init_state, page_default_sentence, tr
    from viz_model.model.checkpoint import CheckpointError

    main()
else:  # imported by `streamlit run` or an ASGI server: the app to serve
    from starlette.middleware import Middleware

    from pages.parts.serving import KnownBackend

    app = st.App(__file__, middleware=[Middleware(KnownBackend)])
