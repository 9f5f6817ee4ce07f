"""Home: what the app is, the model card, the architecture, the current translation, links to every page."""

import streamlit as st

from pages.parts.cache import architecture_figure, pretrained, translate, translator
from pages.parts.frame import PAGES, frame
from pages.parts.minilm import or_message
from pages.parts.model_picker import pretrained_picked
from pages.parts.sidebar import show_translation
from pages.parts.state import link_params, presenting, sentence, tr
from pages.parts.widgets import chart, explanation, folded, heading, page_title
from viz_model import figures
from viz_model.lessons.model_card import encoder_facts, model_card_rows, pretrained_card_rows

frame()
page_title("home", has_settings=False)
explanation("home")

model = translator()


def architecture() -> None:
    heading(tr("home.architecture"))
    arch_labels = {name: tr(f"home.arch_{name}") for name in figures.ARCHITECTURE_PARTS}
    chart(
        architecture_figure(arch_labels, model.config.n_encoder_layers, model.config.n_decoder_layers),
        key="home.architecture",
        of_sentence=False,
    )
    st.caption(tr("home.architecture_caption"))
    if facts is not None:
        st.caption(tr("pretrained.home_architecture", layers=facts[0].get("num_hidden_layers", "?")))


text, direction = sentence()
minilm = or_message(pretrained) if pretrained_picked() else None  # None after its message when it cannot load
facts = encoder_facts(minilm) if minilm is not None else None
if presenting():  # on a projector the architecture comes first, on the first screen
    architecture()
left, right = st.columns([1, 1], gap="large")
with left:
    st.subheader(tr("home.current"))
    if pretrained_picked():
        st.info(tr("pretrained.home_translation_ours"), icon=":material/translate:")
    if model.is_empty(text):
        st.info(tr("common.empty_prompt"), icon=":material/keyboard:")
    else:
        result = translate(text, direction)
        st.markdown(f"**{tr('home.source')}**")
        st.text(text)
        show_translation(result)
    st.subheader(tr("home.pages"))
    for spec in PAGES[1:]:
        st.page_link(
            spec.file,
            label=f"{tr(f'{spec.section}.title')} — {tr(f'{spec.section}.short')}",
            icon=spec.icon,
            query_params=link_params(),
        )


def model_card() -> None:
    if facts is not None:  # MiniLM picked: its card, read from the loaded model
        st.markdown(tr("pretrained.card_intro"))
        rows = pretrained_card_rows(*facts)
        names = [tr(f"pretrained.card_{field}") for field, _ in rows]
    else:
        rows = model_card_rows(model.card)
        names = [tr(f"home.card_{field}") for field, _ in rows]
    values = [
        tr("home.not_measured") if value is None else tr(f"home.norm_{value}") if field == "norm" else str(value)
        for field, value in rows
    ]
    # A static table, whose cells wrap: in the half-width column a grid either cut the longest names
    # ("Everyday chrF against all 3 references, English → Chinese") or, given their width, pushed the
    # values out of sight.
    st.table({tr("home.card_property"): names, tr("home.card_value"): values}, hide_index=True)


with right:
    card_title = tr("pretrained.card_title") if pretrained_picked() else tr("home.card")
    # MiniLM picked but not loadable: its message is above, and our card would be the wrong model's.
    if facts is not None or not pretrained_picked():
        if presenting():  # folded: the architecture starts on the first screen
            folded(card_title, "home.card_box", model_card)
        else:
            st.subheader(card_title)
            model_card()


if not presenting():
    architecture()
