"""Round six: new topics only, and a draft whose first four layers (the early exit's) cannot move."""
import pytest
import torch
from safetensors.torch import load_file

from specdec_core.shared_embedding_draft import ROW_SCALE, WEIGHTS, draft_from_master, load_draft, save_draft
from tests.test_shared_embedding_draft import llama_master
from training.smollm2_distill import onpolicy, prompts, teacher
from training.smollm2_distill.broaden import FROZEN, trainable_draft


def test_round_six_asks_only_new_topics_and_no_held_out_one():
    _, held = prompts.split_topics()
    earlier = set(prompts.TOPICS) | set(prompts.EXTRA_TOPICS)
    assert not set(prompts.ROUND_SIX_TOPICS) & earlier
    round_six = prompts.round_six_prompts()
    assert len(round_six) == prompts.ROUND_SIX_PROMPTS
    for topic in held:
        assert not any(topic in text for text in round_six), topic
    asked = {t for t in prompts.ROUND_SIX_TOPICS if any(t in text for text in round_six)}
    assert len(asked) > 0.95 * len(prompts.ROUND_SIX_TOPICS)      # a cut of the shuffle keeps the topics


def test_round_six_has_its_own_batches_and_the_old_rounds_keep_theirs():
    assert onpolicy.batches_for(onpolicy.NEW_TOPICS_ROUND) == teacher.chunks(prompts.round_six_prompts())
    assert onpolicy.batches_for(3) == onpolicy.batches_for(4) == teacher.prompt_batches()


def shipped_like(master, tiny, directory, layers: int):
    vocab_ids = torch.arange(tiny.vocab_size // 2, tiny.vocab_size)
    save_draft(draft_from_master(master, [0, 1] * (layers // 2) + [0] * (layers % 2), vocab_ids), vocab_ids, directory)
    return directory


def test_the_early_exits_layers_are_frozen_and_the_rest_learn(tiny, tmp_path):
    master = llama_master(tiny.vocab_size)
    draft, _ = trainable_draft(master, shipped_like(master, tiny, tmp_path / "d", FROZEN + 2))
    assert draft.training
    for i, layer in enumerate(draft.model.layers):
        assert all(p.requires_grad == (i >= FROZEN) for p in layer.parameters()), i
    assert draft.lm_head.weight.requires_grad and draft.model.norm.weight.requires_grad
    with pytest.raises(SystemExit, match="layers"):
        trainable_draft(master, shipped_like(master, tiny, tmp_path / "shallow", FROZEN))


def test_saving_a_loaded_draft_again_keeps_every_int8_weight(tiny, tmp_path):
    """broaden ships the frozen layers again: they must come out as the early exit read them."""
    master = llama_master(tiny.vocab_size)
    first = shipped_like(master, tiny, tmp_path / "first", FROZEN + 2)
    draft, vocab_ids = load_draft(master, first)
    save_draft(draft, vocab_ids, tmp_path / "second")
    before, after = load_file(str(first / WEIGHTS)), load_file(str(tmp_path / "second" / WEIGHTS))
    assert before.keys() == after.keys()
    for name, value in before.items():
        if name.endswith(ROW_SCALE):
            assert torch.allclose(value, after[name], rtol=1e-6), name
        else:
            assert torch.equal(value, after[name]), name
