"""The paired comparison of two models on one evaluation set (`evaluate --against`): differences equal
sacrebleu's corpus scores, and the p-value separates a real change from none."""

from __future__ import annotations

import json

import pytest
import sacrebleu

from viz_model.corpus.evalset import load_everyday
from viz_model.training import evaluate
from viz_model.training.significance import change_figures, paired_test

REFERENCES = [
    "The cat sat on the mat.",
    "I would like a cup of tea, please.",
    "We are going to the park after lunch.",
    "She reads a book every evening.",
    "The train leaves at seven in the morning.",
    "My brother plays the guitar very well.",
    "It is raining, so take an umbrella.",
    "They bought a new house near the river.",
    "Please close the window before you leave.",
    "The children are playing in the garden.",
] * 3


def _garbled(sentence: str) -> str:
    words = sentence.rstrip(".").split()
    return " ".join(reversed(words[1:])) + "."


def test_a_system_against_itself_changes_nothing():
    outputs = [_garbled(r) for r in REFERENCES]
    changes = paired_test(outputs, outputs, REFERENCES, "en", samples=100)
    assert [c.metric for c in changes] == ["chrF", "BLEU"]
    assert all(c.difference == 0 and c.baseline == c.candidate > 0 for c in changes)


def test_a_small_change_is_not_significant():
    worse = [_garbled(r) for r in REFERENCES]
    one_better = [REFERENCES[0]] + worse[1:]
    changes = paired_test(worse, one_better, REFERENCES, "en", samples=300)
    assert all(c.difference > 0 and c.p_value > 0.05 for c in changes)  # one sentence in 30: luck, not a change


def test_a_real_improvement_is_measured_as_sacrebleu_scores_it_and_is_significant():
    worse = [_garbled(r) for r in REFERENCES]
    better = list(REFERENCES[:20]) + worse[20:]
    changes = {c.metric: c for c in paired_test(worse, better, REFERENCES, "en", samples=300)}
    chrf = sacrebleu.corpus_chrf(better, [REFERENCES]).score - sacrebleu.corpus_chrf(worse, [REFERENCES]).score
    bleu = sacrebleu.corpus_bleu(better, [REFERENCES]).score - sacrebleu.corpus_bleu(worse, [REFERENCES]).score
    assert changes["chrF"].difference == pytest.approx(chrf, abs=1e-6) and chrf > 10
    assert changes["BLEU"].difference == pytest.approx(bleu, abs=1e-6)
    assert changes["chrF"].p_value < 0.05 and changes["BLEU"].p_value < 0.05
    figures = change_figures("confirm", "zh2en", list(changes.values()))
    assert figures["confirm_chrf_change_zh2en"] == round(chrf, 2)
    assert figures["confirm_chrf_change_zh2en_p"] < 0.05


def test_chinese_bleu_uses_the_chinese_tokenizer():
    references = ["我们明天下午一起去图书馆吧。", "这家店的饺子比那家好吃多了。"] * 5
    candidate = ["我们明天一起去图书馆吧。", "这家店的饺子比那家好吃。"] * 5
    changes = {c.metric: c for c in paired_test(references, candidate, references, "zh", samples=100)}
    expected = sacrebleu.corpus_bleu(candidate, [references], tokenize="zh").score - 100
    assert changes["BLEU"].difference == pytest.approx(expected, abs=1e-6)


def test_unpaired_outputs_are_refused():
    with pytest.raises(ValueError):
        paired_test(["a"], ["a", "b"], ["a"], "en")


@pytest.mark.slow
def test_evaluate_against_the_same_model_reports_no_change(tmp_path, monkeypatch, capsys):
    """`evaluate --confirm --against DIR --json`: the same model on both sides changes nothing, on a small copy
    of the confirmation set; without a set --against is refused."""
    lines = evaluate.CONFIRM_FILE.read_text(encoding="utf-8").splitlines()
    picked = [line for d in ("en2zh", "zh2en") for line in [x for x in lines[1:] if f"\t{d}\t" in x][:3]]
    small = tmp_path / "confirm.tsv"
    small.write_text("\n".join([lines[0], *picked]) + "\n", encoding="utf-8")
    monkeypatch.setattr(evaluate, "CONFIRM_FILE", small)
    monkeypatch.setattr(evaluate, "CONFIRM_MISSES_FILE", tmp_path / "misses.tsv")
    from viz_model.model import checkpoint

    evaluate.main(["--confirm", "--json", "--against", str(checkpoint.MODEL_DIR)])
    result = json.loads(capsys.readouterr().out)
    assert len(load_everyday(small)) == 6
    for direction in ("en2zh", "zh2en"):
        for metric in ("chrf", "bleu"):
            assert result[f"confirm_{metric}_change_{direction}"] == 0
            assert 0 < result[f"confirm_{metric}_change_{direction}_p"] <= 1
    with pytest.raises(SystemExit):
        evaluate.main(["--json", "--against", str(checkpoint.MODEL_DIR)])
