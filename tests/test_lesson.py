"""The lesson's questions: every revealed answer recomputed here from the model's own numbers (the trace, the
search record, the sinusoid formula, a forward pre-hook that switches a head off, sacrebleu), picks scored
right and wrong, steps that cannot ask on a sentence say so; the page in both languages (AppTest)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from pages.parts.i18n import t
from pages.parts.text import md
from tests.app_harness import errors, open_app, translator
from tests.test_experiment import head_zeroed_by_hook
from viz_model.lessons import lesson
from viz_model.lessons.lesson import STEPS, answered, look_values, question_for, view_params
from viz_model.model.detokenize import detokenize
from viz_model.model.tokenizer import DIRECTIONS, EOS
from viz_model.model.translator import SearchSettings

SENTENCES = [
    ("The little girl put her new red umbrella next to the old wooden door.", "en2zh"),
    ("明天下午我们一起去图书馆吧。", "zh2en"),
]


def asked(name: str, text: str, direction: str):
    """The question of the step `name` (a step's name, or its question's kind), answered."""
    step = next(s for s in STEPS if name in (s.name, s.question))
    translation = translator().translate(text, direction)
    question = question_for(step, translator(), translation, text, direction)
    return answered(question, translator(), text, direction), translation


def position_of(option: str) -> int:
    return int(option.split(":", 1)[0])


@pytest.mark.parametrize("text, direction", SENTENCES)
def test_token_questions_answer_with_the_traces_own_numbers(text, direction):
    q, tr = asked("neighbour", text, direction)
    query = next(i for i, tok in enumerate(tr.trace.source_labels) if tok == q.values["word"])
    E = tr.trace.source_embeddings.astype(np.float64)
    cosine = E @ E[query] / (np.linalg.norm(E, axis=1) * np.linalg.norm(E[query]))
    best = max((position_of(o) for o in q.options), key=lambda p: cosine[p])
    assert {position_of(q.options[i]) for i in q.answers} == {best}
    np.testing.assert_allclose(q.numbers, [cosine[position_of(o)] for o in q.options], atol=1e-5)

    q, tr = asked("head_key", text, direction)
    weights = tr.trace.encoder_layers[q.values["layer"] - 1].self_attention.weights[q.values["head"] - 1]
    query = next(i for i, tok in enumerate(tr.trace.source_labels) if tok == q.values["word"])
    assert position_of(q.options[min(q.answers)]) == int(np.argmax(weights[query]))

    q, tr = asked("cross_key", text, direction)
    row = list(tr.trace.predicted_tokens).index(q.values["word"])
    mean = np.mean([w[row] for w in tr.trace.decoder_layers[-1].cross_attention.weights], axis=0)
    assert position_of(q.options[min(q.answers)]) == int(np.argmax(mean))


def test_the_softmax_question_is_won_by_the_word_itself():
    """Unprojected scaled dot products: a vector is most similar to itself (the reveal's point)."""
    q, tr = asked("softmax_key", *SENTENCES[0])
    x = tr.trace.source_input.astype(np.float64)
    query = next(i for i, tok in enumerate(tr.trace.source_labels) if tok == q.values["word"])
    scores = x @ x[query] / math.sqrt(x.shape[1])
    weights = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
    assert position_of(q.options[min(q.answers)]) == int(np.argmax(weights)) == query
    np.testing.assert_allclose(q.numbers, [weights[position_of(o)] for o in q.options], atol=1e-5)


def test_the_position_question_is_a_tie_of_4_and_6():
    q, _ = asked("position", *SENTENCES[0])
    d = translator().config.d_model
    i = np.arange(0, d, 2)

    def pe(p):  # the course's formula, written here
        angles = p / 10000 ** (i / d)
        return np.stack([np.sin(angles), np.cos(angles)], axis=1).ravel()

    dots = [pe(5) @ pe(p) for p in (3, 4, 6, 9)]
    assert dots[1] == pytest.approx(dots[2]) and max(dots) == pytest.approx(dots[1])
    assert q.options[min(q.answers)] == "tie" and q.is_right(4) and not q.is_right(1)
    np.testing.assert_allclose(q.numbers[:4], dots, rtol=1e-5)


def test_the_head_size_question():
    q, _ = asked("qkv", *SENTENCES[0])
    c = translator().config
    assert q.options[min(q.answers)] == str(c.d_model // c.n_heads)


def test_the_beam_question_names_the_kept_token():
    q, tr = asked("decoding", *SENTENCES[0])
    path = tr.record.best_path_nodes()
    kept = path[q.values["step"] - 1].token
    assert q.options[min(q.answers)] == kept
    assert q.values["prefix"] == " ".join(["<bos>", *[c.token for c in path[: q.values["step"] - 1]]])


@pytest.mark.parametrize("text, direction", SENTENCES)
def test_the_head_off_question_against_a_forward_pre_hook(text, direction):
    q, tr = asked("many_heads", text, direction)
    kind, layer, head = q.values["kind"], q.values["layer"] - 1, q.values["head"] - 1
    with head_zeroed_by_hook(translator().model, kind, layer, head):
        after = translator().translate(text, direction).output_tokens
    changed = after != tr.output_tokens
    assert q.options[min(q.answers)] == ("yes" if changed else "no")


def test_the_head_off_question_is_asked_before_the_model_is_re_run(monkeypatch):
    """The step opens as fast as the others: the head is switched off only for the answer, after the pick."""
    runs = []
    real = lesson.switch_off
    monkeypatch.setattr(lesson, "switch_off", lambda *a, **k: runs.append(a) or real(*a, **k))
    text, direction = SENTENCES[0]
    step = next(s for s in STEPS if s.question == "head_off")
    q = question_for(step, translator(), translator().translate(text, direction), text, direction)
    assert runs == [] and q.answers is None
    with pytest.raises(ValueError):
        q.is_right(0)
    a = answered(q, translator(), text, direction)
    assert len(runs) == 1 and a.answers in ({0}, {1}) and a.reveal["after"]
    assert answered(a, translator(), text, direction) is a and len(runs) == 1


@pytest.mark.parametrize("text, direction", SENTENCES)  # greedy read off the beam (the second), or searched
def test_the_bleu_question_against_sacrebleu(text, direction):
    import sacrebleu

    q, tr = asked("metrics", text, direction)
    tokenize = "zh" if direction == "en2zh" else "13a"
    scores = [sacrebleu.sentence_bleu(o, [q.values["reference"]], tokenize=tokenize).score for o in q.options[:2]]
    right = 2 if scores[0] == scores[1] else int(scores[1] > scores[0])
    assert q.answers == {right}
    greedy = translator().search(text, direction, SearchSettings(beam_width=1)).hypotheses[0].tokens
    assert q.options[0] == detokenize([tok for tok in greedy if tok != EOS], DIRECTIONS[direction][1])


def test_a_question_that_cannot_be_asked_gives_way_to_the_next_sensible_one():
    for name in ("embeddings", "similarity"):
        q, _ = asked(name, "Hi", "en2zh")
        assert q.kind == "position" and q.instead_of == next(s.question for s in STEPS if s.name == name)
    q, _ = asked("one_head", "Hi", "en2zh")
    assert q.kind == "head_key" and q.instead_of is None  # a one-word sentence still has a word to ask about


@pytest.mark.apptest
def test_the_page_says_why_and_asks_the_other_question():
    at = open_app("pages/lesson.py", text="Hi", lstep="1")
    assert errors(at) == []
    notes = "\n".join(i.value for i in at.info)
    assert t("lesson.no_question_neighbour", "en") in notes and t("lesson.instead", "en") in notes
    assert t("lesson.q_position", "en", p=5) in "\n".join(m.value for m in at.markdown)


def test_the_link_of_a_step_names_the_head_asked_about():
    q, _ = asked("one_head", *SENTENCES[0])
    params = view_params(STEPS[3], q)
    assert params["layer"] == str(q.values["layer"]) and params["head"] == str(q.values["head"])
    q, _ = asked("many_heads", *SENTENCES[0])
    assert view_params(STEPS[4], q)["off"] == f"{q.values['kind']}.{q.values['layer']}.{q.values['head']}"


def test_look_lines_are_the_sentences_numbers():
    text, direction = SENTENCES[0]
    tr = translator().translate(text, direction)
    masks = look_values(STEPS[6], translator(), tr)
    T = len(tr.trace.target_tokens)
    assert (masks["T"], masks["hidden"]) == (T, int((~np.tril(np.ones((T, T), bool))).sum()))
    metrics = look_values(STEPS[9], translator(), tr)
    scored = translator().score(text, direction, tr.output_tokens)
    assert float(metrics["ppl"]) == pytest.approx(math.exp(-scored.log_prob / len(scored.log_probs)), abs=0.01)
    norm = look_values(STEPS[7], translator(), tr)
    out = torch.as_tensor(tr.trace.encoder_layers[0].output)
    assert float(norm["std"]) == pytest.approx(out.std(dim=1, unbiased=False).mean().item(), abs=1e-3)


@pytest.mark.apptest
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pick_is_scored_and_revealed_and_the_score_resets(lang):
    text, direction = SENTENCES[0]
    at = open_app("pages/lesson.py", text=text, lang=lang, lstep="6")  # the positions question
    assert errors(at) == []
    (pills,) = [g for g in at.button_group if str(g.key).startswith("lesson.pick")]
    pills.set_value(1).run()  # "4": wrong, 4 and 6 tie
    assert errors(at) == [] and at.error and t("lesson.wrong", lang) in at.error[0].value
    assert t("lesson.score", lang, right=0, n=1) in "\n".join(m.value for m in at.markdown)
    at.session_state["lstep"] = 2  # the head-size question
    at.run()
    (pills,) = [g for g in at.button_group if str(g.key).startswith("lesson.pick")]
    pills.set_value(1).run()  # d_model / h: right
    assert at.success and t("lesson.right", lang) in at.success[0].value
    assert t("lesson.score", lang, right=1, n=2) in "\n".join(m.value for m in at.markdown)
    at.button(key="lesson.reset").click().run()
    assert errors(at) == [] and not at.success
    assert at.query_params["lstep"] == "3"


@pytest.mark.apptest
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_head_off_step_reveals_the_switched_off_translation_after_the_pick(lang):
    text, direction = SENTENCES[1]
    at = open_app("pages/lesson.py", text=text, dir=direction, lang=lang, lstep="5")
    assert errors(at) == [] and not at.success and not at.error  # nothing revealed before the pick
    q, tr = asked("head_off", text, direction)
    kind, layer, head = q.values["kind"], q.values["layer"] - 1, q.values["head"] - 1
    with head_zeroed_by_hook(translator().model, kind, layer, head):
        after = translator().translate(text, direction)
    (pills,) = [g for g in at.button_group if str(g.key).startswith("lesson.pick")]
    pills.set_value(0).run()  # "yes, it changes"
    changed = after.output_tokens != tr.output_tokens
    shown = (at.success if changed else at.error)[0].value
    assert errors(at) == [] and t("lesson.right" if changed else "lesson.wrong", lang) in shown
    assert md(after.output_text or "∅") in shown and "-0.00" not in shown.replace("\\", "")
    assert t("lesson.score", lang, right=int(changed), n=1) in "\n".join(m.value for m in at.markdown)


@pytest.mark.apptest
def test_a_lesson_link_past_the_end_opens_the_first_step():
    at = open_app("pages/lesson.py", text=SENTENCES[0][0], lstep="99")
    assert errors(at) == []
    assert t("lesson.step_embeddings", "en") in "\n".join(h.value for h in at.subheader)


@pytest.mark.apptest
def test_next_steps_from_the_step_shown_whatever_the_slider_sends():
    """Under load the browser has sent a select slider's first option, its default, with a click on Next for a
    slider showing step 6: Next opened step 2. Next moves from the step on the page."""
    at = open_app("pages/lesson.py", text=SENTENCES[0][0], lstep="6")
    assert errors(at) == [] and at.select_slider(key="lstep").value == 5
    at.select_slider(key="lstep").set_value(0)  # what that browser sent, with the click below
    at.button(key="lstep.next").click().run()
    assert errors(at) == [] and at.query_params["lstep"] == "7"
    assert t("lesson.step_masks", "en") in "\n".join(h.value for h in at.subheader)
    at.button(key="lstep.previous").click().run()
    assert errors(at) == [] and at.query_params["lstep"] == "6"
