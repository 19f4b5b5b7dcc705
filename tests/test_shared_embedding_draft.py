"""The shared-embedding draft (the smollm2 pair's distilled scribe), on a tiny random Llama master.

It must save without the master's embedding, load back onto the very same embedding module, refuse
files made for another master, and keep speculative sampling exact though its head covers only part
of the vocabulary (q is zero elsewhere).
"""
from dataclasses import replace

import pytest
import torch
from safetensors.torch import load_file, save_file
from transformers import LlamaConfig, LlamaForCausalLM

from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.decoding.proof import run_proof
from specdec_core.drafts import SubsetLMDraft
from specdec_core.pairs.pair import ModelPair
from specdec_core.runtimes.int8_linear import Int8Linear, int8_rows
from specdec_core.runtimes.shared_embedding_draft import ROW_SCALE, WEIGHTS, load_draft
from specdec_core.settings import DecodeSettings, SamplingConfig
from training.smollm2.draft_files import draft_from_master, save_draft

SETTINGS = DecodeSettings(k=3, sampling=SamplingConfig(temperature=0.8), seed=1)


def llama_master(vocab_size: int, hidden: int = 32) -> LlamaForCausalLM:
    config = LlamaConfig(vocab_size=vocab_size, hidden_size=hidden, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                         tie_word_embeddings=True, initializer_range=0.3, bos_token_id=1, eos_token_id=2, pad_token_id=0)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(3)
        return LlamaForCausalLM(config).eval()


def llama_pair(master, tiny) -> ModelPair:
    return ModelPair("llama-tiny", master, tiny.tokenizer, {}, "")


@pytest.fixture(scope="module")
def master(tiny):
    return llama_master(tiny.vocab_size)


@pytest.fixture(scope="module")
def vocab_ids(tiny):
    return torch.arange(3, tiny.vocab_size, 2)     # every other ordinary token: half the vocabulary


@pytest.fixture(scope="module")
def saved(master, vocab_ids, tmp_path_factory):
    directory = tmp_path_factory.mktemp("draft")
    save_draft(draft_from_master(master, [1], vocab_ids), vocab_ids, directory, int8=False)
    return directory


def test_the_draft_is_saved_without_the_masters_embedding(saved, vocab_ids):
    tensors = load_file(str(saved / WEIGHTS))
    assert "model.embed_tokens.weight" not in tensors
    assert torch.equal(tensors["vocab_ids"].long(), vocab_ids)
    assert tensors["lm_head.weight"].shape == (len(vocab_ids), 32)


def test_it_loads_back_onto_the_masters_own_embedding(master, saved, vocab_ids, tiny_prompt):
    first = draft_from_master(master, [1], vocab_ids).eval()
    loaded, ids = load_draft(master, saved)
    assert loaded.model.embed_tokens is master.get_input_embeddings()
    assert torch.equal(ids, vocab_ids)
    sequence = torch.tensor([tiny_prompt])
    torch.testing.assert_close(loaded(input_ids=sequence).logits, first(input_ids=sequence).logits)


def test_the_shipped_form_keeps_matrices_as_int8_rows_and_loads_close(master, vocab_ids, tiny_prompt, tmp_path):
    draft = draft_from_master(master, [1], vocab_ids).eval()
    save_draft(draft, vocab_ids, tmp_path)
    tensors = load_file(str(tmp_path / WEIGHTS))
    assert tensors["lm_head.weight"].dtype == torch.int8 and tensors["lm_head.weight" + ROW_SCALE].shape == (len(vocab_ids), 1)
    assert tensors["model.norm.weight"].dtype == torch.float16
    loaded, _ = load_draft(master, tmp_path)
    sequence = torch.tensor([tiny_prompt])
    exact, shipped = draft(input_ids=sequence).logits, loaded(input_ids=sequence).logits
    assert 0 < (exact - shipped).abs().max() < 0.02 * exact.abs().max()


def test_int8_rows_are_within_half_a_step_and_a_zero_row_stays_zero():
    matrix = torch.randn(5, 40) * torch.tensor([[1e-3], [1.0], [30.0], [0.0], [2.0]])
    q, scale = int8_rows(matrix)
    assert q.dtype == torch.int8 and q.abs().max() == 127
    assert ((q.float() * scale - matrix).abs() <= scale / 2 + 1e-12).all()
    assert (q[3] == 0).all() and torch.isfinite(scale).all()


def test_a_draft_for_another_master_is_refused(saved, tiny):
    with pytest.raises(ValueError, match="hidden size 32"):
        load_draft(llama_master(tiny.vocab_size, hidden=48), saved)


def test_a_file_with_stray_weights_is_refused(master, saved, tmp_path):
    tensors = load_file(str(saved / WEIGHTS))
    tensors["extra.weight"] = torch.zeros(2)
    (tmp_path / "config.json").write_text((saved / "config.json").read_text())
    save_file(tensors, str(tmp_path / WEIGHTS))
    with pytest.raises(ValueError, match="extra.weight"):
        load_draft(master, tmp_path)


def test_a_row_scale_without_its_matrix_is_refused_by_name(master, vocab_ids, tmp_path):
    save_draft(draft_from_master(master, [1], vocab_ids), vocab_ids, tmp_path)
    tensors = load_file(str(tmp_path / WEIGHTS))
    tensors["model.layers.9.mlp.up_proj.weight" + ROW_SCALE] = torch.ones(64, 1)
    save_file(tensors, str(tmp_path / WEIGHTS))
    with pytest.raises(ValueError, match=r"model\.layers\.9\.mlp\.up_proj\.weight\.row_scale"):
        load_draft(master, tmp_path)


def test_q_is_zero_outside_the_head_and_drafts_stay_inside(master, saved, vocab_ids, tiny, tiny_prompt):
    scribe = SubsetLMDraft("distilled", *load_draft(master, saved), tiny.vocab_size)
    scribe.start()
    logits = scribe.next_logits(tiny_prompt)
    outside = torch.ones(tiny.vocab_size, dtype=torch.bool)
    outside[vocab_ids] = False
    assert torch.isinf(logits[outside]).all() and torch.isfinite(logits[vocab_ids]).all()
    trace = speculative_generate(llama_pair(master, tiny).as_target(), scribe, tiny_prompt, SETTINGS)
    drafted = [step.token for r in trace.rounds for step in r.drafted]
    assert drafted and set(drafted) <= set(vocab_ids.tolist())


def test_speculative_sampling_with_a_part_vocabulary_draft_is_exact(master, saved, tiny, tiny_prompt):
    scribe = SubsetLMDraft("distilled", *load_draft(master, saved), tiny.vocab_size)
    report = run_proof(master, scribe, tiny_prompt, 20_000, 2, SETTINGS, batch_size=4000)
    assert report.fit.p_value > 0.001 and report.fit.tv_ci[0] < 0.01


def test_an_early_exit_reads_a_deeper_drafts_first_layers(master, vocab_ids, tiny_prompt, tmp_path):
    deep = draft_from_master(master, [0, 1], vocab_ids).eval()
    shallow = draft_from_master(master, [0], vocab_ids).eval()      # the same first layer, its own norm and head
    with torch.no_grad():
        shallow.lm_head.weight.mul_(1.5)
    save_draft(shallow, vocab_ids, tmp_path, int8=False, layers=False)
    assert not any(name.startswith("model.layers.") for name in load_file(str(tmp_path / WEIGHTS)))
    early, _ = load_draft(master, tmp_path, layers_from=deep)
    assert early.model.layers[0] is deep.model.layers[0]
    sequence = torch.tensor([tiny_prompt])
    torch.testing.assert_close(early(input_ids=sequence).logits, shallow(input_ids=sequence).logits)


def test_an_early_exit_without_enough_layers_to_read_is_refused(master, vocab_ids, tmp_path):
    save_draft(draft_from_master(master, [0, 1], vocab_ids), vocab_ids, tmp_path, int8=False, layers=False)
    with pytest.raises(ValueError, match="early exit: it needs a draft with at least 2 layers"):
        load_draft(master, tmp_path)
    with pytest.raises(ValueError, match="at least 2 layers"):
        load_draft(master, tmp_path, layers_from=draft_from_master(master, [0], vocab_ids))


def test_int8_matmul_multiplies_by_the_files_int8_matrices_and_drafts_the_same(master, vocab_ids, tiny, tiny_prompt, tmp_path):
    save_draft(draft_from_master(master, [1], vocab_ids).eval(), vocab_ids, tmp_path)
    dequantised_draft, _ = load_draft(master, tmp_path)
    int8_draft, ids = load_draft(master, tmp_path, int8_matmul=True)
    tensors = load_file(str(tmp_path / WEIGHTS))
    assert isinstance(int8_draft.lm_head, Int8Linear) and torch.equal(int8_draft.lm_head.weight, tensors["lm_head.weight"])
    assert isinstance(int8_draft.model.layers[0].mlp.down_proj, Int8Linear)
    assert int8_draft.model.embed_tokens is master.get_input_embeddings()
    sequence = torch.tensor([tiny_prompt])
    want, got = dequantised_draft(input_ids=sequence).logits, int8_draft(input_ids=sequence).logits
    assert (got - want).abs().max() < 0.02 * want.abs().max()
    greedy = replace(SETTINGS, sampling=SamplingConfig(temperature=0.0))
    target = llama_pair(master, tiny).as_target()
    spec = speculative_generate(target, SubsetLMDraft("distilled", int8_draft, ids, tiny.vocab_size), tiny_prompt, greedy)
    assert spec.tokens == plain_generate(target, tiny_prompt, greedy).tokens


def test_a_float32_file_has_no_int8_matrices_to_multiply(master, saved):
    draft, _ = load_draft(master, saved, int8_matmul=True)
    assert not any(isinstance(m, Int8Linear) for m in draft.modules())
