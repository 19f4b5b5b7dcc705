"""Online distillation (training/smollm2_distill/online.py), on a tiny random Llama master.

The loss must be least, at the entropy of the master's distribution renormalised over the head,
for a rung that reproduces the master's logits on its head; alpha must be 1 for a rung whose head
covers the vocabulary with the master's logits; the training prompts must leave out every prompt
that calibration, the copy-scores fit and the eval read.
"""
from types import SimpleNamespace

import pytest
import torch

from tests.test_shared_embedding_draft import llama_master
from training.smollm2_distill import copy_scores
from training.smollm2_distill.evaluate import SEEN_STRIDE
from training.smollm2_distill.online import batch_loss, online_prompts, padded, validation_alpha
from training.smollm2_distill.prompts import (TEMPLATES, UNSEEN_TOPICS, held_out_prompts, training_prompts,
                                              unseen_topic_prompts)
from training.smollm2_distill.teacher import chunks, held_back

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
def test_alpha_is_one_for_the_master_itself_and_less_for_a_narrower_head(master, answers):
    everything, half = torch.arange(VOCAB), torch.arange(VOCAB // 2, VOCAB)
    whole = validation_alpha(master, [MastersHead(master, everything)], everything, answers)[0]
    assert whole == pytest.approx(1.0, abs=1e-5)
    narrow = validation_alpha(master, [MastersHead(master, half)], half, answers)[0]
    assert 0.0 < narrow < 0.95


def test_training_prompts_leave_out_what_calibration_the_copy_fit_and_the_eval_read():
    train, validation = online_prompts()
    batches = chunks(training_prompts())
    assert validation == [text for i in held_back() for text in batches[i]]
    fit = unseen_topic_prompts()[: copy_scores.PROMPTS] + training_prompts()[copy_scores.SEEN_OFFSET :: SEEN_STRIDE]
    fit_topics = [t for t in UNSEEN_TOPICS if any(tpl.format(t=t) in fit for tpl in TEMPLATES)]
    assert len(train) == len(set(train)) > 9000
    assert fit_topics
    for left_out in (validation, held_out_prompts(), [tpl.format(t=t) for t in fit_topics for tpl in TEMPLATES]):
        assert not set(train) & set(left_out)


def test_the_stage_stops_before_sampling_when_the_tokenizer_ends_answers_elsewhere(master, monkeypatch):
    from training.smollm2_distill import online
    pair = SimpleNamespace(tokenizer=SimpleNamespace(eos_token_id=1), target=master)
    monkeypatch.setattr(online, "load_pair", lambda *a: pair)
    monkeypatch.setattr(online, "sample_answers", lambda *a: pytest.fail("sampled"))
    with pytest.raises(SystemExit, match="ends answers with token 1, the master with 2"):
        online.online(1.0, log=lambda _: None)
