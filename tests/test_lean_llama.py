"""The lean forward of a Llama, an int8 draft, a float master or a bfloat16 master, gives transformers' logits through
prefill, one-token steps, multi-token verification, rollback, a new start and the cache's growth;
other models keep transformers' forward."""
import copy

import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from specdec_core.runtimes import lean_llama
from specdec_core.runtimes.bf16_linear import Bf16Linear, use_bf16_matrices
from specdec_core.runtimes.cached_lm import CachedLM
from specdec_core.runtimes.decode_linear import decode_linears
from specdec_core.runtimes.lean_llama import LeanLlamaLM, cached_lm_for, fits
from specdec_core.runtimes.shared_embedding_draft import load_draft
from tests.test_shared_embedding_draft import llama_master
from training.smollm2.draft_files import draft_from_master, save_draft
from training.timing import decode_ms, verify_ms

SEQUENCE = [1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 4, 5, 13, 14, 15, 3]   # the tiny vocabulary has 16 tokens


@pytest.fixture(scope="module")
def master(tiny):
    return llama_master(tiny.vocab_size)


@pytest.fixture(scope="module")
def int8_draft(master, tmp_path_factory):
    directory = tmp_path_factory.mktemp("int8-draft")
    vocab_ids = torch.arange(3, master.config.vocab_size, 2)
    save_draft(draft_from_master(master, [0, 1], vocab_ids).eval(), vocab_ids, directory)
    return load_draft(master, directory, int8_matmul=True)[0]


def steps(lm, sequence=SEQUENCE):
    """Logits along a decode: a prefill of 5, two single tokens, a verification of 4 (n_last 4),
    a rollback of 3 and another branch of 3, then a new start."""
    out = [lm.logits(sequence[:5], n_last=2), lm.logits(sequence[:6]), lm.logits(sequence[:7]),
           lm.logits(sequence[:11], n_last=4)]
    lm.rollback(8)
    out.append(lm.logits(sequence[:8] + [13, 14, 3], n_last=3))
    lm.start()
    out.append(lm.logits(sequence[:9], n_last=9))
    return out


def test_a_cpu_llama_takes_the_lean_forward_and_other_models_keep_transformers(int8_draft, master, tiny):
    assert isinstance(cached_lm_for(int8_draft), LeanLlamaLM)
    assert isinstance(cached_lm_for(decode_linears(master)), LeanLlamaLM)
    assert isinstance(cached_lm_for(tiny.target), CachedLM)                        # GPT-2
    for change in ({"attention_bias": True}, {"hidden_act": "gelu"},
                   {"rope_parameters": {"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0}}):
        config = master.config.to_dict() | change
        assert not fits(LlamaForCausalLM(LlamaConfig(**config))), change
    assert not fits(copy.deepcopy(master).to(torch.bfloat16))


@pytest.fixture(scope="module")
def bf16_master(master):
    return use_bf16_matrices(copy.deepcopy(master))


def test_a_bfloat16_master_multiplies_in_bfloat16_and_keeps_its_float_embedding(bf16_master, master):
    assert isinstance(bf16_master.lm_head, Bf16Linear) and isinstance(bf16_master.model.layers[0].mlp.down_proj, Bf16Linear)
    assert bf16_master.model.embed_tokens.weight.dtype == torch.float32
    assert isinstance(cached_lm_for(bf16_master), LeanLlamaLM)
    ids = torch.tensor([SEQUENCE])
    rounded, exact = bf16_master(input_ids=ids).logits, master(input_ids=ids).logits
    assert not torch.equal(rounded, exact)                         # the rounding is real...
    torch.testing.assert_close(rounded, exact, atol=0.2, rtol=0)   # ...and small: 8 bits of mantissa


@pytest.mark.parametrize("form", ["int8 draft", "float master", "bfloat16 master"])
def test_it_gives_transformers_logits_at_every_step(form, int8_draft, master, bf16_master):
    model = {"int8 draft": int8_draft, "float master": master, "bfloat16 master": bf16_master}[form]
    lean, reference = LeanLlamaLM(model), CachedLM(model)
    for got, want in zip(steps(lean), steps(reference), strict=True):
        assert got.shape == want.shape
        torch.testing.assert_close(got, want, atol=1e-5, rtol=0)
    assert lean.cache_len == 9


def test_the_cache_grows_past_its_first_capacity_and_keeps_what_it_held(int8_draft, monkeypatch):
    monkeypatch.setattr(lean_llama, "FIRST_CAPACITY", 4)
    lean, reference = LeanLlamaLM(int8_draft), CachedLM(int8_draft)
    assert lean.capacity == 4
    for got, want in zip(steps(lean), steps(reference), strict=True):
        torch.testing.assert_close(got, want, atol=1e-5, rtol=0)
    assert lean.capacity >= 11


def test_a_cache_out_of_step_or_an_empty_step_is_refused(int8_draft):
    lean = LeanLlamaLM(int8_draft)
    lean.logits(SEQUENCE[:6])
    with pytest.raises(RuntimeError, match="out of step"):
        lean.logits([9] + SEQUENCE[1:8])
    with pytest.raises(ValueError, match="new positions"):
        lean.logits(SEQUENCE[:6])


def test_the_evals_time_the_decode_path_for_each_model_and_k():
    wide = llama_master(128)                                # the timing prompts draw tokens up to 100
    ms = decode_ms({"llama": wide}, steps=8, rounds=1)
    verify = verify_ms(wide, k_values=(1, 3), reps=2)
    assert set(ms) == {"llama"} and ms["llama"] > 0
    assert set(verify) == {"k=1", "k=3"} and min(verify.values()) > 0
