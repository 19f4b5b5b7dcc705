"""A silenced head gives its tokens probability exactly zero, in transformers' forward and the lean one alike."""
import copy

import torch

from specdec_core.runtimes.bf16_linear import use_bf16_matrices
from specdec_core.runtimes.cached_lm import CachedLM
from specdec_core.runtimes.lean_llama import LeanLlamaLM, cached_lm_for
from specdec_core.runtimes.silenced_head import SILENT, silence
from tests.test_shared_embedding_draft import llama_master

SILENCED = [0, 3]
SEQUENCE = [1, 4, 5, 6, 7, 8, 9, 10]


def test_silenced_tokens_get_zero_probability_and_the_rest_keep_their_logits(tiny):
    master = llama_master(tiny.vocab_size)
    silenced = silence(copy.deepcopy(master), SILENCED)
    ids = torch.tensor([SEQUENCE])
    with torch.no_grad():
        before, after = master(input_ids=ids).logits, silenced(input_ids=ids).logits
    assert (after[..., SILENCED] == SILENT).all() and (before[..., SILENCED] != SILENT).all()
    others = [i for i in range(tiny.vocab_size) if i not in SILENCED]
    torch.testing.assert_close(after[..., others], before[..., others], atol=0, rtol=0)
    assert (after.softmax(-1)[..., SILENCED] == 0).all()


def test_the_lean_forward_of_a_silenced_bfloat16_master_gives_transformers_logits(tiny):
    master = silence(use_bf16_matrices(llama_master(tiny.vocab_size)), SILENCED)
    assert isinstance(cached_lm_for(master), LeanLlamaLM)
    lean, reference = LeanLlamaLM(master), CachedLM(master)
    got, want = lean.logits(SEQUENCE, n_last=4), reference.logits(SEQUENCE, n_last=4)
    torch.testing.assert_close(got, want, atol=1e-5, rtol=0)
    assert (got[:, SILENCED] == SILENT).all()
