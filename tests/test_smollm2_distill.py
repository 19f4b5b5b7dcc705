"""The smollm2 distillation's plumbing: its prompt split and its training loop, without the master.

The held-out alpha only means something if no held-out topic reaches training in either round, and
the second round must leave the first round's shards (and the held-back ones) where they were. The
training loop must lower the loss it reports and resume from its checkpoint where it stopped.
"""
import torch

from tests.test_shared_embedding_draft import llama_master
from training.smollm2 import master_answers, prompts
from training.smollm2.draft_files import draft_from_master
from training.smollm2.train import batches_of, evaluate, fit, head_rows, ship


def test_no_held_out_topic_reaches_either_round():
    _, held = prompts.split_topics()
    trained = prompts.training_prompts() + prompts.extra_training_prompts()
    assert held and len(prompts.extra_training_prompts()) > len(prompts.training_prompts())
    for topic in held:
        assert not any(topic in text for text in trained), topic
    assert not set(held) & set(prompts.EXTRA_TOPICS)


def test_second_round_follows_the_first_without_moving_it():
    first = master_answers.chunks(prompts.training_prompts())
    batches = master_answers.prompt_batches()
    assert batches[: len(first)] == first
    assert batches[len(first)][0] == prompts.extra_training_prompts()[0]      # starts a fresh batch
    assert master_answers.held_back() == [len(first) - 2, len(first) - 1]


def fake_shards(master, vocab_size: int, n: int, top_k: int = 8) -> list[dict]:
    """Shards shaped like the teacher's: random sequences with the master's own top-k after the prompt."""
    g = torch.Generator().manual_seed(4)
    shard = {"sequences": [], "prompt_lens": [], "topk_ids": [], "topk_logp": []}
    for _ in range(n):
        seq = torch.randint(3, vocab_size, (12,), generator=g).tolist()
        with torch.no_grad():
            logp = master(input_ids=torch.tensor([seq])).logits[0, 3:-1].log_softmax(-1)
        top = logp.topk(top_k, dim=-1)
        shard["sequences"].append(seq)
        shard["prompt_lens"].append(4)
        shard["topk_ids"].append(top.indices.to(torch.int32))
        shard["topk_logp"].append(top.values.to(torch.float16))
    return [shard]


def test_fit_lowers_the_loss_and_resumes_where_it_stopped(tiny, tmp_path):
    master = llama_master(tiny.vocab_size)
    vocab_ids = torch.arange(tiny.vocab_size // 2, tiny.vocab_size)          # a head over half the vocabulary
    to_head = head_rows(vocab_ids, tiny.vocab_size)
    shards = fake_shards(master, tiny.vocab_size, 16)
    batches, held = batches_of(shards), batches_of(shards)[0]
    torch.manual_seed(0)
    draft = draft_from_master(master, [0], vocab_ids).train()
    before, _ = evaluate(draft, held, to_head)
    quiet = lambda _: None
    ck_path = tmp_path / "draft.pt"
    first = fit(draft, vocab_ids, batches, held, epochs=20, peak_lr=1e-2, ck_path=ck_path, minutes=None, log=quiet)
    after, _ = evaluate(draft, held, to_head)
    assert first["step"] == 20 * len(batches)
    assert after < before - 0.1
    saved = torch.load(ck_path, weights_only=False)
    assert saved["step"] == first["step"] and saved["finished"] and torch.equal(saved["vocab_ids"], vocab_ids)
    fresh = draft_from_master(master, [0], vocab_ids).train()
    lines = []
    again = fit(fresh, vocab_ids, batches, held, epochs=20, peak_lr=1e-2, ck_path=ck_path, minutes=None, log=lines.append)
    assert lines[0].startswith(f"resumed draft.pt at step {first['step']}")
    assert again["step"] == first["step"]
    assert abs(evaluate(fresh, held, to_head)[0] - after) < 1e-5        # the checkpoint holds the final weights


def test_only_a_run_that_just_finished_replaces_the_shipped_draft(tiny, tmp_path):
    master = llama_master(tiny.vocab_size)
    vocab_ids = torch.arange(tiny.vocab_size // 2, tiny.vocab_size)
    batches = batches_of(fake_shards(master, tiny.vocab_size, 8))
    draft = draft_from_master(master, [0], vocab_ids).train()
    shipped, ck_path, quiet = tmp_path / "shipped", tmp_path / "draft.pt", lambda _: None
    fitting = lambda minutes: fit(draft, vocab_ids, batches, batches[0], 2, 1e-3, ck_path, minutes, quiet)
    stopped = fitting(minutes=0)                     # the time budget is spent before the first step
    assert (stopped["finished"], stopped["ran"]) == (False, 0)
    assert not ship(draft, vocab_ids, stopped, "test", quiet, shipped) and not shipped.exists()
    done = fitting(minutes=None)
    assert done["finished"] and done["ran"] == 2 * len(batches)
    assert ship(draft, vocab_ids, done, "test", quiet, shipped) and (shipped / "model.safetensors").exists()
    (shipped / "model.safetensors").unlink()         # as if calibrated and shipped since
    again = fitting(minutes=None)
    assert again["finished"] and again["ran"] == 0
    assert not ship(draft, vocab_ids, again, "test", quiet, shipped) and not (shipped / "model.safetensors").exists()


def test_all_runs_every_stage_and_samples_each_round_before_training_on_it():
    from training.smollm2.__main__ import STAGES, every_step
    from training.smollm2.train import OWN_ANSWER_ROUNDS
    steps = every_step()
    assert {stage for stage, _ in steps} == set(STAGES) - {"distill-online"}     # all runs on two CPU cores; online wants a GPU
    assert steps[-1][0] == "eval"
    assert steps.index(("distill", 3)) < steps.index(("master-features", 3)) < steps.index(("eagle", 3))   # eagle's head is distill's tokens
    assert steps.index(("distill-own", max(OWN_ANSWER_ROUNDS))) < steps.index(("grow", 3)) < steps.index(("early-exit", 3)) < steps.index(("calibrate", 3))
    for r in OWN_ANSWER_ROUNDS:
        assert steps.index(("own-answers", r)) < steps.index(("distill-own", r))
        assert r == min(OWN_ANSWER_ROUNDS) or steps.index(("distill-own", r - 1)) < steps.index(("own-answers", r))
