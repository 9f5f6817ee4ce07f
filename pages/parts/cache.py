"""Every cached call of the app, in one place: the shared model, translations, searches, scores, the
sentence index, the vocabulary map and the architecture diagram. Streamlit caches per process, shared by all
sessions: `st.cache_resource` for the objects everyone uses (never copied), `st.cache_data` for results
(copied on each hit, so a page cannot change another session's copy)."""

from __future__ import annotations

import gc
import hashlib
import os
from pathlib import Path

import numpy as np
import streamlit as st

from viz_model import figures
from viz_model.lessons import experiments
from viz_model.lessons.attention_cost import measured_ms
from viz_model.lessons.attention_notes import first_layer_without_sink
from viz_model.lessons.decoding_lab import ForcingComparison, StrategyComparison, compare_forcing, compare_strategies
from viz_model.lessons.embeddings import vocabulary_map as _pca_map
from viz_model.lessons.head_notes import load_reference_sentences, usual_roles
from viz_model.lessons.head_roles import HeadRole, head_roles
from viz_model.lessons.lesson import STEPS, Question, answered, question_for
from viz_model.lessons.norms import encoder_inputs
from viz_model.lessons.pretrained_views import (
    APPLE_TEXTS,
    APPLE_WORD,
    POSITIONS_SHOWN,
    PositionComparison,
    compare_positions,
)
from viz_model.lessons.search_views import normalised_settings
from viz_model.lessons.suggest import SentenceIndex, Suggestion, typed_language
from viz_model.model import checkpoint
from viz_model.model.decoding import SequenceScore
from viz_model.model.pretrained import (
    EncoderView,
    PretrainedEncoder,
    TranslatorEncoder,
    contextual_similarity,
    minilm_path,
)
from viz_model.model.sampling import SamplingSettings
from viz_model.model.search_record import SearchRecord
from viz_model.model.translator import DEFAULT_SEARCH, SearchSettings, Translation, Translator

MODEL_DIR_ENV = "ATTENTION_LAB_MODEL_DIR"  # tests point the app at another model directory
TRANSLATION_CACHE_ENTRIES = 64  # per process, shared by all sessions
# The sidebar's translation of every student's sentence: a class of 100 typing at once must not push a
# student's own out before that student's next page reads it (a Translation is about 3 MB with its trace;
# at 64 entries, 100 students at once cost the server twice the CPU: docs/performance.md).
CLASS_CACHE_ENTRIES = 128


def model_dir() -> Path:
    return Path(os.environ.get(MODEL_DIR_ENV) or checkpoint.MODEL_DIR)


@st.cache_resource(show_spinner=False)
def _load_translator(directory: str) -> Translator:
    import torch

    # Many browser sessions share 2 cores: one thread per forward pass avoids oversubscription.
    torch.set_num_threads(1)
    return _long_lived(Translator.load(Path(directory)))


def _long_lived(loaded):
    """`loaded`, after moving every object that exists now out of the garbage collector's reach.

    Streamlit collects garbage after every script run (runner.postScriptGC). With torch, plotly and pandas
    loaded that walks ~250k long-lived objects on every rerun, holding the GIL, so the server sends nothing
    meanwhile; transformers and MiniLM add ~220k more. Freezing what exists once a model or an index is
    loaded (modules, weights, tables) keeps those objects out of every later collection; objects made by
    the reruns are still collected. One collection first, so no garbage is frozen with them."""
    gc.collect()
    gc.freeze()
    return loaded


def translator() -> Translator:
    """The one shared model (loaded once per process); raises checkpoint.CheckpointError."""
    return _load_translator(str(model_dir()))


@st.cache_data(max_entries=CLASS_CACHE_ENTRIES, show_spinner=False)
def _translate(directory: str, text: str, direction: str, settings: SearchSettings) -> Translation:
    return _load_translator(directory).translate(text, direction, settings)


def translate(text: str, direction: str, settings: SearchSettings = DEFAULT_SEARCH) -> Translation:
    """Beam search + trace of one sentence, cached per (model, text, direction, search settings). The sidebar
    uses the app's settings; the Beam search page's own settings (beam_width 1 is greedy search) share the
    cache, so its default view is the sidebar's translation, not a second search."""
    return _translate(str(model_dir()), text, direction, _normalised(settings))


@st.cache_data(max_entries=CLASS_CACHE_ENTRIES, show_spinner=False)
def _trace_head_roles(directory: str, fingerprint: str, _trace) -> list[HeadRole]:
    return head_roles(_trace)


def trace_head_roles(trace) -> list[HeadRole]:
    """Every head's role on a trace (viz_model.lessons.head_roles), once per trace and process: a class on
    one link shares them. The key is a digest of the trace's encoder and decoder outputs, which every token,
    and every head an experiment switched off, changes."""
    digest = hashlib.blake2b(digest_size=16)
    for array in (trace.encoder_output, trace.decoder_output):
        digest.update(np.ascontiguousarray(array).tobytes())
    return _trace_head_roles(str(model_dir()), digest.hexdigest(), trace)


@st.cache_data(max_entries=2, show_spinner=False)
def _usual_roles(directory: str) -> dict[tuple, tuple[str, float]]:
    return usual_roles(translator())  # 16 translations, once per model and process


def usual_head_roles() -> dict[tuple, tuple[str, float]]:
    """(kind, layer, head) → (role, share): each head's usual role over the shipped reference sentences."""
    return _usual_roles(str(model_dir()))


@st.cache_data(max_entries=2, show_spinner=False)
def _attention_timings(directory: str) -> dict[str, list[float]]:
    model = _load_translator(directory).model
    return measured_ms(model.encoder_layers[0].self_attention, model.config.d_model)


def attention_timings() -> dict[str, list[float]]:
    """Milliseconds of the model's attention block and of an RNN of its width for n = 10 … 400, measured once
    per process on this machine (about a second)."""
    return _attention_timings(str(model_dir()))


@st.cache_resource(show_spinner=False)
def _ngram_counts(directory: str, target_language: str):
    from viz_model.lessons.ngrams import corpus_sentences, count_ngrams

    tokenizer = _load_translator(directory).tokenizer
    return _long_lived(count_ngrams(corpus_sentences(tokenizer, target_language)))


def ngram_counts(target_language: str):
    """1-gram and 3-gram counts of the training split's `target_language` side (about 5 s, once per process
    and language; shared by every session, never copied)."""
    return _ngram_counts(str(model_dir()), target_language)


@st.cache_data(max_entries=2, show_spinner=False)
def _norm_batches(directory: str):
    sentences = load_reference_sentences()
    half = len(sentences) // 2
    rows = encoder_inputs(_load_translator(directory), sentences)
    return rows[:half], rows[half:]


def norm_batches():
    """Two batches of other sentences' encoder inputs (the shipped reference sentences, halved), to batch the
    typed sentence with for batch norm."""
    return _norm_batches(str(model_dir()))


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _search(directory: str, text: str, direction: str, settings: SearchSettings) -> SearchRecord:
    return _load_translator(directory).search(text, direction, settings)


def search(text: str, direction: str, settings: SearchSettings = DEFAULT_SEARCH) -> SearchRecord:
    """The beam search alone, no trace (Translator.search), cached like `translate`: for a view that shows
    the search and not the attention."""
    return _search(str(model_dir()), text, direction, _normalised(settings))


def is_app_search(settings: SearchSettings) -> bool:
    """True when `settings` are the app's own (the sidebar's), once written in one form."""
    return _normalised(settings) == _normalised(DEFAULT_SEARCH)


def _normalised(settings: SearchSettings) -> SearchSettings:
    return normalised_settings(settings, translator().config.max_len)


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _lesson_question(directory: str, text: str, direction: str, name: str) -> Question | None:
    step = next(s for s in STEPS if s.name == name)
    return question_for(step, _load_translator(directory), translate(text, direction), text, direction)


def lesson_question(text: str, direction: str, name: str) -> Question | None:
    """The lesson step `name`'s question on this sentence (None: it cannot be asked here), cached: the answer
    must stay the same from the pick to the reveal and the score. Its answer may be left to `lesson_answer`."""
    return _lesson_question(str(model_dir()), text, direction, name)


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _lesson_answer(directory: str, text: str, direction: str, name: str) -> Question:
    question = _lesson_question(directory, text, direction, name)
    before = _translate(directory, text, direction, _normalised(DEFAULT_SEARCH))  # the sidebar's, cached
    return answered(question, _load_translator(directory), text, direction, before)


def lesson_answer(text: str, direction: str, name: str) -> Question:
    """The step's question with its answer, for the reveal and the score (computed once a student picks)."""
    return _lesson_answer(str(model_dir()), text, direction, name)


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _forcing(
    directory: str, text: str, direction: str, reference: tuple[str, ...], greedy: tuple[str, ...]
) -> ForcingComparison:
    sidebar = _translate(directory, text, direction, _normalised(DEFAULT_SEARCH))  # cached: its trace is reused
    return compare_forcing(_load_translator(directory), text, direction, reference, greedy, sidebar.trace)


def forcing(text: str, direction: str, reference) -> ForcingComparison:
    """Teacher forcing on `reference` (tokens) beside free running (greedy search's), cached; no pass runs for a
    side whose tokens are the sidebar's translation (its trace serves)."""
    return _forcing(str(model_dir()), text, direction, tuple(reference), tuple(greedy_tokens(text, direction)))


def greedy_tokens(text: str, direction: str) -> list[str]:
    """What greedy search writes (<eos> included): read off the sidebar's beam search, else searched (cached)."""
    return translator().greedy(text, direction, translate(text, direction).record, lambda s: search(text, direction, s))


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _strategies(
    directory: str, text: str, direction: str, width: int, alpha: float, sampling: SamplingSettings, reference: str
) -> StrategyComparison:
    def searched(settings: SearchSettings) -> SearchRecord:  # cached: the sidebar's settings give its own search
        settings = _normalised(settings)
        if settings == _normalised(DEFAULT_SEARCH):
            return _translate(directory, text, direction, settings).record
        return _search(directory, text, direction, settings)

    translator = _load_translator(directory)
    return compare_strategies(translator, text, direction, width, alpha, sampling, reference, searched)


def strategies(
    text: str, direction: str, width: int, alpha: float, sampling: SamplingSettings, reference: str
) -> StrategyComparison:
    """Greedy, beam and seeded samples of one sentence, scored, cached (a seed's samples are repeatable)."""
    return _strategies(str(model_dir()), text, direction, width, alpha, sampling, reference)


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _switch_off(directory: str, text: str, direction: str, heads: tuple, mode: str) -> experiments.SwitchOff:
    before = _translate(directory, text, direction, _normalised(DEFAULT_SEARCH))  # the sidebar's, cached
    return experiments.switch_off(_load_translator(directory), text, direction, heads, mode, before)


def switch_off(text: str, direction: str, heads, mode: str) -> experiments.SwitchOff:
    """The sentence re-translated and re-scored with `heads` switched off (`mode`), cached: a rerun of the
    Experiments page (a folded chart opened, a language switched) does not re-run the model."""
    return _switch_off(str(model_dir()), text, direction, tuple(sorted(heads)), mode)


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _experiment(directory: str, name: str, text: str, direction: str, *args):
    return getattr(experiments, name)(_load_translator(directory), text, direction, *args)


def experiment(name: str, text: str, direction: str, *args):
    """An experiment of viz_model.lessons.experiments on the sentence, cached: "head_importance" (ln P's drop
    with each head off alone), "word_order" (seed: positions and order taken away), "hard_attention" (kind,
    layer, head, query: one layer's attention made hard)."""
    return _experiment(str(model_dir()), name, text, direction, *args)


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _score(directory: str, text: str, direction: str, target_tokens: tuple[str, ...]) -> SequenceScore:
    return _load_translator(directory).score(text, direction, target_tokens)


def score(text: str, direction: str, target_tokens) -> SequenceScore:
    """p(target | text) under the model, token by token (teacher forcing), cached."""
    return _score(str(model_dir()), text, direction, tuple(target_tokens))


@st.cache_resource(show_spinner=False)
def _sentence_index(language: str) -> SentenceIndex:
    return _long_lived(SentenceIndex.from_corpus(language))


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def closest_known(text: str) -> list[Suggestion]:
    """The known sentences closest to a sentence with unknown words (viz_model.lessons.suggest)."""
    return _sentence_index(typed_language(text)).closest(text, k=3)


@st.cache_data(max_entries=2, show_spinner=False)
def _token_column_width(directory: str, least: int) -> int:
    return figures.column_width(_load_translator(directory).tokenizer.vocab, least)


def token_column_width(least: int) -> int:
    """px for a table column of single tokens: the model's longest token fits (once per model)."""
    return _token_column_width(str(model_dir()), least)


@st.cache_data(max_entries=2, show_spinner=False)
def _opening_layer(directory: str, text: str) -> int:
    return first_layer_without_sink(translate(text, "en2zh").trace)  # the sidebar's cached translation


def opening_layer(text: str) -> int:
    """The layer a page about one layer opens on (0-based): the model's first encoder layer without an
    attention sink on `text`, the app's opening sentence (once per model; see first_layer_without_sink)."""
    return _opening_layer(str(model_dir()), text)


@st.cache_data(max_entries=4, show_spinner=False)
def _vocabulary_map(directory: str, n_components: int):
    return _pca_map(_load_translator(directory).embedding_matrix(), n_components)


def vocabulary_map(n_components: int):
    """PCA of the whole embedding table (viz_model.lessons.embeddings): once per model and dimension count."""
    return _vocabulary_map(str(model_dir()), n_components)


@st.cache_data(max_entries=4, show_spinner=False)
def _architecture_json(labels: dict[str, str], n_encoder_layers: int, n_decoder_layers: int) -> dict:
    return figures.architecture(labels, n_encoder_layers, n_decoder_layers).to_plotly_json()


def architecture_figure(labels: dict[str, str], n_encoder_layers: int, n_decoder_layers: int):
    """The diagram does not depend on the sentence: built and validated once per language, then each rerun
    gets a copy of its JSON as a figure (a cached Figure would be validated again on every copy)."""
    return figures.unvalidated(_architecture_json(labels, n_encoder_layers, n_decoder_layers))


# The pretrained encoder beside our translator (viz_model.model.pretrained), picked in the sidebar.
PRETRAINED_DIR_ENV = "ATTENTION_LAB_PRETRAINED_DIR"  # tests point the app at another encoder directory


def pretrained_dir() -> str:
    """MiniLM's directory inside its wheel, or the directory the environment names; PretrainedError when the
    package is missing."""
    return os.environ.get(PRETRAINED_DIR_ENV) or str(minilm_path())


@st.cache_resource(show_spinner=False)
def _load_pretrained(directory: str) -> PretrainedEncoder:
    import torch

    os.environ["HF_HUB_OFFLINE"] = "1"  # local files only: nothing is downloaded at run time
    torch.set_num_threads(1)
    return _long_lived(PretrainedEncoder.load(directory, name="MiniLM"))


def pretrained() -> PretrainedEncoder:
    """The pretrained encoder, loaded once per process; raises PretrainedError (not cached: a fixed
    directory loads on the next run)."""
    return _load_pretrained(pretrained_dir())


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _pretrained_view(directory: str, text: str) -> EncoderView:
    return _load_pretrained(directory).view(text)


def pretrained_view(text: str) -> EncoderView:
    """Everything the pretrained encoder computes for `text` (pieces, vectors, attention, Q/K/V), cached."""
    return _pretrained_view(pretrained_dir(), text)


@st.cache_data(max_entries=TRANSLATION_CACHE_ENTRIES, show_spinner=False)
def _translator_view(directory: str, text: str) -> EncoderView:
    return TranslatorEncoder(_load_translator(directory), "en2zh").view(text)


def translator_view(text: str) -> EncoderView:
    """Our translator's encoder on `text` (English → Chinese) through the same interface, cached."""
    return _translator_view(str(model_dir()), text)


@st.cache_data(max_entries=2, show_spinner=False)
def _positions(directory: str, n: int) -> PositionComparison:
    return compare_positions(_load_pretrained(directory).position_table(n))


def pretrained_positions(n: int = POSITIONS_SHOWN) -> PositionComparison:
    """The encoder's first n learned position vectors beside the sinusoid (viz_model.lessons.pretrained_views)."""
    return _positions(pretrained_dir(), n)


@st.cache_data(max_entries=2, show_spinner=False)
def _apple(directory: str) -> list[float]:
    return contextual_similarity(_load_pretrained(directory), APPLE_WORD, *APPLE_TEXTS).tolist()


def apple_contrast() -> list[float]:
    """Cosine of "apple"'s vectors in the course's two texts, at the input and after every layer."""
    return _apple(pretrained_dir())
