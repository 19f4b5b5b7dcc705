"""The on-policy stage's two halves on a tiny Llama (the draft's batched answers and the master's
labels), and how its rounds reach training.

Both batch prompts of different lengths, so padding must change nothing: a greedy batched answer
must equal the same prompt's answer alone, and each label must equal the master's top-k from an
unpadded forward over that one sequence.
"""
import pytest
import torch

from specdec_core.settings import SamplingConfig
from tests.test_shared_embedding_draft import llama_master
from training.smollm2.draft_files import draft_from_master
from training.smollm2.own_answers import draft_answers, master_labels

PROMPTS = [[1, 5, 9, 4], [1, 7, 3, 8, 8, 6, 5], [1, 11]]


def head_and_draft(tiny):
    master = llama_master(tiny.vocab_size)
    vocab_ids = torch.arange(2, tiny.vocab_size)                  # every token but pad and bos
    torch.manual_seed(0)
    return master, vocab_ids, draft_from_master(master, [0], vocab_ids).eval()


def test_batched_greedy_answers_equal_each_prompt_alone(tiny):
    _, vocab_ids, draft = head_and_draft(tiny)
    greedy = SamplingConfig(0.0)
    together = draft_answers(draft, vocab_ids, PROMPTS, tiny.tokenizer, seed=0, max_new_tokens=6, sampling=greedy)
    alone = [draft_answers(draft, vocab_ids, [p], tiny.tokenizer, seed=0, max_new_tokens=6, sampling=greedy)[0]
             for p in PROMPTS]
    assert together == alone
    assert all(0 < len(a) <= 6 for a in together)


def test_sampled_answers_use_head_tokens_stop_at_the_end_token_and_repeat_with_the_seed(tiny):
    _, vocab_ids, draft = head_and_draft(tiny)
    eos = tiny.tokenizer.eos_token_id
    first = draft_answers(draft, vocab_ids, PROMPTS * 4, tiny.tokenizer, seed=7, max_new_tokens=12)
    assert first == draft_answers(draft, vocab_ids, PROMPTS * 4, tiny.tokenizer, seed=7, max_new_tokens=12)
    assert first != draft_answers(draft, vocab_ids, PROMPTS * 4, tiny.tokenizer, seed=8, max_new_tokens=12)
    for answer in first:
        assert set(answer) <= set(vocab_ids.tolist())
        assert eos not in answer[:-1] and (answer[-1] == eos or len(answer) == 12)


def test_labels_equal_the_master_on_each_sequence_alone(tiny):
    master, _, _ = head_and_draft(tiny)
    answers = [[4, 4, 2], [9], [6, 5, 3, 12, 2]]
    shard = master_labels(master, PROMPTS, answers, pad=tiny.tokenizer.pad_token_id)
    assert sorted(shard["sequences"]) == sorted(p + a for p, a in zip(PROMPTS, answers))
    for seq, n, ids, logp in zip(shard["sequences"], shard["prompt_lens"], shard["topk_ids"], shard["topk_logp"]):
        with torch.no_grad():
            alone = master(input_ids=torch.tensor([seq])).logits[0, n - 1:-1].log_softmax(-1)
        top = alone.topk(ids.shape[1], dim=-1)
        assert len(ids) == len(seq) - n
        assert torch.equal(ids.long(), top.indices)
        assert torch.allclose(logp.float(), top.values, atol=2e-2)


def test_answers_to_the_held_back_prompts_stay_out_of_training(monkeypatch, tmp_path):
    from training.smollm2 import master_answers, own_answers
    monkeypatch.setattr(own_answers, "ONPOLICY", tmp_path)
    held = master_answers.held_back()
    written = held + [0, held[-1] + 1]
    for i in written:
        own_answers.shard_path(i).parent.mkdir(exist_ok=True)
        torch.save({"index": i}, own_answers.shard_path(i))
    torch.save({"index": 0}, tmp_path / "elsewhere.pt")
    assert sorted(s["index"] for s in own_answers.load_shards()) == [0, held[-1] + 1]
    assert own_answers.load_shards(round_no=4) == []


def test_a_distill_own_round_waits_for_all_of_its_on_policy_text(monkeypatch, tmp_path):
    from training.smollm2 import own_answers, train
    monkeypatch.setattr(own_answers, "ONPOLICY", tmp_path)
    total = own_answers.missing_shards(4)
    for i in range(3):
        own_answers.shard_path(i, 4).parent.mkdir(exist_ok=True)
        torch.save({"index": i}, own_answers.shard_path(i, 4))
    assert own_answers.missing_shards(4) == total - 3 and own_answers.missing_shards(3) == total
    with pytest.raises(SystemExit, match=f"own-answers --round 4 .* {total - 3} of its shards"):
        train.distill_own(None, 1, round_no=4)
    with pytest.raises(SystemExit, match="rounds 3, 4, not 7"):
        train.distill_own(None, 1, round_no=7)
