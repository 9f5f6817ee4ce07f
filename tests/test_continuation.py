"""The continuation phase and what it adds: the classroom classics, coreference by kind, a grown vocabulary.

Unit tests read the files and the generator; the slow ones build the corpus (the continuation's splits, two
short runs that must be equal) or translate with the shipped model (every classic exact, coreference by kind
on its held-out split).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import replace
from functools import partial

import pytest
import torch
import torch.nn.functional as F

from viz_model import corpus
from viz_model.corpus import coreference
from viz_model.corpus.continuation import (
    continuation_pairs,
    continuation_splits,
    extended_tokenizer,
    load_classics,
    new_tokens,
)
from viz_model.corpus.evalset import CONFIRM_FILE, DEV_FILE, held_out_keys, load_everyday, normalise
from viz_model.corpus.everyday import COREF_FRAMES
from viz_model.corpus.grammar import SentencePair
from viz_model.model import checkpoint
from viz_model.model.tokenizer import Tokenizer
from viz_model.training.continuation import (
    ContinuationConfig,
    continue_training,
    extended_model,
    learning_rate,
    shared_tokens,
)
from viz_model.training.loss import training_loss
from viz_model.training.precision import bf16_is_faster

FROM_SCRATCH = ["--continue-from", str(checkpoint.FROM_SCRATCH_DIR)]  # the command line's starting model

SLOW_FIXTURES = ("splits",)


# ---- the classics file ----------------------------------------------------------------------------------
def test_classics_are_many_sourced_and_one_translation_each():
    rows = load_classics()
    assert len(rows) >= 150
    assert all(en and zh and source for en, zh, source in rows)
    english = Counter(normalise(en) for en, _, _ in rows)
    chinese = Counter(normalise(zh) for _, zh, _ in rows)
    assert max(english.values()) == 1 and max(chinese.values()) == 1
    # The kinds the issue names are there: the paper's title, a pangram, a garden path, Winograd pairs, a
    # saying with its fixed Chinese.
    texts = {en: zh for en, zh, _ in rows}
    assert texts["Attention is all you need."] and texts["Time flies like an arrow."] == "光阴似箭。"
    sources = " ".join(source.lower() for _, _, source in rows)
    for kind in ("pangram", "garden path", "winograd", "proverb", "chomsky"):
        assert kind in sources, kind
    assert sum("winograd" in s.lower() for _, _, s in rows) >= 20


def test_classics_share_no_sentence_with_any_evaluation_set():
    banned = held_out_keys()
    assert banned  # the filter is real: the everyday and development sets are read
    leaked = [en for en, zh, _ in load_classics() if normalise(en) in banned or normalise(zh) in banned]
    assert not leaked, leaked
    for pair in load_everyday() + load_everyday(DEV_FILE) + load_everyday(CONFIRM_FILE):
        assert normalise(pair.en) not in {normalise(en) for en, _, _ in load_classics()}


def test_a_classic_that_is_a_course_sentence_has_the_course_translation():
    # The course's translation is the one evaluated (course 19 / 19); a classic with another would take the
    # course pair's place in training (one translation per sentence) and cost it.
    course = {normalise(p.en): normalise("".join(p.zh_tokens)) for p in corpus.COURSE_SENTENCES}
    clashes = [(en, zh) for en, zh, _ in load_classics() if course.get(normalise(en), normalise(zh)) != normalise(zh)]
    assert not clashes, clashes
    assert any(normalise(en) in course for en, _, _ in load_classics())  # the check meets a shared sentence


# ---- coreference by kind --------------------------------------------------------------------------------
def _old_frame_words() -> set[str]:
    words = set()
    for frame in COREF_FRAMES:
        for key in ("subjects", "objects"):
            words |= {en for en, _ in frame[key]}
        for key in ("subject_adjs", "object_adjs"):
            words |= {f"too {en}" for en, _ in frame[key]}
    return words


def test_held_out_coreference_is_disjoint_from_training_by_noun_and_deciding_word():
    held = coreference.held_out_pairs()
    train = coreference.training_pairs()
    assert len(held) >= 100 and len(train) >= 1000
    held_words = {w for p in held for w in (p.subject, p.object, p.word)}
    train_words = {w for p in train for w in (p.subject, p.object, p.word)}
    assert not held_words & train_words
    assert not held_words & _old_frame_words()  # the older frames are coreference training too
    # Nor does any Winograd classic (coreference training too) use a held-out noun or deciding word.
    winograd = [en.lower() for en, _, source in load_classics() if "winograd" in source.lower()]
    assert len(winograd) >= 20
    for word in held_words:
        assert not [en for en in winograd if re.search(rf"\b{word}\b", en)], word
    # Both readings of every noun pair, in held-out and training alike (a person's "it" only held out).
    for pairs in (held, [p for p in train if not p.of_a_person]):
        readings: dict[tuple, set] = {}
        for p in pairs:
            readings.setdefault((p.phrase.en[1], p.subject, p.object), set()).add(p.reading)
        assert all(r == {"subject", "object"} for r in readings.values())


def test_people_are_subjects_read_as_he_or_she():
    """ "the boy didn't eat the soup because he was too tired ." → …因为他太累了。: a person subject is "he" / "she"
    and 他 / 她, never "it" and 它; an "it" after a person is the object, named. Without people every deciding
    word after "because" is learnt with 它, and a model writes 它 for "he"."""
    people = {en: pronouns for en, _, pronouns in coreference.PEOPLE}
    # Training has a person's subject reading only (its "it" is always the object, which would tip "it" toward
    # the object for animals too); the held-out split measures both.
    readings = {("he", "subject"), ("she", "subject")}
    for pairs, expected in (
        (coreference.training_pairs(), readings),
        (coreference.held_out_pairs(), readings | {("it", "object")}),
    ):
        of_people = [p for p in pairs if p.subject in people]
        assert {(p.pronoun, p.reading) for p in of_people} == expected
        for p in of_people:
            assert p.pronoun in people[p.subject] or p.pronoun == "it"
            assert p.phrase.en[p.phrase.en.index("because") + 1] == p.pronoun
            if p.reading == "subject":
                assert p.referent == {"he": "他", "she": "她"}[p.pronoun]
            else:
                assert p.main_clause.endswith(p.referent) and p.referent not in ("他", "她")
            assert "它" not in p.phrase.zh
    train = coreference.training_pairs()
    by_people = [p for p in train if p.subject in people]
    # Enough to keep 他 / 她, few enough that the animals still teach the referent; the animals' pairs are
    # drawn as they were without people.
    assert 0.05 * len(train) <= len(by_people) <= 0.2 * len(train)
    assert train[: len(train) - len(by_people)] == [p for p in train if not p.of_a_person]
    assert {p.subject for p in by_people} == set(people) - coreference.HELD_OUT_NOUNS


def test_training_pairs_say_a_frame_with_several_verbs_and_held_out_pairs_with_its_own(monkeypatch):
    """ "couldn't carry / push / pull / move": with one "couldn't" verb a frame, a continuation wrote 追不上 and
    搬不动 for "couldn't see" and "couldn't finish". The verb is drawn apart from what is said: the nouns, words
    and readings are those the frames' own verbs give, both readings of a noun pair share a verb, and the held-out
    split keeps each frame's own."""
    train = coreference.training_pairs()
    own = {" ".join(f.en.split()[2:4]) for f in coreference.FRAMES}
    verbs = Counter(" ".join(p.phrase.en[2:4]) for p in train)
    assert {"couldn't push", "couldn't keep", "wouldn't eat", "didn't finish"} <= set(verbs)
    assert all(verbs[v] > max(n for u, n in verbs.items() if u not in own) / 2 for v in own - {"didn't drink"})
    assert {" ".join(p.phrase.en[2:4]) for p in coreference.held_out_pairs()} == own
    said_with: dict[tuple, set] = {}
    for p in train:
        said_with.setdefault((p.subject, p.object), set()).add(" ".join(p.phrase.en[2:4]))
    assert all(len(v) == 1 for v in said_with.values())

    def meaning(pairs):
        return [(p.subject, p.object, p.word, p.reading, p.pronoun) for p in pairs]

    monkeypatch.setattr(coreference, "FRAMES", [replace(f, variants=()) for f in coreference.FRAMES])
    assert meaning(coreference.training_pairs()) == meaning(train)


def test_frame_verbs_are_the_frames_cant_verbs_with_their_english():
    verbs = coreference.frame_verbs()
    assert verbs["搬不动"] == "carry" and verbs["追不上"] == "catch" and verbs["放不进"] == "fit in"
    assert verbs["跟不上"] == "keep up with" and "不肯吃" not in verbs


def test_property_pairs_say_what_each_word_describes_without_it_or_a_held_out_noun():
    """ "the dog was too sleepy ." → 狗太困了。: every deciding word, held-out ones too, with the nouns of the kinds
    it can describe; never "it" or "because", never a held-out noun, so the held-out split still meets its
    words in no coreference sentence."""
    pairs = coreference.property_pairs()
    assert {p.word for p in pairs} >= coreference.HELD_OUT_WORDS
    for p in pairs:
        assert not {"it", "because"} & set(p.phrase.en) and "因为" not in p.phrase.zh
        assert p.subject not in coreference.HELD_OUT_NOUNS
    # What a word describes follows its kind: "too full" is 饱 of an animal and 满 of a container.
    by_en = {" ".join(p.phrase.en): "".join(p.phrase.zh) for p in pairs}
    assert by_en["the dog was too full ."] == "狗太饱了。" and by_en["the box was too full ."] == "盒子太满了。"
    assert by_en["the cat was too sleepy ."] == "猫太困了。" and "the box was too sleepy ." not in by_en
    assert by_en["the soup was too sour ."] == "汤太酸了。" and "the dog was too sour ." not in by_en


def test_coreference_chinese_follows_the_convention():
    """Subject reading: 它 (他 / 她 for a person); object reading: the object's noun, never a pronoun."""
    for p in coreference.held_out_pairs()[:60] + coreference.training_pairs()[:60]:
        zh = " ".join(p.phrase.zh)
        if p.reading == "subject":
            assert p.referent == coreference.PRONOUNS[p.pronoun]
        else:
            obj = zh.split(" ， ")[0].split()[-1]
            assert p.referent == obj != "它"


def test_a_deciding_word_is_said_as_the_classics_say_it():
    """A classic with a deciding word ("because he was so weak") writes it as the generator does (太虚弱了):
    generated pairs saying it otherwise (太弱了, 269 pairs × 14 passes an epoch) outvote the classic's 400 passes."""
    said: dict[str, set[str]] = {}
    for frame in coreference.FRAMES:
        for en, zh in frame.subject_words + frame.object_words:
            said.setdefault(en.removeprefix("too "), set()).add(zh.replace(" ", ""))
    met = []
    for en, zh, _ in load_classics():
        for word in re.findall(r"\b(?:so|too) (\w+)", en.lower()):
            written = re.findall(r"太.+?了", zh)
            if word in said and written:
                met.append(word)
                assert written[-1] in said[word], (en, zh, said[word])
    assert {"weak", "heavy", "small", "tired"} <= set(met)  # the Winograd pairs that use generator words


def test_main_clause_variants_list_the_reference_and_its_equals():
    assert coreference.main_clause_variants("狮子没吃沙拉") == {"狮子没吃沙拉", "狮子没有吃沙拉"}
    assert "吉他放不下篮子" in coreference.main_clause_variants("吉他放不进篮子")
    assert "狮子吃沙拉" not in coreference.main_clause_variants("狮子没吃沙拉")


# ---- a vocabulary that grows without moving anything -----------------------------------------------------
def test_shared_latin_tokens_may_be_written_in_chinese_and_are_stored(tmp_path):
    """ "Transformer完全基于注意力机制。": the English → Chinese search may keep a Latin term the Chinese side
    of the training pairs writes (more often than the English side: "the" quoted in Chinese is not one), and
    no other English word; the list survives save and load."""
    vocab = ["<pad>", "<bos>", "<eos>", "<unk>", "<2zh>", "<2en>", "the", "Transformer", "bert", "猫", "。"]
    pairs = [
        SentencePair(("the", "transformer"), ("Transformer", "。"), "classics", "both", (), "classics"),
        SentencePair(("the", "word", "the"), ("the", "这个", "词"), "phrasebook", "both", (), "phrasebook"),
    ]
    tokenizer = Tokenizer(vocab, shared_tokens(pairs))
    assert tokenizer.shared == ["Transformer"]
    foreign = {tokenizer.vocab[i] for i in tokenizer.foreign_ids(tokenizer.token_to_id["<2zh>"])}
    assert foreign == {"the", "bert"}
    assert {tokenizer.vocab[i] for i in tokenizer.foreign_ids(tokenizer.token_to_id["<2en>"])} == {"猫", "。"}
    tokenizer.save(tmp_path / "vocab.json")
    loaded = Tokenizer.load(tmp_path / "vocab.json")
    assert loaded.shared == ["Transformer"] and loaded.foreign_ids(4) == tokenizer.foreign_ids(4)
    assert Tokenizer(vocab).foreign_ids(4) != tokenizer.foreign_ids(4)  # without the list, it is forbidden


def test_extended_tokenizer_appends_and_keeps_every_id():
    base = Tokenizer(["<pad>", "<bos>", "<eos>", "<unk>", "<2zh>", "<2en>", "the", "cat", "。", "猫"])
    texts = [("The cat sat.", "猫坐着。", "classics", "classics")]
    added = new_tokens(base, texts)
    assert added == sorted({"sat", ".", "坐", "着"})
    grown = Tokenizer(base.vocab + added)
    assert all(grown.token_to_id[t] == i for i, t in enumerate(base.vocab))
    assert not grown.split("The cat sat.")[1] and not grown.split("猫坐着。")[1]


def test_extended_model_computes_what_the_shipped_model_did_on_old_tokens():
    model, tokenizer, _ = checkpoint.load()
    grown = extended_model(model, len(tokenizer) + 7, seed=0).eval()
    src = torch.tensor([tokenizer.encode_source("I saw a saw.", "zh", model.config.max_len).ids])
    dec = torch.tensor([[tokenizer.bos_id, tokenizer.token_to_id["我"]]])
    with torch.no_grad():
        old, new = model(src, dec), grown(src, dec)
    assert new.shape[-1] == old.shape[-1] + 7
    torch.testing.assert_close(new[..., : old.shape[-1]], old)


def test_continuation_learning_rate_warms_up_then_decays_to_its_floor():
    cfg = ContinuationConfig(steps=1000, warmup_steps=100)
    assert learning_rate(0, cfg) == pytest.approx(cfg.peak_lr / 100)
    assert learning_rate(99, cfg) == pytest.approx(cfg.peak_lr)
    assert learning_rate(999, cfg) == pytest.approx(cfg.peak_lr * cfg.final_lr_fraction, rel=1e-3)


# ---- slow: the splits, the runs, the shipped model --------------------------------------------------------
@pytest.fixture(scope="module")
def splits():
    _, shipped, card = checkpoint.load()
    seed = card.get("continuation", {}).get("seed", 0)
    tokenizer = extended_tokenizer(shipped, seed)  # a continued model's own already reads them: nothing added
    base = corpus.split_corpus(corpus.corpus_pairs())
    return base, continuation_splits(base, tokenizer, seed), tokenizer


def test_continuation_adds_to_training_only_and_keeps_one_translation_per_sentence(splits):
    base, grown, tokenizer = splits
    assert grown["validation"] == base["validation"] and grown["test"] == base["test"]
    added = [p for p in grown["train"] if p.origin in ("classics", "coreference-kinds", "coreference-properties")]
    assert len([p for p in added if p.origin == "classics"]) == len(load_classics())
    held = {normalise(s) for name in ("validation", "test") for p in base[name] for s in (p.en, p.zh)}
    assert not [p for p in added if normalise(p.en) in held or normalise(p.zh) in held]
    banned = held_out_keys()
    assert not [p for p in grown["train"] if normalise(p.en) in banned or normalise(p.zh) in banned]
    english = Counter(normalise(p.en) for p in grown["train"])
    for p in added:
        assert english[normalise(p.en)] == 1, p.en  # a base pair with another translation gave way
    held_out = {" ".join(p.phrase.en) for p in coreference.held_out_pairs()}
    assert not [p for p in grown["train"] if " ".join(p.en_tokens) in held_out]
    assert continuation_pairs(tokenizer)  # the shipped tokenizer reads every added pair


def test_continuation_is_deterministic_given_seed_and_checkpoint(splits, tmp_path):
    # Each repeated set once: the recipe's repeats (classics 500×, course 300×) only make the epoch longer
    # to tokenize, and the determinism under test does not depend on them.
    cfg = ContinuationConfig(
        steps=3,
        batch_size=8,
        train_pairs=300,
        threads=1,
        warmup_steps=1,
        classics_repeats=1,
        course_repeats=1,
        coreference_repeats=1,
        distillation=0.5,  # the starting model's teaching is deterministic too
        bf16=False,
    )
    runs = [
        continue_training(checkpoint.FROM_SCRATCH_DIR, c, model_dir=None, log=lambda *_: None, run_evaluation=False)
        for c in (cfg, cfg, replace(cfg, bf16=True), replace(cfg, bf16=True), replace(cfg, bf16=None))
    ]
    first, second, bf16, bf16_again, by_cpu = (model.state_dict() for model, _, _ in runs)
    assert all(torch.equal(first[k], second[k]) for k in first)
    # bfloat16 products are deterministic too, they change the weights, and the card says which ran; left
    # undecided, the CPU decides (bfloat16 where it has AMX).
    assert all(torch.equal(bf16[k], bf16_again[k]) for k in bf16)
    assert not all(torch.equal(first[k], bf16[k]) for k in first)
    assert [card["continuation"]["bf16"] for _, _, card in runs] == [False, False, True, True, bf16_is_faster()]
    assert all(torch.equal(by_cpu[k], (bf16 if bf16_is_faster() else first)[k]) for k in first)
    start, _, _ = checkpoint.load(checkpoint.FROM_SCRATCH_DIR)
    assert not torch.equal(
        first["encoder_layers.0.self_attention.w_q.weight"],
        start.state_dict()["encoder_layers.0.self_attention.w_q.weight"],
    )


def _continued_card() -> dict:
    card = checkpoint.load()[2]
    if "continuation" not in card:
        pytest.skip("the shipped model was trained without the continuation phase (its card records none)")
    return card


def test_the_shipped_model_was_continued_from_the_from_scratch_checkpoint_kept_beside_it():
    card = _continued_card()
    kept = checkpoint.FROM_SCRATCH_DIR / checkpoint.CHECKPOINT_FILE
    assert card["continuation"]["base_checkpoint_sha256"] == checkpoint.sha256(kept)
    assert "continuation" not in checkpoint.load(checkpoint.FROM_SCRATCH_DIR)[2]  # trained from scratch itself


@pytest.mark.slow
def test_every_classic_translates_exactly():
    from viz_model.training.evaluate import evaluate_classics, training_splits

    card = _continued_card()
    model, tokenizer, _ = checkpoint.load()
    train = training_splits(card, tokenizer)["train"]  # the continued model's own, read by its tokenizer
    result = evaluate_classics(model, tokenizer, train, log=lambda *_: None)
    n = len(load_classics())
    assert result["classics_exact_en2zh"] == f"{n}/{n}", result["classics_misses"][:10]
    assert result["classics_exact_zh2en"] == f"{n}/{n}", result["classics_misses"][:10]


@pytest.mark.slow
def test_coreference_by_kind_generalises_to_held_out_nouns_and_words():
    from viz_model.training.coreference_eval import evaluate_coreference_by_kind
    from viz_model.training.evaluate import translate_tokens

    _continued_card()
    model, tokenizer, _ = checkpoint.load()
    to_chinese = partial(translate_tokens, model, tokenizer, target_language="zh")
    result = evaluate_coreference_by_kind(to_chinese, log=lambda *_: None)
    assert result["coreference_by_kind_sentences"] >= 100
    assert result["coreference_by_kind_referent_accuracy"] >= 0.90
    assert result["coreference_by_kind_main_clause_accuracy"] >= 0.80
    assert result["coreference_by_kind_person_accuracy"] >= 0.90


def test_training_loss_mixes_cross_entropy_with_the_starting_models_distribution():
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(3, 4, 7, generator=g)  # (B, T, V): a grown vocabulary of 7 tokens
    teacher = torch.randn(2, 4, 5, generator=g)  # the starting model's 5 tokens, on the rows taught
    targets = torch.tensor([[1, 2, 0, 0], [3, 4, 5, 0], [6, 1, 2, 3]])  # 0 = <pad>
    taught = torch.tensor([True, False, True])
    plain = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=0, label_smoothing=0.1)
    assert torch.allclose(training_loss(logits, targets, 0, 0.1), plain)
    assert torch.allclose(training_loss(logits, targets, 0, 0.1, 0.0, teacher, taught), plain)
    # Oracle: torch's own kl_div, token by token, over the teacher's tokens of the model's log-probabilities.
    ce = F.cross_entropy(logits.transpose(1, 2), targets, ignore_index=0, label_smoothing=0.1, reduction="none")
    log_q = logits.log_softmax(-1)[taught][..., :5]
    kl = F.kl_div(log_q, teacher.log_softmax(-1), log_target=True, reduction="none").sum(-1)
    mixed = ce.clone()
    mixed[taught] = 0.7 * ce[taught] + 0.3 * kl
    expected = mixed[targets != 0].mean()
    assert torch.allclose(training_loss(logits, targets, 0, 0.1, 0.3, teacher, taught), expected)
    assert not torch.allclose(expected, plain)


def test_only_pairs_the_starting_model_learnt_are_taught_by_it():
    from viz_model.model.config import ModelConfig
    from viz_model.model.transformer import Transformer
    from viz_model.training.examples import Example
    from viz_model.training.loss import teacher_view

    teacher = Transformer(ModelConfig(vocab_size=20, d_model=16, n_heads=2, d_ff=32)).eval()
    batch = [
        Example([5, 6, 2], [7, 8], "en2zh"),  # learnt
        Example([5, 9, 2], [10, 11], "en2zh"),  # an added pair's target: learnt from its reference alone
        Example([5, 21, 2], [7, 8], "en2zh"),  # a token the starting vocabulary lacks
    ]
    src = torch.tensor([e.source_ids for e in batch])
    dec_in = torch.tensor([[1, *e.target_ids] for e in batch])
    taught, logits = teacher_view(teacher, batch, src, dec_in, {(10, 11)}, 0.5)
    assert taught.tolist() == [True, False, False]
    with torch.inference_mode():
        assert torch.equal(logits, teacher(src[:1], dec_in[:1]))
    assert teacher_view(teacher, batch, src, dec_in, {(10, 11)}, 0.0) == (None, None)


@pytest.mark.slow  # continues training: builds the corpus when no earlier test of its process has
def test_the_controls_leave_frozen_weights_and_train_on_the_from_scratch_split_alone(tmp_path):
    """`--freeze encoder_layers --no-added-pairs`: the encoder stays as shipped while the decoder moves, and the
    training split is the from-scratch one (here a 100-pair sample of it), nothing added."""
    cfg = ContinuationConfig(
        steps=2, batch_size=8, train_pairs=100, threads=1, warmup_steps=1, added_pairs=False, frozen=("encoder_layers",)
    )
    model, _, card = continue_training(
        checkpoint.FROM_SCRATCH_DIR, cfg, model_dir=None, log=lambda *_: None, run_evaluation=False
    )
    start = checkpoint.load(checkpoint.FROM_SCRATCH_DIR)[0].state_dict()
    after = model.state_dict()
    encoder = [k for k in after if k.startswith("encoder_layers") and after[k].is_floating_point()]
    assert encoder and all(torch.equal(after[k], start[k]) for k in encoder)
    assert not torch.equal(
        after["decoder_layers.0.cross_attention.w_q.weight"], start["decoder_layers.0.cross_attention.w_q.weight"]
    )
    assert card["corpus"]["train"] == 100 and card["continuation"]["added_pairs"] is False


def test_the_continuation_options_reach_its_config(monkeypatch):
    from viz_model.training import continuation, train

    seen = []
    monkeypatch.setattr(continuation, "continue_training", lambda base, cfg, **kw: seen.append(cfg))
    train.main([*FROM_SCRATCH, "--no-added-pairs", "--peak-lr", "3e-5", "--freeze", "encoder_layers"])
    (cfg,) = seen
    assert (cfg.added_pairs, cfg.peak_lr, cfg.frozen, cfg.steps) == (
        False,
        3e-5,
        ("encoder_layers",),
        ContinuationConfig.steps,
    )
    assert (cfg.course_repeats, cfg.coreference_repeats) == (
        train.TrainConfig.course_repeats,
        train.TrainConfig.coreference_repeats,
    )
    train.main([*FROM_SCRATCH, "--phrasebook-repeats", "8"])
    assert seen[-1].phrasebook_repeats == 8 and seen[-1].added_pairs and seen[-1].bf16 is None
    assert seen[-1].added_phrasebook_repeats == 0  # a recipe without the option leaves the added phrasebook out
    train.main([*FROM_SCRATCH, "--added-phrasebook-repeats", "6"])
    assert seen[-1].added_phrasebook_repeats == 6
    train.main([*FROM_SCRATCH, "--classics-repeats", "250", "--coreference-repeats", "4"])
    assert (seen[-1].classics_repeats, seen[-1].coreference_repeats, seen[-1].winograd_repeats) == (250, 4, None)
    train.main([*FROM_SCRATCH, "--classics-repeats", "250", "--winograd-repeats", "500"])
    assert (seen[-1].classics_repeats, seen[-1].winograd_repeats) == (250, 500)
    train.main([*FROM_SCRATCH, "--float32"])
    assert seen[-1].bf16 is False
    train.main([*FROM_SCRATCH, "--bf16"])
    assert seen[-1].bf16 is True
    with pytest.raises(SystemExit):
        train.main([*FROM_SCRATCH, "--bf16", "--float32"])
    with pytest.raises(SystemExit):
        train.main(["--peak-lr", "3e-5"])  # a continuation option without --continue-from


@pytest.mark.slow  # continues training: builds the corpus when no earlier test of its process has
def test_more_phrasebook_passes_add_that_many_copies_of_its_examples_to_the_epoch():
    epochs = {}
    for repeats in (5, 8):
        cfg = ContinuationConfig(steps=1, batch_size=8, train_pairs=300, threads=1, warmup_steps=1,
                                 phrasebook_repeats=repeats)  # fmt: skip
        _, _, card = continue_training(
            checkpoint.FROM_SCRATCH_DIR, cfg, model_dir=None, log=lambda *_: None, run_evaluation=False
        )
        epochs[repeats] = card["continuation"]["examples_per_epoch"]
    sample = random.Random(cfg.seed + 3).sample(corpus.split_corpus(corpus.corpus_pairs(seed=0), seed=0)["train"], 300)
    phrasebook = [p for p in sample if p.origin == "phrasebook"]
    assert phrasebook
    per_pass = sum(1 if p.direction != "both" else 2 for p in phrasebook)
    assert epochs[8] - epochs[5] == 3 * per_pass


@pytest.mark.slow  # continues training: builds the corpus when no earlier test of its process has
def test_winograd_repeats_add_passes_over_the_winograd_classics_alone():
    epochs = {}
    for winograd in (None, 260):
        cfg = ContinuationConfig(steps=1, batch_size=8, train_pairs=300, threads=1, warmup_steps=1,
                                 classics_repeats=250, winograd_repeats=winograd)  # fmt: skip
        _, _, card = continue_training(
            checkpoint.FROM_SCRATCH_DIR, cfg, model_dir=None, log=lambda *_: None, run_evaluation=False
        )
        epochs[winograd] = card["continuation"]["examples_per_epoch"]
    winograd_rows = [row for row in load_classics() if row[2].startswith("Winograd schema")]
    assert len(winograd_rows) >= 28
    # ten more passes over each Winograd pair, both directions; no other classic changes
    assert epochs[260] - epochs[None] == 10 * 2 * len(winograd_rows)
