"""viz_model.lessons.model_card: the Home page's card rows come from the saved card."""

from viz_model.lessons.model_card import model_card_rows


def test_model_card_rows_come_from_the_card():
    card = {
        "config": {"n_encoder_layers": 2, "n_decoder_layers": 5, "n_heads": 3, "d_model": 12},
        "parameters": 1234567,
        "evaluation": {
            "test_bleu_en2zh": 41.26,
            "everyday_chrf_en2zh": 52.94,
            "everyday_chrf_all_references_en2zh": 60.86,
        },
    }
    rows = dict(model_card_rows(card))
    assert rows["layers"] == "2 + 5" and rows["parameters"] == "1,234,567"
    assert rows["bleu_en2zh"] == "41.3" and rows["bleu_zh2en"] is None  # not measured
    assert rows["norm"] == "post"
    # the everyday chrF against the first reference and against all three, each as measured
    assert rows["everyday_chrf_en2zh"] == "52.9" and rows["everyday_chrf_all_references_en2zh"] == "60.9"
    assert rows["everyday_chrf_all_references_zh2en"] is None


def test_model_card_shows_the_classics_and_coreference_by_kind_when_measured():
    measured = {
        "evaluation": {
            "classics_exact_en2zh": "230/232",
            "classics_exact_zh2en": "232/232",
            "coreference_by_kind_referent_accuracy": 0.9324,
        }
    }
    rows = dict(model_card_rows(measured))
    assert rows["classics"] == "230/232 · 232/232" and rows["coreference_by_kind"] == "93"
    rows = dict(model_card_rows({"evaluation": {"classics_exact_en2zh": "1/2"}}))
    assert rows["classics"] is None and rows["coreference_by_kind"] is None  # one direction is not both
