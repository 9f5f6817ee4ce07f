"""viz_model.lessons.search_views on the course's toy search (whose numbers the course gives) and on the model,
and Translator.search, the search without the trace."""

import math

import pytest

from tests.app_harness import model_dir, translator
from viz_model.lessons.search_views import (
    alternatives,
    compare,
    forced_prefix,
    hypothesis_rows,
    status_counts,
    step_rows,
    typed_prefix,
)
from viz_model.lessons.toy_search import beam_search, course_next_probs
from viz_model.model import checkpoint
from viz_model.model.detokenize import detokenize
from viz_model.model.search_record import Hypothesis, SearchRecord
from viz_model.model.tokenizer import EOS, UNK
from viz_model.model.translator import SearchSettings, output_tokens


@pytest.fixture(scope="module")
def toy():
    """The course's toy model searched with k = 2: A (0.5) then C (0.3) beats greedy's B (0.4)."""
    return beam_search(course_next_probs, beam_width=2, max_len=4).record


def test_status_counts_add_up_to_the_candidates_of_a_step(toy):
    for step in toy.steps:
        counts = status_counts(step.candidates)
        assert sum(counts.values()) == len(step.candidates)
        assert counts["kept"] + counts["finished"] <= toy.beam_width


def test_step_rows_carry_each_candidates_prefix(toy):
    rows = step_rows(toy, 1)
    assert [r.token for r in rows] == [c.token for c in toy.steps[1].candidates]
    for row, candidate in zip(rows, toy.steps[1].candidates):
        assert row.prefix == [toy.node(candidate.parent).token]  # step 1 extends one step-0 token
        assert math.isclose(row.cumulative_log_prob, math.log(course_next_probs(())[row.prefix[0]] * row.prob))
    assert all(r.prefix == [] for r in step_rows(toy, 0))


def test_what_if_offers_the_other_tokens_after_the_same_prefix(toy):
    best = toy.best_path_nodes()
    assert [n.token for n in best] == ["A", "C", "B", EOS]
    offered = alternatives(toy, 1)  # after "A", instead of "C"
    assert {c.token for c in offered} == {"A", "B"}  # <eos> is never offered
    assert all(c.parent == best[1].parent for c in offered)
    assert forced_prefix(toy, 1, "B") == ["A", "B"]


def test_the_verdict_compares_probabilities():
    better = compare(math.log(0.054), math.log(0.048))
    assert better.better and better.ratio == pytest.approx(0.054 / 0.048)
    worse = compare(math.log(0.048), math.log(0.054))
    assert not worse.better and worse.ratio == pytest.approx(0.048 / 0.054)
    assert not compare(-1.0, -1.0).better


def test_a_typed_prefix_drops_unknown_words():
    tokenizer = translator().tokenizer
    tokens = typed_prefix(tokenizer, "苹果 qwzxblorf")
    assert UNK not in tokens and tokens == [t for t in tokenizer.split("苹果 qwzxblorf")[0] if t != UNK]


def test_search_alone_is_the_translations_search():
    model = translator()
    found = model.search("I saw a saw.", "en2zh", SearchSettings(beam_width=3, max_len=12))
    translation = model.translate("I saw a saw.", "en2zh", SearchSettings(beam_width=3, max_len=12))
    assert isinstance(found, SearchRecord)
    assert [h.tokens for h in found.hypotheses] == [h.tokens for h in translation.record.hypotheses]
    assert output_tokens(found) == translation.output_tokens
    rows = hypothesis_rows(found, "zh")
    assert [r.output for r in rows] == [detokenize(h.tokens, "zh") for h in found.hypotheses]
    other = next((c.token for c in alternatives(found, 0) if c.token.isalnum()), None)
    assert other is not None, "a beam of three keeps another first word"
    forced = model.search("I saw a saw.", "en2zh", SearchSettings(beam_width=3, prefix=(other,)))  # forced first
    assert output_tokens(forced)[0] == other


def test_the_beam_pages_default_sentence_shows_beam_and_greedy_differ():
    """Computed with the model in use (the shipped one when present): whatever model is shipped, the default
    sentence is one where beam search finds a different, more probable translation than greedy search."""
    from viz_model.lessons.search_views import DEFAULT_FILE, beam_default, contrast

    model = translator()
    pick = beam_default(model)
    greedy, beam, gain = contrast(model, pick.text, pick.direction)
    assert greedy != beam and gain > 0, (pick, greedy, beam)
    # Greedy search is beam search of width 1 (an independent search function gives the same tokens).
    assert model.search(pick.text, pick.direction, SearchSettings(beam_width=1)).hypotheses[0].tokens == greedy
    if model_dir() == checkpoint.MODEL_DIR:  # the shipped model: its pick is stored with it, and is its own
        assert DEFAULT_FILE.is_file() and pick.checkpoint_sha256 == model.card.get("checkpoint_sha256")
        assert (pick.greedy, pick.beam) == (greedy, beam)


def test_candidate_sentences_start_with_the_course_and_are_short():
    from viz_model.lessons.search_views import (
        COURSE_CANDIDATES,
        MAX_CANDIDATE_WORDS,
        PICK_DIRECTION,
        candidate_sentences,
    )

    candidates = candidate_sentences()
    course = [c for c in COURSE_CANDIDATES if c[1] == PICK_DIRECTION]
    assert course and [c[:2] for c in candidates[: len(course)]] == course
    assert len(candidates) == len(set(candidates))
    assert {c[1] for c in candidates} == {PICK_DIRECTION}  # the pick never turns the direction round
    assert len(candidates) > len(course)  # sentences from the corpus after the course's
    for text, direction, _ in candidates[len(course) :]:
        size = len(text.split()) if direction == "en2zh" else len(text) // 2
        assert 3 <= size <= MAX_CANDIDATE_WORDS


def test_pick_default_prefers_a_sentence_where_beam_gives_the_reference():
    from viz_model.lessons.search_views import pick_default

    class Fake:  # a stand-in whose searches are given: greedy and beam per sentence
        card = {"checkpoint_sha256": "x"}
        outputs = {
            "a": (["x", EOS], ["y", EOS], -2.0, -1.0),
            "b": (["p", EOS], ["q", EOS], -3.0, -1.0),
            "c": (["s", EOS], ["s", EOS], -1.0, -1.0),
        }

        def search(self, text, direction, settings):
            greedy, beam, greedy_lp, beam_lp = self.outputs[text]
            tokens, lp = (greedy, greedy_lp) if settings.beam_width == 1 else (beam, beam_lp)
            return SearchRecord(
                steps=[],
                hypotheses=[Hypothesis(tokens, lp, len(tokens), lp, True, 0)],
                beam_width=settings.beam_width,
                length_penalty_alpha=0.0,
                max_len=10,
            )

    candidates = [("c", "en2zh", ""), ("a", "en2zh", "nope"), ("b", "en2zh", "q")]
    assert pick_default(Fake(), candidates).text == "b"  # beam gives the reference
    assert pick_default(Fake(), candidates, prefer_reference=False).text == "a"  # the first that differs
    with pytest.raises(ValueError):
        pick_default(Fake(), candidates[:1])


@pytest.mark.parametrize(
    "text, direction", [("我今天有点累，想早点回家。", "zh2en"), ("他们还没到。", "zh2en"), ("我不知道。", "zh2en")]
)
def test_scoring_and_forcing_the_searchs_own_tokens_keep_them_whole(text, direction):
    """Clitic tokens ("'m", "n't") stay one token when the search's output is scored again or forced as a
    prefix: the score of the search's own finished output is its own ln P (written out and read again,
    "i 'm" became "i ' m", scored at ln P = −36 against the search's −3.2), and forcing its tokens
    reproduces it."""
    model = translator()
    found = model.search(text, direction)
    best = found.hypotheses[0]
    tokens = output_tokens(found)
    assert best.finished, "the search stopped at the length limit"
    assert model.score(text, direction, tokens).log_prob == pytest.approx(best.log_prob, abs=1e-4)
    clitic = next((i for i, t in enumerate(tokens) if t.startswith("'") or t == "n't"), None)
    assert clitic is not None, f"the sentences were chosen for a clitic in their English: {tokens}"
    forced = model.search(text, direction, SearchSettings(prefix=tuple(tokens[: clitic + 1])))
    assert output_tokens(forced)[: clitic + 1] == tokens[: clitic + 1]
