"""Online distillation (training/smollm2/distill_online.py), on a tiny random Llama master.

The loss must be least, at the entropy of the master's distribution renormalised over the head,
for a rung that reproduces the master's logits on its head; alpha must be 1 for a rung whose head
covers the vocabulary with the master's logits, and the overlap computed by hand otherwise;
training must move the layers the two rungs share, once, and never the master's embedding; the
training prompts must leave out every prompt that calibration, the copy-scores fit, the eval and
the benchmark read.
"""
from types import SimpleNamespace

import pytest
import torch

from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.pairs.smollm2 import EXAMPLE_PROMPTS
from tests.test_shared_embedding_draft import llama_master
from training.smollm2 import copy_scores, distill_online
from training.smollm2.calibrate import SETTING
from training.smollm2.distill_online import (
    batch_loss,
    online_prompts,
    padded,
    planned_steps,
    trainable,
    validation_alpha,
)
from training.smollm2.draft_files import draft_from_master
from training.smollm2.evaluate import SEEN_STRIDE
from training.smollm2.master_answers import chunks, held_back
from training.smollm2.prompts import (
    TEMPLATES,
    UNSEEN_TOPICS,
    held_out_prompts,
    training_prompts,
    unseen_topic_prompts,
)

VOCAB = 48


class MastersHead(torch.nn.Module):
    """A rung whose logits are the master's on the head's tokens, shifted per token by ``shift``."""

    def __init__(self, master, vocab_ids: torch.Tensor, shift: torch.Tensor | None = None):
        super().__init__()
        self.master, self.vocab_ids = master, vocab_ids
        self.shift = torch.zeros(len(vocab_ids)) if shift is None else shift

    def forward(self, input_ids, attention_mask):
        logits = self.master(input_ids=input_ids, attention_mask=attention_mask).logits[..., self.vocab_ids]
        return SimpleNamespace(logits=logits + self.shift)


@pytest.fixture(scope="module")
def master():
    return llama_master(VOCAB)


@pytest.fixture(scope="module")
def answers():
    generator = torch.Generator().manual_seed(4)
    return [(torch.randint(3, VOCAB, (length,), generator=generator).tolist(), start)
            for length, start in [(12, 4), (9, 5), (15, 3), (7, 6)]]


def test_padding_marks_the_positions_that_predict_answer_tokens():
    ids, mask, predicts = padded([([5, 6, 7, 8, 9], 3), ([5, 6, 7], 2)], "cpu")
    assert ids.tolist() == [[5, 6, 7, 8, 9], [5, 6, 7, 0, 0]]
    assert mask.tolist() == [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]
    assert predicts.tolist() == [[False, False, True, True, False], [False, True, False, False, False]]


def head_entropy(master, vocab_ids, answers) -> torch.Tensor:
    ids, mask, predicts = padded(answers, "cpu")
    p = master(input_ids=ids, attention_mask=mask).logits[predicts].softmax(-1)[:, vocab_ids]
    p = p / p.sum(-1, keepdim=True)
    return -(p * p.log()).sum(-1).mean()


@torch.no_grad()
def test_the_loss_is_least_for_a_rung_that_copies_the_master_on_its_head(master, answers):
    vocab_ids = torch.arange(10, VOCAB)
    entropy = head_entropy(master, vocab_ids, answers)
    copy = MastersHead(master, vocab_ids)
    shifted = MastersHead(master, vocab_ids, torch.randn(len(vocab_ids), generator=torch.Generator().manual_seed(1)))
    torch.testing.assert_close(batch_loss(master, [copy], vocab_ids, answers), entropy)
    torch.testing.assert_close(batch_loss(master, [copy, copy], vocab_ids, answers), 2 * entropy)   # summed over rungs
    assert batch_loss(master, [shifted], vocab_ids, answers) > entropy + 0.05


@torch.no_grad()
def test_alpha_is_one_for_the_master_itself_and_the_overlap_of_the_head_otherwise(master, answers):
    everything = torch.arange(VOCAB)
    head = torch.randperm(VOCAB, generator=torch.Generator().manual_seed(2))[:30].sort().values   # scattered ids
    shift = torch.randn(len(head), generator=torch.Generator().manual_seed(3))
    assert validation_alpha(master, [MastersHead(master, everything)], everything, answers)[0] == pytest.approx(1.0, abs=1e-5)
    ids, mask, predicts = padded(answers, "cpu")
    p_logits = master(input_ids=ids, attention_mask=mask).logits[predicts]
    q_logits = torch.full_like(p_logits, float("-inf"))
    q_logits[:, head] = p_logits[:, head] + shift
    expected = torch.minimum(probs_from_logits(p_logits, SETTING), probs_from_logits(q_logits, SETTING)).sum(-1).mean()
    alpha = validation_alpha(master, [MastersHead(master, head, shift)], head, answers)[0]
    assert alpha == pytest.approx(float(expected), abs=1e-6) and alpha < 0.95


def test_training_moves_each_shared_weight_once_and_never_the_embedding(master, answers, monkeypatch):
    monkeypatch.setattr(distill_online, "WARM_STEPS", 1)
    monkeypatch.setattr(distill_online, "PACE_STEPS", 3)
    vocab_ids = torch.arange(10, VOCAB)
    draft = draft_from_master(master, [0, 1], vocab_ids).train()
    exit_rung = draft_from_master(master, [0], vocab_ids).train()
    exit_rung.model.layers = torch.nn.ModuleList(draft.model.layers[:1])     # as load_draft's layers_from shares them
    embedding, layer, head = (master.get_input_embeddings().weight.clone(), draft.model.layers[0].mlp.up_proj.weight.clone(),
                              exit_rung.lm_head.weight.clone())
    assert len(trainable(master, [draft, exit_rung])) == len(list(draft.parameters())) - 1 + 2   # + the exit's norm and head
    steps = distill_online.train(master, [draft, exit_rung], vocab_ids, answers, minutes=0.01, log=lambda _: None)
    assert steps >= distill_online.PACE_STEPS
    assert torch.equal(master.get_input_embeddings().weight, embedding)
    assert not torch.equal(draft.model.layers[0].mlp.up_proj.weight, layer) and not torch.equal(exit_rung.lm_head.weight, head)
    assert exit_rung.model.layers[0] is draft.model.layers[0]


def test_the_plan_fills_the_time_left_and_takes_at_least_one_more_step():
    assert planned_steps(30, seconds_a_step=0.5, seconds_left=100) == 230
    assert planned_steps(30, seconds_a_step=0.5, seconds_left=-3) == 31


def test_training_prompts_leave_out_what_calibration_the_copy_fit_and_the_eval_read():
    train, validation = online_prompts()
    batches = chunks(training_prompts())
    assert validation == [text for i in held_back() for text in batches[i]]
    fit_unseen = unseen_topic_prompts()[: copy_scores.PROMPTS]
    fit_seen = training_prompts()[copy_scores.SEEN_OFFSET :: SEEN_STRIDE]
    fit_topics = [t for t in UNSEEN_TOPICS if any(tpl.format(t=t) in fit_unseen for tpl in TEMPLATES)]
    assert len(train) == len(set(train)) == 9805 and fit_topics
    assert set(EXAMPLE_PROMPTS) & set(training_prompts())        # so leaving them out takes a rule of its own
    for left_out in (validation, held_out_prompts(), fit_seen, EXAMPLE_PROMPTS,
                     [tpl.format(t=t) for t in fit_topics for tpl in TEMPLATES]):
        assert not set(train) & set(left_out)


def test_answers_end_where_the_master_ends_them_whatever_the_tokenizer_says(master, monkeypatch):
    monkeypatch.setattr(distill_online, "GEN_BATCH", 2)
    monkeypatch.setattr(distill_online, "MAX_NEW_TOKENS", 12)
    monkeypatch.setattr(master.generation_config, "eos_token_id", 40)     # a token this master writes often
    assert distill_online.end_tokens(master) == [40]
    assert distill_online.answer_length([5, 7, 2, 2, 9], [2]) == 3 and distill_online.answer_length([5, 7, 9], [2]) == 3
    # as transformers 5.17 reads the GGUF tokenizer: another end token, and no pad token
    pair = SimpleNamespace(tokenizer=SimpleNamespace(eos_token_id=23, pad_token_id=None), target=master)
    prompts = [[5, 6, 7], [8, 9], [10, 11, 12, 13], [14]]
    answers = [seq[n:] for seq, n in distill_online.sample_answers(pair, prompts, seed=1, minutes=1.0, log=lambda _: None)]
    assert [len(a) for a in answers] != [12] * 4 and any(23 in a[:-1] for a in answers)
    for answer in answers:
        assert 40 not in answer[:-1] and (answer[-1] == 40 or len(answer) == 12)
