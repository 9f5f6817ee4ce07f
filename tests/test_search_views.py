"""viz_model.lessons.search_views on the course's toy search (whose numbers the course gives) and on the model,
and Translator.search, the search without the trace."""
import math

import pytest

from tests.app_harness import translator
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
from viz_model.model.search_record import SearchRecord
from viz_model.model.tokenizer import EOS, UNK, detokenize
from viz_model.model.translator import output_tokens


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
        assert row.prefix == [toy.node(candidate.parent).token]          # step 1 extends one step-0 token
        assert math.isclose(row.cumulative_log_prob, math.log(course_next_probs(())[row.prefix[0]] * row.prob))
    assert all(r.prefix == [] for r in step_rows(toy, 0))


def test_what_if_offers_the_other_tokens_after_the_same_prefix(toy):
    best = toy.best_path_nodes()
    assert [n.token for n in best] == ["A", "C", "B", EOS]
    offered = alternatives(toy, 1)                                         # after "A", instead of "C"
    assert {c.token for c in offered} == {"A", "B"}                        # <eos> is never offered
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
    found = model.search("I saw a saw.", "en2zh", beam_width=3, max_len=12)
    translation = model.translate("I saw a saw.", "en2zh", beam_width=3, max_len=12)
    assert isinstance(found, SearchRecord)
    assert [h.tokens for h in found.hypotheses] == [h.tokens for h in translation.record.hypotheses]
    assert output_tokens(found) == translation.output_tokens
    rows = hypothesis_rows(found, "zh")
    assert [r.output for r in rows] == [detokenize(h.tokens, "zh") for h in found.hypotheses]
    other = next((c.token for c in alternatives(found, 0) if c.token.isalnum()), None)
    if other is not None:                                    # forcing another first word
        forced = model.search("I saw a saw.", "en2zh", beam_width=3, prefix=other)
        assert output_tokens(forced)[0] == other
