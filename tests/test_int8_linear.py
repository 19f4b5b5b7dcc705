"""Int8Linear multiplies by an int8 matrix and its row scales as they are: it must give the float
layer's output to within bfloat16 rounding, for any batch shape, with or without a bias, from a
matrix whose memory starts anywhere (a safetensors file's does not start on a 64-byte boundary)."""
import pytest
import torch
from torch import nn

from specdec_core.runtimes.int8_linear import Int8Linear, int8_rows, use_int8_matrices


def float_twin(weight: torch.Tensor, scale: torch.Tensor, bias=None) -> nn.Linear:
    layer = nn.Linear(weight.shape[1], weight.shape[0], bias=bias is not None)
    layer.weight.data = weight.float() * scale
    if bias is not None:
        layer.bias.data = bias
    return layer


@pytest.mark.parametrize("shape", [(1, 48), (3, 48), (2, 31, 48)])
@pytest.mark.parametrize("with_bias", [False, True])
def test_it_matches_the_float_layer_to_bfloat16_rounding(shape, with_bias):
    torch.manual_seed(0)
    weight, scale = int8_rows(torch.randn(40, 48))
    bias = torch.randn(40) if with_bias else None
    x = torch.randn(shape)
    got, want = Int8Linear(weight, scale, bias)(x), float_twin(weight, scale, bias)(x)
    assert got.shape == want.shape and got.dtype == torch.float32
    assert 0 < (got - want).abs().max() < 0.02 * want.abs().max()     # bfloat16 inputs: close, not equal


def test_a_matrix_that_starts_off_a_64_byte_boundary_is_copied_to_aligned_memory():
    torch.manual_seed(1)
    weight, scale = int8_rows(torch.randn(64, 96))
    buffer = torch.zeros(weight.numel() + 64, dtype=torch.int8)
    shifted = buffer[40 : 40 + weight.numel()].view_as(weight).copy_(weight)
    assert shifted.data_ptr() % 64 != 0
    layer = Int8Linear(shifted, scale)
    assert layer.weight.data_ptr() % 64 == 0 and torch.equal(layer.weight, weight)
    x = torch.randn(31, 96)      # the prefill that crashed the kernel on the unaligned matrix
    assert (layer(x) - float_twin(weight, scale)(x)).abs().max() < 0.02 * (x @ (weight.float() * scale).t()).abs().max()


def test_wrong_inputs_are_refused():
    weight, scale = int8_rows(torch.randn(4, 8))
    with pytest.raises(ValueError, match="int8 matrix"):
        Int8Linear(weight.float(), scale)
    with pytest.raises(ValueError, match="one scale per row"):
        Int8Linear(weight, scale[:3])


def test_use_int8_matrices_swaps_named_layers_and_keeps_the_rest():
    model = nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 4))
    weight, scale = int8_rows(model[0].weight.data)
    bias = model[0].bias
    assert use_int8_matrices(model, {"0": (weight, scale)}) is model
    assert isinstance(model[0], Int8Linear) and model[0].bias is bias and type(model[2]) is nn.Linear
    with pytest.raises(ValueError, match="not a linear layer of shape"):
        use_int8_matrices(model, {"1": (weight, scale)})


def test_an_int8_copy_of_a_master_is_close_and_leaves_the_master_as_it_was():
    from transformers import LlamaConfig, LlamaForCausalLM

    from specdec_core.runtimes.bf16_linear import Bf16Linear, use_bf16_matrices
    from specdec_core.runtimes.int8_linear import int8_copy
    from specdec_core.runtimes.lean_llama import LeanLlamaLM, cached_lm_for
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=64, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, tie_word_embeddings=True)
    master = use_bf16_matrices(LlamaForCausalLM(config).eval())
    quantised = int8_copy(master)
    assert isinstance(quantised.lm_head, Int8Linear) and isinstance(quantised.model.layers[1].mlp.up_proj, Int8Linear)
    assert isinstance(master.lm_head, Bf16Linear)                                   # the master keeps its own
    assert quantised.model.embed_tokens.weight is master.model.embed_tokens.weight  # shared, not copied
    assert isinstance(cached_lm_for(quantised), LeanLlamaLM)
    ids = torch.tensor([[1, 5, 9, 13, 2, 40]])
    with torch.no_grad():
        p = master(input_ids=ids).logits.softmax(-1)
        q = quantised(input_ids=ids).logits.softmax(-1)
    overlap = torch.minimum(p, q).sum(-1)                                          # alpha at each position
    assert not torch.equal(p, q) and overlap.min() > 0.97
