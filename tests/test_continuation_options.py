"""Two of the continuation's options. Weight averaging (`--average-last`): the saved weights are the mean of the
snapshots, the training itself is unchanged by it, and a resumed run averages what the interrupted one had.
One-way coreference (`--coreference-one-way`): the added coreference pairs teach English → Chinese alone."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest
import torch

from viz_model import corpus
from viz_model.corpus.continuation import continuation_splits, extended_tokenizer
from viz_model.model import checkpoint
from viz_model.training.continuation import ContinuationConfig, continue_training, kept_due, snapshot_due
from viz_model.training.examples import make_examples

FROM_SCRATCH = ["--continue-from", str(checkpoint.FROM_SCRATCH_DIR)]  # the command line's starting model

# Three steps, the last two averaged, a resumable state after every step; every set added once (the recipe's
# repeats only make the epoch longer to tokenize). A high rate moves each weight by far more than its float16
# storage rounds, so a mean of the wrong snapshots cannot pass for the right one.
TINY = ContinuationConfig(
    steps=3,
    peak_lr=5e-3,
    batch_size=8,
    train_pairs=100,
    threads=1,
    warmup_steps=1,
    classics_repeats=1,
    course_repeats=1,
    coreference_repeats=1,
    bf16=False,
    average_last=2,
    average_every=1,
    save_every=1,
)


def test_snapshots_are_every_few_steps_within_the_last_ones_and_always_the_last():
    cfg = ContinuationConfig(steps=10, average_last=4, average_every=2)
    assert [step for step in range(10) if snapshot_due(step, cfg)] == [7, 9]
    cfg = ContinuationConfig(steps=11, average_last=4, average_every=2)
    assert [step for step in range(11) if snapshot_due(step, cfg)] == [7, 9, 10]


def test_kept_checkpoints_are_every_few_steps_within_the_last_ones_and_always_the_last():
    cfg = ContinuationConfig(steps=1000, keep_last=600, keep_every=250)
    assert [step + 1 for step in range(1000) if kept_due(step, cfg)] == [500, 750, 1000]
    assert not any(kept_due(step, ContinuationConfig(steps=1000)) for step in range(1000))
    # A run stopped early keeps (and averages) within its own last steps, its last one included.
    stopped = ContinuationConfig(steps=1000, stop_after=700, keep_last=600, average_last=100, average_every=50)
    assert [step + 1 for step in range(700) if kept_due(step, stopped)] == [250, 500, 700]
    assert [step + 1 for step in range(700) if snapshot_due(step, stopped)] == [650, 700]


def _run(cfg, tmp_path, name, state=None, keep=False):
    out = tmp_path / name
    continue_training(
        checkpoint.FROM_SCRATCH_DIR,
        cfg,
        model_dir=out / "model",
        log=lambda *_: None,
        run_evaluation=False,
        state_file=state or out / "state.pt",
        last_dir=out / "last",
        keep_dir=out / "keep" if keep else None,
    )
    return out


@pytest.mark.slow  # continues training: builds the corpus when no earlier test of its process has
def test_kept_checkpoints_hold_the_weights_of_their_step_not_the_mean(tmp_path):
    run = _run(replace(TINY, keep_last=2, keep_every=1), tmp_path, "kept", keep=True)
    assert sorted(p.name for p in (run / "keep").iterdir()) == ["step-00002", "step-00003"]
    second, _, second_card = checkpoint.load(run / "keep" / "step-00002")
    third, _, third_card = checkpoint.load(run / "keep" / "step-00003")
    last = checkpoint.load(run / "last")[0].state_dict()
    after_two = torch.load(run / "state.pt", weights_only=False)
    assert after_two["step"] == 2
    for name, weight in third.state_dict().items():
        assert torch.equal(weight, last[name])  # the last step's own weights, not the averaged model's
        if weight.is_floating_point():
            assert torch.equal(second.state_dict()[name], after_two["model"][name].to(checkpoint.STORAGE_DTYPE).float())
    assert (second_card["continuation"]["steps_done"], third_card["continuation"]["steps_done"]) == (2, 3)


@pytest.mark.slow  # continues training: builds the corpus when no earlier test of its process has
def test_stopping_after_a_step_writes_the_checkpoint_kept_at_that_step_of_the_whole_schedule(tmp_path):
    plain = replace(TINY, steps=4, average_last=0)
    whole = _run(replace(plain, keep_last=4, keep_every=1), tmp_path, "whole", keep=True)
    stopped = _run(replace(plain, stop_after=3), tmp_path, "stopped")
    three_step_schedule = _run(replace(plain, steps=3), tmp_path, "short")
    kept = checkpoint.load(whole / "keep" / "step-00003")[0].state_dict()
    model, _, card = checkpoint.load(stopped / "model")
    assert (card["continuation"]["steps_done"], card["continuation"]["steps"]) == (3, 4)
    assert all(torch.equal(weight, kept[name]) for name, weight in model.state_dict().items())
    # The learning rate followed the four-step schedule (the third step's rate is the first that tells them
    # apart, after one warm-up step and one at the peak): a three-step schedule ends elsewhere.
    short = checkpoint.load(three_step_schedule / "model")[0].state_dict()
    assert not all(torch.equal(weight, short[name]) for name, weight in model.state_dict().items())


@pytest.mark.slow  # continues training: builds the corpus when no earlier test of its process has
def test_saved_weights_are_the_mean_of_the_snapshots_and_training_is_unchanged(tmp_path):
    averaged_run = _run(TINY, tmp_path, "averaged")
    plain_run = _run(replace(TINY, average_last=0), tmp_path, "plain")
    averaged, _, card = checkpoint.load(averaged_run / "model")
    last, _, last_card = checkpoint.load(averaged_run / "last")
    plain, _, _ = checkpoint.load(plain_run / "model")
    # The last step's weights are the run's without averaging: taking snapshots moved nothing.
    assert all(torch.equal(last.state_dict()[k], v) for k, v in plain.state_dict().items())
    assert not (plain_run / "last").exists()
    # The state after step 2 holds that step's weights (float32); the mean is of them and the last step's.
    before_last = torch.load(averaged_run / "state.pt", weights_only=False)
    assert before_last["step"] == 2
    changed = 0
    for name, weight in averaged.state_dict().items():
        if not weight.is_floating_point():
            continue
        mean = (before_last["model"][name] + last.state_dict()[name]) / 2
        torch.testing.assert_close(weight, mean, rtol=2e-3, atol=1e-5)  # both sides stored in float16
        changed += not torch.equal(weight, last.state_dict()[name])
    assert changed > 50  # most weights moved in the last step, so the mean is not the last step's weights
    assert (card["continuation"]["average_last"], last_card["continuation"]["average_last"]) == (2, 0)


@pytest.mark.slow  # continues training: builds the corpus when no earlier test of its process has
def test_a_resumed_run_averages_the_snapshots_taken_before_it_stopped(tmp_path):
    whole = _run(TINY, tmp_path, "whole")
    # The whole run's state after step 2, its snapshot included, resumed by a new run: one step left, whose
    # batches come from a stream seeded by the step, so its last weights differ from the whole run's.
    shutil.copy(whole / "state.pt", tmp_path / "resume.pt")
    resumed = _run(TINY, tmp_path, "resumed", state=tmp_path / "resume.pt")
    snapshot = torch.load(whole / "state.pt", weights_only=False)["model"]
    averaged, last = (checkpoint.load(resumed / part)[0].state_dict() for part in ("model", "last"))
    for name, weight in averaged.items():
        if weight.is_floating_point():
            torch.testing.assert_close(weight, (snapshot[name] + last[name]) / 2, rtol=2e-3, atol=1e-5)


@pytest.mark.slow  # builds the corpus
def test_one_way_coreference_drops_the_chinese_to_english_side_of_the_added_coreference_alone():
    model, shipped, _ = checkpoint.load()
    tokenizer = extended_tokenizer(shipped)
    base = corpus.split_corpus(corpus.corpus_pairs())
    both, one_way = (continuation_splits(base, tokenizer, 0, flag)["train"] for flag in (False, True))
    assert len(both) == len(one_way)
    changed = [(a, b) for a, b in zip(both, one_way) if a != b]
    added = [p for p in both if p.origin in ("coreference-kinds", "coreference-properties")]
    assert len(changed) == len(added) > 500
    assert all(a.direction == "both" and replace(b, direction="both") == a for a, b in changed)
    # The from-scratch corpus's coreference frames and the classics still go both ways.
    assert any(p.topic == "coreference" and p.origin not in ("coreference-kinds", "coreference-properties")
               and p.direction == "both" for p in one_way)  # fmt: skip
    assert all(p.direction == "both" for p in one_way if p.origin == "classics")
    sample = [b for _, b in changed[:40]]
    examples = make_examples(sample, tokenizer, model.config.max_len)
    assert len(examples) == len(sample) and {e.direction for e in examples} == {"en2zh"}


def test_the_options_reach_the_continuation(monkeypatch, tmp_path):
    from viz_model.training import continuation, train

    seen = []
    monkeypatch.setattr(continuation, "continue_training", lambda base, cfg, **kw: seen.append((cfg, kw)))
    train.main([*FROM_SCRATCH, "--average-last", "2000", "--save-last", str(tmp_path / "last")])
    train.main(FROM_SCRATCH)
    train.main([*FROM_SCRATCH, "--coreference-one-way"])
    train.main([*FROM_SCRATCH, "--keep-last", "2000", "--keep-dir", str(tmp_path / "keep")])
    train.main([*FROM_SCRATCH, "--keep-last", "2000"])  # nowhere to keep them: none kept
    train.main([*FROM_SCRATCH, "--steps", "6500", "--stop-after", "5500"])
    (averaged, kw), (plain, plain_kw), (one_way, _), (kept, kept_kw), (unkept, _), (stopped, _) = seen
    assert (stopped.steps, stopped.stop_after, plain.stop_after) == (6500, 5500, None)
    assert (kept.keep_last, kept_kw["keep_dir"]) == (2000, tmp_path / "keep")
    assert (plain.keep_last, plain_kw["keep_dir"], unkept.keep_last) == (0, None, 0)
    assert (averaged.average_last, kw["last_dir"]) == (2000, tmp_path / "last")
    assert (plain.average_last, plain_kw["last_dir"], plain.coreference_one_way) == (0, None, False)
    assert one_way.coreference_one_way and not averaged.coreference_one_way
