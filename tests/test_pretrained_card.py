"""The Home page's card of the pretrained encoder (issue 42, item 11): every figure read from the model."""

import pytest

from tests.test_pretrained_views import tiny_bert_directory
from viz_model.lessons.model_card import encoder_facts, pretrained_card_rows
from viz_model.model.pretrained import PretrainedEncoder, minilm_path


@pytest.fixture(scope="module", params=["tiny_bert", "minilm"])
def encoder(request, tmp_path_factory):
    if request.param == "minilm":
        return PretrainedEncoder.load(minilm_path(), name="MiniLM")
    return PretrainedEncoder.load(tiny_bert_directory(tmp_path_factory.mktemp("tiny-bert")), name="tiny")


def test_rows_are_the_loaded_models_own_numbers(encoder):
    config, parameters, tokenizer = encoder_facts(encoder)
    c = encoder.model.config
    assert parameters == sum(p.numel() for p in encoder.model.parameters())
    assert tokenizer == "WordPiece"
    assert dict(pretrained_card_rows(config, parameters, tokenizer)) == {
        "architecture": "BertModel",
        "layers": f"{c.num_hidden_layers:,}",
        "heads": f"{c.num_attention_heads:,}",
        "hidden": f"{c.hidden_size:,}",
        "d_ff": f"{c.intermediate_size:,}",
        "parameters": f"{parameters:,}",
        "tokenizer": "WordPiece",
        "vocabulary": f"{c.vocab_size:,}",
        "max_len": f"{c.max_position_embeddings:,}",
    }


def test_minilm_is_six_layers_of_twelve_heads_384_wide():
    rows = dict(pretrained_card_rows(*encoder_facts(PretrainedEncoder.load(minilm_path()))))
    assert (rows["layers"], rows["heads"], rows["hidden"], rows["vocabulary"]) == ("6", "12", "384", "30,522")


def test_missing_fields_are_none():
    rows = dict(pretrained_card_rows({"model_type": "bert"}, None, None))
    assert rows["architecture"] == "bert"
    assert [field for field, value in rows.items() if value is None] == [
        "layers",
        "heads",
        "hidden",
        "d_ff",
        "parameters",
        "tokenizer",
        "vocabulary",
        "max_len",
    ]
