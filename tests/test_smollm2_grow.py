"""Growing the distilled draft (training/smollm2/grow.py), on a tiny random Llama master.

The grown draft must start as exactly the draft it grew from, train only its new layers, norm and
head, and the stage must wait for the last distill-own round's text before loading anything.
"""
import pytest
import torch

from tests.test_shared_embedding_draft import llama_master
from tests.test_smollm2_distill import fake_shards
from training.smollm2.draft_files import draft_from_master
from training.smollm2.grow import grown
from training.smollm2.train import batches_of, evaluate, fit, head_rows


@pytest.fixture()
def parts(tiny):
    master = llama_master(tiny.vocab_size)
    vocab_ids = torch.arange(tiny.vocab_size // 2, tiny.vocab_size)
    torch.manual_seed(1)
    base = draft_from_master(master, [1], vocab_ids)
    with torch.no_grad():                                  # unlike the master's layer, as a trained draft is
        for weight in [*base.model.layers.parameters(), base.lm_head.weight]:
            weight.add_(0.05 * torch.randn_like(weight))
    return master, base.eval(), vocab_ids


def test_the_grown_draft_starts_as_the_draft_it_grew_from(parts, tiny_prompt):
    master, base, vocab_ids = parts
    draft = grown(master, base, vocab_ids, added_from=[0, 1]).eval()
    assert len(draft.model.layers) == 3
    sequence = torch.tensor([tiny_prompt])
    torch.testing.assert_close(draft(input_ids=sequence).logits, base(input_ids=sequence).logits, rtol=0, atol=1e-6)


def test_only_the_new_layers_norm_and_head_learn(parts, tiny, tmp_path):
    master, base, vocab_ids = parts
    draft = grown(master, base, vocab_ids, added_from=[0, 1])
    bottom = {k: v.clone() for k, v in draft.model.layers[0].state_dict().items()}
    shards = fake_shards(master, tiny.vocab_size, 16)
    batches, held = batches_of(shards), batches_of(shards)[0]
    to_head = head_rows(vocab_ids, tiny.vocab_size)
    before, _ = evaluate(draft, held, to_head)
    fit(draft, vocab_ids, batches, held, epochs=10, peak_lr=1e-2, ck_path=tmp_path / "grown.pt", minutes=None, log=lambda _: None)
    assert evaluate(draft, held, to_head)[0] < before - 0.05
    assert all(torch.equal(v, bottom[k]) for k, v in draft.model.layers[0].state_dict().items())
    assert all(layer.mlp.down_proj.weight.abs().sum() > 0 for layer in draft.model.layers[1:])


def test_grow_waits_for_the_last_round_of_own_answers_before_loading_anything(monkeypatch, tmp_path):
    from training.smollm2 import grow, own_answers
    monkeypatch.setattr(own_answers, "ONPOLICY", tmp_path)
    monkeypatch.setattr(grow, "finished_draft", lambda *a: pytest.fail("loaded a draft"))
    monkeypatch.setattr(grow, "load_pair", lambda *a: pytest.fail("loaded the master"))
    with pytest.raises(SystemExit, match=f"own-answers --round 4 .* {own_answers.missing_shards(4)} of its shards"):
        grow.grow(None, 1)
