import math

import pytest

from viz_model.lessons.toy_search import (
    COURSE_TABLE,
    EOS,
    OTHER_PREFIX,
    VOCAB,
    beam_cost,
    beam_search,
    course_next_probs,
    exhaustive_count,
    exhaustive_search,
    greedy_search,
    latex_count,
    path_factors,
    scientific,
)
from viz_model.model.search_record import SearchRecord


def test_every_distribution_sums_to_one():
    for probs in [*COURSE_TABLE.values(), OTHER_PREFIX]:
        assert set(probs) == set(VOCAB)
        assert sum(probs.values()) == pytest.approx(1.0)


def test_course_path_probabilities():
    # course §6: greedy A .5, B .4, C .4, <eos> .6; better A .5, C .3, B .6, <eos> .6
    p = course_next_probs
    assert [p(())["A"], p(("A",))["B"], p(("A", "B"))["C"], p(("A", "B", "C"))[EOS]] == [0.5, 0.4, 0.4, 0.6]
    assert [p(())["A"], p(("A",))["C"], p(("A", "C"))["B"], p(("A", "C", "B"))[EOS]] == [0.5, 0.3, 0.6, 0.6]


def test_greedy_is_not_optimal():
    greedy = greedy_search(course_next_probs, max_len=4)
    assert greedy.tokens == ["A", "B", "C", EOS]
    assert round(greedy.prob, 3) == 0.048
    assert greedy.examined == 4 * 4

    best = exhaustive_search(course_next_probs, max_len=4)
    assert best.tokens == ["A", "C", "B", EOS]
    assert round(best.prob, 3) == 0.054
    assert best.examined == 1 + 3 + 9 + 27 + 81


def test_beam_of_two_finds_the_better_sequence():
    result = beam_search(course_next_probs, beam_width=2, max_len=4)
    assert result.tokens == ["A", "C", "B", EOS]
    assert result.prob == pytest.approx(0.054)
    record = result.record
    assert [h.tokens for h in record.hypotheses] == [["A", "C", "B", EOS], ["A", "B", "C", EOS]]
    assert [round(h.prob, 3) for h in record.hypotheses] == [0.054, 0.048]
    # step by step: at most k kept per step, each step scores k·n candidates (n = 4)
    assert [len(s.candidates) for s in record.steps] == [4, 8, 8, 8]
    assert result.examined == 28 <= beam_cost(2, 4, 4)
    for s in record.steps:
        assert sum(c.status != "pruned" for c in s.candidates) <= 2
    assert [c.token for c in record.best_path_nodes()] == ["A", "C", "B", EOS]
    assert record.best_path_nodes()[-1].status == "finished"


def test_beam_of_one_is_greedy():
    assert beam_search(course_next_probs, 1, 4).tokens == greedy_search(course_next_probs, 4).tokens


def test_record_is_a_tree_with_unique_ids():
    record: SearchRecord = beam_search(course_next_probs, 2, 4, length_penalty_alpha=0.75).record
    nodes = record.nodes()
    ids = [n.hypothesis for n in nodes]
    assert len(set(ids)) == len(ids)
    by_id = {n.hypothesis: n for n in nodes}
    for n in nodes:
        if n.step == 0:
            assert n.parent is None
        else:
            parent = by_id[n.parent]
            assert parent.step == n.step - 1 and parent.status == "kept"
            assert n.cumulative_log_prob == pytest.approx(parent.cumulative_log_prob + n.log_prob)
        assert n.log_prob == pytest.approx(math.log(n.prob))
        assert n.score == pytest.approx(n.cumulative_log_prob / n.length**0.75)


def test_beam_stops_at_max_len_with_unfinished_hypotheses():
    result = beam_search(course_next_probs, 2, max_len=2)
    assert not any(h.finished for h in result.record.hypotheses)
    assert result.tokens == ["A", "B"] and result.prob == pytest.approx(0.2)


def test_course_costs():
    assert exhaustive_count(10000, 10) == 10**40
    assert beam_cost(5, 10000, 10) == 5 * 10**5


def test_finished_hypotheses_keep_their_place_in_the_beam():
    # as in the model's beam search: k = 2, one finishes at step 0, so only 1 slot is left afterwards
    def next_probs(prefix):
        return {"A": 0.4, EOS: 0.6} if not prefix else {"A": 0.9, EOS: 0.1}

    record = beam_search(next_probs, beam_width=2, max_len=3).record
    assert [c.status for c in record.steps[0].candidates] == ["finished", "kept"]
    assert [sum(c.status != "pruned" for c in s.candidates) for s in record.steps[1:]] == [1, 1]
    assert [h.tokens for h in record.hypotheses] == [[EOS], ["A", "A", "A"]]
    assert record.hypotheses[1].finished is False
    # with a length penalty the longer hypothesis can win: ln(.4·.9·.9)/3^α vs ln(.6)/1
    alpha = beam_search(next_probs, beam_width=2, max_len=3, length_penalty_alpha=2.0).record
    assert alpha.hypotheses[0].tokens == ["A", "A", "A"]


def test_scientific_is_exact_for_big_integers():
    assert scientific(10**40) == (1.0, 40) and scientific(5 * 10**5) == (5.0, 5)


def test_path_factors_multiply_to_the_sequences_probability():
    greedy = greedy_search(course_next_probs, 4)
    factors = path_factors(course_next_probs, greedy.tokens)
    assert factors == [0.5, 0.4, 0.4, 0.6] and math.isclose(math.prod(factors), greedy.prob)


def test_counts_are_written_as_powers_of_ten():
    assert latex_count(exhaustive_count(10_000, 10)) == "10^{40}"
    assert latex_count(beam_cost(5, 10_000, 10)) == r"5 \times 10^{5}"
    assert latex_count(999) == "999"
